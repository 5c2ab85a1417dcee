/**
 * `createClient()`: one typed fetcher per resource of the Brand Data Service, over a shared
 * transport (auth, timeout, retries, rate governor, cache) and the concurrency-limited loader.
 */
import * as z from 'zod';
import { ResponseShapeError, UsageError } from '../errors.js';
import { archetypeEntry, type ArchetypeEntry } from '../schemas/archetypes.js';
import { brandscapeIncludeShape, brandscapeRowLoose, brandscapeRowSchema, hasRowWidth } from '../schemas/brandscape.js';
import type { BrandMetric } from '../schemas/metrics.js';
import { createDiskCache } from '../loader/cache.js';
import { iteratePages } from '../loader/iterate-pages.js';
import { loadAll, type LoadOptions, type LoadResult } from '../loader/load-all.js';
import type { FetchPage, FetchPageContext } from '../loader/types.js';
import {
  ARCHETYPES_TOOL,
  BRANDSCAPE_COMBINATIONS_TEXT,
  PAGE_LIMITS,
  RESOURCE_NAMES,
  RESOURCES,
  isQualifyingBrandscapeFilter,
  type ApiVersion,
  type IncludeSpec,
  type ResourceName,
} from './endpoints.js';
import { checkHealth, type HealthResult } from './health.js';
import { fromMetricCatalogue, type MetricColumnIndex, type MetricGroupWithMetrics } from './metric-columns.js';
import type { BrandscapeItem, BrandscapeParams, Item, ItemParams, ListParams, ListResource } from './params.js';
import { fromItemBody, fromListBody, toShapeError, type ParsedPage } from './parse.js';
import { toSearchParams, type QueryInput } from './query.js';
import { createRateGovernor } from './rate-governor.js';
import { toRetryOptions, type RetryOptions } from './retry-policy.js';
import { createTransport, type Transport, type TransportEvent, type TransportRequestOptions } from './transport.js';

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
  /**
   * Told when an event listener (`onEvent`, a load's `onProgress`) throws; the request goes on
   * regardless. Default: the first such error is written to stderr once, later ones are ignored.
   */
  onListenerError?: (error: unknown, event: TransportEvent) => void;
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

/**
 * Parameters of a fetcher named at run time (`resource()`): text from a command line or a config
 * file, checked against the catalogue by the caller and by the service rather than the compiler.
 */
export type DynamicListParams = Omit<QueryInput, 'extra'>;

/** A record of a fetcher named at run time: parsed by its resource's schema, typed loosely. */
export type DynamicRecord = Record<string, unknown>;

/** A fetcher named at run time: the generic fetcher with text parameters and loosely typed records. */
export interface DynamicFetcher {
  page(params?: DynamicListParams, options?: { signal?: AbortSignal }): Promise<Page<DynamicRecord>>;
  pages(params?: DynamicListParams, options?: FetchAllOptions): AsyncIterable<Page<DynamicRecord>>;
  all(params?: DynamicListParams, options?: FetchAllOptions): Promise<DynamicRecord[]>;
  load(params?: DynamicListParams, options?: FetchAllOptions): Promise<LoadResult<DynamicRecord>>;
  get(id: number, params?: Pick<DynamicListParams, 'include' | 'fields'>, options?: { signal?: AbortSignal }): Promise<DynamicRecord>;
}

/** A listable resource as the service's path names it: `audience-groups`, ..., or `studies/<id>/brands`. */
export type ResourcePath = ListResource | `studies/${number}/brands`;

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
  /**
   * A fetcher by the service's path name (`audience-groups`, `studies/3/brands`, ...), for tools
   * that get the resource and its parameters as text, such as the CLI. Typed code uses the named
   * fetchers (`client.brands`), whose parameters and records the compiler checks.
   */
  resource(path: ResourcePath): DynamicFetcher;
}

const envVersion = (value: string | undefined): ApiVersion | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value === 'v1' || value === 'v2') return value;
  throw new UsageError(`BRANDSCAPE_API_VERSION must be 'v1' or 'v2', not '${value}'.`);
};

