/**
 * The one rule that calls a change `up`, `down` or `flat`: the cross-year tables' Trend column,
 * `brandscape compare --by year`, the slope chart's colours, and the text that states the rule on
 * the About sheet, in the HTML report and in `compare --help`.
 *
 * Why thresholds: the service gives no sample bases with brandscape scores, so no test of
 * significance can be run on a change. What the data can tell apart is judged per score type: a
 * percentile rank is a position among a study's few hundred brands, and re-fielding the same study
 * moves a brand a few places without anything changing; a change within that is not a trend.
 */
import type { ScoreType } from '../schemas/score-types.js';
import type { TrendDirection } from './types.js';

/**
 * The largest change, first to last period, still called `flat`, per score type: percentile ranks
 * 5 points, percentages 3 points, construct scores 0.2, index scores 10 index points. Raw values
 * (`value`) have no common scale: 5% of the first value.
 */
export const TREND_THRESHOLDS: Readonly<Record<Exclude<ScoreType, 'value'>, number>> = {
  rank: 5,
  pct: 3,
  c: 0.2,
  brandscape_index: 10,
  category_index: 10,
};

/** For raw values: the share of the first value a change must pass. */
export const TREND_VALUE_SHARE = 0.05;

/**
 * The `flat` threshold of a score type (for `value`, of a series starting at `first`).
 *
 * @example
 * trendThreshold('rank') // 5
 * trendThreshold('value', 200) // 10
 */
export function trendThreshold(scoreType: ScoreType, first?: number): number {
  if (scoreType === 'value') return Math.abs(first ?? 0) * TREND_VALUE_SHARE;
  return TREND_THRESHOLDS[scoreType];
}

/**
 * Direction of a change given the largest change still called `flat`: `up` or `down` only when the
 * change is larger than the threshold, so +5 ranks is `flat` and +6 `up`.
 *
 * @example
 * trendOf(-3, 5) // 'flat'
 * trendOf(12, 5) // 'up'
 */
export function trendOf(change: number, tolerance: number): TrendDirection | null {
  if (!Number.isFinite(change)) return null;
  return change > tolerance ? 'up' : change < -tolerance ? 'down' : 'flat';
}

/**
 * Direction of a series of values (in period order, nulls for periods without data), by the rule:
 * the change from the first to the last value against the score type's threshold.
 *
 * @example
 * seriesTrend([91, 88, 92, 88], 'rank') // 'flat': −3 is within 5 ranks
 * seriesTrend([40, 45, 52], 'rank') // 'up'
 */
export function seriesTrend(values: readonly (number | null)[], scoreType: ScoreType): TrendDirection | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (present.length < 2) return null;
  const first = present[0]!;
  return trendOf(present[present.length - 1]! - first, trendThreshold(scoreType, first));
}

const UNITS: Record<Exclude<ScoreType, 'value'>, string> = {
  rank: 'percentile-rank points',
  pct: 'percentage points',
  c: 'on construct scores',
  brandscape_index: 'index points (brandscape index)',
  category_index: 'index points (category index)',
};

/**
 * The rule in words, for readers: the thresholds of the given score types (default: all).
 *
 * @example
 * trendRuleText(['rank'])
 * // 'Trend: "up" or "down" when the change from the first to the last year with data is larger than 5 percentile-rank points, else "flat". ...'
 */
export function trendRuleText(scoreTypes?: readonly ScoreType[]): string {
  const types = [...new Set(scoreTypes ?? (['rank', 'pct', 'c', 'brandscape_index', 'category_index', 'value'] as const))];
  const parts = types.map((t) => (t === 'value' ? `${TREND_VALUE_SHARE * 100}% of the first value for raw values` : t === 'c' ? `${TREND_THRESHOLDS.c} on construct scores` : `${TREND_THRESHOLDS[t]} ${UNITS[t]}`));
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
  return (
    `Trend: "up" or "down" when the change from the first to the last period with data is larger than ${list}, else "flat". ` +
    'The service gives no sample bases with these scores, so no significance test is possible; smaller moves are within what re-fielding the same study shows.'
  );
}
