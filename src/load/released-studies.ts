/**
 * The released studies with their market, region, year and period, as the discovery tables and the
 * "latest full year" read them: one request (`/studies?filter[released]=1&include=country,year`).
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { quarterOf } from '../frames/prepare-brandscape.js';

/** A released study, flattened. */
export interface ReleasedStudy {
  readonly id: number;
  readonly name: string;
  readonly code: string;
  readonly market: string;
  readonly region: string | null;
  readonly year: number;
  /** 1-4 for a US quarterly wave, null for a full-year study. */
  readonly quarter: number | null;
  readonly respondents: number | null;
  readonly brands: number | null;
  readonly dataAvailableAt: string | null;
}

export type StudiesClient = Pick<BrandscapeClient, 'studies'>;

/** Released studies (of some markets, by ISO code, when given), in market and time order. */
export async function loadReleasedStudies(client: StudiesClient, codes?: readonly string[], signal?: AbortSignal): Promise<ReleasedStudy[]> {
  const filter = { released: true, ...(codes ? { country_codes: [...codes] } : {}) };
  const records = await client.studies.all({ filter, include: ['country', 'year'] }, signal ? { signal } : {});
  const out: ReleasedStudy[] = [];
  for (const s of records) {
    const year = Number(s.year?.year ?? Number.NaN);
    const code = s.country?.code ?? '';
    if (!Number.isInteger(year) || code === '') continue;
    out.push({
      id: s.id,
      name: s.name ?? `Study ${s.id}`,
      code,
      market: s.country?.name ?? code,
      region: s.country?.region?.name ?? null,
      year,
      quarter: quarterOf(s.period?.name, s.name),
      respondents: s.respondents ?? null,
      brands: s.amount_of_brands ?? null,
      dataAvailableAt: s.data_available_at ?? null,
    });
  }
  return out.sort((a, b) => a.code.localeCompare(b.code) || a.year - b.year || (a.quarter ?? 0) - (b.quarter ?? 0) || a.id - b.id);
}
