/**
 * Sector distribution: box plots of a metric per sector, across markets.
 */
import type { SectorSummaryRow, SectorValueRow } from '../frames/types.js';
import { quantileSorted } from '../frames/stats.js';
import type { ScoreType } from '../schemas/score-types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { type LayeredPanel, type VegaLiteSpec, published } from './vega-lite-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { type MetricPanel, type MetricPanelOptions, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains, startsRow } from './metric-panels.js';
import { formatScore, lineDomain, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `sectorDistribution`.
 *
 * @example
 * sectorDistribution(rows, { column: 'relevance_rank', year: 2024 });
 */
export interface SectorDistributionOptions extends ChartOptions, MetricPanelOptions {
  /** The year; needed when the rows hold several. */
  year?: number;
}

const BOX_COLOUR = CHART_PALETTE[4];

/**
 * One box per sector, sectors sorted by median, highest first.
 *
 * - From `SectorValueRow`s (one per brand): each box is the distribution of the brands' values
 *   in all the markets together; whiskers reach 1.5 × the interquartile range, brands beyond are
 *   drawn as points.
 * - From `SectorSummaryRow`s (one per sector and market, already aggregated): brands' values
 *   cannot be pooled again from quartiles, so each box is the distribution of the markets'
 *   sector means, and each market is drawn as a point (its tooltip has the market's median,
 *   quartiles and brand count).
 *
 * @example
 * const spec = sectorDistribution(sectorValueRows, { column: 'relevance_rank' });
 */
export function sectorDistribution(rows: readonly SectorValueRow[] | readonly SectorSummaryRow[], options: SectorDistributionOptions = {}): ChartSpec {
  firstRow<SectorValueRow | SectorSummaryRow>(rows, 'sector distribution');
  return published(isValueRows(rows) ? draw(rows, options, valueBoxes) : draw(rows, options, summaryBoxes));
}

/** Brand-level rows carry a `brand_id`; summaries do not (an array holds one kind or the other). */
function isValueRows(rows: readonly SectorValueRow[] | readonly SectorSummaryRow[]): rows is readonly SectorValueRow[] {
  const first = rows[0];
  return first !== undefined && 'brand_id' in first;
}

/** What a panel's boxes are drawn from, and how the subtitle says it. */
interface Boxes<R> {
  /** The value each box pools, per row (null: left out). */
  value: (r: R) => number | null;
  /** The subtitle: what the boxes show, for `what` (the metric or score type in words). */
  subtitle: (what: string, year: number, markets: readonly string[]) => string;
  panel: (rows: readonly R[], layout: PanelLayout) => LayeredPanel;
}

interface PanelLayout {
  order: string[];
  labels: Map<number, string>;
  x: ValueAxis;
  /** Undefined hides the sector axis (panels after the first of a row show the same sectors). */
  yTitle: string | undefined;
  scoreType: ScoreType;
}

function draw<R extends SectorValueRow | SectorSummaryRow>(rows: readonly R[], options: SectorDistributionOptions, boxes: Boxes<R>): VegaLiteSpec {
  const all = metricPanels(rows, options.column, 'sector distribution');
  const year = pickOne(all.flatMap((p) => p.rows.map((r) => r.year)), options.year, 'year', 'year');
  const panels = all.map((p) => ({ ...p, rows: p.rows.filter((r) => r.year === year && boxes.value(r) !== null) })).filter((p) => p.rows.length > 0);
  const picked = panels.flatMap((p) => p.rows);
  const first = firstRow(picked, 'sector distribution');
  const markets = distinct(picked.map((r) => r.market)).sort();
  // One sector order for every panel (by the first metric's median), so a sector reads across.
  const { order, labels } = sectorOrder(
    (panels[0]?.rows ?? []).map((r) => ({ sector_id: r.sector_id, sector_name: r.sector_name, value: boxes.value(r) ?? NaN })),
    picked,
    labelLength(options),
  );
  const domains = sharedDomains(panels, (p) => p.rows.map(boxes.value), lineDomain);
  const size = { width: options.width ?? (panels.length > 1 ? 220 : 440), height: options.height ?? { step: 34 } };
  // The field title names the metric in the boxes' descriptions (read by screen readers), also in
  // a panel whose title names it for the eye; the axis format rounds the values there.
  const axisOf = (p: MetricPanel<R>, shown: boolean): ValueAxis => ({
    field: 'value',
    type: 'quantitative',
    title: p.title,
    scale: { domain: domains.get(p.column) ?? [0, 100], nice: false },
    axis: { format: scoreFormat(p.scoreType), ...(shown ? {} : { title: null }) },
  });

  if (panels.length === 1) {
    const panel = firstRow(panels, 'sector distribution');
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${first.metric_name} by sector`, boxes.subtitle(panel.title, year, markets)),
      config: chartTheme,
      ...size,
      ...boxes.panel(panel.rows, { order, labels, x: axisOf(panel, true), yTitle: 'Sector', scoreType: panel.scoreType }),
    };
  }
  const columns = panelColumns(panels.length, options.columns, 4);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${metricList(panels)} by sector`, boxes.subtitle(scoreWords(panels) ?? 'Values', year, markets)),
    config: chartTheme,
    columns,
    spacing: { column: 16, row: 24 },
    concat: panels.map((p, i) => ({
      title: panelTitle(p.title),
      ...size,
      ...boxes.panel(p.rows, { order, labels, x: axisOf(p, false), yTitle: startsRow(i, columns) ? 'Sector' : undefined, scoreType: p.scoreType }),
    })),
  };
}

