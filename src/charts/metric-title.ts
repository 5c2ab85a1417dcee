/**
 * Axis titles and number formats in words, from the frames rows' `metric_name` and `score_type`
 * (never the column name: `differentiation_rank` becomes "Differentiation (percentile rank)").
 */
import { SCORE_TYPES, type ScoreType } from '../schemas/score-types.js';

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

/** Formats a number like `scoreFormat(scoreType, 'label')`, for labels computed in JavaScript. */
export function formatScore(value: number, scoreType: ScoreType): string {
  const digits = scoreType === 'c' ? 2 : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * The fixed scale a score type lives on, or its natural midpoint, when it has one: percentile
 * ranks are 0–100 around the median 50; index scores centre on 100 (the average), construct
 * scores on 0.
 *
 * @example
 * scoreScale('rank') // { domain: [0, 100], mid: 50 }
 */
export function scoreScale(scoreType: ScoreType): { domain?: [number, number]; mid?: number } {
  switch (scoreType) {
    case 'rank':
      return { domain: [0, 100], mid: 50 };
    case 'pct':
      return { domain: [0, 100] };
    case 'c':
      // Construct scores are standardised around 0.
      return { mid: 0 };
    case 'brandscape_index':
    case 'category_index':
      return { mid: 100 };
    default:
      return {};
  }
}

/**
 * A value axis around [lo, hi] rounded out to multiples of 5, kept within the score type's fixed
 * scale if it has one (a percentile-rank axis never reads 110 or -10).
 *
 * @example
 * niceScoreDomain(41, 99.9, [0, 100]) // [35, 100]
 */
export function niceScoreDomain(lo: number, hi: number, bounds: [number, number] | undefined): [number, number] {
  const pad = (hi - lo) * 0.05 || 1;
  const d: [number, number] = [Math.floor((lo - pad) / 5) * 5, Math.ceil((hi + pad) / 5) * 5];
  return bounds === undefined ? d : [Math.max(bounds[0], d[0]), Math.min(bounds[1], d[1])];
}
