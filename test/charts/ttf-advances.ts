/**
 * Reads advance widths from a TrueType font (cmap format 4 + hmtx), enough to check and regenerate
 * the width tables in src/charts/measure-text.ts:
 *
 *   npx vitest run test/charts/measure-text.test.ts   # checks the tables against the installed fonts
 *   PRINT_FONT_METRICS=1 npx vitest run test/charts/measure-text.test.ts   # prints fresh tables
 */
import { readFileSync } from 'node:fs';

export interface TtfAdvances {
  unitsPerEm: number;
  /** Advance width in font units of a code point, undefined when the font has no glyph for it. */
  advance(codePoint: number): number | undefined;
}

export function readTtfAdvances(file: string): TtfAdvances {
  const buf = readFileSync(file);
  const tables = new Map<string, number>();
  const numTables = buf.readUInt16BE(4);
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    tables.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  const at = (tag: string): number => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`${file} has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = buf.readUInt16BE(at('head') + 18);
  const numberOfHMetrics = buf.readUInt16BE(at('hhea') + 34);
  const hmtx = at('hmtx');
  const advanceOfGlyph = (glyph: number): number => buf.readUInt16BE(hmtx + 4 * Math.min(glyph, numberOfHMetrics - 1));

  // The Unicode BMP subtable (platform 3, encoding 1), format 4.
  const cmap = at('cmap');
  let sub = -1;
  for (let i = 0; i < buf.readUInt16BE(cmap + 2); i++) {
    const rec = cmap + 4 + i * 8;
    if (buf.readUInt16BE(rec) === 3 && buf.readUInt16BE(rec + 2) === 1) sub = cmap + buf.readUInt32BE(rec + 4);
  }
  if (sub < 0 || buf.readUInt16BE(sub) !== 4) throw new Error(`${file} has no format-4 Unicode cmap`);
  const segX2 = buf.readUInt16BE(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  const glyphOf = (cp: number): number => {
    for (let s = 0; s < segX2; s += 2) {
      if (cp > buf.readUInt16BE(ends + s)) continue;
      const start = buf.readUInt16BE(starts + s);
      if (cp < start) return 0;
      const delta = buf.readInt16BE(deltas + s);
      const ro = buf.readUInt16BE(rangeOffsets + s);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = buf.readUInt16BE(rangeOffsets + s + ro + 2 * (cp - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
  return {
    unitsPerEm,
    advance(cp) {
      const glyph = cp <= 0xffff ? glyphOf(cp) : 0;
      return glyph === 0 ? undefined : advanceOfGlyph(glyph);
    },
  };
}
