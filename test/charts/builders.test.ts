/**
 * Every chart builder: the spec compiles with vega-lite without a warning, encodes the fields it
 * should with titles in words and tooltips, and renders to an SVG and a PNG of the expected size.
 * The PNG of each builder's reference chart is compared byte for byte with
 * test/fixtures/charts/<name>.png (regenerate after an intended change with
 * UPDATE_CHART_FIXTURES=1). CHART_PREVIEW_DIR=<dir> writes every chart as a PNG to look at.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { DEFAULT_CHART_FONTS, svgSize } from '../../src/charts/render.js';
import * as f from './fixtures.js';
import { channels, compileMessages, fieldsOf, pngSize } from './helpers.js';

interface Case {
  name: string;
  spec: () => ChartSpec;
  /** Fields each channel must encode (somewhere in the spec). */
  fields: Record<string, string[]>;
  /** Compared byte for byte with test/fixtures/charts/<name>.png. */
  fixture?: boolean;
}

const CASES: Case[] = [
  { name: 'cross-market-heatmap', spec: () => crossMarketHeatmap(f.crossMarketRows()), fields: { x: ['market_label'], y: ['entity'], color: ['value'], text: ['value'] }, fixture: true },
  { name: 'cross-market-heatmap-by-name', spec: () => crossMarketHeatmap(f.crossMarketRows(), { sort: 'name' }), fields: { x: ['market_label'], y: ['entity'], color: ['value'], text: ['value'] } },
  { name: 'cross-market-bars', spec: () => crossMarketBars(f.crossMarketRows(), { entityId: 1 }), fields: { x: ['value', 'mean'], y: ['market'], color: ['position'] }, fixture: true },
  { name: 'cross-year-lines', spec: () => crossYearLines(f.crossYearRows()), fields: { x: ['period_order'], y: ['value'], color: ['series'], facet: ['market'] }, fixture: true },
  { name: 'cross-year-lines-one-market', spec: () => crossYearLines(f.crossYearRows(['GB'])), fields: { x: ['period_order'], y: ['value'], color: ['series'] } },
  { name: 'cross-year-lines-waves', spec: () => crossYearLines(f.crossYearWaveRows(['US'])), fields: { x: ['period_order'], y: ['value'], color: ['series'] }, fixture: true },
  { name: 'cross-year-lines-waves-markets', spec: () => crossYearLines(f.crossYearWaveRows(['GB', 'US'])), fields: { x: ['period_order'], y: ['value'], color: ['series'], facet: ['market'] } },
  { name: 'slope-chart', spec: () => slopeChart(f.crossYearRows(), { market: 'GB' }), fields: { x: ['period'], y: ['value', 'label_y'], color: ['direction'], text: ['label'] }, fixture: true },
  { name: 'pillars-profile', spec: () => pillarsProfile(f.pillarTidyRows()), fields: { y: ['brand'], yOffset: ['pillar'], x: ['value'], color: ['pillar'] }, fixture: true },
  { name: 'pillars-profile-cross-market', spec: () => pillarsProfile(f.pillarCrossMarketRows()), fields: { y: ['brand'], x: ['value'] } },
  { name: 'power-grid', spec: () => powerGrid(f.pillarTidyRows()), fields: { x: ['stature', 'label_x'], y: ['strength', 'label_y'], text: ['label'] }, fixture: true },
  { name: 'archetype-heatmap', spec: () => archetypeHeatmap(f.archetypeRows()), fields: { x: ['archetype'], y: ['brand'], color: ['value'], column: ['panel'] }, fixture: true },
  { name: 'sector-distribution', spec: () => sectorDistribution(f.sectorValueRows()), fields: { x: ['value'], y: ['sector'] }, fixture: true },
  { name: 'sector-distribution-summaries', spec: () => sectorDistribution(f.sectorSummaryRows()), fields: { x: ['value'], y: ['sector'] } },
  { name: 'company-view', spec: () => companyView(f.companyRows()), fields: { x: ['year'], y: ['value', 'price'], color: ['series'] }, fixture: true },
  // Several metric columns: one panel per metric.
  { name: 'cross-market-heatmap-pillars', spec: () => crossMarketHeatmap(f.crossMarketPillarRows()), fields: { x: ['market_label'], y: ['entity'], color: ['value'] }, fixture: true },
  { name: 'cross-market-bars-pillars', spec: () => crossMarketBars(f.crossMarketPillarRows(), { entityId: 1 }), fields: { x: ['value', 'mean'], y: ['market'], color: ['position'] }, fixture: true },
  { name: 'cross-year-lines-pillars', spec: () => crossYearLines(f.crossYearPillarRows()), fields: { x: ['period_order'], y: ['value'], color: ['series'], facet: ['market'] }, fixture: true },
  { name: 'cross-year-lines-pillars-one-brand', spec: () => crossYearLines(f.crossYearPillarRows(['GB', 'DE', 'US'], [1])), fields: { x: ['period_order'], y: ['value'], color: ['series'] }, fixture: true },
  { name: 'slope-chart-pillars', spec: () => slopeChart(f.crossYearPillarRows(['GB']), { columns: 4 }), fields: { x: ['period'], y: ['value', 'label_y'], text: ['label'] } },
  { name: 'sector-distribution-pillars', spec: () => sectorDistribution(f.sectorSummaryRows().flatMap((r) => ['differentiation', 'relevance'].map((m) => ({ ...r, metric: m, metric_name: m === 'relevance' ? 'Relevance' : 'Differentiation', column: `${m}_rank`, mean: (r.mean ?? 0) + (m === 'relevance' ? 8 : 0) })))), fields: { x: ['lo', 'q1', 'median', 'value'], y: ['sector'] } },
  { name: 'company-view-pillars', spec: () => companyView(f.companyRows().flatMap((r) => ['differentiation', 'esteem'].map((m) => ({ ...r, metric: m, metric_name: m === 'esteem' ? 'Esteem' : 'Differentiation', column: `${m}_rank`, value: (r.value ?? 0) + (m === 'esteem' ? 9 : 0) })))), fields: { x: ['year'], y: ['value', 'price'], color: ['series'] }, fixture: true },
];

