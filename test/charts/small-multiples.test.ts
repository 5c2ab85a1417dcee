/**
 * Several metric columns in one figure: every builder that takes comparison rows draws one panel
 * per metric column (in the order the columns first appear), titles each panel with the metric in
 * words, shares the value scale between panels of one score type, narrows to one panel with
 * `column`, caps panels per row with `columns`, and asks for an option only where the rows are
 * genuinely ambiguous.
 */
import { describe, expect, it } from 'vitest';
import { DataError, UsageError, companyView, crossMarketBars, crossMarketHeatmap, crossYearLines, sectorDistribution, slopeChart } from '../../src/index.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import type { MetricKey } from '../../src/frames/types.js';
import type { ScoreType } from '../../src/schemas/score-types.js';
import * as f from './fixtures.js';
import { channels, compileMessages, panelTitleOf, panelsOf } from './helpers.js';

/** The rows again as another metric column: values moved by `shift` (and kept within 0–100 for ranks). */
function asMetric<R extends MetricKey & { value: number | null }>(rows: readonly R[], metric: string, name: string, shift: number, scoreType: ScoreType = 'rank'): R[] {
  const suffix = scoreType === 'rank' ? '_rank' : `_${scoreType}`;
  const move = (v: number | null): number | null => (v === null ? null : scoreType === 'rank' ? Math.min(100, Math.max(0, v + shift)) : v + shift);
  return rows.map((r) => ({ ...r, metric, metric_name: name, score_type: scoreType, column: `${metric}${suffix}`, value: move(r.value) }));
}

const TITLES = ['Esteem (percentile rank)', 'Differentiation (percentile rank)', 'Knowledge (percentile rank)'];

// Three metric columns each, esteem first: panels follow the rows' order, not the alphabet.
const crossMarket = [
  ...asMetric(f.crossMarketRows(), 'esteem', 'Esteem', -7),
  ...f.crossMarketRows(),
  ...asMetric(f.crossMarketRows(), 'knowledge', 'Knowledge', 9),
].map((r) => ({ ...r, cross_market_mean: r.cross_market_mean === null ? null : r.cross_market_mean + (r.metric === 'esteem' ? -7 : r.metric === 'knowledge' ? 9 : 0) }));
const crossYear = [...f.crossYearRows(), ...asMetric(f.crossYearRows(), 'differentiation', 'Differentiation', -12), ...asMetric(f.crossYearRows(), 'knowledge', 'Knowledge', 4)];
const sectorValues = [...asMetric(f.sectorValueRows(), 'esteem', 'Esteem', 3), ...f.sectorValueRows().map((r) => ({ ...r, metric: 'differentiation', metric_name: 'Differentiation', column: 'differentiation_rank' })), ...asMetric(f.sectorValueRows(), 'knowledge', 'Knowledge', -5)];
const sectorSummaries = f.sectorSummaryRows().flatMap((r) => [
  { ...r, metric: 'esteem', metric_name: 'Esteem', column: 'esteem_rank' },
  { ...r, metric: 'differentiation', metric_name: 'Differentiation', column: 'differentiation_rank', mean: (r.mean ?? 0) - 4 },
  { ...r, metric: 'knowledge', metric_name: 'Knowledge', column: 'knowledge_rank', mean: (r.mean ?? 0) + 6 },
]);
const company = [...asMetric(f.companyRows(), 'esteem', 'Esteem', 5), ...f.companyRows(), ...asMetric(f.companyRows(), 'knowledge', 'Knowledge', 12)];

interface Case {
  name: string;
  spec: (options: { column?: string; columns?: number }) => ChartSpec;
  /** Panels drawn besides the metrics' (the share price's). */
  extra?: string[];
  /** The channel carrying the value scale. */
  value: 'x' | 'y';
}

const CASES: Case[] = [
  { name: 'crossMarketBars', spec: (o) => crossMarketBars(crossMarket, { entityId: 1, ...o }), value: 'x' },
  { name: 'crossMarketHeatmap', spec: (o) => crossMarketHeatmap(crossMarket, o), value: 'x' },
  { name: 'crossYearLines (one market)', spec: (o) => crossYearLines(crossYear.filter((r) => r.country_code === 'GB'), o), value: 'y' },
  { name: 'crossYearLines (one brand)', spec: (o) => crossYearLines(crossYear, { entityIds: [2], ...o }), value: 'y' },
  { name: 'slopeChart', spec: (o) => slopeChart(crossYear, { market: 'GB', ...o }), value: 'y' },
  { name: 'sectorDistribution (brand values)', spec: (o) => sectorDistribution(sectorValues, o), value: 'x' },
  { name: 'sectorDistribution (summaries)', spec: (o) => sectorDistribution(sectorSummaries, o), value: 'x' },
  { name: 'companyView', spec: (o) => companyView(company, o), extra: ['Average share price (USD)'], value: 'y' },
];

/** The explicit value domains of a panel (the heatmap's colour scale stands in for its value axis). */
function valueDomains(panel: unknown, channel: 'x' | 'y'): unknown[] {
  const field = (c: ReturnType<typeof channels>[number]) => c.def.type === 'quantitative' && (c.channel === channel || (c.channel === 'color' && c.field === 'value'));
  return channels(panel)
    .filter(field)
    .flatMap((c) => {
      const domain = (c.def.scale as { domain?: unknown } | undefined)?.domain;
      return domain === undefined ? [] : [JSON.stringify(domain)];
    });
}

