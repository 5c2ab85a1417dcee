/**
 * `createClient()`: one typed fetcher per resource of the Brand Data Service, over a shared
 * transport (auth, timeout, retries, rate governor, cache) and the concurrency-limited loader.
 */
import * as z from 'zod';
import { UsageError } from '../errors.js';
import { archetypeEntry, type ArchetypeEntry } from '../schemas/archetypes.js';
import { brandscapeIncludeShape, brandscapeRowLoose, brandscapeRowSchema, hasRowWidth } from '../schemas/brandscape.js';
import type { BrandMetric } from '../schemas/metrics.js';
import { createDiskCache } from '../loader/cache.js';
import { iteratePages } from '../loader/iterate-pages.js';
import { loadAll, type LoadOptions, type LoadResult } from '../loader/load-all.js';
import type { FetchPage } from '../loader/types.js';
import {
  ARCHETYPES_TOOL,
  BRANDSCAPE_COMBINATIONS_TEXT,
  PAGE_LIMITS,
  RESOURCES,
  isQualifyingBrandscapeFilter,
  type ApiVersion,
  type IncludeSpec,
  type ResourceName,
} from './endpoints.js';
import { checkHealth, type HealthResult } from './health.js';
import { fromMetricCatalogue, type MetricColumnIndex, type MetricGroupWithMetrics } from './metric-columns.js';
import type { BrandscapeItem, BrandscapeParams, Item, ItemParams, ListParams, ListResource } from './params.js';
import { fromItemBody, fromListBody, pageSchemaOf, toShapeError, type ParsedPage } from './parse.js';
import { toSearchParams, type QueryInput } from './query.js';
import { createRateGovernor } from './rate-governor.js';
import type { RetryOptions } from './retry-policy.js';
import { createTransport, type Transport, type TransportEvent } from './transport.js';

export interface ClientOptions {
  /** Service base URL, e.g. `https://fount.wppbav.com` (default: `BRANDSCAPE_BASE_URL`). */
  baseUrl?: string;
  /** Personal access token, or an async provider for OAuth tokens that expire (default: `BRANDSCAPE_TOKEN`). */
  token?: string | (() => Promise<string>);
  /** API version (default: `BRANDSCAPE_API_VERSION`, else `v2`). */
  version?: ApiVersion;
  /** Requests in flight during full loads (default 8). */
  concurrency?: number;
  /** Per-request time limit in ms (default 30 s). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /** On-disk cache of answers: a directory and a time-to-live. */
  cache?: { dir: string; ttlMs: number };
  /** Rate-limit window of the service (default 60 s, as documented). */
  rateWindowMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Requests, retries and rate-limit waits, for logs and progress; never carries the token. */
  onEvent?: (event: TransportEvent) => void;
  /** Where defaults come from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** One page of a list, parsed. */
export type Page<T> = ParsedPage<T>;

/** Options of full loads: concurrency, bounds, progress, cancellation. */
export type FetchAllOptions = Omit<LoadOptions, 'version'>;

/** Parameters of a call made without any: the plain record, no includes (the default of `P`). */
type NoParams = Record<never, never>;

export interface ResourceFetcher<R extends ListResource | 'study-brands'> {
  /** One page (default 25 records, the service's default). */
  page<const P extends ListParams<R> = NoParams>(params?: P, options?: { signal?: AbortSignal }): Promise<Page<Item<R, P>>>;
  /** Every page in order, fetched concurrently (bounded memory). */
  pages<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): AsyncIterable<Page<Item<R, P>>>;
  /** Every record; throws rather than return fewer than `meta.total`. */
  all<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): Promise<Item<R, P>[]>;
  /** Every record with load statistics (and `complete: false` when bounded by maxRecords/maxPages). */
  load<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): Promise<LoadResult<Item<R, P>>>;
  /** One record by id. */
  get<const P extends ItemParams<R> = NoParams>(id: number, params?: P, options?: { signal?: AbortSignal }): Promise<Item<R, P>>;
}

