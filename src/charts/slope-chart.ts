/**
 * Slope chart: each brand's value in one period against another (year A → year B), one line per
 * brand, labelled at both ends.
 */
import type { CrossYearRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { CHART_COLOURS, CHART_FONT_SIZES, chartTheme } from './chart-theme.js';
import { dodgeLabels } from './dodge-labels.js';
import { entityKey, entityNoun } from './entity-names.js';
import { formatScore, metricTitle, niceScoreDomain, scoreFormat, scoreScale } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';

/**
 * Options of `slopeChart`.
 *
 * @example
 * slopeChart(rows, { market: 'DE', from: '2019', to: '2024' });
 */
export interface SlopeChartOptions extends ChartOptions {
  /** The metric column to show; needed when the rows hold several. */
  column?: string;
  /** The market (`country_code`); needed when the rows hold several. */
  market?: string;
  /** The first period (`period`, e.g. `2020` or `2024 Q1`). Default: the earliest in the rows. */
  from?: string;
  /** The second period. Default: the latest in the rows. */
  to?: string;
}

type Direction = 'Up' | 'Down' | 'No change';

/**
 * Year A → year B per brand in one market: a line per brand from its value in the first period to
 * its value in the second, coloured by direction (up blue, down vermillion, grey where the two
 * labels show the same number).
 * Labels at both ends carry the (local) name and the value, moved apart so that they never
 * overlap. Brands without a value in both periods are left out (the subtitle says how many).
 *
 * Rows: `crossYear(...).rows()`.
 *
 * @example
 * const spec = slopeChart(rows, { market: 'GB', from: '2020', to: '2024' });
 */
export function slopeChart(rows: readonly CrossYearRow[], options: SlopeChartOptions = {}): ChartSpec {
  firstRow(rows, 'slope chart');
  const column = pickOne(rows.map((r) => r.column), options.column, 'metric column', 'column');
  const ofColumn = rows.filter((r) => r.column === column);
  const market = pickOne(ofColumn.map((r) => r.country_code), options.market, 'market', 'market');
  const inMarket = ofColumn.filter((r) => r.country_code === market && r.value !== null);
  const first = firstRow(inMarket, 'slope chart');
  const periods = distinct(inMarket.map((r) => r.period)).sort((a, b) => orderOf(inMarket, a) - orderOf(inMarket, b));
  const from = pickOne(inMarket.map((r) => r.period), options.from ?? periods[0], 'period', 'from');
  const to = pickOne(inMarket.map((r) => r.period), options.to ?? periods[periods.length - 1], 'period', 'to');

  const byEntity = new Map<string, { a?: CrossYearRow; b?: CrossYearRow }>();
  for (const r of inMarket) {
    if (r.period !== from && r.period !== to) continue;
    const pair = byEntity.get(entityKey(r)) ?? {};
    if (r.period === from) pair.a = r;
    if (r.period === to) pair.b = r;
    byEntity.set(entityKey(r), pair);
  }
  const pairs = [...byEntity.entries()].flatMap(([key, { a, b }]) => (a && b && a.value !== null && b.value !== null ? [{ key, a, b, va: a.value, vb: b.value }] : []));
  firstRow(pairs, `slope chart (no ${first.entity_kind} has values in both ${from} and ${to})`);
  const dropped = byEntity.size - pairs.length;
  const labels = uniqueLabels(pairs.map((p) => ({ key: p.key, name: p.b.entity_name })), labelLength(options));

  // The y scale is fixed here (not left to Vega) so that label positions can be computed in pixels.
  const height = options.height ?? Math.max(260, Math.min(560, pairs.length * 26));
  const width = options.width ?? 220;
  const scale = scoreScale(first.score_type);
  const all = pairs.flatMap((p) => [p.va, p.vb]);
  // The data's range, not the score type's full scale: a slope chart is about the changes.
  const domain = niceScoreDomain(Math.min(...all), Math.max(...all), scale.domain);
  const span = domain[1] - domain[0] || 1;
  const toPx = (v: number): number => ((domain[1] - v) / span) * height;
  const toValue = (px: number): number => domain[1] - (px / height) * span;
  const gap = CHART_FONT_SIZES.mark + 3;
  const leftY = dodgeLabels(pairs.map((p) => toPx(p.va)), gap, height);
  const rightY = dodgeLabels(pairs.map((p) => toPx(p.vb)), gap, height);
  // "No change" when the two labels show the same number: a reader could not see the change.
  const direction = (a: number, b: number): Direction =>
    formatScore(a, first.score_type) === formatScore(b, first.score_type) ? 'No change' : b > a ? 'Up' : 'Down';
  const values = pairs.flatMap((p, i) => {
    const label = labels.get(p.key) ?? p.b.entity_name;
    const common = {
      series: p.key,
      name: p.b.entity_name,
      global_name: p.b.global_name,
      change: p.vb - p.va,
      direction: direction(p.va, p.vb),
    };
    return [
      { ...common, side: 'from', period: from, value: p.va, label_y: toValue(leftY[i] ?? 0), label: `${label}  ${formatScore(p.va, first.score_type)}` },
      { ...common, side: 'to', period: to, value: p.vb, label_y: toValue(rightY[i] ?? 0), label: `${formatScore(p.vb, first.score_type)}  ${label}` },
    ];
  });

  const metric = metricTitle(first.metric_name, first.score_type);
  const noun = entityNoun(first.entity_kind);
  const brand = first.entity_kind === 'brand';
  // No value axis: the labels carry the values, and an axis would collide with the left labels.
  const y = { field: 'value', type: 'quantitative' as const, title: metric, scale: { domain, nice: false, zero: false }, axis: null };
  const labelY = { field: 'label_y', type: 'quantitative' as const, title: metric };
  const x = { field: 'period', type: 'ordinal' as const, title: null, sort: [from, to], scale: { padding: 0 }, axis: { orient: 'top' as const, labelFontWeight: 'bold' as const, labelAngle: 0, domain: false, ticks: false, labelPadding: 8 } };
  const notes = dropped > 0 ? ` ${dropped} ${noun.toLowerCase()}${dropped > 1 ? 's' : ''} without both values left out.` : '';
  const present = new Set(values.map((v) => v.direction));
  const directions = (['Up', 'Down', 'No change'] as const).filter((d) => present.has(d));
  const palette = { Up: CHART_COLOURS.up, Down: CHART_COLOURS.down, 'No change': CHART_COLOURS.flat };
  const color = {
    field: 'direction',
    type: 'nominal' as const,
    title: 'Change',
    scale: { domain: directions, range: directions.map((d) => palette[d]) },
    legend: { orient: 'bottom' as const, direction: 'horizontal' as const },
  };

  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${first.metric_name}: ${from} to ${to}`, `${metric}, ${first.market}.${notes}`),
    config: chartTheme,
    data: { values },
    width,
    height,
    encoding: { x },
    layer: [
      {
        mark: { type: 'line', strokeWidth: 2 },
        encoding: {
          y,
          detail: { field: 'series', type: 'nominal' },
          color,
        },
      },
      {
        mark: { type: 'point', filled: true, size: 45, opacity: 1 },
        encoding: {
          y,
          color,
          tooltip: [
            { field: 'name', type: 'nominal', title: brand ? `${noun} (local name)` : noun },
            ...(brand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
            { field: 'period', type: 'nominal', title: 'Period' },
            { field: 'value', type: 'quantitative', title: metric, format: scoreFormat(first.score_type, 'tooltip') },
            { field: 'change', type: 'quantitative', title: `Change ${from} to ${to}`, format: `+${scoreFormat(first.score_type, 'tooltip')}` },
          ],
        },
      },
      {
        transform: [{ filter: "datum.side === 'from'" }],
        mark: { type: 'text', align: 'right', baseline: 'middle', dx: -10, color: '#333333' },
        encoding: { y: labelY, text: { field: 'label', type: 'nominal' } },
      },
      {
        transform: [{ filter: "datum.side === 'to'" }],
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 10, color: '#333333' },
        encoding: { y: labelY, text: { field: 'label', type: 'nominal' } },
      },
    ],
  };
}

function orderOf(rows: readonly CrossYearRow[], period: string): number {
  return rows.find((r) => r.period === period)?.period_order ?? 0;
}
