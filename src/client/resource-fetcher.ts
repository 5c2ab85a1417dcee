/**
 * The fetcher of a listable resource (brands, studies, `studies/{id}/brands`, ...): its records are
 * parsed by the resource's schema from the endpoint catalogue, narrowed by `fields` and widened by
 * `include`. Every resource shares this code; the typed facades (`ResourceFetcher<R>`) only narrow
 * what the compiler sees.
 */
import * as z from 'zod';
import { RESOURCES, type IncludeSpec, type ResourceName } from '../catalogue/endpoints.js';
import { UsageError } from '../errors.js';
import type { FetchPage } from '../loader/types.js';
import type { DynamicFetcher, DynamicListParams, DynamicRecord } from './brandscape-client.js';
import { toListMethods, type ListSettings } from './list-methods.js';
import type { PageRequest } from './page-functions.js';
import type { ListResource, SubResource } from './params.js';
import { fromItemBody, fromListBody } from './parse.js';
import { toQuerySerializer, type QueryInput } from './query.js';
import type { Transport } from './transport.js';

export interface ResourceFetcherContext {
  pageFunction: <T>(request: PageRequest<T>) => FetchPage<T>;
  transport: Transport;
  list: ListSettings;
  /** The record schema of a resource for the fields and includes asked (cached per client). */
  recordSchema: (resource: ResourceName, fields?: readonly string[], include?: readonly string[]) => z.ZodObject;
}

/**
 * A cache of record schemas: one per resource, fields and includes, built on first use.
 *
 * @example
 * const recordSchema = createRecordSchemas();
 * recordSchema('brands', ['id', 'name'], ['sector']); // brand.pick({ id, name }).extend({ sector })
 */
export function createRecordSchemas(): ResourceFetcherContext['recordSchema'] {
  const schemas = new Map<string, z.ZodObject>();
  const build = (resource: ResourceName, fields: readonly string[] | undefined, include: readonly string[] | undefined): z.ZodObject => {
    const spec = RESOURCES[resource];
    let schema: z.ZodObject = spec.record;
    if (fields && fields.length > 0) {
      const mask: Record<string, true> = Object.fromEntries(fields.map((f) => [f, true]));
      schema = schema.pick(mask);
    }
    const includes = spec.includes as Readonly<Record<string, IncludeSpec>>;
    const extra: Record<string, z.ZodType> = {};
    for (const name of include ?? []) {
      const inc = includes[name];
      if (!inc) continue;
      const key = inc.aliasOf ?? name;
      extra[key] = inc.many ? z.array(inc.schema).default([]) : inc.schema.nullable().default(null);
    }
    return Object.keys(extra).length > 0 ? schema.extend(extra) : schema;
  };
  return (resource, fields, include) => {
    const key = `${resource}|${(fields ?? []).join(',')}|${(include ?? []).join(',')}`;
    let schema = schemas.get(key);
    if (!schema) schemas.set(key, (schema = build(resource, fields, include)));
    return schema;
  };
}

const queryOf = (params: DynamicListParams | undefined): QueryInput => ({
  filter: params?.filter,
  include: params?.include,
  fields: params?.fields,
  sort: params?.sort,
  search: params?.search,
});

/**
 * The fetcher of `resource` at `path` (its catalogue path, or a sub-resource path such as
 * `studies/3/brands`). Its parameters are those of any resource; the typed facades narrow them.
 *
 * @example
 * const brands = createResourceFetcher('brands', 'brands', context);
 * const page = await brands.page({ perPage: 5 });
 */
export function createResourceFetcher(resource: ListResource | SubResource, path: string, context: ResourceFetcherContext): DynamicFetcher {
  const spec = RESOURCES[resource];
  const serialize = toQuerySerializer(resource, context.list.version);
  const fetchPageOf = (params: DynamicListParams | undefined): FetchPage<DynamicRecord> => {
    if (params?.search !== undefined && spec.search === false) {
      throw new UsageError(`search is not supported on ${path}.`, { hint: 'Use a like filter such as filter: { name: ... } instead.' });
    }
    const input = queryOf(params);
    const schema = context.recordSchema(resource, params?.fields, params?.include);
    return context.pageFunction({
      path,
      scope: spec.scope,
      paramsOf: (page, perPage) => serialize({ ...input, page, perPage }),
      parse: (body, url) => fromListBody(schema, body, url),
    });
  };
  type Params = (DynamicListParams & { page?: number; perPage?: number }) | undefined;
  const list = toListMethods<Params, DynamicRecord>(fetchPageOf, context.list);
  return {
    ...list,
    async get(id, params, options) {
      if (!Number.isInteger(id)) throw new UsageError(`A record id is an integer, got ${String(id)}.`);
      const schema = context.recordSchema(resource, params?.fields, params?.include);
      const answer = await context.transport.get(`${path}/${id}`, serialize({ include: params?.include, fields: params?.fields }), {
        signal: options?.signal,
        scope: spec.scope,
      });
      return fromItemBody(schema, answer.body, answer.url);
    },
  };
}
