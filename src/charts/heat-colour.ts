/**
 * Colour scales for heatmaps, and the test that tells when a cell is dark enough to need a white
 * label: a black number on a dark blue cell cannot be read.
 */
import type { ScoreType } from '../schemas/score-types.js';
import { HEAT_SCALE_COLOURS } from './chart-theme.js';
import { heatPoints } from './heat-scale.js';

export interface HeatColour {
  /** The Vega-Lite colour scale: the tables' three colours (`HEAT_SCALE_COLOURS`) at the scale's low, middle and high points. */
  scale: { domain: number[]; range: string[]; interpolate: 'rgb'; clamp: true };
  /** A Vega expression on `datum[field]`, true where the cell is dark (none is, on these pale colours: kept for builders that ask). */
  darkTest: string;
}

const hex = (rgb: readonly number[]): string => `#${rgb.map((x) => x.toString(16).padStart(2, '0')).join('')}`;

/**
 * The colour scale of a heatmap: the same three colours and the same fixed points as the table of
 * the same values (report/cell-colours.ts): the score type's fixed ends where it has them (0 and 100
 * for ranks and percentages), else the values' minimum and maximum; its natural middle (50 for ranks,
 * 100 for indexes, 0 for construct scores), else the values' median. Interpolated in RGB, as the
 * table's cells and Excel's colour scales are.
 *
 * @example
 * heatColour([12, 55, 97], 'rank', 'value').scale // domain [0, 50, 100], orange–white–blue
 */
export function heatColour(values: readonly number[], scoreType: ScoreType, _field: string): HeatColour {
  const { min: lo, mid: m, max: hi } = heatPoints(values, scoreType);
  const { low, mid: white, high } = HEAT_SCALE_COLOURS;
  const scale =
    m <= lo
      ? { domain: [m, hi], range: [hex(white), hex(high)] }
      : m >= hi
        ? { domain: [lo, m], range: [hex(low), hex(white)] }
        : { domain: [lo, m, hi], range: [hex(low), hex(white), hex(high)] };
  return { scale: { ...scale, interpolate: 'rgb', clamp: true }, darkTest: 'false' };
}


/**
 * Length of a heatmap's colour legend: as long as the grid allows (less its title), so that the
 * legend never hangs below a short grid.
 */
export function legendLength(rows: number, cellHeight: number): number {
  return Math.max(50, Math.min(160, rows * cellHeight - 40));
}
