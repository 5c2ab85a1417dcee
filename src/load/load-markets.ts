/**
 * `loadMarkets`: the markets with released studies, with their region and the years of their
 * released full-year studies: what `--markets` and `countryCodes` can name.
 */
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { compareNames } from '../frames/compare-names.js';
import { toTable } from '../frames/to-table.js';
import { loadReleasedStudies, type StudiesClient } from './released-studies.js';

/** A market with released studies. */
export interface MarketRow {
  /** ISO 3166-1 alpha-2 code, what `--markets` takes. */
  code: string;
  name: string;
  region: string | null;
  /** Years with a released full-year study, e.g. `2019, 2020, 2021`. */
  years: string;
  first_year: number | null;
  latest_year: number | null;
  /** Released full-year studies. */
  studies: number;
  /** Released quarterly waves (the US). */
  waves: number;
}

/** Years as a short text: `2019, 2020, 2021`. */
export const yearsText = (years: Iterable<number>) => [...new Set(years)].sort((a, b) => a - b).join(', ');

/**
 * The markets with released studies, by name: code, name, region, the years of their released
 * full-year studies, and how many quarterly waves they have (one request).
 *
 * @example
 * const markets = await loadMarkets(client);
 * markets.print(); // code  name  region  years  first_year  latest_year  studies  waves
 * markets.where({ region: 'Europe' }).values('code'); // ['DE', 'ES', 'FR', 'GB', ...]
 */
export async function loadMarkets(client: StudiesClient, options: { signal?: AbortSignal } = {}): Promise<FrameTable<MarketRow, FrameMeta>> {
  const studies = await loadReleasedStudies(client, undefined, options.signal);
  const byCode = new Map<string, MarketRow & { all: number[] }>();
  for (const s of studies) {
    const row = byCode.get(s.code) ?? { code: s.code, name: s.market, region: s.region, years: '', first_year: null, latest_year: null, studies: 0, waves: 0, all: [] };
    if (s.quarter === null) {
      row.all.push(s.year);
      row.studies++;
    } else row.waves++;
    byCode.set(s.code, row);
  }
  const rows = [...byCode.values()]
    .map(({ all, ...row }): MarketRow => ({ ...row, years: yearsText(all), first_year: all.length > 0 ? Math.min(...all) : null, latest_year: all.length > 0 ? Math.max(...all) : null }))
    .sort((a, b) => compareNames(a.name, b.name));
  return toTable<MarketRow>(rows, { source: 'loadMarkets', columns: MARKET_COLUMNS, kinds: MARKET_KINDS });
}

const MARKET_COLUMNS = ['code', 'name', 'region', 'years', 'first_year', 'latest_year', 'studies', 'waves'];
const MARKET_KINDS = { code: 'string', name: 'string', region: 'string', years: 'string', first_year: 'int', latest_year: 'int', studies: 'int', waves: 'int' } as const;
