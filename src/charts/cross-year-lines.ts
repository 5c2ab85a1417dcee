/**
 * Cross-year lines: a metric over the years (or US quarterly waves), one line per brand; small
 * multiples per market when the rows cover several markets.
 */
import type { CrossYearRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, type LayeredPanel, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { metricTitle, niceScoreDomain, scoreFormat, scoreScale } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';

/**
 * Options of `crossYearLines`.
 *
 * @example
 * crossYearLines(rows, { column: 'esteem_rank', smallMultiples: false });
 */
export interface CrossYearLinesOptions extends ChartOptions {
  /** The metric column to show; needed when the rows hold several. */
  column?: string;
  /** Only these entities (`entity_id`s), in any order. */
  entityIds?: readonly number[];
  /**
   * One panel per market (default when the rows cover several markets), or all lines in one
   * panel, each labelled with its market.
   */
  smallMultiples?: boolean;
  /** Panels per row of small multiples. Default 3. */
  columns?: number;
}

/**
 * Symbols for the points: 7 of them against 8 colours, so colour × symbol pairs repeat only after
 * 56 lines, while colours alone would repeat after 8.
 */
const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'cross', 'triangle-right'];

/** Pixels between the plot's edges and the first and last periods. */
const X_PADDING = 12;

/**
 * Slanted (-40°) labels of neighbouring ticks stay clear of each other from about this many pixels
 * apart: the line height across the slant. Vega's overlap check cannot tell (it compares upright
 * bounding boxes), so the builder decides.
 */
const SLANTED_LABEL_GAP = 20;

/**
 * A metric over time, one line per brand (or company, or sector). The x axis is the period's
 * position (`period_order`), so quarterly waves sit between the years they belong to and are
 * labelled `2024 Q2`. The legend lists the lines by their last value, highest first.
 *
 * Rows: `crossYear(...).rows()`. With more than one market the chart draws one panel per market
 * (`smallMultiples: false` puts every line in one panel instead). A line's name is the brand's
 * local name when every market uses it, else its global name; tooltips give both.
 *
 * @example
 * const spec = crossYearLines(rows, { column: 'esteem_rank', entityIds: [1, 2, 3] });
 */
