/**
 * Cross-market heatmap: entities (brands, companies or sectors) down, markets across, each cell
 * coloured by the metric and labelled with its value.
 */
import type { CrossMarketRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { heatColour, legendLength } from './heat-colour.js';
import { metricLegendTitle, metricTitle, scoreFormat } from './metric-title.js';
import { firstRow, pickOne } from './pick-one.js';
import { truncateLabel, uniqueLabels } from './truncate-label.js';

/**
 * Options of `crossMarketHeatmap`.
 *
 * @example
 * crossMarketHeatmap(rows, { column: 'differentiation_rank', sort: 'name' });
 */
export interface CrossMarketHeatmapOptions extends ChartOptions {
  /** The metric column to show, e.g. `differentiation_rank`; needed when the rows hold several. */
  column?: string;
  /** Row order: by the entity's cross-market mean, highest first (default), or by name. */
  sort?: 'mean' | 'name';
  /** Width of one cell in pixels. Default 64. */
  cellWidth?: number;
  /** Height of one cell in pixels. Default 26. */
  cellHeight?: number;
}

/**
 * Markets × brands (or sectors, or companies), coloured by the metric, values labelled. A
 * percentile rank column (`*_rank`) is the natural choice: ranks are comparable across markets,
 * and the colours diverge around the median 50. Other score types get a scale of their own.
 *
 * Rows: `crossMarket(...).rows()`, one per entity × market × metric column. Missing values leave
 * the cell blank. The row label is the brand's local name when every market uses it, else its
 * global name; the tooltip gives the local name of each market.
 *
 * @example
 * const spec = crossMarketHeatmap(rows, { column: 'differentiation_rank' });
 * await writeFile('heatmap.png', await renderPng(spec, { scale: 2 }));
 */
export function crossMarketHeatmap(rows: readonly CrossMarketRow[], options: CrossMarketHeatmapOptions = {}): ChartSpec {
  firstRow(rows, 'cross-market heatmap');
  const column = pickOne(rows.map((r) => r.column), options.column, 'metric column', 'column');
  const picked = rows.filter((r) => r.column === column);
  const first = firstRow(picked, 'cross-market heatmap');
  const year = pickOne(picked.map((r) => r.year), undefined, 'year', 'year');
  const max = labelLength(options);

  const names = entityNames(picked);
  const means = new Map<string, number>();
  for (const r of picked) if (r.cross_market_mean !== null) means.set(entityKey(r), r.cross_market_mean);
  const byName = options.sort === 'name';
  const keys = [...names.keys()].sort((a, b) => {
    if (!byName) {
      const d = (means.get(b) ?? -Infinity) - (means.get(a) ?? -Infinity);
      if (d !== 0) return d;
    }
    return (names.get(a) ?? '').localeCompare(names.get(b) ?? '');
  });
  const labels = uniqueLabels(keys.map((key) => ({ key, name: names.get(key) ?? key })), max);
  const markets = [...new Set(picked.map((r) => r.market))].sort((a, b) => a.localeCompare(b));
  const marketLabels = new Map(markets.map((m) => [m, truncateLabel(m, 16)]));

  const values = picked
    .filter((r) => r.value !== null)
    .map((r) => ({
      entity: labels.get(entityKey(r)) ?? r.entity_name,
      market_label: marketLabels.get(r.market) ?? r.market,
      market: r.market,
      name: r.entity_name,
      global_name: r.global_name,
      value: r.value,
      mean: r.cross_market_mean,
      market_rank: r.market_rank === null ? null : `${r.market_rank} of ${r.markets_compared}`,
    }));
  const colour = heatColour(values.map((v) => v.value ?? NaN), first.score_type, 'value');
  const title = metricTitle(first.metric_name, first.score_type);
  const noun = entityNoun(first.entity_kind);
  const brands = picked.some((r) => r.entity_kind === 'brand');
  const cellWidth = options.cellWidth ?? 64;
  const cellHeight = options.cellHeight ?? 26;

  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${first.metric_name} across markets`, `${title}, ${year}. ${byName ? 'Rows sorted by name' : 'Rows sorted by the cross-market mean'}; blank cells have no data.`),
    config: chartTheme,
    data: { values },
    // Grey behind the cells, so a missing value reads as a gap in the grid rather than as white.
    view: { fill: '#F0F0F0', stroke: null },
    width: options.width ?? { step: cellWidth },
    height: options.height ?? { step: cellHeight },
    encoding: {
      x: {
        field: 'market_label',
        type: 'nominal',
        sort: markets.map((m) => marketLabels.get(m) ?? m),
        title: 'Market',
        axis: { orient: 'top', labelAngle: -40, labelAlign: 'left', domain: false, ticks: false },
      },
      y: {
        field: 'entity',
        type: 'nominal',
        sort: keys.map((k) => labels.get(k) ?? k),
        title: noun,
        axis: { domain: false, ticks: false },
      },
      tooltip: [
        { field: 'name', type: 'nominal', title: brands ? `${noun} (local name)` : noun },
        ...(brands ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
        { field: 'market', type: 'nominal', title: 'Market' },
        { field: 'value', type: 'quantitative', title, format: scoreFormat(first.score_type, 'tooltip') },
        { field: 'mean', type: 'quantitative', title: 'Cross-market mean', format: scoreFormat(first.score_type, 'tooltip') },
        { field: 'market_rank', type: 'nominal', title: 'Rank among markets' },
      ],
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          color: { field: 'value', type: 'quantitative', title: metricLegendTitle(first.metric_name, first.score_type), scale: colour.scale, legend: { orient: 'right', gradientLength: legendLength(keys.length, cellHeight) } },
        },
      },
      {
        mark: { type: 'text', baseline: 'middle' },
        encoding: {
          text: { field: 'value', type: 'quantitative', format: scoreFormat(first.score_type) },
          color: { condition: { test: colour.darkTest, value: 'white' }, value: '#222222' },
        },
      },
    ],
  };
}