const isListResource = (name: ResourceName): name is ListResource => name !== 'brandscape-data' && name !== 'study-brands';

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
  // A request never waits for a 429 longer than the retry policy would wait for the 429 itself.
  const { maxRetryAfterMs } = toRetryOptions(options.retry);
  const governor = createRateGovernor({
    now,
    sleep,
    maxBlockMs: maxRetryAfterMs,
    ...(options.rateWindowMs === undefined ? {} : { windowMs: options.rateWindowMs }),
  });
  const transport: Transport = createTransport({
    baseUrl,
    version,
    ...(token === undefined ? {} : { token }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.cache ? { cache: createDiskCache({ ...options.cache, now }) } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
    governor,
    sleep,
    now,
  });
  const concurrency = options.concurrency ?? 8;
  const limits = PAGE_LIMITS[version];
  const endpointOf = (path: string) => `${baseUrl}/api/${version}/${path}`;

  /** Request options of one page of a load: its events, and how it uses the cache (decided by page 1). */
  const pageRequestOptions = (
    signal: AbortSignal,
    scope: string,
    context: FetchPageContext | undefined,
    paramsOfPage: (page: number) => URLSearchParams,
  ): TransportRequestOptions => ({
    signal,
    scope,
    onEvent: context?.onEvent,
    refresh: context?.refresh,
    load: context?.cache ? { cache: context.cache, paramsOfPage } : undefined,
  });

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

  function queryOf(params: DynamicListParams | undefined): QueryInput {
    return {
      filter: params?.filter,
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

  /**
   * The fetcher of a resource at `path`. Its parameters are those of any resource; the typed
   * facades (`ResourceFetcher<R>`) narrow them and the records per resource.
   */
  function dynamicFetcher(resource: ListResource | 'study-brands', path: string): DynamicFetcher {
    const spec = RESOURCES[resource];
    const serialize = serializerOf(resource);
    const checkSearch = (params: { search?: unknown } | undefined) => {
      if (params?.search !== undefined && spec.search === false) {
        throw new UsageError(`search is not supported on ${path}.`, { hint: 'Use a like filter such as filter: { name: ... } instead.' });
      }
    };
    const fetchPageOf = (params: DynamicListParams | undefined): FetchPage<DynamicRecord> => {
      checkSearch(params);
      const input = queryOf(params);
      const schema = cachedSchema(resource, params?.fields, params?.include);
      return async (page, perPage, signal, context) => {
        const paramsOfPage = (n: number) => serialize({ ...input, page: n, perPage });
        const res = await transport.get(path, paramsOfPage(page), pageRequestOptions(signal, spec.scope, context, paramsOfPage));
        return fromListBody(schema, res.body, endpointOf(path));
      };
    };
    const loadOptions = (params: { perPage?: number | undefined } | undefined, o: FetchAllOptions | undefined): LoadOptions => ({
      concurrency,
      version,
      ...(params?.perPage === undefined ? {} : { perPage: params.perPage }),
      ...o,
    });
    return {
      async page(params, o) {
        const fetchPage = fetchPageOf(params);
        return fetchPage(params?.page ?? 1, Math.min(params?.perPage ?? limits.default, limits.max), o?.signal ?? new AbortController().signal);
      },
      pages(params, o) {
        return iteratePages(fetchPageOf(params), loadOptions(params, o));
      },
      async all(params, o) {
        const result = await loadAll(fetchPageOf(params), loadOptions(params, o));
        return result.records;
      },
      load(params, o) {
        return loadAll(fetchPageOf(params), loadOptions(params, o));
      },
      async get(id, params, o) {
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
  }

  /** The typed facade of a resource's fetcher: the compiler's view of what its schema parses. */
  const fetcher = <R extends ListResource | 'study-brands'>(resource: R, path: string): ResourceFetcher<R> =>
    dynamicFetcher(resource, path) as unknown as ResourceFetcher<R>;

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

  /** The `data` member of an answer, when the answer is an object that has one (unparsed). */
  const dataOf = (body: unknown): unknown => (typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined);

  /**
   * A brandscape answer, a page or one row: parsed by the listed row schema (fast) when it fits
   * every row exactly, else by the catch-all. `rows` are the answer's rows as `hasRowWidth` takes
   * them; `parse` is `fromListBody` or `fromItemBody`.
   */
  function fromBrandscapeBody<R>(
    schemas: { strict: z.ZodObject | undefined; loose: z.ZodType },
    body: unknown,
    rows: unknown,
    parse: (record: z.ZodType, body: unknown, endpoint: string) => R,
    endpoint: string,
  ): R {
    // The listed schema strips what it does not list (its strict mode is quadratic in the row
    // width); rows exactly as wide as the list have nothing else.
    if (schemas.strict && hasRowWidth(rows, widthOf(schemas.strict))) {
      try {
        return parse(schemas.strict, body, endpoint);
      } catch (error) {
        if (!(error instanceof ResponseShapeError)) throw error;
      }
    }
    // The fast schema lists every column the catalogue knows. A column it does not know (a metric
    // added since) or a column left out goes through the catch-all, which keeps the first and
    // accepts the second; anything else wrong fails there too, with its JSON path.
    return parse(schemas.loose, body, endpoint);
  }

  const brandscapePageFetcher = async (params: BrandscapeParams, signal?: AbortSignal): Promise<FetchPage<unknown>> => {
    checkQualifying(params.filter);
    const schemas = await brandscapeSchemas(params, signal);
    const input = brandscapeQuery(params);
    return async (page, perPage, pageSignal, context) => {
      const paramsOfPage = (n: number) => brandscapeSerialize({ ...input, page: n, perPage });
      const res = await transport.get(brandscapePath, paramsOfPage(page), pageRequestOptions(pageSignal, brandscapeSpec.scope, context, paramsOfPage));
      return fromBrandscapeBody(schemas, res.body, dataOf(res.body), fromListBody, brandscapeEndpoint);
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
      return fromBrandscapeBody(schemas, res.body, [dataOf(res.body)], fromItemBody, endpointOf(itemPath));
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

  const dynamicFetchers = new Map<string, DynamicFetcher>();
  const resource = (path: ResourcePath): DynamicFetcher => {
    let found = dynamicFetchers.get(path);
    if (found) return found;
    // The path comes from text at run time: checked here, whatever the compiler was told.
    const study = /^studies\/(\d+)\/brands$/.exec(path);
    const listed = RESOURCE_NAMES.filter(isListResource);
    const name = study ? 'study-brands' : listed.find((r) => r === path);
    if (name === undefined) {
      throw new UsageError(`Unknown resource '${path}'.`, {
        hint: `Resources: ${listed.join(', ')}, studies/<id>/brands; brandscape data has its own fetcher (client.brandscape).`,
      });
    }
    found = dynamicFetcher(name, study ? path : RESOURCES[name].path);
    dynamicFetchers.set(path, found);
    return found;
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
