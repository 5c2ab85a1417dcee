/**
 * The value scales of score types, for heatmaps and the tables beside them: the fixed ends and
 * middle of each score type, which panels share one scale, and the low, middle and high points of
 * a scale for given values. A leaf of plain rules (no chart builder, no Vega), so that a table
 * printed on a terminal colours its cells as the heatmap would without loading the chart builders.
 */
import type { ScoreType } from '../schemas/score-types.js';

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
 * The key of the value scale a panel shares with others: one per score type, since ranks,
 * percentages, index and construct scores each have a unit of their own; but plain values are
 * in the unit of their metric (a count, a share), so each such panel keeps its own scale.
 */
export function scaleKey(panel: { column: string; scoreType: ScoreType }): string {
  return panel.scoreType === 'value' ? `value:${panel.column}` : panel.scoreType;
}

/**
 * The low, middle and high points of a heatmap's colour scale for these values (see `heatColour`):
 * what a table of the same values colours its cells by, so that chart and table agree.
 *
 * @example
 * heatPoints([-0.4, 0.1, 0.9], 'c') // { min: -0.4, mid: 0, max: 0.9 }
 */
export function heatPoints(values: readonly number[], scoreType: ScoreType): { min: number; mid: number; max: number } {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const { domain, mid } = scoreScale(scoreType);
  let lo = domain?.[0] ?? finite[0] ?? 0;
  let hi = domain?.[1] ?? finite[finite.length - 1] ?? 1;
  if (hi <= lo) [lo, hi] = [lo - 1, hi + 1];
  const n = finite.length;
  const median = n === 0 ? (lo + hi) / 2 : n % 2 ? finite[(n - 1) / 2]! : (finite[n / 2 - 1]! + finite[n / 2]!) / 2;
  return { min: lo, mid: mid ?? median, max: hi };
}
