/**
 * Every builder on realistic rows: frames results computed from the emulator's data (loaded over
 * HTTP) with the four pillars, as a report section would pass them, with no option but what the
 * chart genuinely needs. Each spec compiles and renders without a warning, draws one panel per
 * metric column, titles panels in words and prints no unrounded number.
 *
 * This is also the script to look at the charts: `CHART_PREVIEW_DIR=/tmp/charts npx vitest run
 * test/charts/emulator-charts.test.ts` writes each one there as a PNG at 2x.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  archetypeHeatmap,
  companyView,
  crossMarketBars,
  crossMarketHeatmap,
  crossYearLines,
  pillarsProfile,
  powerGrid,
  renderPng,
  renderSvg,
  sectorDistribution,
  slopeChart,
} from '../../src/index.js';
import { metricTitle } from '../../src/charts/metric-title.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { type EmulatorRows, PILLAR_METRICS, loadEmulatorRows } from './emulator-rows.js';
import { compileMessages, panelTitleOf, panelsOf, unroundedSvgText, unroundedText } from './helpers.js';

interface Case {
  name: string;
  spec: (rows: EmulatorRows) => ChartSpec;
  /** Panels the chart must draw (one per metric column unless said otherwise). */
  panels?: number;
  /** Panel titles, when not the pillars in their order. */
  titles?: string[];
}

const PILLAR_TITLES = PILLAR_METRICS.map((m) => metricTitle(m[0]?.toUpperCase() + m.slice(1), 'rank'));

const CASES: Case[] = [
  { name: 'cross-market-bars', spec: (r) => crossMarketBars(r.crossMarket, { entityId: r.crossMarket[0]?.entity_id ?? 0 }), panels: 4 },
  { name: 'cross-market-bars-one-metric', spec: (r) => crossMarketBars(r.crossMarket, { entityId: r.crossMarket[0]?.entity_id ?? 0, column: 'esteem_rank' }), panels: 1 },
  { name: 'cross-market-heatmap', spec: (r) => crossMarketHeatmap(r.crossMarket), panels: 4 },
  { name: 'cross-market-heatmap-mixed', spec: (r) => crossMarketHeatmap([...r.crossMarket.filter((x) => x.metric === 'esteem'), ...r.crossMarket.filter((x) => x.metric === 'knowledge').map((x) => ({ ...x, score_type: 'brandscape_index' as const, column: 'knowledge_brandscape_index', value: x.value === null ? null : 40 + x.value * 1.3, cross_market_mean: x.cross_market_mean === null ? null : 40 + x.cross_market_mean * 1.3 }))]), panels: 2, titles: ['Esteem (percentile rank)', 'Knowledge (index vs brandscape)'] },
  { name: 'cross-year-lines', spec: (r) => crossYearLines(r.crossYear), panels: 4 },
  { name: 'cross-year-lines-one-brand', spec: (r) => crossYearLines(r.crossYear, { entityIds: [r.crossYear[0]?.entity_id ?? 0] }), panels: 4 },
  { name: 'cross-year-lines-one-market', spec: (r) => crossYearLines(r.crossYear.filter((x) => x.country_code === r.crossYear[0]?.country_code)), panels: 4 },
  { name: 'cross-year-lines-one-line', spec: (r) => crossYearLines(r.crossYear.filter((x) => x.country_code === r.crossYear[0]?.country_code), { entityIds: [r.crossYear[0]?.entity_id ?? 0], column: 'esteem_rank' }) },
  { name: 'slope-chart', spec: (r) => slopeChart(r.crossYear, { market: r.crossYear[0]?.country_code ?? '' }), panels: 4 },
  { name: 'sector-distribution', spec: (r) => sectorDistribution(r.sectorValues), panels: 4 },
  { name: 'sector-distribution-summaries', spec: (r) => sectorDistribution(r.sectorSummary), panels: 4 },
  { name: 'company-view', spec: (r) => companyView(r.companyRollup), panels: 5, titles: [...PILLAR_TITLES, 'Average share price (USD)'] },
  { name: 'company-view-one-metric', spec: (r) => companyView(r.companyRollup, { column: 'knowledge_rank' }) },
  { name: 'pillars-profile', spec: (r) => pillarsProfile(r.tidy) },
  { name: 'power-grid', spec: (r) => powerGrid(r.tidy) },
  { name: 'archetype-heatmap', spec: (r) => archetypeHeatmap(r.archetypes) },
];

let rows: EmulatorRows;
beforeAll(async () => {
  rows = await loadEmulatorRows();
}, 120_000);

describe.each(CASES)('$name on emulator rows', ({ name, spec: make, panels, titles }) => {
  it('compiles, renders without warnings, draws a panel per metric titled in words, and prints no unrounded number', async () => {
    const spec = make(rows);
    expect(compileMessages(spec)).toEqual([]);
    expect(unroundedText(spec)).toEqual([]);
    if (panels !== undefined && panels > 1) {
      const drawn = panelsOf(spec);
      expect(drawn).toHaveLength(panels);
      expect(drawn.map(panelTitleOf)).toEqual(titles ?? PILLAR_TITLES.slice(0, panels));
    }
    const warnings: string[] = [];
    const svg = await renderSvg(spec, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(unroundedSvgText(svg)).toEqual([]);
    if (process.env.CHART_PREVIEW_DIR) {
      mkdirSync(process.env.CHART_PREVIEW_DIR, { recursive: true });
      writeFileSync(join(process.env.CHART_PREVIEW_DIR, `emulator-${name}.png`), await renderPng(spec, { scale: 2 }));
    }
  });
});
