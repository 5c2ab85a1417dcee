/**
 * `GET /api/v2/best-countries/countries/{year}/{dataType}/{scoreType}` (§13.2): flat records, one per
 * country ranked that year, filtered by the plain parameters `country_codes` and `countries`, sorted
 * by country name unless `sort` names returned fields (`-` for descending).
 */
import { BEST_COUNTRIES_DATA } from '../../catalogue/best-countries.js';
import { bestCountriesOf } from '../dataset/best-countries.js';
import { badRequest, notFound } from './api-error.js';
import type { Ctx } from './bindings.js';
import { fromCodeList, fromIdList } from './filter-values.js';
import { toComparator } from './list-engine.js';
import { splitList } from './parse-query.js';

export const BEST_COUNTRIES_DATA_SCOPE = BEST_COUNTRIES_DATA.scope;

export function bestCountriesData(segments: readonly string[], params: URLSearchParams, ctx: Ctx, strictParams: boolean): { data: Record<string, unknown>[] } {
  const [yearText = '', dataType = '', scoreType = '', ...rest] = segments;
  const usage = `/best-countries/countries/{year}/{${BEST_COUNTRIES_DATA.dataTypes.join('|')}}/{${BEST_COUNTRIES_DATA.scoreTypes.join('|')}}`;
  if (rest.length > 0 || !/^\d{4}$/.test(yearText)) throw notFound(`No route /best-countries/countries/${segments.join('/')}. Use ${usage}.`);
  if (!(BEST_COUNTRIES_DATA.dataTypes as readonly string[]).includes(dataType)) throw notFound(`Unknown data type '${dataType}'. Use ${usage}.`);
  if (!(BEST_COUNTRIES_DATA.scoreTypes as readonly string[]).includes(scoreType)) throw notFound(`Unknown score type '${scoreType}'. Use ${usage}.`);
  if (scoreType === 'percent' && dataType !== 'attributes') throw badRequest('percent exists only for attributes (the consideration attributes), not for factors.');
  const bc = bestCountriesOf(ctx.ds);
  const year = Number(yearText);
  if (!bc.years.includes(year)) throw notFound(`No Best Countries data for ${year}. Years with data: ${bc.years.join(', ')}.`);
  for (const key of params.keys()) {
    if (!(key in BEST_COUNTRIES_DATA.params) && strictParams) {
      throw badRequest(`Unknown parameter '${key}' for Best Countries data. Parameters: country_codes, countries, sort (plain, not filter[...]).`);
    }
  }
  let rows = bc.data(year, dataType as 'attributes' | 'factors', scoreType as 'scores' | 'ranks' | 'percent');
  const codes = params.get('country_codes');
  if (codes !== null) {
    const wanted = fromCodeList(codes);
    rows = rows.filter((r) => wanted.has(r.country_code));
  }
  const ids = params.get('countries');
  if (ids !== null) {
    const wanted = fromIdList('countries', ids);
    rows = rows.filter((r) => wanted.has(r.country_id));
  }
  const sort = params.get('sort');
  if (sort !== null && sort.trim() !== '') {
    const keys = splitList(sort).map((k) => (k.startsWith('-') ? { field: k.slice(1), desc: true } : { field: k, desc: false }));
    const first = rows[0];
    const bad = first ? keys.find((k) => !(k.field in first)) : undefined;
    if (bad) throw badRequest(`Cannot sort by '${bad.field}': sort by a returned field (country, country_code, or an ${dataType === 'factors' ? 'factor' : 'attribute'} key).`);
    const compare = toComparator(keys);
    rows = rows.map((r, i) => ({ r, i })).sort((a, b) => compare(a.r, b.r) || a.i - b.i).map((x) => x.r);
  }
  return { data: rows };
}
