/**
 * The endpoints the service lists in its collections but documents no response for (§11.12,
 * §13.3): a country's indicators (`/countries/{id}/indicators`, and one year of them) and Best
 * Countries raw respondent data (`/best-countries/countries/raw/{year}`). Their envelopes are the
 * service's usual ones and are checked; their records are not documented, so they are parsed as
 * objects whose values are `unknown`: a caller narrows them (or puts them in a table with
 * `loadTable`, which types columns by their values) rather than trusting a shape the service never
 * promised. The lists page like every list, through the loader.
 */
import * as z from 'zod';
import { BEST_COUNTRIES_RAW } from '../catalogue/best-countries.js';
import { COUNTRY_INDICATORS } from '../catalogue/country-indicators.js';
import { UsageError } from '../errors.js';
import type { FetchPage } from '../loader/types.js';
import { toListMethods, type ListSettings } from './list-methods.js';
import type { PageRequest } from './page-functions.js';
import { fromItemBody, fromListBody } from './parse.js';
import type { Transport } from './transport.js';
import type { BestCountriesRawQuery, CountryIndicatorsFetcher, PagingQuery, UndocumentedList, UndocumentedRecord } from './undocumented-types.js';

const undocumentedRecord = z.record(z.string(), z.unknown());

export interface UndocumentedListContext {
  pageFunction: <T>(request: PageRequest<T>) => FetchPage<T>;
  transport: Transport;
  list: ListSettings;
}

const listOf = <T>(v: T | readonly T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? [...(v as readonly T[])] : [v as T]);

const pagingParams = (page: number, perPage: number, params = new URLSearchParams()) => {
  params.set('page', String(page));
  params.set('per_page', String(perPage));
  return params;
};

const checkId = (what: string, id: number) => {
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`A ${what} is a positive integer id, got ${String(id)}.`);
};

/**
 * `client.countries.indicators(countryId)`.
 *
 * @example
 * const years = await client.countries.indicators(48).all(); // one record per year
 * const one = await client.countries.indicators(48).get(32); // year id 32
 */
export function createCountryIndicators(context: UndocumentedListContext): (countryId: number) => CountryIndicatorsFetcher {
  return (countryId) => {
    checkId('country id', countryId);
    const path = COUNTRY_INDICATORS.path(countryId);
    const fetchPage = context.pageFunction({
      path,
      scope: COUNTRY_INDICATORS.scope,
      paramsOf: (page, perPage) => pagingParams(page, perPage),
      parse: (body, url) => fromListBody(undocumentedRecord, body, url),
    });
    const list = toListMethods<PagingQuery | undefined, UndocumentedRecord>(() => fetchPage, context.list);
    return {
      page: (params, options) => list.page(params, options),
      pages: (params, options) => list.pages(params, options),
      all: (params, options) => list.all(params, options),
      load: (params, options) => list.load(params, options),
      loadInto: (params, sink, options) => list.loadInto(params, sink, options),
      async get(yearId, options) {
        checkId('year id', yearId);
        const answer = await context.transport.get(COUNTRY_INDICATORS.itemPath(countryId, yearId), new URLSearchParams(), { signal: options?.signal, scope: COUNTRY_INDICATORS.scope });
        return fromItemBody(undocumentedRecord, answer.body, answer.url);
      },
    };
  };
}

/**
 * `client.bestCountries.raw`: Best Countries raw respondent data, paged through the loader.
 *
 * @example
 * const rows = await client.bestCountries.raw.all({ year: 2024, countryCodes: ['US'], sort: 'country.name' });
 */
export function createBestCountriesRaw(context: UndocumentedListContext): UndocumentedList<BestCountriesRawQuery> {
  const fetchPageOf = (query: BestCountriesRawQuery): FetchPage<UndocumentedRecord> => {
    if (!Number.isInteger(query.year) || query.year < 1000 || query.year > 9999) throw new UsageError(`year must be a calendar year such as 2024, got ${String(query.year)}.`);
    const params = new URLSearchParams();
    const codes = listOf(query.countryCodes);
    if (codes?.length) params.set('country_codes', codes.join(','));
    const ids = listOf(query.countries);
    if (ids?.some((id) => !Number.isInteger(id))) throw new UsageError('countries are integer ids.');
    if (ids?.length) params.set('countries', ids.join(','));
    const sort = listOf(query.sort);
    if (sort?.length) params.set('sort', sort.join(','));
    return context.pageFunction({
      path: BEST_COUNTRIES_RAW.path(query.year),
      scope: BEST_COUNTRIES_RAW.scope,
      paramsOf: (page, perPage) => pagingParams(page, perPage, new URLSearchParams(params)),
      parse: (body, url) => fromListBody(undocumentedRecord, body, url),
    });
  };
  return toListMethods<BestCountriesRawQuery, UndocumentedRecord>(fetchPageOf, context.list);
}