const COLUMN_NAMES = /(_rank|_pct|_c|_index)$|^(value|entity|series|market_label|label_[xy]|period_order)$/;

describe.each(CASES)('$name', ({ name, spec: make, fields, fixture }) => {
  const spec = make();

  it('compiles with vega-lite without warnings', () => {
    expect(compileMessages(spec)).toEqual([]);
  });

  it('encodes the fields it should', () => {
    for (const [channel, wanted] of Object.entries(fields)) {
      expect(fieldsOf(spec, channel), channel).toEqual(expect.arrayContaining(wanted));
    }
  });

  it('has a title, position titles in words and tooltips', () => {
    const title = spec.title;
    expect(typeof title === 'object' && title !== null && !Array.isArray(title) ? (title as { text?: unknown }).text : title).toBeTruthy();
    const positions = channels(spec).filter((c) => ['x', 'y'].includes(c.channel) && c.field !== undefined);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) {
      // Either a title in words, or an explicit null where the axis is hidden or self-explanatory.
      expect(p.hasTitle, `${p.channel}:${p.field} has no title`).toBe(true);
      if (typeof p.title === 'string') expect(p.title, `${p.channel}:${p.field}`).not.toMatch(COLUMN_NAMES);
    }
    expect(channels(spec).some((c) => c.channel === 'tooltip') || JSON.stringify(spec).includes('"boxplot"')).toBe(true);
    expect(spec.config).toBeDefined();
  });

  it('renders to an SVG and a PNG of the expected size, the same bytes every time', async () => {
    const warnings: string[] = [];
    const svg = await renderSvg(spec, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(svg.startsWith('<svg')).toBe(true);
    const { width, height } = svgSize(svg);
    expect(width).toBeGreaterThan(200);
    expect(height).toBeGreaterThan(150);

    const png2 = await renderPng(spec, { scale: 2, minWidth: 0 });
    expect(pngSize(png2)).toEqual({ width: Math.round(width * 2), height: Math.round(height * 2) });
    // By default, deck resolution: at least 1600 px wide (a narrow chart's views widened), same height.
    const deck = pngSize(await renderPng(spec));
    expect(deck.width).toBeGreaterThanOrEqual(Math.min(1600, Math.round(width * 2 * 2.5)));
    expect(deck.height).toBe(Math.round(height * 2));
    // No fallback fonts: the fixtures must not depend on which optional CJK fonts are installed.
    const fonts = { ...DEFAULT_CHART_FONTS, fallback: [] };
    const png = await renderPng(spec, { fonts, scale: 1, minWidth: 0 });
    expect(pngSize(png)).toEqual({ width: Math.round(width), height: Math.round(height) });
    expect(Buffer.compare(png, await renderPng(spec, { fonts, scale: 1, minWidth: 0 }))).toBe(0);

    if (process.env.CHART_PREVIEW_DIR) {
      mkdirSync(process.env.CHART_PREVIEW_DIR, { recursive: true });
      writeFileSync(join(process.env.CHART_PREVIEW_DIR, `${name}.png`), png2);
    }
    if (fixture) {
      const file = new URL(`../fixtures/charts/${name}.png`, import.meta.url);
      if (process.env.UPDATE_CHART_FIXTURES) writeFileSync(file, png);
      expect(existsSync(file), `${name}.png is missing; create it with UPDATE_CHART_FIXTURES=1 and look at it`).toBe(true);
      expect(Buffer.compare(png, readFileSync(file)), `${name}.png differs from the fixture; if the change is intended, rerun with UPDATE_CHART_FIXTURES=1 and look at the new image`).toBe(0);
    }
  });
});
