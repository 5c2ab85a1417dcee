/**
 * Small multiples of metrics. A report compares several metrics at once (the four pillars across
 * markets, or over the years); charting them on one axis would mix scales and crowd the marks, so
 * builders draw one panel per metric column, each titled with the metric in words, and lay the
 * panels out in rows. Panels of one score type share one value scale, so that equal lengths mean
 * equal values across panels.
 */
import type { MetricKey } from '../frames/types.js';
import { SCORE_TYPES, type ScoreType } from '../schemas/score-types.js';
import { CHART_FONT_SIZES } from './chart-theme.js';
import { metricTitle } from './metric-title.js';
import { firstRow, pickOne } from './pick-one.js';
import { scaleKey } from './heat-scale.js';

/**
 * Options of the builders that draw one panel per metric column.
 *
 * @example
 * crossMarketBars(rows, { entityId: 42, columns: 2 }); // the four pillars in two rows of two panels
 * crossMarketBars(rows, { entityId: 42, column: 'esteem_rank' }); // one metric, one panel
 */
export interface MetricPanelOptions {
  /**
   * The metric column to show, e.g. `esteem_rank`. Without it, every metric column of the rows
   * gets a panel of its own, in the order the columns first appear in the rows.
   */
  column?: string;
  /** Panels per row when the chart draws several. Each builder has a default that keeps it readable. */
  columns?: number;
}

/** The rows of one metric column, and how to name it. */
export interface MetricPanel<R> {
  column: string;
  metricName: string;
  scoreType: ScoreType;
  /** The metric in words, e.g. `Differentiation (percentile rank)`. */
  title: string;
  rows: R[];
}

/**
 * The metric columns to chart: `column` alone when given (a `DataError` when the rows lack it),
 * else every column of the rows, in the order it first appears.
 *
 * @example
 * metricPanels(rows, undefined).map((p) => p.title) // ['Differentiation (percentile rank)', 'Relevance (percentile rank)']
 */
export function metricPanels<R extends MetricKey>(rows: readonly R[], column: string | undefined, chart: string): MetricPanel<R>[] {
  firstRow(rows, chart);
  if (column !== undefined) pickOne(rows.map((r) => r.column), column, 'metric column', 'column');
  const byColumn = new Map<string, R[]>();
  for (const r of rows) {
    if (column !== undefined && r.column !== column) continue;
    const list = byColumn.get(r.column);
    if (list === undefined) byColumn.set(r.column, [r]);
    else list.push(r);
  }
  return [...byColumn].map(([name, list]) => {
    const first = firstRow(list, chart);
    return { column: name, metricName: first.metric_name, scoreType: first.score_type, title: metricTitle(first.metric_name, first.score_type), rows: list };
  });
}


/**
 * The value domain of each panel (by column): the panels of one scale key share the domain that
 * `domainOf` gives for all their values together.
 *
 * @example
 * sharedDomains(panels, (p) => p.rows.map((r) => r.value), (lo, hi) => [lo, hi]).get('esteem_rank') // [0, 100]
 */
export function sharedDomains<R>(
  panels: readonly MetricPanel<R>[],
  valuesOf: (panel: MetricPanel<R>) => Iterable<number | null>,
  domainOf: (lo: number, hi: number, scoreType: ScoreType) => [number, number],
): Map<string, [number, number]> {
  const ranges = new Map<string, { lo: number; hi: number; scoreType: ScoreType }>();
  for (const panel of panels) {
    const key = scaleKey(panel);
    const range = ranges.get(key) ?? { lo: Infinity, hi: -Infinity, scoreType: panel.scoreType };
    // A loop, not Math.min(...values): spreading many thousands of arguments overflows the stack.
    for (const v of valuesOf(panel)) {
      if (v === null || !Number.isFinite(v)) continue;
      if (v < range.lo) range.lo = v;
      if (v > range.hi) range.hi = v;
    }
    ranges.set(key, range);
  }
  const domains = new Map<string, [number, number]>();
  for (const [key, { lo, hi, scoreType }] of ranges) domains.set(key, lo > hi ? domainOf(0, 1, scoreType) : domainOf(lo, hi, scoreType));
  return new Map(panels.map((p) => [p.column, domains.get(scaleKey(p)) ?? [0, 1]]));
}

/** Whether every panel has the same score type (one legend, one unit in the subtitle). */
export function oneScoreType(panels: readonly Pick<MetricPanel<unknown>, 'scoreType'>[]): ScoreType | undefined {
  const [first, ...rest] = panels;
  return first !== undefined && rest.every((p) => p.scoreType === first.scoreType) ? first.scoreType : undefined;
}

/**
 * The score type in words for a subtitle, when every panel shares it (`Percentile rank`), else
 * nothing: the panel titles say it.
 */
export function scoreWords(panels: readonly Pick<MetricPanel<unknown>, 'scoreType'>[]): string | undefined {
  const type = oneScoreType(panels);
  return type === undefined ? undefined : SCORE_TYPES[type].label;
}

/**
 * The title block of a panel: the metric in words, smaller than the chart's title. `frame:
 * 'group'` starts it at the plot rather than at the panel's labels, for panels whose labels reach
 * out by different widths.
 */
export function panelTitle(text: string, offset = 8, frame: 'bounds' | 'group' = 'bounds') {
  return { text, anchor: 'start' as const, frame, fontSize: CHART_FONT_SIZES.axisTitle + 1, fontWeight: 'bold' as const, offset, color: '#222222' };
}

/** Panels per row: the caller's choice within 1..count, else the builder's default. */
export function panelColumns(count: number, chosen: number | undefined, fallback: number): number {
  const wanted = chosen ?? fallback;
  if (!Number.isFinite(wanted) || wanted < 1) return Math.min(count, fallback);
  return Math.max(1, Math.min(count, Math.floor(wanted)));
}

/** Whether panel `index` starts a row of `columns` panels (where a shared axis is labelled). */
export function startsRow(index: number, columns: number): boolean {
  return index % columns === 0;
}

/** Whether panel `index` of `count` is in the bottom row of `columns` a row (where a shared axis is titled). */
export function inLastRow(index: number, count: number, columns: number): boolean {
  return Math.floor(index / columns) === Math.floor((count - 1) / columns);
}

/**
 * The metrics of the panels in words for a title: `Differentiation, relevance and esteem`, or
 * `7 metrics` when a list would not fit a title.
 *
 * @example
 * metricList(panels) // 'Differentiation, relevance, esteem and knowledge'
 */
export function metricList(panels: readonly Pick<MetricPanel<unknown>, 'metricName'>[]): string {
  const names = [...new Set(panels.map((p) => p.metricName))];
  if (names.length > 4) return `${names.length} metrics`;
  const words = names.map((n, i) => (i === 0 ? n : n.charAt(0).toLowerCase() + n.slice(1)));
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1] ?? ''}`;
}
