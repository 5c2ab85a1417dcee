/**
 * `loadYears`: the years with released studies, overall or in some markets, and in how many of
 * them each year is released: which years a cross-market comparison can use.
 */
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { toTable } from '../frames/to-table.js';
import { loadReleasedStudies, type StudiesClient } from './released-studies.js';
import { resolveMarkets } from './resolve-names.js';
import type { BrandscapeClient } from '../client/brandscape-client.js';

/** A year with released studies. */
export interface YearRow {
  year: number;
  /** Markets with a released full-year study that year. */
  markets: number;
  /** Their codes, e.g. `DE, FR, GB`. */
  codes: string;
  /** Markets asked for (or, without `markets`, with any study) that have none that year, e.g. `US`. */
  missing: string;
  /** True when every market asked for has a released full-year study that year. */
  in_every_market: boolean;
  /** Released quarterly waves that year (the US). */
  waves: number;
}

export interface LoadYearsOptions {
  /** Markets by code, name or id (default: every market with studies). */
  markets?: readonly (number | string)[];
  signal?: AbortSignal;
}

/**
 * The years with released studies, latest first: how many markets have a released full-year study
 * each year, which are missing, and whether every market asked for has one.
 *
 * @example
 * const years = await loadYears(client, { markets: ['GB', 'DE', 'US'] });
 * years.where({ in_every_market: true }).values('year')[0]; // the latest year released in all three
 */
export async function loadYears(client: StudiesClient & Pick<BrandscapeClient, 'countries'>, options: LoadYearsOptions = {}): Promise<FrameTable<YearRow, FrameMeta>> {
  const codes = options.markets ? (await resolveMarkets(client, options.markets, options.signal ? { signal: options.signal } : {})).map((m) => m.code) : undefined;
  const studies = await loadReleasedStudies(client, codes, options.signal);
  const wanted = codes ?? [...new Set(studies.map((s) => s.code))].sort();
  const byYear = new Map<number, { codes: Set<string>; waves: number }>();
  for (const s of studies) {
    const y = byYear.get(s.year) ?? { codes: new Set<string>(), waves: 0 };
    if (s.quarter === null) y.codes.add(s.code);
    else y.waves++;
    byYear.set(s.year, y);
  }
  const rows = [...byYear]
    .sort((a, b) => b[0] - a[0])
    .map(([year, y]): YearRow => {
      const missing = wanted.filter((c) => !y.codes.has(c));
      return { year, markets: y.codes.size, codes: [...y.codes].sort().join(', '), missing: missing.join(', '), in_every_market: missing.length === 0, waves: y.waves };
    });
  return toTable<YearRow>(rows, {
    source: 'loadYears',
    columns: ['year', 'markets', 'codes', 'missing', 'in_every_market', 'waves'],
    kinds: { year: 'int', markets: 'int', codes: 'string', missing: 'string', in_every_market: 'bool', waves: 'int' },
  });
}
