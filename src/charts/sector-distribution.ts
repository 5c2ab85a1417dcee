/**
 * Sector distribution: box plots of a metric per sector, across markets.
 */
import type { SectorSummaryRow, SectorValueRow } from '../frames/types.js';
import { quantileSorted } from '../frames/stats.js';
import type { ScoreType } from '../schemas/score-types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { metricTitle, scoreFormat, scoreScale } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';

/**
 * Options of `sectorDistribution`.
 *
 * @example
 * sectorDistribution(rows, { column: 'relevance_rank', year: 2024 });
 */
export interface SectorDistributionOptions extends ChartOptions {
  /** The metric column; needed when the rows hold several. */
  column?: string;
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
  return isValueRows(rows) ? fromValues(rows, options) : fromSummaries(rows, options);
}

/** Brand-level rows carry a `brand_id`; summaries do not (an array holds one kind or the other). */
function isValueRows(rows: readonly SectorValueRow[] | readonly SectorSummaryRow[]): rows is readonly SectorValueRow[] {
  const first = rows[0];
  return first !== undefined && 'brand_id' in first;
}

interface Picked<R> {
  rows: R[];
  first: R;
  year: number;
  markets: string[];
}

function pick<R extends SectorValueRow | SectorSummaryRow>(rows: readonly R[], options: SectorDistributionOptions): Picked<R> {
  const column = pickOne(rows.map((r) => r.column), options.column, 'metric column', 'column');
  const ofColumn = rows.filter((r) => r.column === column);
  const year = pickOne(ofColumn.map((r) => r.year), options.year, 'year', 'year');
  const picked = ofColumn.filter((r) => r.year === year);
  return { rows: picked, first: firstRow(picked, 'sector distribution'), year, markets: distinct(picked.map((r) => r.market)).sort() };
}

/** Sector labels (truncated, unique) in order of their median value, highest first. */
function sectorOrder(entries: readonly { sector_id: number; sector_name: string; value: number }[], max: number): { order: string[]; labels: Map<number, string> } {
  const byId = new Map<number, { name: string; values: number[] }>();
  for (const e of entries) {
    const s = byId.get(e.sector_id) ?? { name: e.sector_name, values: [] };
    s.values.push(e.value);
    byId.set(e.sector_id, s);
  }
  // The median as the frames compute it (`quantileSorted`, numpy's `linear`), as in `sectorSummary`.
  const medians = new Map([...byId].map(([id, s]) => [id, quantileSorted(s.values.sort((a, b) => a - b), 0.5)]));
  const ids = [...byId.keys()].sort((a, b) => (medians.get(b) ?? 0) - (medians.get(a) ?? 0) || (byId.get(a)?.name ?? '').localeCompare(byId.get(b)?.name ?? ''));
  const labels = uniqueLabels(ids.map((id) => ({ key: id, name: byId.get(id)?.name ?? String(id) })), max);
  return { order: ids.map((id) => labels.get(id) ?? String(id)), labels };
}

function axis(scoreType: ScoreType, metricName: string): { field: string; type: 'quantitative'; title: string; scale?: { domain: [number, number] } } {
  const scale = scoreScale(scoreType);
  return { field: 'value', type: 'quantitative', title: metricTitle(metricName, scoreType), ...(scale.domain ? { scale: { domain: scale.domain } } : {}) };
}

function fromValues(rows: readonly SectorValueRow[], options: SectorDistributionOptions): ChartSpec {
  const { rows: picked, first, year, markets } = pick(rows, options);
  const { order, labels } = sectorOrder(picked, labelLength(options));
  const values = picked.map((r) => ({ sector: labels.get(r.sector_id) ?? r.sector_name, sector_name: r.sector_name, value: r.value, brand: r.brand_name, market: r.market }));
  const x = axis(first.score_type, first.metric_name);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(
      options,
      `${first.metric_name} by sector`,
      `${metricTitle(first.metric_name, first.score_type)}, ${year}: brands in ${markets.length} market${markets.length > 1 ? 's' : ''} (${markets.join(', ')}).`,
    ),
    config: chartTheme,
    data: { values },
    width: options.width ?? 440,
    height: options.height ?? { step: 34 },
    mark: {
      type: 'boxplot',
      extent: 1.5,
      size: 18,
      color: BOX_COLOUR,
      median: { color: '#1A1A1A', strokeWidth: 2 },
      rule: { color: '#555555' },
      outliers: { color: '#555555', size: 20 },
    },
    encoding: {
      y: { field: 'sector', type: 'nominal', sort: order, title: 'Sector', axis: { ticks: false } },
      x,
    },
  };
}

function fromSummaries(rows: readonly SectorSummaryRow[], options: SectorDistributionOptions): ChartSpec {
  const { rows: picked, first, year, markets } = pick(rows, options);
  const withMean = picked.flatMap((r) => (r.mean === null ? [] : [{ ...r, value: r.mean }]));
  const { order, labels } = sectorOrder(withMean, labelLength(options));
  const fmt = scoreFormat(first.score_type, 'tooltip');
  const values = withMean.map((r) => ({
    sector: labels.get(r.sector_id) ?? r.sector_name,
    sector_name: r.sector_name,
    market: r.market,
    value: r.value,
    median: r.median,
    q1: r.q1,
    q3: r.q3,
    count: r.count,
  }));
  const x = axis(first.score_type, first.metric_name);
  const y = { field: 'sector', type: 'nominal' as const, sort: order, title: 'Sector', axis: { ticks: false } };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(
      options,
      `${first.metric_name} by sector`,
      `Sector means of ${metricTitle(first.metric_name, first.score_type).toLowerCase()}, ${year}, across ${markets.length} market${markets.length > 1 ? 's' : ''}; one point per market.`,
    ),
    config: chartTheme,
    data: { values },
    width: options.width ?? 440,
    height: options.height ?? { step: 34 },
    layer: [
      {
        mark: { type: 'boxplot', extent: 'min-max', size: 18, color: BOX_COLOUR, opacity: 0.5, median: { color: '#1A1A1A', strokeWidth: 2 }, rule: { color: '#555555' } },
        encoding: { y, x },
      },
      {
        mark: { type: 'point', filled: true, size: 36, color: '#1A1A1A', opacity: 0.8 },
        encoding: {
          y,
          x,
          tooltip: [
            { field: 'sector_name', type: 'nominal', title: 'Sector' },
            { field: 'market', type: 'nominal', title: 'Market' },
            { field: 'value', type: 'quantitative', title: 'Mean', format: fmt },
            { field: 'median', type: 'quantitative', title: 'Median', format: fmt },
            { field: 'q1', type: 'quantitative', title: 'First quartile', format: fmt },
            { field: 'q3', type: 'quantitative', title: 'Third quartile', format: fmt },
            { field: 'count', type: 'quantitative', title: 'Brands' },
          ],
        },
      },
    ],
  };
}
