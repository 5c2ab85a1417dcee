/**
 * Axis titles and number formats in words, from the frames rows' `metric_name` and `score_type`
 * (never the column name: `differentiation_rank` becomes "Differentiation (percentile rank)").
 */
import { SCORE_TYPES, type ScoreType } from '../schemas/score-types.js';
import { scoreScale } from './heat-scale.js';

/**
 * The title of an axis or legend for a metric and score type.
 *
 * @example
 * metricTitle('Differentiation', 'rank') // 'Differentiation (percentile rank)'
 * metricTitle('Brand base', 'value') // 'Brand base'
 */
export function metricTitle(metricName: string, scoreType: ScoreType): string {
  // A plain value score needs no qualifier: "Brand base (value)" reads worse than "Brand base".
  if (scoreType === 'value') return metricName;
  return `${metricName} (${SCORE_TYPES[scoreType].label.toLowerCase()})`;
}

/**
 * A legend title on two lines (metric, then score type), as legends are narrow.
 *
 * @example
 * metricLegendTitle('Differentiation', 'rank') // ['Differentiation', '(percentile rank)']
 */
export function metricLegendTitle(metricName: string, scoreType: ScoreType): string[] {
  return scoreType === 'value' ? [metricName] : [metricName, `(${SCORE_TYPES[scoreType].label.toLowerCase()})`];
}

/**
 * A d3 number format for values of the score type, short for labels on marks, precise for
 * tooltips. The service's precision: ranks and percentages one decimal in [0, 100], construct
 * scores three decimals around 0, index scores and values integers.
 *
 * @example
 * scoreFormat('rank') // ',.0f'
 * scoreFormat('rank', 'tooltip') // ',.1f'
 */
export function scoreFormat(scoreType: ScoreType, use: 'label' | 'tooltip' = 'label'): string {
  switch (scoreType) {
    case 'rank':
    case 'pct':
      return use === 'label' ? ',.0f' : ',.1f';
    case 'c':
      return use === 'label' ? '.2f' : '.3f';
    case 'brandscape_index':
    case 'category_index':
    case 'value':
      return ',.0f';
  }
}

/**
 * Formats a number as `scoreFormat(scoreType, use)` does, for text computed in JavaScript.
 *
 * @example
 * formatScore(3.0999999999999996, 'rank') // '3'
 * formatScore(3.0999999999999996, 'rank', 'tooltip') // '3.1'
 */
export function formatScore(value: number, scoreType: ScoreType, use: 'label' | 'tooltip' = 'label'): string {
  const digits = scoreType === 'c' ? (use === 'label' ? 2 : 3) : scoreType === 'rank' || scoreType === 'pct' ? (use === 'label' ? 0 : 1) : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}


/**
 * A bar chart's value axis: the score type's fixed scale when it has one, else from zero (bars
 * are read by their length) to just past the values, at round numbers.
 *
 * @example
 * barDomain(12, 87, 'rank') // [0, 100]
 * barDomain(64, 131, 'brandscape_index') // [0, 140]
 */
export function barDomain(lo: number, hi: number, scoreType: ScoreType): [number, number] {
  return scoreScale(scoreType).domain ?? niceDomain(Math.min(0, lo), Math.max(0, hi));
}

/**
 * The value axis of a chart of change (lines over time, slopes). Percentile ranks and percentages
 * get their whole 0–100 scale: a rank's place on it means something (50 is the median brand), and
 * an axis zoomed to the data makes a wobble of two points look like a trend. Other score types get
 * the data's range widened to their reference value (100 for an index, 0 for a construct score),
 * so the reader sees which side of average the lines are on.
 *
 * @example
 * lineDomain(52, 68, 'rank') // [0, 100]
 * lineDomain(112, 131, 'brandscape_index') // [100, 135]
 */
export function lineDomain(lo: number, hi: number, scoreType: ScoreType): [number, number] {
  const { domain, mid } = scoreScale(scoreType);
  if (domain !== undefined) return domain;
  return niceDomain(mid === undefined ? lo : Math.min(lo, mid), mid === undefined ? hi : Math.max(hi, mid));
}

/**
 * [lo, hi] rounded out to a round step (1, 2 or 5 times a power of ten, about eight steps across).
 *
 * @example
 * niceDomain(0, 131) // [0, 140]
 * niceDomain(-0.42, 0.37) // [-0.5, 0.4]
 */
export function niceDomain(lo: number, hi: number): [number, number] {
  const step = niceStep((hi - lo) / 8 || Math.abs(lo) / 8 || 1);
  // toPrecision: 0.6000000000000001 is 0.6 on an axis.
  const round = (x: number): number => Number(x.toPrecision(12));
  return [round(Math.floor(lo / step) * step), round(Math.ceil(hi / step) * step)];
}

/** The round step (1, 2 or 5 times a power of ten) at or above `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}
