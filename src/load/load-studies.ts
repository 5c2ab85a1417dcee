/**
 * `loadStudies`: the released studies of some markets and years, one row each (US quarterly waves
 * included, with their period): what a comparison's rows come from.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { toTable } from '../frames/to-table.js';
import { loadReleasedStudies, type StudiesClient } from './released-studies.js';
import { resolveMarkets } from './resolve-names.js';

/** A released study. */
export interface StudyRow {
  id: number;
  name: string;
  code: string;
  market: string;
  year: number;
  /** `2024`, or `2024 Q2` for a quarterly wave. */
  period: string;
  full_year: boolean;
  respondents: number | null;
  brands: number | null;
  /** When the data was released (ISO 8601), as the service gives it. */
  data_available_at: string | null;
}

export interface LoadStudiesOptions {
  /** Markets by code, name or id (default: every market). */
  markets?: readonly (number | string)[];
  /** Calendar years (default: every year). */
  years?: readonly number[];
  /** Keep the quarterly waves (default true); false keeps full-year studies only. */
  waves?: boolean;
  signal?: AbortSignal;
}

/**
 * The released studies of some markets and years, by market and period.
 *
 * @example
 * const studies = await loadStudies(client, { markets: ['GB', 'DE'], years: [2024, 2025] });
 * studies.print(); // id  name  code  market  year  period  full_year  respondents  brands  data_available_at
 */
export async function loadStudies(client: StudiesClient & Pick<BrandscapeClient, 'countries'>, options: LoadStudiesOptions = {}): Promise<FrameTable<StudyRow, FrameMeta>> {
  const codes = options.markets ? (await resolveMarkets(client, options.markets, options.signal ? { signal: options.signal } : {})).map((m) => m.code) : undefined;
  const years = options.years ? new Set(options.years) : undefined;
  const studies = (await loadReleasedStudies(client, codes, options.signal)).filter((s) => (!years || years.has(s.year)) && (options.waves !== false || s.quarter === null));
  const rows = studies.map(
    (s): StudyRow => ({
      id: s.id,
      name: s.name,
      code: s.code,
      market: s.market,
      year: s.year,
      period: s.quarter === null ? String(s.year) : `${s.year} Q${s.quarter}`,
      full_year: s.quarter === null,
      respondents: s.respondents,
      brands: s.brands,
      data_available_at: s.dataAvailableAt,
    }),
  );
  return toTable<StudyRow>(rows, {
    source: 'loadStudies',
    columns: ['id', 'name', 'code', 'market', 'year', 'period', 'full_year', 'respondents', 'brands', 'data_available_at'],
    kinds: { id: 'int', name: 'string', code: 'string', market: 'string', year: 'int', period: 'string', full_year: 'bool', respondents: 'int', brands: 'int', data_available_at: 'string' },
  });
}