export function crossYearLines(rows: readonly CrossYearRow[], options: CrossYearLinesOptions = {}): ChartSpec {
  firstRow(rows, 'cross-year line chart');
  const column = pickOne(rows.map((r) => r.column), options.column, 'metric column', 'column');
  const wanted = options.entityIds === undefined ? undefined : new Set(options.entityIds);
  const picked = rows.filter((r) => r.column === column && r.value !== null && (wanted === undefined || wanted.has(r.entity_id)));
  const first = firstRow(picked, 'cross-year line chart');
  const markets = distinct(picked.map((r) => r.market)).sort((a, b) => a.localeCompare(b));
  const facet = options.smallMultiples ?? markets.length > 1;
  const names = entityNames(picked);
  const max = labelLength(options);

  // One series per entity, or per entity and market when several markets share one panel.
  const seriesKey = (r: CrossYearRow): string => (facet || markets.length === 1 ? entityKey(r) : `${entityKey(r)}@${r.country_code}`);
  const seriesName = (r: CrossYearRow): string =>
    facet || markets.length === 1 ? (names.get(entityKey(r)) ?? r.entity_name) : `${r.entity_name} (${r.country_code})`;
  // Legend order: by the last value of each line (averaged over the panels for small multiples),
  // highest first, so the legend reads in about the order the lines end.
  const last = new Map<string, { order: number; value: number }>();
  for (const r of picked) {
    const key = `${seriesKey(r)}|${r.country_code}`;
    const seen = last.get(key);
    if (r.value !== null && (seen === undefined || r.period_order >= seen.order)) last.set(key, { order: r.period_order, value: r.value });
  }
  const ends = new Map<string, number[]>();
  for (const [key, { value }] of last) {
    const series = key.slice(0, key.lastIndexOf('|'));
    ends.set(series, [...(ends.get(series) ?? []), value]);
  }
  const endOf = (key: string): number => {
    const v = ends.get(key) ?? [];
    return v.length === 0 ? -Infinity : v.reduce((a, b) => a + b, 0) / v.length;
  };
  const keys = distinct(picked.map(seriesKey)).sort((a, b) => endOf(b) - endOf(a) || a.localeCompare(b));
  const firstOf = new Map(picked.map((r) => [seriesKey(r), r]));
  const labels = uniqueLabels(keys.map((key) => ({ key, name: seriesName(firstOf.get(key) ?? first) })), max);

  const values = picked.map((r) => ({
    series: labels.get(seriesKey(r)) ?? r.entity_name,
    market: r.market,
    name: r.entity_name,
    global_name: r.global_name,
    period: r.period,
    period_order: r.period_order,
    value: r.value,
    change: r.change,
  }));
  // A wave is told by its label (`2024 Q1`), not by its position: a Q1 wave sits at the year itself.
  const waves = picked.some((r) => r.period !== String(r.year));
  const { positions, labels: periodLabels } = periodTicks(picked);
  const metric = metricTitle(first.metric_name, first.score_type);
  const shown = picked.map((r) => r.value as number);
  const yDomain = niceScoreDomain(Math.min(...shown), Math.max(...shown), scoreScale(first.score_type).domain);
  const noun = entityNoun(first.entity_kind);
  const brand = first.entity_kind === 'brand';
  const span = periodLabels.length > 0 ? `${periodLabels[0] ?? ''}–${periodLabels[periodLabels.length - 1] ?? ''}` : '';
  const where = markets.length === 1 ? `${markets[0] ?? ''}, ` : '';
  const width = options.width ?? (facet ? 220 : 480);

  const seriesOrder = keys.map((k) => labels.get(k) ?? k);
  const panel: LayeredPanel = {
    encoding: {
      x: {
        field: 'period_order',
        type: 'quantitative',
        title: waves ? 'Period' : 'Year',
        scale: { zero: false, nice: false, padding: X_PADDING },
        axis: {
          // A tick at each period of the data, labelled with the period's own label (`2024`,
          // `2024 Q2`): the position alone cannot tell a year from its Q1 wave.
          values: positions,
          labelExpr: `${JSON.stringify(periodLabels)}[indexof(${JSON.stringify(positions)}, datum.value)] || ''`,
          grid: false,
          // Waves put ticks a quarter apart: slanted labels fit closer together than level ones.
          ...(waves ? { labelAngle: -40, labelAlign: 'right' as const, labelBaseline: 'top' as const, labelOverlap: slantedLabelsFit(positions, width) ? false : ('greedy' as const) } : {}),
        },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        title: metric,
        // The data's range rather than the score type's whole scale: lines are about change.
        // Padding and flush labels keep points and the top label inside the panel, where they
        // would otherwise push that panel's header up out of line with the others.
        scale: { domain: yDomain, nice: false, zero: false, padding: 8 },
        axis: { labelFlush: true },
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: noun,
        sort: seriesOrder,
        scale: { domain: seriesOrder, range: [...CHART_PALETTE] },
        legend: { orient: 'right', symbolSize: 70 },
      },
    },
    layer: [
      { mark: { type: 'line', strokeWidth: 2 } },
      {
        mark: { type: 'point', filled: true, size: 50, opacity: 1 },
        encoding: {
          shape: { field: 'series', type: 'nominal', sort: seriesOrder, scale: { domain: seriesOrder, range: SHAPES }, title: noun },
          tooltip: [
            { field: 'name', type: 'nominal', title: brand ? `${noun} (local name)` : noun },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'market', type: 'nominal', title: 'Market' },
            { field: 'period', type: 'nominal', title: 'Period' },
            { field: 'value', type: 'quantitative', title: metric, format: scoreFormat(first.score_type, 'tooltip') },
            { field: 'change', type: 'quantitative', title: 'Change from the previous period', format: `+${scoreFormat(first.score_type, 'tooltip')}` },
          ],
        },
      },
    ],
  };

  const title = chartTitle(options, `${first.metric_name} over time`, `${metric}, ${where}${span}`);
  if (facet) {
    return {
      $schema: VEGA_LITE_SCHEMA,
      title,
      config: chartTheme,
      data: { values },
      facet: { field: 'market', type: 'nominal', title: null, sort: markets, header: { labelAnchor: 'start' } },
      columns: options.columns ?? 3,
      spec: { ...panel, width, height: options.height ?? 160 },
    };
  }
  return {
    $schema: VEGA_LITE_SCHEMA,
    title,
    config: chartTheme,
    data: { values },
    width,
    height: options.height ?? 300,
    ...panel,
  };
}

/** Whether every slanted period label fits on an axis `width` pixels wide, ticks at `positions` (ascending). */
function slantedLabelsFit(positions: readonly number[], width: number): boolean {
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (first === undefined || last === undefined || last === first) return true;
  let gap = Infinity;
  for (let i = 1; i < positions.length; i++) gap = Math.min(gap, (positions[i] ?? 0) - (positions[i - 1] ?? 0));
  return ((width - 2 * X_PADDING) * gap) / (last - first) >= SLANTED_LABEL_GAP;
}

/**
 * The x axis's ticks: each distinct `period_order` of the rows, ascending, with its period label.
 * Two periods can share a position (one market's full year and another's Q1 wave of that year, both
 * at the year): that tick is labelled with the year, and the tooltips tell the periods apart.
 */
function periodTicks(rows: readonly CrossYearRow[]): { positions: number[]; labels: string[] } {
  const byPosition = new Map<number, string>();
  for (const r of rows) {
    const seen = byPosition.get(r.period_order);
    byPosition.set(r.period_order, seen === undefined || seen === r.period ? r.period : String(r.year));
  }
  const positions = [...byPosition.keys()].sort((a, b) => a - b);
  return { positions, labels: positions.map((p) => byPosition.get(p) ?? String(p)) };
}