/**
 * Sector labels (truncated, unique) in order of their median value in `ordering`, highest first;
 * sectors only in `all` follow by name.
 */
function sectorOrder(
  ordering: readonly { sector_id: number; sector_name: string; value: number }[],
  all: readonly { sector_id: number; sector_name: string }[],
  max: number,
): { order: string[]; labels: Map<number, string> } {
  const byId = new Map<number, { name: string; values: number[] }>();
  for (const e of ordering) {
    const s = byId.get(e.sector_id) ?? { name: e.sector_name, values: [] };
    if (Number.isFinite(e.value)) s.values.push(e.value);
    byId.set(e.sector_id, s);
  }
  for (const e of all) if (!byId.has(e.sector_id)) byId.set(e.sector_id, { name: e.sector_name, values: [] });
  // The median as the frames compute it (`quantileSorted`, numpy's `linear`), as in `sectorSummary`.
  const medians = new Map([...byId].map(([id, s]) => [id, s.values.length === 0 ? -Infinity : quantileSorted(s.values.sort((a, b) => a - b), 0.5)]));
  const ids = [...byId.keys()].sort((a, b) => (medians.get(b) ?? 0) - (medians.get(a) ?? 0) || compareNames(byId.get(a)?.name ?? '', byId.get(b)?.name ?? ''));
  const labels = uniqueLabels(ids.map((id) => ({ key: id, name: byId.get(id)?.name ?? String(id) })), max);
  return { order: ids.map((id) => labels.get(id) ?? String(id)), labels };
}

interface ValueAxis {
  field: string;
  type: 'quantitative';
  title: string;
  scale: { domain: [number, number]; nice: false };
  axis: { format: string; title?: null };
}

function sectorAxis(layout: PanelLayout) {
  return {
    field: 'sector',
    type: 'nominal' as const,
    // The same rows in every panel, even where a metric lacks a sector.
    scale: { domain: layout.order },
    ...(layout.yTitle === undefined ? { title: null, axis: null } : { title: layout.yTitle, axis: { ticks: false } }),
  };
}

/** A box of a box plot: quartiles and whiskers of a sector's values, in the data's units. */
interface Box {
  sector: string;
  sector_name: string;
  count: number;
  lo: number;
  q1: number;
  median: number;
  q3: number;
  hi: number;
}

/**
 * The box of `values`: quartiles as the frames compute them (`quantileSorted`, numpy's `linear`);
 * whiskers at the furthest values within 1.5 × the interquartile range of the box (Tukey), or at
 * the minimum and maximum.
 */
function boxOf(values: readonly number[], extent: 'tukey' | 'min-max'): Omit<Box, 'sector' | 'sector_name'> & { outside: (v: number) => boolean } {
  const sorted = Float64Array.from(values).sort();
  const q1 = quantileSorted(sorted, 0.25);
  const median = quantileSorted(sorted, 0.5);
  const q3 = quantileSorted(sorted, 0.75);
  const reach = extent === 'tukey' ? 1.5 * (q3 - q1) : Infinity;
  const inside = sorted.filter((v) => v >= q1 - reach && v <= q3 + reach);
  return { count: sorted.length, q1, median, q3, lo: inside[0] ?? q1, hi: inside[inside.length - 1] ?? q3, outside: (v) => v < q1 - reach || v > q3 + reach };
}

/** The boxes of the rows, one per sector, with the rows outside the whiskers. */
function boxesOf<R extends { sector_id: number; sector_name: string }>(
  rows: readonly R[],
  value: (r: R) => number | null,
  extent: 'tukey' | 'min-max',
  labels: ReadonlyMap<number, string>,
): { boxes: Box[]; outside: R[] } {
  const bySector = new Map<number, R[]>();
  for (const r of rows) if (value(r) !== null) bySector.set(r.sector_id, [...(bySector.get(r.sector_id) ?? []), r]);
  const boxes: Box[] = [];
  const outside: R[] = [];
  for (const [id, list] of bySector) {
    const { outside: isOutside, ...box } = boxOf(list.map((r) => value(r) ?? NaN), extent);
    const first = list[0];
    boxes.push({ sector: labels.get(id) ?? first?.sector_name ?? String(id), sector_name: first?.sector_name ?? String(id), ...box });
    outside.push(...list.filter((r) => isOutside(value(r) ?? NaN)));
  }
  return { boxes, outside };
}

/**
 * Whiskers, box and median of each sector, drawn from numbers computed here rather than by
 * Vega-Lite's boxplot, so that tooltips and descriptions print them rounded.
 */
