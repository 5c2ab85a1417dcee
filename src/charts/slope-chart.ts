/**
 * Slope chart: each brand's value in one period against another (year A → year B), one line per
 * brand, labelled at both ends.
 */
import { trendOf, trendThreshold } from '../frames/trend-rule.js';
import type { CrossYearRow } from '../frames/types.js';
import { listText } from '../frames/list-text.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import type { ScoreType } from '../schemas/score-types.js';
import { CHART_COLOURS, CHART_FONT_SIZES, chartTheme } from './chart-theme.js';
import { dodgeLabels } from './dodge-labels.js';
import { entityKey, entityNoun } from './entity-names.js';
import { type MetricPanel, type MetricPanelOptions, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains } from './metric-panels.js';
import { formatScore, lineDomain, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';

/**
 * Options of `slopeChart`.
 *
 * @example
 * slopeChart(rows, { market: 'DE', from: '2019', to: '2024' });
 */
export interface SlopeChartOptions extends ChartOptions, MetricPanelOptions {
  /** The market (`country_code`); needed when the rows hold several. */
  market?: string;
  /** The first period (`period`, e.g. `2020` or `2024 Q1`). Default: the earliest in the rows. */
  from?: string;
  /** The second period. Default: the latest in the rows. */
  to?: string;
  /**
   * The focus entity's id (a brand, company or sector id): its line is drawn thicker and opaque,
   * its labels bold, the other lines thinner and faded.
   */
  focus?: number;
}

type Direction = 'Up' | 'Down' | 'Flat';

/**
 * Year A → year B per brand in one market: a line per brand from its value in the first period to
 * its value in the second, coloured by direction (up blue, down vermillion, grey where the two
 * labels show the same number).
 * Labels at both ends carry the (local) name and the value, moved apart so that they never
 * overlap. Brands without a value in both periods are left out (the subtitle says how many).
 * Percentile ranks keep their whole 0–100 scale, so a small change looks small (see `lineDomain`).
 *
 * Rows: `crossYear(...).rows()`. With several metric columns (and no `column` option), one panel
 * per metric, two a row by default, on one scale for panels of one score type.
 *
 * @example
 * const spec = slopeChart(rows, { market: 'GB', from: '2020', to: '2024' });
 * const pillars = slopeChart(rows, { market: 'GB' }); // a panel per pillar
 */
export function slopeChart(rows: readonly CrossYearRow[], options: SlopeChartOptions = {}): ChartSpec {
  const all = metricPanels(rows, options.column, 'slope chart');
  const market = pickOne(all.flatMap((p) => p.rows.map((r) => r.country_code)), options.market, 'market', 'market');
  const panels = all.map((p) => ({ ...p, rows: p.rows.filter((r) => r.country_code === market && r.value !== null) })).filter((p) => p.rows.length > 0);
  const inMarket = panels.flatMap((p) => p.rows);
  const first = firstRow(inMarket, 'slope chart');
  const periods = distinct(inMarket.map((r) => r.period)).sort((a, b) => orderOf(inMarket, a) - orderOf(inMarket, b));
  const from = pickOne(inMarket.map((r) => r.period), options.from ?? periods[0], 'period', 'from');
  const to = pickOne(inMarket.map((r) => r.period), options.to ?? periods[periods.length - 1], 'period', 'to');
  const noun = entityNoun(first.entity_kind);

  const paired = panels.map((p) => ({ panel: p, ...pairsOf(p.rows, from, to) }));
  firstRow(
    paired.flatMap((p) => p.pairs),
    `slope chart (no ${first.entity_kind} has values in both ${from} and ${to})`,
  );
  const most = Math.max(...paired.map((p) => p.pairs.length));
  // The y scale is fixed here (not left to Vega) so that label positions can be computed in pixels.
  const height = options.height ?? Math.max(260, Math.min(560, most * 26));
  const width = options.width ?? 220;
  const domains = sharedDomains(panels, (p) => p.rows.filter((r) => r.period === from || r.period === to).map((r) => r.value), lineDomain);
  const present = new Set(paired.flatMap((p) => p.pairs.map((pair) => direction(pair.va, pair.vb, p.panel.scoreType))));
  // One colour scale for every panel: the directions any of them shows, in a fixed order.
  const directions = (['Up', 'Down', 'Flat'] as const).filter((d) => present.has(d));
  const palette = { Up: CHART_COLOURS.up, Down: CHART_COLOURS.down, Flat: CHART_COLOURS.flat };
  const color = {
    field: 'direction',
    type: 'nominal' as const,
    title: 'Change',
    scale: { domain: directions, range: directions.map((d) => palette[d]) },
    // A legend of one colour says nothing: the subtitle says where every line goes instead.
    legend: directions.length > 1 ? { orient: 'bottom' as const, direction: 'horizontal' as const } : null,
  };
  const one = directions.length === 1 ? ` ${directions[0] === 'Up' ? 'Every line goes up.' : directions[0] === 'Down' ? 'Every line goes down.' : 'Every line is flat (within the trend rule).'}` : '';
  const focus = options.focus !== undefined && distinct(inMarket.map(entityKey)).length > 1 && inMarket.some((r) => r.entity_id === options.focus) ? options.focus : undefined;
  const layout = { from, to, width, height, color, noun, brand: first.entity_kind === 'brand', max: labelLength(options), focus };
  const dropped = Math.max(...paired.map((p) => p.dropped));
  // One panel: the brands left out by name (a few), else how many.
  const names = paired.length === 1 ? paired[0]!.droppedNames : [];
  const leftOut =
    names.length > 0 && names.length <= 3
      ? ` ${listText(names)} left out: no value in both ${from} and ${to}.`
      : ` ${dropped} ${noun.toLowerCase()}${dropped > 1 ? 's' : ''} without both values left out${paired.length > 1 ? ' of some panels' : ''}.`;
  const notes = `${one}${dropped > 0 ? leftOut : ''}`;

  if (paired.length === 1) {
    const { panel, pairs } = firstRow(paired, 'slope chart');
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${first.metric_name}: ${from} to ${to}`, `${panel.title}, ${first.market}.${notes}`),
      config: chartTheme,
      width,
      height,
      ...slopePanel(panel, pairs, domains.get(panel.column) ?? [0, 100], layout),
    };
  }
  const unit = scoreWords(panels);
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${metricList(panels)}: ${from} to ${to}`, `${unit === undefined ? '' : `${unit}, `}${first.market}.${notes}`),
    config: chartTheme,
    columns: panelColumns(paired.length, options.columns, 2),
    spacing: { column: 24, row: 28 },
    concat: paired.map(({ panel, pairs }) => ({
      title: panelTitle(panel.title, 8, 'group'),
      width,
      height,
      ...slopePanel(panel, pairs, domains.get(panel.column) ?? [0, 100], layout),
    })),
  });
}

