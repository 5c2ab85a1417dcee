/**
 * Notes that say, in words and with market and brand names, what a comparison asked for and found
 * no data for. Frames list what is missing by code (`meta.missing`); reports and
 * `brandscape compare` show readers the names.
 */
import type { MissingData } from '../frames/brandscape-input.js';

/** `Differentiation, Relevance and Esteem`. */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** `1 brand`, `3 brands`, `2 companies`. */
export const plural = (n: number, word: string) => `${n} ${n === 1 ? word : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** How to name what the frames list by code or id. */
export interface MissingNames {
  /** A market's name from its code (the code itself when unknown). */
  market(code: string): string;
  /** A brand's name from its id. */
  brand(id: number): string;
}

/**
 * Notes on the markets, years, brands, companies and sectors a comparison asked for and found no
 * rows for, with names.
 *
 * @example
 * missingDataNotes(result.meta.missing, { market: (c) => names.get(c) ?? c, brand: (id) => `brand ${id}` });
 * // ['No data for Thailand: not studied, or not released yet, in the years shown.']
 */
export function missingDataNotes(missing: MissingData, names: MissingNames): string[] {
  const market = (m: number | string) => (typeof m === 'string' ? names.market(m) : String(m));
  const notes: string[] = [];
  if (missing.markets.length > 0) notes.push(`No data for ${listText(missing.markets.map(market))}: not studied, or not released yet, in the years shown.`);
  if (missing.years.length > 0) notes.push(`No data for ${listText(missing.years.map(String))} in these markets.`);
  if (missing.brands.length > 0) notes.push(`No data for ${listText(missing.brands.map(names.brand))} in these markets and years.`);
  if (missing.companies.length > 0) notes.push(`No data for the brands of compan${missing.companies.length > 1 ? 'ies' : 'y'} ${listText(missing.companies.map(String))} in these markets and years.`);
  if (missing.sectors.length > 0) notes.push(`No data for sector${missing.sectors.length > 1 ? 's' : ''} ${listText(missing.sectors.map(String))} in these markets and years.`);
  return notes;
}

/** A comparison's own notes without those `missingDataNotes` says with names (the frames' notes by code). */
export const framesNotes = (notes: readonly string[]): string[] => notes.filter((n) => !/^No data for the /.test(n));
