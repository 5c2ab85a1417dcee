/**
 * Comparison results as matrices for readers: one row per entity x metric, one column per market
 * (or per period), then the cross-market mean (or the change). The report's sections and
 * `brandscape compare` show the same tables; cells keep full precision and are coloured as their
 * heatmap colours them (one scale per score type; plain values one per metric).
 */
import type { CrossMarketMeta } from '../frames/cross-market.js';
import type { CrossYearMeta } from '../frames/cross-year.js';
import type { FrameTable } from '../frames/frame-table.js';
import type { CrossMarketRow, CrossYearRow, EntityKind } from '../frames/types.js';
import type { ScoreType } from '../schemas/score-types.js';
import type { ColourScale, ReportCell, ReportColumn, ReportTable } from './report-spec.js';
import { compareNames } from '../frames/compare-names.js';
import { heatPoints, scaleKey, scoreScale } from '../charts/heat-scale.js';

/** The fixed points of a score type's colour scale (`scoreScale`'s: ranks 0-100 around 50, ...), as a table's scale. */
export function scaleOf(scoreType: ScoreType): Pick<ColourScale, 'min' | 'mid' | 'max'> {
  const { domain, mid } = scoreScale(scoreType);
  return { ...(domain ? { min: domain[0], max: domain[1] } : {}), ...(mid === undefined ? {} : { mid }) };
}

const ENTITY_HEADER: Record<EntityKind, string> = { brand: 'Brand', company: 'Company', sector: 'Sector' };

/** Distinct values in order of first appearance. */
const distinct = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** A market column's header: the market's name (its code when the name is not known). */
export interface MarketColumn {
  readonly code: string;
  readonly name: string;
}

export interface CrossMarketTableOptions {
  /**
   * Markets in the order to show them (e.g. as the analyst listed them), including markets asked
   * for that have no data (their column stays empty). Default: the markets of the rows, by name.
   */
  markets?: readonly MarketColumn[];
  /** Entity ids in the order to show them. Default: by cross-market mean, highest first. */
  entityOrder?: readonly number[];
  /** The focus entity's id: its rows in bold (`emphasis`), as the heatmap outlines them. */
  focus?: number;
}

/** The rows of the focus entity, by the entity id of each body row. */
const emphasisOf = (ids: readonly number[], focus: number | undefined) => (focus === undefined ? {} : { emphasis: ids.flatMap((id, r) => (id === focus ? [r] : [])) });

/**
 * `crossMarket` rows as a matrix: entity and metric, a column per market, then the cross-market
 * mean. Rows are grouped by metric (a block per metric, coloured on the metric's own scale).
 *
 * @example
 * const table = crossMarketTable(crossMarket(input, { year: 2024, metrics: ['esteem'] }), { markets: [{ code: 'GB', name: 'United Kingdom' }] });
 * table.columns.map((c) => c.header); // ['Brand', 'Metric', 'United Kingdom', 'Mean']
 */
export function crossMarketTable(result: FrameTable<CrossMarketRow, CrossMarketMeta>, options: CrossMarketTableOptions = {}): ReportTable {
  const rows = result.rows();
  const markets = options.markets ?? distinct(rows.map((r) => `${r.country_code}\u0000${r.market}`)).map((k) => ({ code: k.split('\u0000')[0]!, name: k.split('\u0000')[1]! })).sort((a, b) => compareNames(a.name, b.name));
  const scoreType = rows[0]?.score_type ?? 'rank';
  const kind = rows[0]?.entity_kind ?? 'brand';
  const columns: ReportColumn[] = [
    { key: 'entity', header: ENTITY_HEADER[kind], format: 'text' },
    { key: 'metric', header: 'Metric', format: 'text' },
    ...markets.map((m) => ({ key: `market_${m.code}`, header: m.name, format: scoreType })),
    { key: 'mean', header: 'Mean', format: scoreType },
  ];
  const metricOrder = distinct(rows.map((r) => r.column));
  const byEntityMetric = new Map<string, CrossMarketRow[]>();
  for (const r of rows) {
    const key = `${r.entity_id}\u0000${r.column}`;
    byEntityMetric.set(key, [...(byEntityMetric.get(key) ?? []), r]);
  }
  const body: ReportCell[][] = [];
  const ids: number[] = [];
  const scales: ColourScale[] = [];
  for (const column of metricOrder) {
    const ofMetric = rows.filter((r) => r.column === column);
    const entities = orderEntities(ofMetric, options.entityOrder, (r) => r.cross_market_mean);
    const first = body.length;
    for (const id of entities) {
      const cells = byEntityMetric.get(`${id}\u0000${column}`) ?? [];
      const head = cells[0]!;
      const value = (code: string) => cells.find((c) => c.country_code === code)?.value ?? null;
      body.push([head.global_name, metricLabel(head.metric_name, head.score_type), ...markets.map((m) => value(m.code)), head.cross_market_mean]);
      ids.push(id);
    }
    if (body.length > first && markets.length > 0) {
      // The heatmap's points: metrics of one score type share a scale (plain values each their own).
      const key = scaleKey({ column, scoreType: ofMetric[0]!.score_type });
      const pooled = rows.filter((r) => scaleKey({ column: r.column, scoreType: r.score_type }) === key && r.value !== null).map((r) => r.value!);
      scales.push({ fromRow: first, toRow: body.length - 1, fromColumn: 2, toColumn: 2 + markets.length - 1, ...heatPoints(pooled, ofMetric[0]!.score_type) });
    }
  }
  return { columns, rows: body, keyColumns: 2, colourScales: scales, ...emphasisOf(ids, options.focus) };
}