interface Pair {
  key: string;
  a: CrossYearRow;
  b: CrossYearRow;
  va: number;
  vb: number;
}

/** Each entity's values in the two periods; entities without both are dropped (counted, and named). */
function pairsOf(rows: readonly CrossYearRow[], from: string, to: string): { pairs: Pair[]; dropped: number; droppedNames: string[] } {
  const byEntity = new Map<string, { a?: CrossYearRow; b?: CrossYearRow }>();
  for (const r of rows) {
    if (r.period !== from && r.period !== to) continue;
    const pair = byEntity.get(entityKey(r)) ?? {};
    if (r.period === from) pair.a = r;
    if (r.period === to) pair.b = r;
    byEntity.set(entityKey(r), pair);
  }
  const pairs = [...byEntity.entries()].flatMap(([key, { a, b }]) => (a && b && a.value !== null && b.value !== null ? [{ key, a, b, va: a.value, vb: b.value }] : []));
  const kept = new Set(pairs.map((p) => p.key));
  const droppedNames = [...new Set(rows.filter((r) => !kept.has(entityKey(r))).map((r) => r.global_name))];
  return { pairs, dropped: byEntity.size - pairs.length, droppedNames };
}

/** Up, down or flat by the toolkit's trend rule (frames/trend-rule.ts), the rule of the tables' Trend column. */
function direction(a: number, b: number, scoreType: ScoreType): Direction {
  const trend = trendOf(b - a, trendThreshold(scoreType, a));
  return trend === 'up' ? 'Up' : trend === 'down' ? 'Down' : 'Flat';
}

interface SlopeLayout {
  from: string;
  to: string;
  width: number;
  height: number;
  color: Record<string, unknown>;
  noun: string;
  brand: boolean;
  max: number;
  /** The focus entity's id, when it has a line among others. */
  focus: number | undefined;
}

