/**
 * Cross-market bars: one entity's metric in each market, against its cross-market mean.
 */
import type { CrossMarketRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle } from './chart-spec.js';
import { CHART_COLOURS, chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { formatScore, metricTitle, scoreFormat, scoreScale } from './metric-title.js';
import { firstRow, pickOne } from './pick-one.js';
import { truncateLabel } from './truncate-label.js';

/**
 * Options of `crossMarketBars`.
 *
 * @example
 * crossMarketBars(rows, { entityId: 42, column: 'esteem_rank' });
 */
export interface CrossMarketBarsOptions extends ChartOptions {
  /** The entity to show (`entity_id`); needed when the rows hold several. */
  entityId?: number;
  /** The metric column to show, e.g. `esteem_rank`; needed when the rows hold several. */
  column?: string;
}

/**
 * One brand's (or sector's, or company's) metric across markets as horizontal bars, highest
 * first, with the cross-market mean as a vertical rule; bars above the mean and below it get
 * different colours.
 *
 * Rows: `crossMarket(...).rows()`; the builder keeps the rows of one entity and one column.
 *
 * @example
 * const spec = crossMarketBars(rows, { entityId: 42, column: 'relevance_rank' });
 */
export function crossMarketBars(rows: readonly CrossMarketRow[], options: CrossMarketBarsOptions = {}): ChartSpec {
  firstRow(rows, 'cross-market bar chart');
  const entityId = pickOne(rows.map((r) => r.entity_id), options.entityId, 'entity', 'entityId');
  const ofEntity = rows.filter((r) => r.entity_id === entityId);
  const column = pickOne(ofEntity.map((r) => r.column), options.column, 'metric column', 'column');
  const picked = ofEntity.filter((r) => r.column === column && r.value !== null);
  const first = firstRow(picked, 'cross-market bar chart');
  const name = entityNames(picked).get(entityKey(first)) ?? first.entity_name;
  const mean = first.cross_market_mean;
  const metric = metricTitle(first.metric_name, first.score_type);
  const scale = scoreScale(first.score_type);
  const brand = first.entity_kind === 'brand';

  const values = picked
    .map((r) => ({
      // The local name next to the market where it is not the name in the title (Walkers in the
      // United Kingdom for Lay's): the reader sees which brand the survey asked about.
      market: r.entity_name === name ? truncateLabel(r.market, 20) : `${truncateLabel(r.market, 20)} (${truncateLabel(r.entity_name, 18)})`,
      market_name: r.market,
      name: r.entity_name,
      global_name: r.global_name,
      value: r.value,
      diff: r.diff_from_mean,
      position: (r.diff_from_mean ?? 0) >= 0 ? 'Above the mean' : 'Below the mean',
      market_rank: r.market_rank === null ? null : `${r.market_rank} of ${r.markets_compared}`,
    }))
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || a.market_name.localeCompare(b.market_name));

  const x = {
    field: 'value',
    type: 'quantitative' as const,
    title: metric,
    ...(scale.domain ? { scale: { domain: scale.domain } } : {}),
  };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${name}: ${first.metric_name} across markets`, `${metric}, ${first.year}; the line marks the mean of the ${picked.length} markets.`),
    config: chartTheme,
    width: options.width ?? 420,
    height: options.height ?? { step: 24 },
    layer: [
      // The mean first, so bars and their labels are drawn over the line rather than under it.
      ...(mean === null
        ? []
        : [
            {
              data: { values: [{ mean, label: `Mean ${formatScore(mean, first.score_type)}` }] },
              layer: [
                {
                  mark: { type: 'rule' as const, color: CHART_COLOURS.reference, strokeDash: [5, 3], strokeWidth: 1.5 },
                  encoding: {
                    x: { field: 'mean', type: 'quantitative' as const, title: metric },
                    tooltip: [{ field: 'mean', type: 'quantitative' as const, title: 'Cross-market mean', format: scoreFormat(first.score_type, 'tooltip') }],
                  },
                },
                {
                  // Above the plot, so the label never sits on a bar.
                  mark: { type: 'text' as const, align: 'center' as const, baseline: 'bottom' as const, y: -4, color: CHART_COLOURS.reference, fontWeight: 'bold' as const },
                  encoding: { x: { field: 'mean', type: 'quantitative' as const, title: metric }, text: { field: 'label', type: 'nominal' as const } },
                },
              ],
            },
          ]),
      {
        data: { values },
        encoding: {
          y: { field: 'market', type: 'nominal', sort: values.map((v) => v.market), title: 'Market', axis: { ticks: false } },
          x,
          tooltip: [
            { field: 'market_name', type: 'nominal', title: 'Market' },
            { field: 'name', type: 'nominal', title: brand ? `${entityNoun(first.entity_kind)} (local name)` : entityNoun(first.entity_kind) },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'value', type: 'quantitative', title: metric, format: scoreFormat(first.score_type, 'tooltip') },
            { field: 'diff', type: 'quantitative', title: 'Difference from the mean', format: `+${scoreFormat(first.score_type, 'tooltip')}` },
            { field: 'market_rank', type: 'nominal', title: 'Rank among markets' },
          ],
        },
        layer: [
          {
            mark: { type: 'bar', height: { band: 0.72 } },
            encoding: {
              color: {
                field: 'position',
                type: 'nominal',
                title: null,
                scale: { domain: ['Above the mean', 'Below the mean'], range: [CHART_COLOURS.above, CHART_COLOURS.below] },
                legend: { orient: 'bottom' },
              },
            },
          },
          {
            mark: { type: 'text', align: 'left', baseline: 'middle', dx: 4, color: '#333333' },
            encoding: { text: { field: 'value', type: 'quantitative', format: scoreFormat(first.score_type) } },
          },
        ],
      },
    ],
  };
}
