/**
 * The colours of a table's colour scales, computed: what Excel draws for the workbook's colour-scale
 * rules, for the writers that must paint cells themselves (the HTML file, the terminal).
 */
import { HEAT_SCALE_COLOURS } from '../charts/chart-theme.js';
import type { ColourScale, ReportTable } from './report-spec.js';

/** The scale's three colours (RGB): orange below the middle, white at it, blue above (colour-blind safe); the heatmaps' too. */
export const SCALE_COLOURS = HEAT_SCALE_COLOURS;

/** A colour as the workbook writes it: `FFF4B183` (alpha, red, green, blue). */
export const argbOf = (rgb: readonly number[]): string => `FF${rgb.map((x) => x.toString(16).padStart(2, '0')).join('').toUpperCase()}`;

/** The colour of a value on a scale (RGB). */
function scaleColour(value: number, lo: number, mid: number, hi: number): [number, number, number] {
  const mix = (a: readonly number[], b: readonly number[], t: number) => a.map((x, i) => Math.round(x + (b[i]! - x) * Math.min(1, Math.max(0, t)))) as [number, number, number];
  return value <= mid ? mix(SCALE_COLOURS.low, SCALE_COLOURS.mid, mid === lo ? 1 : (value - lo) / (mid - lo)) : mix(SCALE_COLOURS.mid, SCALE_COLOURS.high, hi === mid ? 1 : (value - mid) / (hi - mid));
}

/**
 * Background colours (RGB) of a table's cells, keyed `row:column` (0-based, body rows), from its
 * colour scales: fixed points where the scale has them, else the values' minimum, median and maximum.
 *
 * @example
 * const colours = cellColours(comparison.table);
 * colours.get('0:2'); // [127, 184, 224]: the first row's first market, high on its scale
 */
export function cellColours(table: ReportTable): Map<string, [number, number, number]> {
  const out = new Map<string, [number, number, number]>();
  const applies = (s: ColourScale, r: number, c: number) => r >= s.fromRow && r <= s.toRow && c >= s.fromColumn && c <= s.toColumn;
  for (const scale of table.colourScales) {
    const values: number[] = [];
    for (let r = scale.fromRow; r <= scale.toRow; r++) {
      for (let c = scale.fromColumn; c <= scale.toColumn; c++) {
        const v = table.rows[r]?.[c];
        if (typeof v === 'number' && Number.isFinite(v)) values.push(v);
      }
    }
    if (values.length === 0) continue;
    const sorted = [...values].sort((a, b) => a - b);
    const lo = scale.min ?? sorted[0]!;
    const hi = scale.max ?? sorted[sorted.length - 1]!;
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    const mid = scale.mid ?? median;
    for (let r = scale.fromRow; r <= scale.toRow; r++) {
      for (let c = scale.fromColumn; c <= scale.toColumn; c++) {
        const v = table.rows[r]?.[c];
        if (typeof v === 'number' && Number.isFinite(v) && applies(scale, r, c)) out.set(`${r}:${c}`, scaleColour(v, lo, mid, hi));
      }
    }
  }
  return out;
}
