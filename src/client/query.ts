/**
 * Turns typed parameters into the service's query string (§21): `filter[<k>]=<v>` with lists
 * comma-joined, flags as `1`, `fields[<snake_resource>]=a,b`, `include=a,b`, `sort=-x`, `search`,
 * `page`, `per_page`; `metric_keys`/`metric_group_keys` and tool parameters top level. v1 used bare
 * filter parameters, `order_by`/`order`, `expand`, `fields=a,b` and `s` (§19.2).
 */
import { RESOURCES, type FieldCaps, type ResourceName } from '../catalogue/endpoints.js';
import type { ApiVersion } from '../catalogue/page-limits.js';
import { UsageError } from '../errors.js';

export type ParamValue = string | number | boolean | Date | null | undefined | readonly (string | number)[];

export interface QueryInput {
  filter?: Readonly<Record<string, ParamValue>> | undefined;
  include?: readonly string[] | undefined;
  fields?: readonly string[] | undefined;
  sort?: string | readonly string[] | undefined;
  search?: string | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
  /** Top-level parameters (brandscape column selectors, tool parameters). */
  extra?: Readonly<Record<string, ParamValue>> | undefined;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the service's input format (§3.2). */
export function toServiceDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
}

/** A parameter value as text, or undefined when it asks for nothing (a false flag, an empty list). */
export function toParamText(value: ParamValue): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true) return '1';
  if (value === false) return undefined;
  if (value instanceof Date) return toServiceDateTime(value);
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(',');
  return String(value);
}

/**
 * Boolean *fields* filter on both values (`filter[is_active]=0` is meaningful), unlike flag-style
 * helper filters where `false` means "not asked". The caller says which keys are fields.
 */
function filterText(value: ParamValue, isBooleanField: boolean): string | undefined {
  if (isBooleanField && typeof value === 'boolean') return value ? '1' : '0';
  return toParamText(value);
}

export interface SerializeOptions {
  version: ApiVersion;
  /** Key of sparse fieldsets, `fields[<fieldsKey>]` (v2). */
  fieldsKey: string;
  /** Filter keys that are boolean fields (sent as 1/0 rather than as flags). */
  booleanFields?: ReadonlySet<string>;
}

const sortList = (sort: QueryInput['sort']) => (sort === undefined ? [] : typeof sort === 'string' ? [sort] : [...sort]);

/** The query string parameters of a request, in a stable order. */
export function toSearchParams(input: QueryInput, options: SerializeOptions): URLSearchParams {
  const params = new URLSearchParams();
  const v1 = options.version === 'v1';
  for (const [key, value] of Object.entries(input.filter ?? {})) {
    const text = filterText(value, options.booleanFields?.has(key) ?? false);
    if (text === undefined) continue;
    if (v1) params.append(key, text);
    else params.append(`filter[${key}]`, text);
  }
  for (const [key, value] of Object.entries(input.extra ?? {})) {
    const text = toParamText(value);
    if (text !== undefined) params.append(key, text);
  }
  if (input.include && input.include.length > 0) params.append(v1 ? 'expand' : 'include', input.include.join(','));
  if (input.fields && input.fields.length > 0) {
    params.append(v1 ? 'fields' : `fields[${options.fieldsKey}]`, input.fields.join(','));
  }
  const sort = sortList(input.sort);
  if (sort.length > 0) {
    if (v1) {
      // v1 sorts by several fields in one direction only.
      const desc = sort.map((s) => s.startsWith('-'));
      if (desc.some((d) => d !== desc[0])) {
        throw new UsageError(`API v1 cannot sort in mixed directions (${sort.join(', ')}).`, { hint: 'Use one direction or API v2.' });
      }
      params.append('order_by', sort.map((s) => s.replace(/^-/, '')).join(','));
      params.append('order', desc[0] ? 'desc' : 'asc');
    } else {
      params.append('sort', sort.join(','));
    }
  }
  if (input.search !== undefined && input.search !== '') params.append(v1 ? 's' : 'search', input.search);
  if (input.page !== undefined) params.append('page', String(input.page));
  if (input.perPage !== undefined) params.append('per_page', String(input.perPage));
  return params;
}

/**
 * The serializer of a resource's queries: its sparse-fieldset key and its boolean fields, from the
 * endpoint catalogue.
 *
 * @example
 * toQuerySerializer('brands', 'v2')({ filter: { is_core: false }, page: 1 }).toString() // 'filter%5Bis_core%5D=0&page=1'
 */
export function toQuerySerializer(resource: ResourceName, version: ApiVersion): (input: QueryInput) => URLSearchParams {
  const spec = RESOURCES[resource];
  const booleanFields = new Set(
    Object.entries(spec.fields as Readonly<Record<string, FieldCaps>>)
      .filter(([, caps]) => caps.filter === 'bool')
      .map(([field]) => field),
  );
  return (input) => toSearchParams(input, { version, fieldsKey: spec.fieldsKey, booleanFields });
}