describe.each(CASES)('$name with three metric columns', ({ spec: make, extra = [], value }) => {
  it('draws a panel per metric, in the rows’ order, titled in words, and compiles cleanly', () => {
    const spec = make({});
    expect(compileMessages(spec)).toEqual([]);
    expect(panelsOf(spec).map(panelTitleOf)).toEqual([...TITLES, ...extra]);
  });

  it('puts the panels of percentile ranks on one 0–100 scale', () => {
    const panels = panelsOf(make({})).slice(0, TITLES.length);
    // 0 to 100 (a heatmap's colour domain also names its middle, 50, as the tables' colour scale does).
    for (const panel of panels) expect(new Set(valueDomains(panel, value).map((d) => String(d).replace(',50,', ',')))).toEqual(new Set(['[0,100]']));
  });

  it('draws one metric, as before, when `column` names it', () => {
    const spec = make({ column: 'knowledge_rank' });
    expect(spec).not.toHaveProperty('concat');
    expect(spec).not.toHaveProperty('vconcat');
    expect(JSON.stringify(spec)).toContain('Knowledge (percentile rank)');
    expect(JSON.stringify(spec)).not.toContain('Esteem (percentile rank)');
    expect(() => make({ column: 'usage_pct' })).toThrow(DataError);
    expect(() => make({ column: 'usage_pct' })).toThrow(/usage_pct.*Available: esteem_rank, differentiation_rank, knowledge_rank/);
  });

  it('caps the panels per row with `columns`', () => {
    expect(make({ columns: 1 })).toMatchObject({ columns: 1 });
    expect(make({ columns: 2 })).toMatchObject({ columns: 2 });
  });
});

describe('panels of different score types', () => {
  const index = asMetric(f.crossMarketRows(), 'esteem', 'Esteem', 40, 'brandscape_index').map((r) => ({ ...r, cross_market_mean: (r.cross_market_mean ?? 0) + 40 }));
  const c = asMetric(f.crossMarketRows(), 'relevance', 'Relevance', 0, 'c').map((r) => ({ ...r, value: r.value === null ? null : (r.value - 50) / 40, cross_market_mean: ((r.cross_market_mean ?? 0) - 50) / 40 }));

  it('keep a scale each, and panels of one index type share theirs', () => {
    const other = asMetric(f.crossMarketRows(), 'knowledge', 'Knowledge', 70, 'brandscape_index').map((r) => ({ ...r, cross_market_mean: (r.cross_market_mean ?? 0) + 70 }));
    const spec = crossMarketBars([...f.crossMarketRows(), ...index, ...other, ...c], { entityId: 2 });
    expect(compileMessages(spec)).toEqual([]);
    const [rank, esteem, knowledge, relevance] = panelsOf(spec).map((p) => new Set(valueDomains(p, 'x')));
    expect(rank).toEqual(new Set(['[0,100]']));
    // Index scores: from zero to a round number past the highest of both panels (Coca-Cola's
    // knowledge, 96.4 + 70), the same for both.
    const [domain] = [...(esteem ?? [])].map((d) => JSON.parse(String(d)) as [number, number]);
    expect(domain?.[0]).toBe(0);
    expect(domain?.[1]).toBeGreaterThanOrEqual(166.4);
    expect(domain?.[1]).toBeLessThanOrEqual(200);
    expect(knowledge).toEqual(esteem);
    expect(relevance).not.toEqual(esteem);
    expect(panelsOf(spec).map(panelTitleOf)).toEqual(['Differentiation (percentile rank)', 'Esteem (index vs brandscape)', 'Knowledge (index vs brandscape)', 'Relevance (construct score)']);
  });

  it('give a heatmap one colour legend per score type, and one legend when they share it', () => {
    const mixed = crossMarketHeatmap([...f.crossMarketRows(), ...index]);
    expect(mixed).toMatchObject({ resolve: { scale: { color: 'independent' } } });
    const ranks = crossMarketHeatmap(crossMarket);
    expect(ranks).toMatchObject({ resolve: { scale: { color: 'shared' } } });
    expect(new Set(channels(ranks).filter((ch) => ch.channel === 'color' && ch.field === 'value').map((ch) => JSON.stringify(ch.title)))).toEqual(new Set(['["Percentile rank"]']));
  });
});

describe('ambiguous rows', () => {
  it('ask for the option that resolves them, by name', () => {
    expect(() => crossMarketBars(crossMarket)).toThrow(UsageError);
    expect(() => crossMarketBars(crossMarket)).toThrow(/several entities .*'entityId'/);
    expect(() => slopeChart(crossYear)).toThrow(/several markets .*'market'/);
    expect(() => companyView([...company, ...company.map((r) => ({ ...r, company_id: 78 }))])).toThrow(/'companyId'/);
    expect(() => sectorDistribution([...sectorValues, ...sectorValues.map((r) => ({ ...r, year: 2023 }))])).toThrow(/'year'/);
  });
});

describe('a metric without values', () => {
  it('gets no panel rather than an empty one', () => {
    const rows = [...crossMarket, ...asMetric(f.crossMarketRows(), 'usage', 'Usage', 0).map((r) => ({ ...r, value: r.entity_id === 1 ? null : r.value }))];
    expect(panelsOf(crossMarketBars(rows, { entityId: 1 })).map(panelTitleOf)).toEqual(TITLES);
    const lines = [...crossYear, ...asMetric(f.crossYearRows(), 'usage', 'Usage', 0).filter((r) => r.entity_id !== 2)];
    expect(panelsOf(crossYearLines(lines, { entityIds: [2] })).map(panelTitleOf)).toEqual(TITLES);
  });
});
