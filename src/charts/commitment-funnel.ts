/**
 * Commitment funnel: for each brand (and category it was asked in), the share of respondents at
 * each stage, usage, preference, recommendation, as horizontal bars, stage by stage, so the drop
 * from one stage to the next reads across the rows.
 */
import { UsageError } from '../errors.js';
import type { FunnelEntry } from '../schemas/turbo-pitch.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { published } from './vega-lite-spec.js';
import { CHART_FONT_SIZES, CHART_PALETTE, chartTheme } from './chart-theme.js';
import { uniqueLabels } from './truncate-label.js';

/**
 * A funnel chart of `client.turboPitch.commitmentFunnel(...)`'s entries.
 *
 * @example
 * const entries = await client.turboPitch.commitmentFunnel({ brands: [368, 412], studies: 381 });
 * const png = await renderPng(commitmentFunnelChart(entries));
 */
export function commitmentFunnelChart(entries: readonly FunnelEntry[], options: ChartOptions = {}): ChartSpec {
  if (entries.length === 0) throw new UsageError('The commitment funnel has no entries to draw: the tool returned none for these brands and studies.');
  const several = new Set(entries.map((e) => e.brand_id)).size < entries.length;
  const rowName = (e: FunnelEntry) => `${e.brand_name ?? `Brand ${e.brand_id}`}${several ? ` (${e.category_name ?? e.category_id})` : ''}`;
  const labels = uniqueLabels(entries.map((e, i) => ({ key: i, name: rowName(e) })), labelLength(options));
  const stages = entries[0]?.metrics.map((m) => m.label ?? m.key) ?? [];
  const values = entries.flatMap((e, i) =>
    e.metrics.map((m, s) => ({ row: labels.get(i) ?? rowName(e), full_name: rowName(e), stage: m.label ?? m.key, order: s, value: m.value, study_id: e.study_id })),
  );
  const studies = [...new Set(entries.map((e) => e.study_id))];
  const width = options.width ?? 180;
  const rowHeight = 22;
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, 'Commitment funnel', `Share of respondents (%), stage by stage; study ${studies.join(', ')}, audience ${entries[0]?.audience_id ?? 1}.`),
    config: chartTheme,
    data: { values },
    facet: { column: { field: 'stage', type: 'nominal', sort: stages, title: null, header: { labelFontSize: CHART_FONT_SIZES.axisTitle, labelFontWeight: 'bold' } } },
    spec: {
      width,
      height: { step: rowHeight },
      layer: [
        {
          mark: { type: 'bar', color: CHART_PALETTE[0], cornerRadiusEnd: 2 },
          encoding: {
            y: { field: 'row', type: 'nominal', sort: null, title: null },
            x: { field: 'value', type: 'quantitative', title: '%', scale: { domain: [0, 100] } },
            tooltip: [
              { field: 'full_name', type: 'nominal', title: 'Brand' },
              { field: 'stage', type: 'nominal', title: 'Stage' },
              { field: 'value', type: 'quantitative', title: '%', format: '.1f' },
            ],
          },
        },
        {
          mark: { type: 'text', align: 'left', dx: 3, fontSize: CHART_FONT_SIZES.mark, color: '#333333' },
          encoding: {
            y: { field: 'row', type: 'nominal', sort: null, title: null },
            x: { field: 'value', type: 'quantitative', title: '%' },
            text: { field: 'value', type: 'quantitative', format: '.0f' },
          },
        },
      ],
    },
    resolve: { scale: { x: 'shared' } },
  });
}
