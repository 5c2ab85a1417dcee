/**
 * Reads a request's query string into one structure for both API versions. v2 uses `filter[..]`,
 * `fields[..]`, `include`, `sort`, `search`; v1 used bare filter parameters, `order_by`/`order`,
 * `expand`, `fields=a,b` (with `id` always returned), `s` and a top-level `updated_since` (§19.2).
 */
import type { ApiVersion } from '../../catalogue/page-limits.js';
import { badRequest } from './api-error.js';

export interface SortKey {
  field: string;
  desc: boolean;
}

export interface ParsedQuery {
  /** Filter name -> raw value, e.g. `studies` -> `381,546`. */
  filters: Map<string, string>;
  sort: SortKey[];
  /** `fields[<key>]` -> field names. */
  fields: Map<string, string[]>;
  include: string[];
  search: string | undefined;
  page: string | null;
  perPage: string | null;
  /** Every parameter as sent, for top-level ones (`metric_keys`, tool parameters). */
  params: URLSearchParams;
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

const BRACKETED = /^(filter|fields)\[([^\]]*)\]$/;

/** Top-level v1 parameters that are not filters. */
const V1_RESERVED = new Set(['page', 'per_page', 'order_by', 'order', 'expand', 'fields', 's', 'metric_keys', 'metric_group_keys']);

export function fromQuery(params: URLSearchParams, version: ApiVersion, v1FieldsKey: string): ParsedQuery {
  const query: ParsedQuery = {
    filters: new Map(),
    sort: [],
    fields: new Map(),
    include: [],
    search: undefined,
    page: params.get('page'),
    perPage: params.get('per_page'),
    params,
  };
  if (version === 'v2') {
    for (const [key, value] of params) {
      const bracketed = BRACKETED.exec(key);
      if (bracketed) {
        const [, kind, name = ''] = bracketed;
        if (name === '') throw badRequest(`The parameter '${key}' needs a name inside the brackets.`);
        if (kind === 'filter') query.filters.set(name, value);
        else query.fields.set(name, list(value));
      } else if (key === 'include') {
        query.include.push(...list(value));
      } else if (key === 'sort') {
        query.sort = fromSortParam(value);
      } else if (key === 'search') {
        query.search = value;
      }
    }
    return query;
  }
  // v1: every parameter that is not reserved is a filter.
  for (const [key, value] of params) {
    if (key === 'expand') query.include.push(...list(value));
    else if (key === 's') query.search = value;
    else if (key === 'fields') query.fields.set(v1FieldsKey, ['id', ...list(value).filter((f) => f !== 'id')]);
    else if (key === 'updated_since') query.filters.set('updated_since', value);
    else if (!V1_RESERVED.has(key)) query.filters.set(key, value);
  }
  const orderBy = params.get('order_by');
  if (orderBy !== null) {
    const order = (params.get('order') ?? 'asc').toLowerCase();
    if (order !== 'asc' && order !== 'desc') throw badRequest(`order must be 'asc' or 'desc', not '${order}'.`);
    query.sort = list(orderBy).map((field) => ({ field, desc: order === 'desc' }));
  }
  return query;
}

/** `sort=a,-b` -> ascending `a`, then descending `b` (several keys are the emulator's choice, §20). */
export function fromSortParam(value: string): SortKey[] {
  return list(value).map((key) => (key.startsWith('-') ? { field: key.slice(1), desc: true } : { field: key, desc: false }));
}

export { list as splitList };
