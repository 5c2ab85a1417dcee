/**
 * Colour scales for heatmaps, and the test that tells when a cell is dark enough to need a white
 * label: a black number on a dark blue cell cannot be read.
 */
import type { ScoreType } from '../schemas/score-types.js';
import { CHART_SCHEMES } from './chart-theme.js';
import { scoreScale } from './metric-title.js';

export interface HeatColour {
  /** The Vega-Lite colour scale. */
  scale: { scheme: (typeof CHART_SCHEMES)[keyof typeof CHART_SCHEMES]; domain: [number, number]; domainMid?: number; reverse?: boolean; clamp: true };
  /** A Vega expression on `datum[field]`, true where the cell is dark. */
  darkTest: string;
}

/**
 * A diverging scale around the score type's midpoint (50 for ranks, 100 for indexes, 0 for
 * construct scores), else a sequential one over the values.
 *
 * @example
 * heatColour([12, 55, 97], 'rank', 'value') // blue–orange diverging around 50, domain [0, 100]
 */
export function heatColour(values: readonly number[], scoreType: ScoreType, field: string): HeatColour {
  // A loop, not Math.min(...values): spreading tens of thousands of arguments overflows the stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) [lo, hi] = [0, 1];
  const { domain, mid } = scoreScale(scoreType);
  const ref = `datum[${JSON.stringify(field)}]`;
  if (mid !== undefined) {
    // Symmetric around the midpoint so equal distances get equally strong colours.
    const half = domain !== undefined ? Math.max(mid - domain[0], domain[1] - mid) : Math.max(mid - lo, hi - mid) || 1;
    const d: [number, number] = domain ?? [mid - half, mid + half];
    return {
      // Reversed so that high is blue and low is orange, as "above" and "below" are in every chart.
      scale: { scheme: CHART_SCHEMES.diverging, domain: d, domainMid: mid, reverse: true, clamp: true },
      darkTest: `abs(${ref} - ${mid}) > ${round(half * 0.62)}`,
    };
  }
  const d: [number, number] = domain ?? (hi > lo ? [lo, hi] : [lo - 1, hi + 1]);
  return {
    scale: { scheme: CHART_SCHEMES.sequential, domain: d, clamp: true },
    darkTest: `${ref} > ${round(d[0] + (d[1] - d[0]) * 0.6)}`,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Length of a heatmap's colour legend: as long as the grid allows (less its title), so that the
 * legend never hangs below a short grid.
 */
export function legendLength(rows: number, cellHeight: number): number {
  return Math.max(50, Math.min(160, rows * cellHeight - 40));
}