export interface CrossYearTableOptions {
  /** Periods (years, or `2024 Q2` waves) to show, including years asked for without data. Default: those of the rows. */
  periods?: readonly string[];
  /** Markets in the order to show them. Default: by name. */
  markets?: readonly MarketColumn[];
  /** Entity ids in the order to show them. Default: by the last value, highest first. */
  entityOrder?: readonly number[];
  /** The focus entity's id: its rows in bold (`emphasis`), as its line is drawn thick. */
  focus?: number;
}

/**
 * `crossYear` rows as a matrix: entity, market and metric, a column per period, then the change over
 * the span and the trend. The change column is headed with its span (`Change 2021–2024`) when every
 * row has values in the same first and last period, else `Change` (each row's own span).
 *
 * @example
 * const table = crossYearTable(crossYear(input, { markets: ['GB'], metrics: ['esteem'] }));
 * table.columns.map((c) => c.header); // ['Brand', 'Market', 'Metric', '2023', '2024', 'Change', 'Trend']
 */
export function crossYearTable(result: FrameTable<CrossYearRow, CrossYearMeta>, options: CrossYearTableOptions = {}): ReportTable {
  const rows = result.rows();
  const ordered = [...rows].sort((a, b) => a.period_order - b.period_order);
  const periods = options.periods ?? distinct(ordered.map((r) => r.period));
  const scoreType = rows[0]?.score_type ?? 'rank';
  const kind = rows[0]?.entity_kind ?? 'brand';
  const columns: ReportColumn[] = [
    { key: 'entity', header: ENTITY_HEADER[kind], format: 'text' },
    { key: 'market', header: 'Market', format: 'text' },
    { key: 'metric', header: 'Metric', format: 'text' },
    ...periods.map((p) => ({ key: `period_${p.replace(/\s+/g, '_')}`, header: p, format: scoreType })),
    { key: 'change', header: 'Change', format: `change-${scoreType}` as const },
    { key: 'trend', header: 'Trend', format: 'text' },
  ];
  const marketOrder = options.markets ? options.markets.map((m) => m.code) : distinct([...rows].sort((a, b) => compareNames(a.market, b.market)).map((r) => r.country_code));
  const series = new Map<string, CrossYearRow[]>();
  for (const r of rows) {
    const key = `${r.entity_id}\u0000${r.country_code}\u0000${r.column}`;
    series.set(key, [...(series.get(key) ?? []), r]);
  }
  const lastValue = (r: CrossYearRow) => {
    const s = series.get(`${r.entity_id}\u0000${r.country_code}\u0000${r.column}`) ?? [];
    const withValue = s.filter((x) => x.value !== null).sort((a, b) => b.period_order - a.period_order);
    return withValue[0]?.value ?? null;
  };
  const body: ReportCell[][] = [];
  const ids: number[] = [];
  const scales: ColourScale[] = [];
  for (const column of distinct(rows.map((r) => r.column))) {
    const ofMetric = rows.filter((r) => r.column === column);
    const first = body.length;
    for (const code of marketOrder) {
      const inMarket = ofMetric.filter((r) => r.country_code === code);
      for (const id of orderEntities(inMarket, options.entityOrder, lastValue)) {
        const cells = series.get(`${id}\u0000${code}\u0000${column}`) ?? [];
        const head = cells[0]!;
        const value = (period: string) => cells.find((c) => c.period === period)?.value ?? null;
        body.push([head.global_name, head.market, metricLabel(head.metric_name, head.score_type), ...periods.map(value), head.change_over_span, head.trend]);
        ids.push(id);
      }
    }
    if (body.length > first && periods.length > 0) {
      scales.push({ fromRow: first, toRow: body.length - 1, fromColumn: 3, toColumn: 3 + periods.length - 1, ...scaleOf(ofMetric[0]!.score_type) });
    }
  }
  // The change runs from each row's first to its last period with a value: named in the header
  // when that span is the same on every row, so the header never claims years a row lacks.
  const spans = new Set(
    body.map((row) => {
      const present = periods.filter((_, i) => row[3 + i] !== null && row[3 + i] !== undefined);
      return present.length > 1 ? `${present[0]}–${present[present.length - 1]}` : '';
    }),
  );
  const span = spans.size === 1 ? [...spans][0]! : '';
  const titled = span === '' ? columns : columns.map((c) => (c.key === 'change' ? { ...c, header: `Change ${span}` } : c));
  return { columns: titled, rows: body, keyColumns: 3, colourScales: scales, ...emphasisOf(ids, options.focus) };
}

/** `Differentiation (rank)`: a metric and its score type, short enough for a table cell. */
export function metricLabel(metricName: string, scoreType: ScoreType): string {
  const short: Record<ScoreType, string> = { rank: 'rank', pct: '%', c: 'score', brandscape_index: 'index', category_index: 'category index', value: '' };
  return short[scoreType] === '' ? metricName : `${metricName} (${short[scoreType]})`;
}

/** Entity ids of rows in the given order (ids not in it follow, by `score` highest first, then name). */
function orderEntities<R extends { entity_id: number; global_name: string }>(rows: readonly R[], order: readonly number[] | undefined, score: (r: R) => number | null): number[] {
  const first = new Map<number, R>();
  for (const r of rows) if (!first.has(r.entity_id)) first.set(r.entity_id, r);
  const position = new Map((order ?? []).map((id, i) => [id, i]));
  return [...first.values()]
    .sort((a, b) => {
      const pa = position.get(a.entity_id) ?? Infinity;
      const pb = position.get(b.entity_id) ?? Infinity;
      if (pa !== pb) return pa - pb;
      return (score(b) ?? -Infinity) - (score(a) ?? -Infinity) || compareNames(a.global_name, b.global_name);
    })
    .map((r) => r.entity_id);
}