export interface BrandscapeFetcher {
  page<const P extends BrandscapeParams>(params: P, options?: { signal?: AbortSignal }): Promise<Page<BrandscapeItem<P>>>;
  pages<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): AsyncIterable<Page<BrandscapeItem<P>>>;
  all<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): Promise<BrandscapeItem<P>[]>;
  load<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): Promise<LoadResult<BrandscapeItem<P>>>;
  get<const P extends Omit<BrandscapeParams, 'filter'> = NoParams>(id: number, params?: P, options?: { signal?: AbortSignal }): Promise<BrandscapeItem<P>>;
}

/** Archetypes: cultural (against the whole study) or competitive (against exactly one set). */
export type ArchetypeParams = {
  studies: number | readonly number[];
  brands?: number | readonly number[];
  /** Default: All Adults (1). */
  audiences?: number | readonly number[];
} & (
  | { comparison: 'cultural' }
  | { comparison: 'competitive'; collections: number | readonly number[]; categories?: never }
  | { comparison: 'competitive'; categories: number | readonly number[]; collections?: never }
);

export interface MetricCatalogueRecords {
  metrics: BrandMetric[];
  groups: MetricGroupWithMetrics[];
  columns: MetricColumnIndex;
}

export interface BrandscapeClient {
  readonly baseUrl: string;
  readonly version: ApiVersion;
  readonly audiences: ResourceFetcher<'audiences'>;
  readonly audienceGroups: ResourceFetcher<'audience-groups'>;
  readonly brands: ResourceFetcher<'brands'>;
  readonly brandMetrics: ResourceFetcher<'brand-metrics'>;
  readonly brandMetricGroups: ResourceFetcher<'brand-metric-groups'>;
  readonly categories: ResourceFetcher<'categories'>;
  readonly cities: ResourceFetcher<'cities'>;
  readonly collections: ResourceFetcher<'collections'>;
  readonly companies: ResourceFetcher<'companies'>;
  readonly countries: ResourceFetcher<'countries'>;
  readonly gicsSectors: ResourceFetcher<'gics-sectors'>;
  readonly regions: ResourceFetcher<'regions'>;
  readonly sectors: ResourceFetcher<'sectors'>;
  readonly stockExchanges: ResourceFetcher<'stock-exchanges'>;
  readonly stockPrices: ResourceFetcher<'stock-prices'>;
  readonly studies: ResourceFetcher<'studies'> & {
    /** Brand-in-study relations of one study (`/studies/{id}/brands`). */
    brands(studyId: number): ResourceFetcher<'study-brands'>;
  };
  readonly years: ResourceFetcher<'years'>;
  readonly brandscape: BrandscapeFetcher;
  /** The archetypes tool (not paginated). */
  archetypes(params: ArchetypeParams, options?: { signal?: AbortSignal }): Promise<ArchetypeEntry[]>;
  /** The metric catalogue (fetched once per client): metrics, groups and brandscape columns. */
  metricCatalogue(options?: { signal?: AbortSignal }): Promise<MetricCatalogueRecords>;
  /** `GET /health`: up, down, or up with a permission problem (§9). */
  health(): Promise<HealthResult>;
  /** A fetcher by the service's path name (`audience-groups`, ...), for tools such as the CLI. */
  resource(name: ListResource): ResourceFetcher<ListResource>;
}

const envVersion = (value: string | undefined): ApiVersion | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value === 'v1' || value === 'v2') return value;
  throw new UsageError(`BRANDSCAPE_API_VERSION must be 'v1' or 'v2', not '${value}'.`);
};

const asList = (v: number | readonly number[] | undefined) => (v === undefined ? undefined : typeof v === 'number' ? [v] : [...v]);

/**
 * Creates a client. With no options it reads `BRANDSCAPE_BASE_URL`, `BRANDSCAPE_TOKEN` and
 * `BRANDSCAPE_API_VERSION`.
 *
 * @example
 * const client = createClient({ baseUrl: emulator.url, token: emulator.token });
 * const uk = await client.brandscape.all({
 *   filter: { country_code: 'GB', year_number: 2024, audiences: 1 },
 *   metricGroupKeys: ['pillars'],
 *   include: ['brand', 'sector'],
 * });
 */