function boxLayer(boxes: readonly Box[], layout: PanelLayout, counted: string, opacity: number) {
  const fmt = scoreFormat(layout.scoreType, 'tooltip');
  const say = (v: number) => formatScore(v, layout.scoreType, 'tooltip');
  // What screen readers say of a box: Vega-Lite's own description would print x2 unformatted.
  const described = boxes.map((b) => ({
    ...b,
    description: `${b.sector_name}: median ${say(b.median)}, quartiles ${say(b.q1)} to ${say(b.q3)}, whiskers ${say(b.lo)} to ${say(b.hi)}; ${b.count} ${counted.toLowerCase()}.`,
  }));
  const y = sectorAxis(layout);
  const x = (field: string) => ({ ...layout.x, field });
  const tooltip = [
    { field: 'sector_name', type: 'nominal' as const, title: 'Sector' },
    { field: 'count', type: 'quantitative' as const, title: counted, format: ',d' },
    { field: 'median', type: 'quantitative' as const, title: 'Median', format: fmt },
    { field: 'q1', type: 'quantitative' as const, title: 'First quartile', format: fmt },
    { field: 'q3', type: 'quantitative' as const, title: 'Third quartile', format: fmt },
    { field: 'lo', type: 'quantitative' as const, title: 'Lower whisker', format: fmt },
    { field: 'hi', type: 'quantitative' as const, title: 'Upper whisker', format: fmt },
  ];
  return {
    data: { values: described },
    encoding: { y, tooltip, description: { field: 'description', type: 'nominal' as const } },
    layer: [
      // Whiskers out from the box's ends, not through it: a translucent box would show a line inside.
      { mark: { type: 'rule' as const, color: '#555555' }, encoding: { x: x('lo'), x2: { field: 'q1' } } },
      { mark: { type: 'rule' as const, color: '#555555' }, encoding: { x: x('q3'), x2: { field: 'hi' } } },
      { mark: { type: 'bar' as const, height: 18, color: BOX_COLOUR, opacity }, encoding: { x: x('q1'), x2: { field: 'q3' } } },
      { mark: { type: 'tick' as const, color: '#1A1A1A', thickness: 2, size: 18 }, encoding: { x: x('median') } },
    ],
  };
}

const valueBoxes: Boxes<SectorValueRow> = {
  value: (r) => r.value,
  subtitle: (what, year, markets) => `${what}, ${year}: brands in ${markets.length} market${markets.length > 1 ? 's' : ''} (${markets.join(', ')}).`,
  panel: (rows, layout) => {
    const { boxes, outside } = boxesOf(rows, (r) => r.value, 'tukey', layout.labels);
    const fmt = scoreFormat(layout.scoreType, 'tooltip');
    return {
      layer: [
        boxLayer(boxes, layout, 'Brands', 1),
        {
          // Brands beyond the whiskers, each a point.
          data: { values: outside.map((r) => ({ sector: layout.labels.get(r.sector_id) ?? r.sector_name, sector_name: r.sector_name, value: r.value, brand: r.brand_name, market: r.market })) },
          mark: { type: 'point', color: '#555555', size: 20 },
          encoding: {
            y: sectorAxis(layout),
            x: layout.x,
            tooltip: [
              { field: 'brand', type: 'nominal', title: 'Brand' },
              { field: 'market', type: 'nominal', title: 'Market' },
              { field: 'value', type: 'quantitative', title: layout.x.title, format: fmt },
            ],
          },
        },
      ],
    };
  },
};

const summaryBoxes: Boxes<SectorSummaryRow> = {
  value: (r) => r.mean,
  subtitle: (what, year, markets) => `Sector means of ${what.toLowerCase()}, ${year}, across ${markets.length} market${markets.length > 1 ? 's' : ''}; one point per market.`,
  panel: (rows, layout) => {
    const fmt = scoreFormat(layout.scoreType, 'tooltip');
    const y = sectorAxis(layout);
    const { boxes } = boxesOf(rows, (r) => r.mean, 'min-max', layout.labels);
    return {
      layer: [
        boxLayer(boxes, layout, 'Markets', 0.5),
        {
          data: {
            values: rows.map((r) => ({
              sector: layout.labels.get(r.sector_id) ?? r.sector_name,
              sector_name: r.sector_name,
              market: r.market,
              value: r.mean,
              median: r.median,
              q1: r.q1,
              q3: r.q3,
              count: r.count,
            })),
          },
          mark: { type: 'point', filled: true, size: 36, color: '#1A1A1A', opacity: 0.8 },
          encoding: {
            y,
            x: layout.x,
            tooltip: [
              { field: 'sector_name', type: 'nominal', title: 'Sector' },
              { field: 'market', type: 'nominal', title: 'Market' },
              { field: 'value', type: 'quantitative', title: 'Mean', format: fmt },
              { field: 'median', type: 'quantitative', title: 'Median', format: fmt },
              { field: 'q1', type: 'quantitative', title: 'First quartile', format: fmt },
              { field: 'q3', type: 'quantitative', title: 'Third quartile', format: fmt },
              { field: 'count', type: 'quantitative', title: 'Brands', format: ',d' },
            ],
          },
        },
      ],
    };
  },
};
