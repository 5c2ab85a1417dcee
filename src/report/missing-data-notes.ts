/**
 * Notes that say, in words and with market and brand names, what a comparison asked for and found
 * no data for. Frames list what is missing by code (`meta.missing`); reports and
 * `brandscape compare` show readers the names.
 */
import type { MissingData } from '../frames/brandscape-input.js';
import { listText } from '../frames/list-text.js';


/** `1 brand`, `3 brands`, `2 companies`. */
export const plural = (n: number, word: string) => `${n} ${n === 1 ? word : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** How to name what the frames list by code or id. */
export interface MissingNames {
  /** A market's name from its code (the code itself when unknown). */
  market: (code: string) => string;
  /** A brand's name from its id. */
  brand: (id: number) => string;
  /**
   * What the report knows of the studies, so that a year without data says why: the brands were
   * not in a study that exists, or there was no study. Without it: `No data for 2021 in these markets`.
   */
  studies?: {
    /** The markets asked for (codes). */
    readonly markets: readonly string[];
    /** The brands asked for, by name. */
    readonly brands: readonly string[];
    /** Whether the market has a study of the year. */
    has(code: string, year: number): boolean;
  };
}

/**
 * Why a year has no data, market by market: `Veros was not in the France 2022 study.` where the
 * study exists, `No study of Spain in 2022 (not studied, or not released yet).` where it does not.
 */
function missingYearNotes(years: readonly number[], names: MissingNames, studies: NonNullable<MissingNames['studies']>): string[] {
  // Years with the same markets with and without a study share a note.
  const groups = new Map<string, { years: number[]; withStudy: string[]; without: string[] }>();
  for (const y of years) {
    const withStudy = studies.markets.filter((m) => studies.has(m, y));
    const without = studies.markets.filter((m) => !studies.has(m, y));
    const key = `${withStudy.join(',')}|${without.join(',')}`;
    const group = groups.get(key) ?? { years: [], withStudy, without };
    group.years.push(y);
    groups.set(key, group);
  }
  const notes: string[] = [];
  const who = studies.brands.length === 0 ? 'The brands asked for' : listText(studies.brands);
  const were = studies.brands.length === 1 ? 'was' : 'were';
  for (const g of groups.values()) {
    const yearsText = listText(g.years.map(String));
    if (g.withStudy.length > 0) {
      const many = g.withStudy.length * g.years.length > 1;
      notes.push(`${who} ${were} not in the ${listText(g.withStudy.map(names.market))} ${yearsText} stud${many ? 'ies' : 'y'}.`);
    }
    if (g.without.length > 0) notes.push(`No study of ${listText(g.without.map(names.market))} in ${yearsText} (not studied, or not released yet).`);
  }
  return notes;
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
  if (missing.years.length > 0) {
    if (names.studies) notes.push(...missingYearNotes(missing.years, names, names.studies));
    else notes.push(`No data for ${listText(missing.years.map(String))} in these markets.`);
  }
  if (missing.brands.length > 0) notes.push(`No data for ${listText(missing.brands.map(names.brand))} in these markets and years.`);
  if (missing.companies.length > 0) notes.push(`No data for the brands of compan${missing.companies.length > 1 ? 'ies' : 'y'} ${listText(missing.companies.map(String))} in these markets and years.`);
  if (missing.sectors.length > 0) notes.push(`No data for sector${missing.sectors.length > 1 ? 's' : ''} ${listText(missing.sectors.map(String))} in these markets and years.`);
  return notes;
}

/** A comparison's own notes without those `missingDataNotes` says with names (the frames' notes by code). */
export const framesNotes = (notes: readonly string[]): string[] => notes.filter((n) => !/^No data for the /.test(n));
