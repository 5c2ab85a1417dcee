/**
 * `latest` in a template: the most recent year with released full-year data in every chosen market,
 * so that a scheduled report moves to a new year once the year's data is out everywhere it looks,
 * rather than showing half its markets empty while studies are still being released.
 */
import type { YearValue } from './template-params.js';

/** A released study as the year rule reads it. */
export interface StudyYear {
  readonly countryCode: string;
  readonly year: number;
  /** False for US quarterly waves. */
  readonly fullYear: boolean;
}

/**
 * The year `latest` stands for, and notes on how it was chosen. Markets without any released
 * full-year study do not hold the year back (they are named in a note); when the markets share no
 * year at all, the latest year any of them has is taken (and noted).
 *
 * @example
 * latestYear([{ countryCode: 'GB', year: 2025, fullYear: true }, { countryCode: 'TH', year: 2024, fullYear: true }], ['GB', 'TH']);
 * // { year: 2024, notes: [...] }: Thailand's 2025 study is not released yet
 */
export function latestYear(studies: readonly StudyYear[], markets: readonly string[]): { year: number | undefined; notes: string[] } {
  const notes: string[] = [];
  const years = new Map<string, Set<number>>(markets.map((m) => [m, new Set<number>()]));
  for (const s of studies) if (s.fullYear) years.get(s.countryCode)?.add(s.year);
  const withData = [...years].filter(([, ys]) => ys.size > 0);
  const without = [...years].filter(([, ys]) => ys.size === 0).map(([m]) => m);
  if (without.length > 0) notes.push(`No released full-year study for ${without.join(', ')}: 'latest' was chosen without ${without.length > 1 ? 'them' : 'it'}.`);
  if (withData.length === 0) return { year: undefined, notes };
  const common = [...withData[0]![1]].filter((y) => withData.every(([, ys]) => ys.has(y)));
  if (common.length > 0) {
    const year = Math.max(...common);
    const newer = withData.filter(([, ys]) => Math.max(...ys) > year).map(([m]) => m);
    if (newer.length > 0) notes.push(`'latest' is ${year}, the most recent year released in every market; ${newer.join(', ')} ${newer.length > 1 ? 'have' : 'has'} newer data.`);
    return { year, notes };
  }
  const year = Math.max(...withData.flatMap(([, ys]) => [...ys]));
  notes.push(`The markets share no year of data; 'latest' is ${year}, the most recent year of any of them.`);
  return { year, notes };
}

/** A template year as a calendar year, given what `latest` is. */
export function toCalendarYear(value: YearValue, latest: number): number {
  if (typeof value === 'number') return value;
  const back = /^latest-(\d+)$/.exec(value)?.[1];
  return latest - Number(back ?? 0);
}
