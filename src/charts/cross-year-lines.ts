/**
 * Cross-year lines: metrics over the years (or US quarterly waves), one line per brand (or per
 * market, for one brand); a panel per metric, and per market when several brands are followed in
 * several markets.
 */
import type { CrossYearRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import { CHART_FONT_SIZES, CHART_PALETTE, chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { measureText } from './measure-text.js';
import { type MetricPanel, type MetricPanelOptions, inLastRow, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains } from './metric-panels.js';
import { lineDomain, scoreFormat } from './metric-title.js';
import { distinct, firstRow } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `crossYearLines`.
 *
 * @example
 * crossYearLines(rows, { column: 'esteem_rank', smallMultiples: false });
 */
export interface CrossYearLinesOptions extends ChartOptions, MetricPanelOptions {
  /** Only these entities (`entity_id`s), in any order. */
  entityIds?: readonly number[];
  /**
   * For several brands in several markets: one panel per market (default), or all lines in one
   * panel, each labelled with its market. For one brand in several markets the default is one
   * line per market in one panel; `true` gives it a panel per market instead.
   */
  smallMultiples?: boolean;
  /**
   * The focus entity's id (a brand, company or sector id): its lines are drawn thicker and opaque
   * over the others, which are thinner and faded, so the brand a deck is about stands out among its
   * competitors. No effect when the lines are one entity's markets.
   */
  focus?: number;
}

/** Line widths and opacities of the focus entity's lines and of the others, when there is a focus. */
const FOCUS_LINE = { width: 3.5, otherWidth: 1.5, otherOpacity: 0.4 } as const;

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

/** Pixels kept free between level period labels. */
const LEVEL_LABEL_GAP = 4;

/** What a line is: an entity, a market (one entity's), or an entity in a market. */
type SeriesBy = 'entity' | 'market' | 'entity-market';

/**
 * Metrics over time. The x axis is the period's position (`period_order`), so quarterly waves
 * sit between the years they belong to and are labelled `2024 Q2`. Percentile ranks are drawn on
 * their whole 0–100 scale (see `lineDomain`): a zoomed axis would make small changes look large.
 * The legend lists the lines by their last value, highest first; a chart of one line has no
 * legend (its title names the line).
 *
 * Rows: `crossYear(...).rows()`.
 * - One metric column: one panel; for several brands in several markets, one panel per market
 *   (`smallMultiples: false` puts every line in one panel instead); for one brand in several
 *   markets, one line per market.
 * - Several metric columns (and no `column` option): the same, once per metric: a panel per
 *   metric, or for several brands in several markets a row of market panels per metric. Panels
 *   of one score type share the value axis.
 *
 * A line's name is the brand's local name when every market uses it, else its global name;
 * tooltips give both.
 *
 * @example
 * const spec = crossYearLines(rows, { column: 'esteem_rank', entityIds: [1, 2, 3] });
 * const pillars = crossYearLines(rows); // every metric column of the rows
 */
export function crossYearLines(rows: readonly CrossYearRow[], options: CrossYearLinesOptions = {}): ChartSpec {
  const wanted = options.entityIds === undefined ? undefined : new Set(options.entityIds);
  // A metric without a value for the entities asked for gets no panel.
  const panels = metricPanels(rows, options.column, 'cross-year line chart')
    .map((p) => ({ ...p, rows: p.rows.filter((r) => r.value !== null && (wanted === undefined || wanted.has(r.entity_id))) }))
    .filter((p) => p.rows.length > 0);
  const picked = panels.flatMap((p) => p.rows);
  const first = firstRow(picked, 'cross-year line chart');
  const markets = distinct(picked.map((r) => r.market)).sort(compareNames);
  const entities = distinct(picked.map(entityKey));
  const names = entityNames(picked);
  const max = labelLength(options);

  // One brand in several markets: its markets are the lines, unless the caller asks for panels.
  const facet = entities.length === 1 ? options.smallMultiples === true && markets.length > 1 : (options.smallMultiples ?? markets.length > 1);
  const seriesBy: SeriesBy = facet || markets.length === 1 ? 'entity' : entities.length === 1 ? 'market' : 'entity-market';
  const seriesKey = (r: CrossYearRow): string =>
    seriesBy === 'entity' ? entityKey(r) : seriesBy === 'market' ? r.country_code : `${entityKey(r)}@${r.country_code}`;
  const seriesName = (r: CrossYearRow): string =>
    seriesBy === 'entity' ? (names.get(entityKey(r)) ?? r.entity_name) : seriesBy === 'market' ? r.market : `${r.entity_name} (${r.country_code})`;
  const keys = byLastValue(panels[0]?.rows ?? picked, picked, seriesKey);
  const firstOf = new Map(picked.map((r) => [seriesKey(r), r]));
  const labels = uniqueLabels(keys.map((key) => ({ key, name: seriesName(firstOf.get(key) ?? first) })), max);
  const seriesOrder = keys.map((k) => labels.get(k) ?? k);

  const multi = panels.length > 1;
  const width = options.width ?? (facet || multi ? 240 : 480);
  const height = options.height ?? (facet || multi ? 160 : 300);
  const ticks = periodTicks(picked);
  const domains = sharedDomains(panels, (p) => p.rows.map((r) => r.value), lineDomain);
  const noun = entityNoun(first.entity_kind);
  const legend: Legend = {
    order: seriesOrder,
    title: seriesBy === 'market' ? 'Market' : noun,
    // A legend of one line says nothing the title does not.
    show: seriesOrder.length > 1,
  };
  // A focus among several entities' lines (one entity's markets have nothing to stand out from).
  const focused = options.focus !== undefined && seriesBy !== 'market' && entities.length > 1 && picked.some((r) => r.entity_id === options.focus);
  const context: PanelContext = { ticks, width, legend, noun, brand: first.entity_kind === 'brand', focus: focused };
  const valuesOf = (panel: MetricPanel<CrossYearRow>) =>
    panel.rows.map((r) => ({
      series: labels.get(seriesKey(r)) ?? r.entity_name,
      market: r.market,
      name: r.entity_name,
      global_name: r.global_name,
      period: r.period,
      period_order: r.period_order,
      value: r.value,
      change: r.change,
      ...(focused ? { focus: r.entity_id === options.focus } : {}),
    }));

  // The title names what every line shares: the one brand, the one market.
  const who = entities.length === 1 ? `${names.get(entities[0] ?? '') ?? first.entity_name}: ` : '';
  const where = markets.length === 1 ? `${markets[0] ?? ''}, ` : '';
  const span = ticks.labels.length > 0 ? `${ticks.labels[0] ?? ''}–${ticks.labels[ticks.labels.length - 1] ?? ''}` : '';
  const what = multi ? scoreWords(panels) : panels[0]?.title;
  const title = chartTitle(
    options,
    `${who}${multi ? metricList(panels) : first.metric_name} over time`,
    `${what === undefined ? '' : `${what}, `}${where}${span}`,
  );
  const base = { $schema: VEGA_LITE_SCHEMA, title, config: chartTheme };
  const columns = panelColumns(facet ? markets.length : panels.length, options.columns, facet ? 3 : 2);
  // Under a metric's title (rows of market panels), market names are plain: one bold level per figure.
  const marketFacet = { field: 'market', type: 'nominal' as const, title: null, sort: markets, header: { labelAnchor: 'start' as const, ...(multi ? { labelFontWeight: 'normal' as const } : {}) } };

  if (!multi) {
    const panel = firstRow(panels, 'cross-year line chart');
    const layered = linePanel(panel, domains.get(panel.column) ?? [0, 100], panel.title, context);
    if (facet) return { ...base, data: { values: valuesOf(panel) }, facet: marketFacet, columns, spec: { ...layered, width, height } };
    return { ...base, data: { values: valuesOf(panel) }, width, height, ...layered };
  }
  if (facet) {
    // A row of market panels per metric, the metric named above its row.
    return {
      ...base,
      spacing: 24,
      vconcat: panels.map((p, i) => ({
        title: panelTitle(p.title),
        data: { values: valuesOf(p) },
        facet: marketFacet,
        columns,
        spec: { ...linePanel(p, domains.get(p.column) ?? [0, 100], null, { ...context, xTitle: i === panels.length - 1 }), width, height },
      })),
    };
  }
  return published({
    ...base,
    columns,
    spacing: { column: 20, row: 24 },
    concat: panels.map((p, i) => ({
      title: panelTitle(p.title),
      data: { values: valuesOf(p) },
      width,
      height,
      ...linePanel(p, domains.get(p.column) ?? [0, 100], null, { ...context, xTitle: inLastRow(i, panels.length, columns) }),
    })),
  });
}

interface Legend {
  order: string[];
  title: string;
  show: boolean;
}

interface PanelContext {
  ticks: { positions: number[]; labels: string[] };
  /** Whether the period axis is titled (panels of the bottom row only, in a grid). */
  xTitle?: boolean;
  width: number;
  legend: Legend;
  noun: string;
  brand: boolean;
  /** Whether the values carry a `focus` flag: the focus entity's lines thick and opaque, the others thin and faded. */
  focus: boolean;
}

/** One metric's lines: a line and a point per series, on the shared period axis. */
function linePanel(panel: MetricPanel<CrossYearRow>, yDomain: [number, number], yTitle: string | null, context: PanelContext): LayeredPanel {
  const { ticks, legend, noun, brand } = context;
  const waves = panel.rows.some((r) => r.period !== String(r.year));
  const tooltipFormat = scoreFormat(panel.scoreType, 'tooltip');
  return {
    encoding: {
      x: {
        field: 'period_order',
        type: 'quantitative',
        title: context.xTitle === false ? null : waves ? 'Period' : 'Year',
        scale: { zero: false, nice: false, padding: X_PADDING },
        axis: {
          // A tick at each period of the data, labelled with the period's own label (`2024`,
          // `2024 Q2`): the position alone cannot tell a year from its Q1 wave.
          values: ticks.positions,
          labelExpr: `${JSON.stringify(ticks.labels)}[indexof(${JSON.stringify(ticks.positions)}, datum.value)] || ''`,
          grid: false,
          ...periodLabelAngle(ticks, context.width),
        },
      },
      y: {
        field: 'value',
        type: 'quantitative',
        // The metric names the values in the marks' descriptions, where a panel title names it for the eye.
        title: panel.title,
        // Padding and flush labels keep points and the top label inside the panel, where they
        // would otherwise push that panel's header up out of line with the others.
        scale: { domain: yDomain, nice: false, zero: false, padding: 8 },
        axis: { labelFlush: true, format: scoreFormat(panel.scoreType), ...(yTitle === null ? { title: null } : {}) },
      },
      color: {
        field: 'series',
        type: 'nominal',
        title: legend.title,
        sort: legend.order,
        scale: { domain: legend.order, range: [...CHART_PALETTE] },
        legend: legend.show ? { orient: 'right', symbolSize: 70 } : null,
      },
    },
    layer: [
      context.focus
        ? {
            mark: { type: 'line' },
            encoding: {
              strokeWidth: { condition: { test: 'datum.focus', value: FOCUS_LINE.width }, value: FOCUS_LINE.otherWidth },
              opacity: { condition: { test: 'datum.focus', value: 1 }, value: FOCUS_LINE.otherOpacity },
            },
          }
        : { mark: { type: 'line', strokeWidth: 2 } },
      {
        mark: { type: 'point', filled: true, size: 50, opacity: 1 },
        encoding: {
          ...(context.focus
            ? { opacity: { condition: { test: 'datum.focus', value: 1 }, value: FOCUS_LINE.otherOpacity }, size: { condition: { test: 'datum.focus', value: 80 }, value: 40 } }
            : {}),
          shape: { field: 'series', type: 'nominal', sort: legend.order, scale: { domain: legend.order, range: SHAPES }, title: legend.title, ...(legend.show ? {} : { legend: null }) },
          tooltip: [
            { field: 'name', type: 'nominal', title: brand ? `${noun} (local name)` : noun },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'market', type: 'nominal', title: 'Market' },
            { field: 'period', type: 'nominal', title: 'Period' },
            { field: 'value', type: 'quantitative', title: panel.title, format: tooltipFormat },
            { field: 'change', type: 'quantitative', title: 'Change from the previous period', format: `+${tooltipFormat}` },
          ],
        },
      },
    ],
  };
}

/**
 * Series keys ordered by the last value of each line in `ordering` (averaged over markets where a
 * series spans several), highest first, so the legend reads in about the order the lines end;
 * series absent from `ordering` follow by key.
 */
function byLastValue(ordering: readonly CrossYearRow[], all: readonly CrossYearRow[], seriesKey: (r: CrossYearRow) => string): string[] {
  const last = new Map<string, { order: number; value: number }>();
  for (const r of ordering) {
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
  return distinct(all.map(seriesKey)).sort((a, b) => endOf(b) - endOf(a) || compareNames(a, b));
}

/**
 * Period labels level when they fit between their ticks; slanted when they do not (quarterly waves
 * put ticks a quarter apart), with Vega's overlap check hiding some only when even slanted ones
 * would collide.
 */
function periodLabelAngle(ticks: { positions: number[]; labels: string[] }, width: number): Record<string, unknown> {
  const gap = smallestGap(ticks.positions, width);
  const widest = Math.max(0, ...ticks.labels.map((l) => measureText(l, CHART_FONT_SIZES.label, false)));
  if (gap >= widest + LEVEL_LABEL_GAP) return { labelAngle: 0 };
  return { labelAngle: -40, labelAlign: 'right', labelBaseline: 'top', labelOverlap: gap >= SLANTED_LABEL_GAP ? false : 'greedy' };
}

/** Pixels between the closest two ticks on an axis `width` pixels wide, ticks at `positions` (ascending). */
function smallestGap(positions: readonly number[], width: number): number {
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (first === undefined || last === undefined || last === first) return Infinity;
  let gap = Infinity;
  for (let i = 1; i < positions.length; i++) gap = Math.min(gap, (positions[i] ?? 0) - (positions[i - 1] ?? 0));
  return ((width - 2 * X_PADDING) * gap) / (last - first);
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