/** One metric's slopes, with end labels moved apart so that they never overlap. */
function slopePanel(panel: MetricPanel<CrossYearRow>, pairs: readonly Pair[], domain: [number, number], layout: SlopeLayout): LayeredPanel {
  const { from, to, height, noun, brand } = layout;
  const { scoreType } = panel;
  const labels = uniqueLabels(pairs.map((p) => ({ key: p.key, name: p.b.entity_name })), layout.max);
  const span = domain[1] - domain[0] || 1;
  const toPx = (v: number): number => ((domain[1] - v) / span) * height;
  const toValue = (px: number): number => domain[1] - (px / height) * span;
  const gap = CHART_FONT_SIZES.mark + 3;
  const leftY = dodgeLabels(pairs.map((p) => toPx(p.va)), gap, height);
  const rightY = dodgeLabels(pairs.map((p) => toPx(p.vb)), gap, height);
  const values = pairs.flatMap((p, i) => {
    const label = labels.get(p.key) ?? p.b.entity_name;
    const common = {
      series: p.key,
      name: p.b.entity_name,
      global_name: p.b.global_name,
      change: p.vb - p.va,
      direction: direction(p.va, p.vb, scoreType),
      ...(layout.focus === undefined ? {} : { focus: p.b.entity_id === layout.focus }),
    };
    return [
      { ...common, side: 'from', period: from, value: p.va, label_y: toValue(leftY[i] ?? 0), label: `${label}  ${formatScore(p.va, scoreType)}` },
      { ...common, side: 'to', period: to, value: p.vb, label_y: toValue(rightY[i] ?? 0), label: `${formatScore(p.vb, scoreType)}  ${label}` },
    ];
  });

  const metric = panel.title;
  // No visible value axis: the labels carry the values, and an axis would collide with the left
  // labels. The invisible one gives the marks' descriptions (read by screen readers) a format.
  const hidden = { format: scoreFormat(scoreType), labels: false, ticks: false, domain: false, grid: false, title: null };
  const y = { field: 'value', type: 'quantitative' as const, title: metric, scale: { domain, nice: false, zero: false }, axis: hidden };
  const labelY = { field: 'label_y', type: 'quantitative' as const, title: metric };
  const x = { field: 'period', type: 'ordinal' as const, title: null, sort: [from, to], scale: { padding: 0 }, axis: { orient: 'top' as const, labelFontWeight: 'bold' as const, labelAngle: 0, domain: false, ticks: false, labelPadding: 8 } };
  const tooltipFormat = scoreFormat(scoreType, 'tooltip');
  // End labels; with a focus, the focus's in bold (Vega-Lite has no font-weight channel: a layer each).
  const labelLayers = (side: 'from' | 'to', align: 'left' | 'right', dx: number) =>
    (layout.focus === undefined ? [''] : [' && !datum.focus', ' && datum.focus']).map((test) => ({
      transform: [{ filter: `datum.side === '${side}'${test}` }],
      mark: { type: 'text' as const, align, baseline: 'middle' as const, dx, color: '#333333', aria: false, ...(test === ' && datum.focus' ? { fontWeight: 'bold' as const } : {}) },
      encoding: { y: labelY, text: { field: 'label', type: 'nominal' as const } },
    }));
  return {
    data: { values },
    encoding: { x },
    layer: [
      {
        // With a focus the width is encoded (a width on the mark would win over the encoding).
        mark: { type: 'line', ...(layout.focus === undefined ? { strokeWidth: 2 } : {}) },
        encoding: {
          y,
          ...(layout.focus === undefined ? {} : { strokeWidth: { condition: { test: 'datum.focus', value: 3.5 }, value: 1.5 }, opacity: { condition: { test: 'datum.focus', value: 1 }, value: 0.4 } }),
          detail: { field: 'series', type: 'nominal' },
          color: layout.color,
        },
      },
      {
        mark: { type: 'point', filled: true, size: 45, opacity: 1 },
        encoding: {
          y,
          ...(layout.focus === undefined ? {} : { opacity: { condition: { test: 'datum.focus', value: 1 }, value: 0.4 } }),
          color: layout.color,
          tooltip: [
            { field: 'name', type: 'nominal', title: brand ? `${noun} (local name)` : noun },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'period', type: 'nominal', title: 'Period' },
            { field: 'value', type: 'quantitative', title: metric, format: tooltipFormat },
            { field: 'change', type: 'quantitative', title: `Change ${from} to ${to}`, format: `+${tooltipFormat}` },
          ],
        },
      },
      ...labelLayers('from', 'right', -10),
      ...labelLayers('to', 'left', 10),
    ],
  };
}

function orderOf(rows: readonly CrossYearRow[], period: string): number {
  return rows.find((r) => r.period === period)?.period_order ?? 0;
}
