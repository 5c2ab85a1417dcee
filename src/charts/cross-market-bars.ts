/**
 * Cross-market bars: one entity's metrics in each market, against their cross-market means.
 */
import type { CrossMarketRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import { CHART_COLOURS, CHART_FONT_SIZES, chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { measureText } from './measure-text.js';
import { type MetricPanel, type MetricPanelOptions, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains, startsRow } from './metric-panels.js';
import { barDomain, formatScore, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { truncateLabel } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `crossMarketBars`.
 *
 * @example
 * crossMarketBars(rows, { entityId: 42, column: 'esteem_rank' });
 * crossMarketBars(rows, { entityId: 42, columns: 2 }); // every metric of the rows, two panels a row
 */
export interface CrossMarketBarsOptions extends ChartOptions, MetricPanelOptions {
  /** The entity to show (`entity_id`); needed when the rows hold several. */
  entityId?: number;
}

/** Pixels between a bar's end and its value label. */
const LABEL_GAP = 4;
/** Space above the plot for the mean's label, under a panel's title. */
const MEAN_LABEL_SPACE = 18;

/**
 * One brand's (or sector's, or company's) metric across markets as horizontal bars, with the
 * cross-market mean as a dashed rule; bars above the mean and below it get different colours.
 * Value labels never sit on the mean's rule: a label the rule would cross goes inside its bar, or
 * past the rule when the bar is too short to hold it.
 *
 * Rows: `crossMarket(...).rows()`; the builder keeps the rows of one entity. With several metric
 * columns (and no `column` option) it draws one panel per metric, side by side, markets in the
 * same order in every panel (by the first metric, highest first), so a market reads across a row.
 *
 * @example
 * const spec = crossMarketBars(rows, { entityId: 42, column: 'relevance_rank' });
 * const pillars = crossMarketBars(rows, { entityId: 42 }); // one panel per pillar
 */
export function crossMarketBars(rows: readonly CrossMarketRow[], options: CrossMarketBarsOptions = {}): ChartSpec {
  firstRow(rows, 'cross-market bar chart');
  const entityId = pickOne(rows.map((r) => r.entity_id), options.entityId, 'entity', 'entityId');
  const ofEntity = rows.filter((r) => r.entity_id === entityId);
  // A metric the entity has no value for gets no panel (an empty one would say less than none).
  const panels = metricPanels(ofEntity, options.column, 'cross-market bar chart')
    .map((p) => ({ ...p, rows: p.rows.filter((r) => r.value !== null) }))
    .filter((p) => p.rows.length > 0);
  const first = firstRow(panels.flatMap((p) => p.rows), 'cross-market bar chart');
  const name = entityNames(ofEntity).get(entityKey(first)) ?? first.entity_name;
  const multi = panels.length > 1;
  const width = options.width ?? (multi ? 200 : 420);
  const domains = sharedDomains(panels, (p) => p.rows.flatMap((r) => [r.value, r.cross_market_mean]), barDomain);
  const marketLabel = (r: CrossMarketRow): string =>
    // The local name next to the market where it is not the name in the title (Walkers in the
    // United Kingdom for Lay's): the reader sees which brand the survey asked about.
    r.entity_name === name ? truncateLabel(r.market, 20) : `${truncateLabel(r.market, 20)} (${truncateLabel(r.entity_name, 18)})`;
  // Markets by the first panel's values, highest first; markets it lacks follow by name.
  const byValue = (list: readonly CrossMarketRow[]) => [...list].sort((a, b) => (b.value ?? 0) - (a.value ?? 0) || compareNames(a.market, b.market));
  const order = distinct([...byValue(panels[0]?.rows ?? []), ...[...panels.flatMap((p) => p.rows)].sort((a, b) => compareNames(a.market, b.market))].map(marketLabel));
  const markets = distinct(panels.flatMap((p) => p.rows.map((r) => r.market))).length;
  const legend = distinct(panels.flatMap((p) => p.rows.map(positionOf))).length > 1;

  if (!multi) {
    const metric = panels[0]?.title ?? '';
    const panel = barsPanel(panels, 0, { order, width, domain: domains.get(first.column) ?? [0, 100], marketLabel, axisTitle: metric, yTitle: 'Market', legend });
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${name}: ${first.metric_name} across markets`, `${metric}, ${first.year}; the line marks the mean of the ${markets} markets.`),
      config: chartTheme,
      width,
      height: options.height ?? { step: 24 },
      ...panel,
    };
  }

  const columns = panelColumns(panels.length, options.columns, 4);
  const unit = scoreWords(panels);
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(
      options,
      `${name}: ${metricList(panels)} across markets`,
      `${unit === undefined ? '' : `${unit}, `}${first.year}; dashed lines mark each metric's mean over the ${markets} markets.`,
    ),
    config: chartTheme,
    columns,
    spacing: { column: 16, row: 20 },
    concat: panels.map((p, i) => ({
      title: panelTitle(p.title, MEAN_LABEL_SPACE),
      width,
      height: options.height ?? { step: 24 },
      ...barsPanel(panels, i, { order, width, domain: domains.get(p.column) ?? [0, 100], marketLabel, axisTitle: null, yTitle: startsRow(i, columns) ? 'Market' : undefined, legend }),
    })),
  });
}

interface PanelLayout {
  /** Market labels, top to bottom. */
  order: string[];
  width: number;
  domain: [number, number];
  marketLabel: (r: CrossMarketRow) => string;
  /** The value axis title; null where the panel's title names the metric. */
  axisTitle: string | null;
  /** The market axis title; undefined hides the market axis (panels after the first of a row). */
  yTitle: string | undefined;
  /** Whether the colours need a legend (bars on both sides of a mean somewhere). */
  legend: boolean;
}

function positionOf(r: CrossMarketRow): 'Above the mean' | 'Below the mean' {
  return (r.diff_from_mean ?? 0) >= 0 ? 'Above the mean' : 'Below the mean';
}

/** One metric's bars, the mean's rule and label, and value labels placed clear of the rule. */
function barsPanel(panels: readonly MetricPanel<CrossMarketRow>[], index: number, layout: PanelLayout): LayeredPanel {
  const panel = panels[index];
  if (panel === undefined) throw new RangeError(`no panel ${index}`);
  const first = firstRow(panel.rows, 'cross-market bar chart');
  const { scoreType } = panel;
  const mean = first.cross_market_mean;
  const { domain, width } = layout;
  const span = domain[1] - domain[0] || 1;
  const px = (v: number): number => ((v - domain[0]) / span) * width;
  const toValue = (x: number): number => domain[0] + (x / width) * span;
  const base = px(Math.min(Math.max(0, domain[0]), domain[1]));
  const meanPx = mean === null ? undefined : px(mean);
  const brand = first.entity_kind === 'brand';
  const metric = panel.title;

  const values = panel.rows.map((r) => {
    const value = r.value ?? 0;
    const label = formatScore(value, scoreType);
    const position = positionOf(r);
    const place = placeLabel(px(value), base, measureText(label, CHART_FONT_SIZES.mark, false), meanPx);
    return {
      market: layout.marketLabel(r),
      market_name: r.market,
      name: r.entity_name,
      global_name: r.global_name,
      value: r.value,
      diff: r.diff_from_mean,
      position,
      market_rank: r.market_rank === null ? null : `${r.market_rank} of ${r.markets_compared}`,
      label,
      label_x: toValue(place.x),
      label_align: place.align,
      // Inside a bar: white on the dark blue, dark on the light orange.
      label_colour: place.inside && position === 'Above the mean' ? 'white' : '#333333',
    };
  });

  // The field title names the metric in the marks' descriptions (what screen readers say), even
  // where the panel's title does so for the eye; the axis format rounds the values there.
  const x = {
    type: 'quantitative' as const,
    title: metric,
    scale: { domain, nice: false },
    axis: { format: scoreFormat(scoreType), ...(layout.axisTitle === null ? { title: null } : {}) },
  };
  const y = {
    field: 'market',
    type: 'nominal' as const,
    // The same rows in every panel, even where a panel lacks a market.
    scale: { domain: layout.order },
    ...(layout.yTitle === undefined ? { title: null, axis: null } : { title: layout.yTitle, axis: { ticks: false } }),
  };
  const valueFormat = scoreFormat(scoreType, 'tooltip');
  const text = (align: 'left' | 'right') => ({
    transform: [{ filter: `datum.label_align === '${align}'` }],
    // The labels repeat what the bars' descriptions say: hidden from screen readers.
    mark: { type: 'text' as const, align, baseline: 'middle' as const, aria: false },
    encoding: {
      x: { ...x, field: 'label_x' },
      text: { field: 'label', type: 'nominal' as const },
      color: { field: 'label_colour', type: 'nominal' as const, scale: null },
    },
  });
  return {
    layer: [
      // The mean first, so bars and their labels are drawn over the line rather than under it.
      ...(mean === null
        ? []
        : [
            {
              data: { values: [{ mean, label: `Mean ${formatScore(mean, scoreType)}` }] },
              layer: [
                {
                  mark: { type: 'rule' as const, color: CHART_COLOURS.reference, strokeDash: [5, 3], strokeWidth: 1.5 },
                  encoding: {
                    x: { ...x, field: 'mean' },
                    tooltip: [{ field: 'mean', type: 'quantitative' as const, title: 'Cross-market mean', format: valueFormat }],
                  },
                },
                {
                  // Above the plot, so the label never sits on a bar.
                  mark: { type: 'text' as const, align: 'center' as const, baseline: 'bottom' as const, y: -4, color: CHART_COLOURS.reference, fontWeight: 'bold' as const, aria: false },
                  encoding: { x: { ...x, field: 'mean' }, text: { field: 'label', type: 'nominal' as const } },
                },
              ],
            },
          ]),
      {
        data: { values },
        encoding: {
          y,
          tooltip: [
            { field: 'market_name', type: 'nominal', title: 'Market' },
            { field: 'name', type: 'nominal', title: brand ? `${entityNoun(first.entity_kind)} (local name)` : entityNoun(first.entity_kind) },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'value', type: 'quantitative', title: metric, format: valueFormat },
            { field: 'diff', type: 'quantitative', title: 'Difference from the mean', format: `+${valueFormat}` },
            { field: 'market_rank', type: 'nominal', title: 'Rank among markets' },
          ],
        },
        layer: [
          {
            mark: { type: 'bar', height: { band: 0.72 } },
            encoding: {
              x: { ...x, field: 'value' },
              color: {
                field: 'position',
                type: 'nominal',
                title: null,
                scale: { domain: ['Above the mean', 'Below the mean'], range: [CHART_COLOURS.above, CHART_COLOURS.below] },
                // Bars all on one side (one market: its value is the mean) need no legend.
                legend: layout.legend ? { orient: 'bottom' } : null,
              },
            },
          },
          text('left'),
          text('right'),
        ],
      },
    ],
  };
}

/**
 * Where a bar's value label goes, in pixels from the plot's left edge: just past the bar's end;
 * inside the bar when the mean's rule would cross the label there; past the rule when the bar is
 * too short to hold the label.
 */
function placeLabel(end: number, base: number, textWidth: number, meanPx: number | undefined): { x: number; align: 'left' | 'right'; inside: boolean } {
  const right = end >= base;
  const sign = right ? 1 : -1;
  const near = end + sign * LABEL_GAP;
  const far = near + sign * textWidth;
  const crossed = meanPx !== undefined && meanPx >= Math.min(near, far) - 2 && meanPx <= Math.max(near, far) + 2;
  if (!crossed) return { x: near, align: right ? 'left' : 'right', inside: false };
  if (Math.abs(end - base) >= textWidth + 2 * LABEL_GAP) return { x: end - sign * LABEL_GAP, align: right ? 'right' : 'left', inside: true };
  return { x: (meanPx ?? end) + sign * LABEL_GAP, align: right ? 'left' : 'right', inside: false };
}
