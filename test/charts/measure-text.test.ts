import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEJAVU_SANS_METRICS, measureText } from '../../src/charts/measure-text.js';
import { DEFAULT_CHART_FONTS } from '../../src/charts/render.js';
import { readTtfAdvances } from './ttf-advances.js';

const RANGES: [number, number][] = [
  [32, 126],
  [160, 383],
  [0x2010, 0x2027],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
];

function tables(file: string): { unitsPerEm: number; ranges: { from: number; widths: number[] }[] } {
  const ttf = readTtfAdvances(file);
  return {
    unitsPerEm: ttf.unitsPerEm,
    ranges: RANGES.map(([from, to]) => ({ from, widths: Array.from({ length: to - from + 1 }, (_, i) => ttf.advance(from + i) ?? 0) })),
  };
}

describe('DejaVu Sans width tables', () => {
  const present = existsSync(DEFAULT_CHART_FONTS.regular) && existsSync(DEFAULT_CHART_FONTS.bold);

  it.runIf(present)('match the installed font files (regenerate with PRINT_FONT_METRICS=1)', () => {
    const fresh = { regular: tables(DEFAULT_CHART_FONTS.regular), bold: tables(DEFAULT_CHART_FONTS.bold) };
    if (process.env.PRINT_FONT_METRICS) console.log(JSON.stringify(fresh));
    expect(DEJAVU_SANS_METRICS).toEqual(fresh);
  });

  it('measures text in pixels, bold wider than regular', () => {
    const regular = measureText('Differentiation', 12, false);
    const bold = measureText('Differentiation', 12, true);
    expect(regular).toBeGreaterThan(70);
    expect(regular).toBeLessThan(100);
    expect(bold).toBeGreaterThan(regular);
    // Characters outside the tables: CJK counts as a full em, others as an average Latin letter.
    expect(measureText('日本', 10, false)).toBe(20);
  });
});
