/**
 * Sector distribution: box plots of a metric per sector, across markets.
 */
import type { SectorSummaryRow, SectorValueRow } from '../frames/types.js';
import { quantileSorted } from '../frames/stats.js';
import type { ScoreType } from '../schemas/score-types.js';
import { type ChartOptions, type ChartSpec, type LayeredPanel, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { type MetricPanel, type MetricPanelOptions, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains, startsRow } from './metric-panels.js';
import { lineDomain, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';

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
  return isValueRows(rows) ? draw(rows, options, valueBoxes) : draw(rows, options, summaryBoxes);
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

function draw<R extends SectorValueRow | SectorSummaryRow>(rows: readonly R[], options: SectorDistributionOptions, boxes: Boxes<R>): ChartSpec {
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
  const axisOf = (p: MetricPanel<R>, title: string | null): ValueAxis => ({ field: 'value', type: 'quantitative', title, scale: { domain: domains.get(p.column) ?? [0, 100], nice: false } });

  if (panels.length === 1) {
    const panel = firstRow(panels, 'sector distribution');
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${first.metric_name} by sector`, boxes.subtitle(panel.title, year, markets)),
      config: chartTheme,
      ...size,
      ...boxes.panel(panel.rows, { order, labels, x: axisOf(panel, panel.title), yTitle: 'Sector', scoreType: panel.scoreType }),
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
      ...boxes.panel(p.rows, { order, labels, x: axisOf(p, null), yTitle: startsRow(i, columns) ? 'Sector' : undefined, scoreType: p.scoreType }),
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
  const ids = [...byId.keys()].sort((a, b) => (medians.get(b) ?? 0) - (medians.get(a) ?? 0) || (byId.get(a)?.name ?? '').localeCompare(byId.get(b)?.name ?? ''));
  const labels = uniqueLabels(ids.map((id) => ({ key: id, name: byId.get(id)?.name ?? String(id) })), max);
  return { order: ids.map((id) => labels.get(id) ?? String(id)), labels };
}

interface ValueAxis {
  field: string;
  type: 'quantitative';
  title: string | null;
  scale: { domain: [number, number]; nice: false };
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

const valueBoxes: Boxes<SectorValueRow> = {
  value: (r) => r.value,
  subtitle: (what, year, markets) => `${what}, ${year}: brands in ${markets.length} market${markets.length > 1 ? 's' : ''} (${markets.join(', ')}).`,
  panel: (rows, layout) => ({
    data: {
      values: rows.map((r) => ({ sector: layout.labels.get(r.sector_id) ?? r.sector_name, sector_name: r.sector_name, value: r.value, brand: r.brand_name, market: r.market })),
    },
    layer: [
      {
        mark: {
          type: 'boxplot',
          extent: 1.5,
          size: 18,
          color: BOX_COLOUR,
          median: { color: '#1A1A1A', strokeWidth: 2 },
          rule: { color: '#555555' },
          outliers: { color: '#555555', size: 20 },
        },
        encoding: { y: sectorAxis(layout), x: layout.x },
      },
    ],
  }),
};

const summaryBoxes: Boxes<SectorSummaryRow> = {
  value: (r) => r.mean,
  subtitle: (what, year, markets) => `Sector means of ${what.toLowerCase()}, ${year}, across ${markets.length} market${markets.length > 1 ? 's' : ''}; one point per market.`,
  panel: (rows, layout) => {
    const fmt = scoreFormat(layout.scoreType, 'tooltip');
    const y = sectorAxis(layout);
    return {
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
      layer: [
        {
          mark: { type: 'boxplot', extent: 'min-max', size: 18, color: BOX_COLOUR, opacity: 0.5, median: { color: '#1A1A1A', strokeWidth: 2 }, rule: { color: '#555555' } },
          encoding: { y, x: layout.x },
        },
        {
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
