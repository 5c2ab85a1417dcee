/**
 * The endpoints the published collections list without any response (§11.12, §13.3): a country's
 * indicators, all years or one, and Best Countries raw respondent data. Their records are the
 * emulator's choice (dataset/country-indicators.ts, dataset/best-countries-raw.ts); their lists are
 * paged like every list of the service (`page`, `per_page`, the list envelope), so the client's
 * loader reads them like any other.
 */
import { BEST_COUNTRIES_RAW } from '../../catalogue/best-countries.js';
import { COUNTRY_INDICATORS } from '../../catalogue/country-indicators.js';
import { PAGE_LIMITS } from '../../catalogue/page-limits.js';
import { bestCountriesOf } from '../dataset/best-countries.js';
import { rawYearOf, type RawRow } from '../dataset/best-countries-raw.js';
import { indicatorsOf, indicatorYears } from '../dataset/country-indicators.js';
import { yearIdOf } from '../dataset/reference-data.js';
import { badRequest, notFound } from './api-error.js';
import type { Ctx } from './bindings.js';
import { fromCodeList, fromIdList } from './filter-values.js';
import { fromIdSegment, toComparator } from './list-engine.js';
import { fromPageParams, toEnvelope, type EnvelopeOptions } from './paging.js';
import { fromSortParam } from './parse-query.js';

/** Refuses parameters the endpoint does not take, naming them (the strict emulator's rule, §20). */
function checkParams(params: URLSearchParams, accepted: Readonly<Record<string, string>>, endpoint: string, strict: boolean): void {
  if (!strict) return;
  for (const key of params.keys()) {
    if (!(key in accepted)) throw badRequest(`Unknown parameter '${key}' for ${endpoint}. Parameters: ${Object.keys(accepted).join(', ')} (plain, not filter[...]).`);
  }
}

/** `GET /countries/{id}/indicators[/{yearId}]`: the list of every year, or one year's record. */
export function countryIndicators(countryText: string, yearText: string | undefined, params: URLSearchParams, ctx: Ctx, strict: boolean, envelope: Omit<EnvelopeOptions, 'path'> & { origin: string }): unknown {
  const countryId = fromIdSegment(countryText, 'country');
  if (!ctx.idx.countries.get(countryId)) throw notFound(`No countries record with id '${countryText}'.`);
  const years = indicatorYears(ctx.ds);
  if (yearText !== undefined) {
    checkParams(params, {}, 'a year of country indicators', strict);
    const yearId = fromIdSegment(yearText, 'year');
    const year = years.find((y) => yearIdOf(y) === yearId);
    const record = year === undefined ? undefined : indicatorsOf(ctx.ds, countryId, year);
    if (!record) throw notFound(`No indicators of country ${countryId} for year id ${yearId}. Year ids with indicators: ${years.map(yearIdOf).join(', ')} (a year id, not a calendar year: see /years).`);
    return { data: record };
  }
  checkParams(params, COUNTRY_INDICATORS.params, 'country indicators', strict);
  const page = fromPageParams(params.get('page'), params.get('per_page'), PAGE_LIMITS.v2);
  const start = (page.page - 1) * page.perPage;
  const data = years.slice(start, start + page.perPage).map((y) => indicatorsOf(ctx.ds, countryId, y));
  return toEnvelope(data, data.length, years.length, page, { ...envelope, path: `${envelope.origin}/api/v2/${COUNTRY_INDICATORS.path(countryId)}` });
}

/** `GET /best-countries/countries/raw/{year}`: respondent rows, filtered, sorted and paged. */
export function bestCountriesRaw(segments: readonly string[], params: URLSearchParams, ctx: Ctx, strict: boolean, envelope: Omit<EnvelopeOptions, 'path'> & { origin: string }): unknown {
  const [yearText = '', ...rest] = segments;
  if (rest.length > 0 || !/^\d{4}$/.test(yearText)) throw notFound(`No route /best-countries/countries/raw/${segments.join('/')}. Use /best-countries/countries/raw/{year}, e.g. /best-countries/countries/raw/2024.`);
  const year = Number(yearText);
  const raw = rawYearOf(ctx.ds, year);
  if (!raw) throw notFound(`No Best Countries raw data for ${year}. Years with data: ${bestCountriesOf(ctx.ds).years.join(', ')}.`);
  checkParams(params, BEST_COUNTRIES_RAW.params, 'Best Countries raw data', strict);
  let indexes = Array.from({ length: raw.count }, (_, i) => i);
  const codes = params.get('country_codes');
  if (codes !== null) {
    const wanted = fromCodeList(codes);
    indexes = indexes.filter((i) => wanted.has(raw.countryOf(i).record.code ?? ''));
  }
  const ids = params.get('countries');
  if (ids !== null) {
    const wanted = fromIdList('countries', ids);
    indexes = indexes.filter((i) => wanted.has(raw.countryOf(i).record.id));
  }
  const sortText = params.get('sort');
  const sort = sortText === null ? [] : fromSortParam(sortText);
  let rowOf = (i: number): RawRow => raw.row(i);
  if (sort.length > 0) {
    const sample = raw.row(0);
    const nested = BEST_COUNTRIES_RAW.nestedSortKeys as readonly string[];
    const bad = sort.find((k) => !nested.includes(k.field) && (!(k.field in sample) || k.field === 'country'));
    if (bad) throw badRequest(`Cannot sort Best Countries raw data by '${bad.field}': sort by ${nested.join(', ')} or a field of the record (id, respondent_id, gender, age, an attribute key, ...).`);
    // Rows are generated once for the sort, and the page's rows taken from them.
    const rows = new Map<number, RawRow>(indexes.map((i) => [i, raw.row(i)]));
    rowOf = (i) => rows.get(i)!;
    const read = (row: Record<string, unknown>, field: string): unknown => {
      if (!field.startsWith('country.')) return row[field];
      const country = row['country'] as Record<string, unknown> | undefined;
      return country?.[field.slice('country.'.length)];
    };
    const compare = toComparator(sort, read);
    // Ties keep id order: the pages of one sorted load never overlap.
    indexes = indexes.sort((a, b) => compare(rowOf(a), rowOf(b)) || a - b);
  }
  const page = fromPageParams(params.get('page'), params.get('per_page'), PAGE_LIMITS.v2);
  const start = (page.page - 1) * page.perPage;
  const data = indexes.slice(start, start + page.perPage).map(rowOf);
  return toEnvelope(data, data.length, indexes.length, page, { ...envelope, path: `${envelope.origin}/api/v2/${BEST_COUNTRIES_RAW.path(year)}` });
}
