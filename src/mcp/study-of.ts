/**
 * A market and year as an analyst names them ("GB", 2024, or no year: the latest), resolved to the
 * released full-year study, with errors that say which markets and years exist.
 */
import { UsageError } from '../errors.js';
import type { McpContext } from './context.js';

export interface StudyRef {
  readonly id: number;
  readonly countryCode: string;
  readonly market: string;
  readonly year: number;
}

/** The released full-year study of a market in a year (default: the latest year). */
export async function studyOf(context: McpContext, market: string, year: number | undefined, signal?: AbortSignal): Promise<StudyRef> {
  const code = market.trim().toUpperCase();
  const options = signal ? { signal } : {};
  const studies = await context.client.studies.all({ filter: { country_codes: code, released: true, full_year: true }, include: ['country', 'year'] }, options);
  const found = studies
    .map((s) => ({ id: s.id, countryCode: s.country?.code ?? code, market: s.country?.name ?? code, year: Number(s.year?.year ?? Number.NaN) }))
    .filter((s) => Number.isFinite(s.year))
    .sort((a, b) => a.year - b.year);
  if (found.length === 0) {
    const countries = await context.client.countries.all({ filter: { with_studies: true }, fields: ['code'] }, options);
    const codes = countries.map((c) => c.code ?? '').filter((c) => c !== '').sort();
    const alias: Readonly<Record<string, string>> = { UK: 'GB', EN: 'GB', EL: 'GR' };
    throw new UsageError(`No released study for market '${market}'.`, { hint: `${alias[code] ? `Did you mean ${alias[code]}? ` : ''}Markets are ISO alpha-2 codes: ${codes.join(', ')}.` });
  }
  if (year === undefined) return found.at(-1)!;
  const match = found.find((s) => s.year === year);
  if (!match) throw new UsageError(`${code} has no released full-year study in ${year}.`, { hint: `Years with data in ${code}: ${found.map((s) => s.year).join(', ')}.` });
  return match;
}
