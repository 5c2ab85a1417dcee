/**
 * Best Countries calculated country data (§13.2): one flat record per country, its plain-parameter
 * filters checked before the request. Not paginated. Also the raw respondent data, which is.
 */
import * as z from 'zod';
import { BEST_COUNTRIES_DATA } from '../catalogue/best-countries.js';
import { UsageError } from '../errors.js';
import { bestCountriesDatapoint, type BestCountriesDataType, type BestCountriesDatapoint, type BestCountriesScoreType } from '../schemas/best-countries.js';
import { toShapeError } from './parse.js';
import type { Transport } from './transport.js';
import type { BestCountriesRawQuery, UndocumentedList } from './undocumented-types.js';

export interface BestCountriesQuery {
  /** Calendar year, e.g. 2024. */
  year: number;
  dataType: BestCountriesDataType;
  /** `percent` only with `attributes` (the consideration attributes). */
  scoreType: BestCountriesScoreType;
  /** ISO alpha-2 codes. */
  countryCodes?: string | readonly string[];
  countries?: number | readonly number[];
  /** Returned fields, `-` for descending; default: country name. */
  sort?: string | readonly string[];
}

export interface BestCountriesFetcher {
  /**
   * @example
   * const ranks = await client.bestCountries.countries({ year: 2024, dataType: 'factors', scoreType: 'ranks', countryCodes: ['US', 'GB'] });
   * ranks[0]?.overall; // 1 = best
   */
  countries(query: BestCountriesQuery, options?: { signal?: AbortSignal }): Promise<BestCountriesDatapoint[]>;
  /**
   * Raw respondent data of a year (`/best-countries/countries/raw/{year}`, §13.3), paged like any
   * list. The service documents no schema: records are objects with `unknown` values.
   *
   * @example
   * const rows = await client.bestCountries.raw.all({ year: 2024, countryCodes: ['US'], sort: 'country.name' });
   */
  readonly raw: UndocumentedList<BestCountriesRawQuery>;
}

const answerSchema = z.object({ data: z.array(bestCountriesDatapoint) });
const listOf = <T>(v: T | readonly T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? [...(v as readonly T[])] : [v as T]);

/** The calculated data; `raw` is added by the client (its fetcher is a list's, built with the loader's). */
export function createBestCountriesFetcher(transport: Transport): Omit<BestCountriesFetcher, 'raw'> {
  return {
    async countries(query, options) {
      // The Swagger file's minimum (2022) is not enforced: the service answers for the years it has.
      if (!Number.isInteger(query.year) || query.year < 1000 || query.year > 9999) {
        throw new UsageError(`year must be a calendar year such as ${BEST_COUNTRIES_DATA.firstYear}, got ${String(query.year)}.`);
      }
      if (!(BEST_COUNTRIES_DATA.dataTypes as readonly string[]).includes(query.dataType)) {
        throw new UsageError(`dataType must be ${BEST_COUNTRIES_DATA.dataTypes.join(' or ')}, got '${String(query.dataType)}'.`);
      }
      if (!(BEST_COUNTRIES_DATA.scoreTypes as readonly string[]).includes(query.scoreType)) {
        throw new UsageError(`scoreType must be one of ${BEST_COUNTRIES_DATA.scoreTypes.join(', ')}, got '${String(query.scoreType)}'.`);
      }
      if (query.scoreType === 'percent' && query.dataType !== 'attributes') throw new UsageError("scoreType 'percent' exists only with dataType 'attributes'.");
      const params = new URLSearchParams();
      const codes = listOf(query.countryCodes);
      if (codes?.length) params.set('country_codes', codes.join(','));
      const ids = listOf(query.countries);
      if (ids?.some((id) => !Number.isInteger(id))) throw new UsageError('countries are integer ids.');
      if (ids?.length) params.set('countries', ids.join(','));
      const sort = listOf(query.sort);
      if (sort?.length) params.set('sort', sort.join(','));
      const answer = await transport.get(BEST_COUNTRIES_DATA.path(query.year, query.dataType, query.scoreType), params, {
        signal: options?.signal,
        scope: BEST_COUNTRIES_DATA.scope,
      });
      const parsed = answerSchema.safeParse(answer.body);
      if (!parsed.success) throw toShapeError(answer.url, parsed.error);
      return parsed.data.data;
    },
  };
}