export function createClient(options: ClientOptions = {}): BrandscapeClient {
  const env = options.env ?? process.env;
  const baseUrl = (options.baseUrl ?? env['BRANDSCAPE_BASE_URL'] ?? '').replace(/\/+$/, '');
  if (baseUrl === '') {
    throw new UsageError('No service base URL.', {
      hint: "Set BRANDSCAPE_BASE_URL or pass baseUrl; to try the toolkit without an account, start the emulator (createEmulator() or 'brandscape emulator').",
    });
  }
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`The base URL '${baseUrl}' must start with http:// or https://.`);
  const version = options.version ?? envVersion(env['BRANDSCAPE_API_VERSION']) ?? 'v2';
  const token = options.token ?? env['BRANDSCAPE_TOKEN'];
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ??
    ((ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        // The listener goes when the timer fires: a long load sleeps many times on one signal.
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }));
  const governor = createRateGovernor({ now, sleep, ...(options.rateWindowMs === undefined ? {} : { windowMs: options.rateWindowMs }) });
  const transport: Transport = createTransport({
    baseUrl,
    version,
    ...(token === undefined ? {} : { token }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.cache ? { cache: createDiskCache(options.cache) } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    governor,
    sleep,
    now,
  });
  const concurrency = options.concurrency ?? 8;
  const limits = PAGE_LIMITS[version];
  const endpointOf = (path: string) => `${baseUrl}/api/${version}/${path}`;

  // ---- generic resources -----------------------------------------------------------------------

  function recordSchemaOf(resource: ResourceName, fields: readonly string[] | undefined, include: readonly string[] | undefined): z.ZodObject {
    const spec = RESOURCES[resource];
    let schema: z.ZodObject = spec.record;
    if (fields && fields.length > 0) schema = schema.pick(Object.fromEntries(fields.map((f) => [f, true])) as Record<string, true>);
    const includes = spec.includes as Readonly<Record<string, IncludeSpec>>;
    const extra: Record<string, z.ZodType> = {};
    for (const name of include ?? []) {
      const inc = includes[name];
      if (!inc) continue;
      const key = inc.aliasOf ?? name;
      extra[key] = inc.many ? z.array(inc.schema).default([]) : inc.schema.nullable().default(null);
    }
    return Object.keys(extra).length > 0 ? schema.extend(extra) : schema;
  }

  const schemaCache = new Map<string, z.ZodObject>();
  const cachedSchema = (resource: ResourceName, fields?: readonly string[], include?: readonly string[]) => {
    const key = `${resource}|${(fields ?? []).join(',')}|${(include ?? []).join(',')}`;
    let schema = schemaCache.get(key);
    if (!schema) schemaCache.set(key, (schema = recordSchemaOf(resource, fields, include)));
    return schema;
  };

  function queryOf(params: ListParams<ListResource> | undefined): QueryInput {
    return {
      filter: params?.filter as QueryInput['filter'],
      include: params?.include,
      fields: params?.fields,
      sort: params?.sort,
      search: params?.search,
    };
  }

  function serializerOf(resource: ResourceName) {
    const spec = RESOURCES[resource];
    const booleanFields = new Set(
      Object.entries(spec.fields)
        .filter(([, caps]) => caps.filter === 'bool')
        .map(([f]) => f),
    );
    return (input: QueryInput) => toSearchParams(input, { version, fieldsKey: spec.fieldsKey, booleanFields });
  }

  function fetcher<R extends ListResource | 'study-brands'>(resource: R, path: string): ResourceFetcher<R> {
    const spec = RESOURCES[resource];
    const serialize = serializerOf(resource);
    const checkSearch = (params: { search?: unknown } | undefined) => {
      if (params?.search !== undefined && spec.search === false) {
        throw new UsageError(`search is not supported on ${path}.`, { hint: 'Use a like filter such as filter: { name: ... } instead.' });
      }
    };
    const fetchPageOf = (params: ListParams<ListResource> | undefined): FetchPage<unknown> => {
      checkSearch(params);
      const input = queryOf(params);
      const schema = cachedSchema(resource, params?.fields, params?.include);
      return async (page, perPage, signal, context) => {
        const res = await transport.get(path, serialize({ ...input, page, perPage }), { signal, scope: spec.scope, onEvent: context?.onEvent, refresh: context?.refresh });
        return fromListBody(schema, res.body, endpointOf(path));
      };
    };
    const loadOptions = (params: { perPage?: number } | undefined, o: FetchAllOptions | undefined): LoadOptions => ({
      concurrency,
      version,
      ...(params?.perPage === undefined ? {} : { perPage: params.perPage }),
      ...o,
    });
    const api = {
      async page(params?: ListParams<ListResource>, o?: { signal?: AbortSignal }) {
        const fetchPage = fetchPageOf(params);
        return fetchPage(params?.page ?? 1, Math.min(params?.perPage ?? limits.default, limits.max), o?.signal ?? new AbortController().signal);
      },
      pages(params?: ListParams<ListResource>, o?: FetchAllOptions) {
        return iteratePages(fetchPageOf(params), loadOptions(params, o));
      },
      async all(params?: ListParams<ListResource>, o?: FetchAllOptions) {
        const result = await loadAll(fetchPageOf(params), loadOptions(params, o));
        return result.records;
      },
      load(params?: ListParams<ListResource>, o?: FetchAllOptions) {
        return loadAll(fetchPageOf(params), loadOptions(params, o));
      },
      async get(id: number, params?: ItemParams<ListResource>, o?: { signal?: AbortSignal }) {
        if (!Number.isInteger(id)) throw new UsageError(`A record id is an integer, got ${String(id)}.`);
        const schema = cachedSchema(resource, params?.fields, params?.include);
        const itemPath = `${path}/${id}`;
        const res = await transport.get(itemPath, serialize({ include: params?.include, fields: params?.fields }), {
          ...(o?.signal ? { signal: o.signal } : {}),
          scope: spec.scope,
        });
        return fromItemBody(schema, res.body, endpointOf(itemPath));
      },
    };
    return api as unknown as ResourceFetcher<R>;
  }

  // ---- metric catalogue and brandscape data -----------------------------------------------------

  let catalogue: Promise<MetricCatalogueRecords> | undefined;
  const metricCatalogue = (o?: { signal?: AbortSignal }): Promise<MetricCatalogueRecords> => {
    catalogue ??= (async () => {
      const signalOpt = o?.signal ? { signal: o.signal } : {};
      const [metrics, groups] = await Promise.all([
        client.brandMetrics.all({}, signalOpt),
        client.brandMetricGroups.all({ include: ['metrics'] }, signalOpt),
      ]);
      return { metrics, groups, columns: fromMetricCatalogue(metrics, groups) };
    })();
    // A failed fetch is not remembered: the next call tries again.
    catalogue.catch(() => (catalogue = undefined));
    return catalogue;
  };

  const brandscapeSpec = RESOURCES['brandscape-data'];
  const brandscapeSerialize = serializerOf('brandscape-data');

  function brandscapeQuery(params: Omit<BrandscapeParams, 'filter'> & { filter?: BrandscapeParams['filter'] }): QueryInput {
    return {
      filter: params.filter as QueryInput['filter'],
      include: params.include,
      fields: params.fields,
      sort: params.sort,
      extra: {
        metric_keys: params.metricKeys,
        metric_group_keys: params.metricGroupKeys,
      },
    };
  }

  /**
   * The row schema for a query: every expected column listed (fast, strict). When the metric
   * catalogue is unavailable (a token without its scope), rows are checked by a catch-all instead.
   */
  async function brandscapeSchemas(params: Omit<BrandscapeParams, 'filter'>, signal?: AbortSignal) {
    const includes = (params.include ?? []).map((i) => (i === 'audiences' ? 'audience' : i)) as (keyof typeof brandscapeIncludeShape)[];
    let strict: z.ZodObject | undefined;
    try {
      const { columns } = await metricCatalogue(signal ? { signal } : undefined);
      const metricColumns = columns.columnsFor(params.metricKeys, params.metricGroupKeys);
      strict = brandscapeRowSchema({ metricColumns, includes, ...(params.fields ? { fields: params.fields } : {}), unknownColumns: 'strip' });
    } catch (error) {
      if (error instanceof UsageError) throw error;
      strict = undefined;
    }
    return { strict, loose: brandscapeRowLoose };
  }

  function checkQualifying(filter: BrandscapeParams['filter'] | undefined) {
    const names = Object.entries(filter ?? {})
      .filter(([, v]) => v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0))
      .map(([k]) => k);
    if (!isQualifyingBrandscapeFilter(names)) {
      throw new UsageError('Brandscape data needs a qualifying filter combination; the service refuses anything else.', {
        hint: `Use one of: ${BRANDSCAPE_COMBINATIONS_TEXT}.`,
      });
    }
  }

  const brandscapePath = brandscapeSpec.path;
  const brandscapeEndpoint = endpointOf(brandscapePath);

  /** Listed fields of a row schema, cached per schema: the width every row must have. */
  const widths = new WeakMap<z.ZodObject, number>();
  const widthOf = (schema: z.ZodObject) => {
    let width = widths.get(schema);
    if (width === undefined) widths.set(schema, (width = Object.keys(schema.shape).length));
    return width;
  };

  function parseBrandscapePage(schemas: { strict: z.ZodObject | undefined; loose: z.ZodType }, body: unknown) {
    if (schemas.strict) {
      const result = pageSchemaOf(schemas.strict).safeParse(body);
      // The listed schema strips what it does not list (its strict mode is quadratic in the row
      // width); rows as wide as the list have nothing else.
      if (result.success && typeof body === 'object' && body !== null && hasRowWidth((body as { data?: unknown }).data, widthOf(schemas.strict))) {
        const { data, meta } = result.data;
        return { records: data, total: meta.total, lastPage: meta.last_page, perPage: meta.per_page, currentPage: meta.current_page };
      }
      // The fast schema lists every column the catalogue knows. A column it does not know (a
      // metric added since) or a column left out goes through the catch-all, which keeps the first
      // and accepts the second; anything else wrong fails there too, with its JSON path.
    }
    return fromListBody(schemas.loose, body, brandscapeEndpoint);
  }

  const brandscapePageFetcher = async (params: BrandscapeParams, signal?: AbortSignal): Promise<FetchPage<unknown>> => {
    checkQualifying(params.filter);
    const schemas = await brandscapeSchemas(params, signal);
    const input = brandscapeQuery(params);
    return async (page, perPage, pageSignal, context) => {
      const res = await transport.get(brandscapePath, brandscapeSerialize({ ...input, page, perPage }), {
        signal: pageSignal,
        scope: brandscapeSpec.scope,
        onEvent: context?.onEvent,
        refresh: context?.refresh,
      });
      return parseBrandscapePage(schemas, res.body);
    };
  };

  const brandscapeLoadOptions = (params: BrandscapeParams, o: FetchAllOptions | undefined): LoadOptions => ({
    concurrency,
    version,
    ...(params.perPage === undefined ? {} : { perPage: params.perPage }),
    ...o,
  });

  const brandscape = {
    async page(params: BrandscapeParams, o?: { signal?: AbortSignal }) {
      const signal = o?.signal ?? new AbortController().signal;
      const fetchPage = await brandscapePageFetcher(params, signal);
      return fetchPage(params.page ?? 1, Math.min(params.perPage ?? limits.default, limits.max), signal);
    },
    pages(params: BrandscapeParams, o?: FetchAllOptions) {
      // The schema needs the catalogue first; the iterator starts once it is known.
      return (async function* () {
        const fetchPage = await brandscapePageFetcher(params, o?.signal);
        yield* iteratePages(fetchPage, brandscapeLoadOptions(params, o));
      })();
    },
    async all(params: BrandscapeParams, o?: FetchAllOptions) {
      const fetchPage = await brandscapePageFetcher(params, o?.signal);
      return (await loadAll(fetchPage, brandscapeLoadOptions(params, o))).records;
    },
    async load(params: BrandscapeParams, o?: FetchAllOptions) {
      const fetchPage = await brandscapePageFetcher(params, o?.signal);
      return loadAll(fetchPage, brandscapeLoadOptions(params, o));
    },
    async get(id: number, params: Omit<BrandscapeParams, 'filter'> = {}, o?: { signal?: AbortSignal }) {
      const schemas = await brandscapeSchemas(params, o?.signal);
      const itemPath = `${brandscapePath}/${id}`;
      const res = await transport.get(itemPath, brandscapeSerialize(brandscapeQuery(params)), {
        ...(o?.signal ? { signal: o.signal } : {}),
        scope: brandscapeSpec.scope,
      });
      if (schemas.strict) {
        const strict = schemas.strict;
        const result = z.object({ data: strict }).safeParse(res.body);
        const raw = typeof res.body === 'object' && res.body !== null ? (res.body as { data?: unknown }).data : undefined;
        if (result.success && hasRowWidth([raw], widthOf(strict))) return (result.data as { data: unknown }).data;
        // As for pages: the catch-all below decides (and names the path if the row is wrong).
      }
      return fromItemBody(schemas.loose, res.body, endpointOf(itemPath));
    },
  } as unknown as BrandscapeFetcher;

  // ---- archetypes -------------------------------------------------------------------------------

  const archetypesSchema = z.object({ data: z.array(archetypeEntry) });
  async function archetypes(params: ArchetypeParams, o?: { signal?: AbortSignal }): Promise<ArchetypeEntry[]> {
    const studies = asList(params.studies);
    if (!studies || studies.length === 0) throw new UsageError('archetypes needs at least one study.');
    const extra: QueryInput['extra'] = {
      studies,
      brands: asList(params.brands),
      audiences: asList(params.audiences),
    };
    if (params.comparison === 'competitive') {
      const collections = asList(params.collections);
      const categories = asList(params.categories);
      if ((collections === undefined) === (categories === undefined)) {
        throw new UsageError('A competitive comparison needs exactly one of collections or categories.');
      }
      Object.assign(extra, collections ? { collections } : { categories });
    }
    const res = await transport.get(ARCHETYPES_TOOL.path, toSearchParams({ extra }, { version, fieldsKey: '' }), {
      ...(o?.signal ? { signal: o.signal } : {}),
      scope: ARCHETYPES_TOOL.scope,
    });
    const parsed = archetypesSchema.safeParse(res.body);
    if (!parsed.success) throw toShapeError(endpointOf(ARCHETYPES_TOOL.path), parsed.error);
    return parsed.data.data;
  }

  const studies = Object.assign(fetcher('studies', 'studies'), {
    brands: (studyId: number) => {
      if (!Number.isInteger(studyId)) throw new UsageError(`A study id is an integer, got ${String(studyId)}.`);
      return fetcher('study-brands', `studies/${studyId}/brands`);
    },
  });

  const fetchers: Record<ListResource, ResourceFetcher<ListResource>> = {} as Record<ListResource, ResourceFetcher<ListResource>>;
  const resource = (name: ListResource): ResourceFetcher<ListResource> => {
    const spec = RESOURCES[name];
    return (fetchers[name] ??= fetcher(name, spec.path) as unknown as ResourceFetcher<ListResource>);
  };

  const client: BrandscapeClient = {
    baseUrl,
    version,
    audiences: fetcher('audiences', 'audiences'),
    audienceGroups: fetcher('audience-groups', 'audience-groups'),
    brands: fetcher('brands', 'brands'),
    brandMetrics: fetcher('brand-metrics', 'brand-metrics'),
    brandMetricGroups: fetcher('brand-metric-groups', 'brand-metric-groups'),
    categories: fetcher('categories', 'categories'),
    cities: fetcher('cities', 'cities'),
    collections: fetcher('collections', 'collections'),
    companies: fetcher('companies', 'companies'),
    countries: fetcher('countries', 'countries'),
    gicsSectors: fetcher('gics-sectors', 'gics-sectors'),
    regions: fetcher('regions', 'regions'),
    sectors: fetcher('sectors', 'sectors'),
    stockExchanges: fetcher('stock-exchanges', 'stock-exchanges'),
    stockPrices: fetcher('stock-prices', 'stock-prices'),
    studies,
    years: fetcher('years', 'years'),
    brandscape,
    archetypes,
    metricCatalogue,
    health: () =>
      checkHealth({
        baseUrl,
        ...(token === undefined ? {} : { token }),
        fetch: options.fetch ?? fetch,
        now,
        ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
      }),
    resource,
  };
  return client;
}
