/**
 * What a client offers: the public types of `createClient()`'s result, one fetcher per resource.
 * Types only; `create-client.ts` assembles them.
 */
import type { ApiVersion } from '../catalogue/page-limits.js';
import type { LoadOptions, LoadResult, LoadSummary, ParsedPage, RecordSink } from '../loader/types.js';
import type { ArchetypeEntry } from '../schemas/archetypes.js';
import type { BrandMetric } from '../schemas/metrics.js';
import type { HealthResult } from './health.js';
import type { MetricColumnIndex, MetricGroupWithMetrics } from './metric-columns.js';
import type { BrandscapeItem, BrandscapeParams, Item, ItemParams, ListParams, ListResource, SubResource } from './params.js';
import type { BestCountriesFetcher } from './best-countries.js';
import type { CountryIndicatorsFetcher } from './undocumented-types.js';
import type { ToolMethods } from './tools.js';
import type { AutoLoginResult, AutoLoginUser } from './embed.js';
import type { QueryInput } from './query.js';

/** One page of a list, parsed. */
export type Page<T> = ParsedPage<T>;

/** Options of full loads: concurrency, bounds, progress, cancellation. */
export type FetchAllOptions = Omit<LoadOptions, 'version'>;

/** Options of a single request. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** Parameters of a call made without any: the plain record, no includes (the default of `P`). */
type NoParams = Record<never, never>;

/** The fetcher of a resource: its list methods (built once for every resource) and `get`. */
export interface ResourceFetcher<R extends ListResource | SubResource> {
  /** One page (default 25 records, the service's default). */
  page<const P extends ListParams<R> = NoParams>(params?: P, options?: RequestOptions): Promise<Page<Item<R, P>>>;
  /** Every page in order, fetched concurrently (bounded memory). */
  pages<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): AsyncIterable<Page<Item<R, P>>>;
  /** Every record; throws rather than return fewer than `meta.total`. */
  all<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): Promise<Item<R, P>[]>;
  /** Every record with load statistics (and `complete: false` when bounded by maxRecords/maxPages). */
  load<const P extends ListParams<R> = NoParams>(params?: P, options?: FetchAllOptions): Promise<LoadResult<Item<R, P>>>;
  /** Every record handed to `sink` page by page, nothing kept (e.g. a table built while loading: `loadTable`). */
  loadInto<const P extends ListParams<R> = NoParams>(params: P | undefined, sink: RecordSink<Item<R, P>>, options?: FetchAllOptions): Promise<LoadSummary>;
  /** One record by id. */
  get<const P extends ItemParams<R> = NoParams>(id: number, params?: P, options?: RequestOptions): Promise<Item<R, P>>;
}

export interface BrandscapeFetcher {
  page<const P extends BrandscapeParams>(params: P, options?: RequestOptions): Promise<Page<BrandscapeItem<P>>>;
  pages<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): AsyncIterable<Page<BrandscapeItem<P>>>;
  all<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): Promise<BrandscapeItem<P>[]>;
  load<const P extends BrandscapeParams>(params: P, options?: FetchAllOptions): Promise<LoadResult<BrandscapeItem<P>>>;
  /** Every row handed to `sink` page by page, nothing kept (e.g. a table built while loading: `loadTable`). */
  loadInto<const P extends BrandscapeParams>(params: P, sink: RecordSink<BrandscapeItem<P>>, options?: FetchAllOptions): Promise<LoadSummary>;
  get<const P extends Omit<BrandscapeParams, 'filter'> = NoParams>(id: number, params?: P, options?: RequestOptions): Promise<BrandscapeItem<P>>;
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
  page(params?: DynamicListParams, options?: RequestOptions): Promise<Page<DynamicRecord>>;
  pages(params?: DynamicListParams, options?: FetchAllOptions): AsyncIterable<Page<DynamicRecord>>;
  all(params?: DynamicListParams, options?: FetchAllOptions): Promise<DynamicRecord[]>;
  load(params?: DynamicListParams, options?: FetchAllOptions): Promise<LoadResult<DynamicRecord>>;
  loadInto(params: DynamicListParams | undefined, sink: RecordSink<DynamicRecord>, options?: FetchAllOptions): Promise<LoadSummary>;
  get(id: number, params?: Pick<DynamicListParams, 'include' | 'fields'>, options?: RequestOptions): Promise<DynamicRecord>;
}

/** A listable resource as the service's path names it: `audience-groups`, ..., or `studies/<id>/brands`. */
export type ResourcePath = ListResource | `studies/${number}/brands` | `studies/${number}/categories`;

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

/** Options of `archetypes()`. */
export interface ArchetypeOptions extends RequestOptions {
  /**
   * What happens when a brand asked for has no archetype data in a study (not studied there, or
   * not in the competitive set): `'error'` (default) throws a `DataError` naming them; `'note'`
   * returns the entries there are with the missing brands and a note naming them.
   */
  missing?: 'error' | 'note';
}

/** What `archetypes(params, { missing: 'note' })` returns. */
export interface ArchetypeAnswer {
  readonly entries: ArchetypeEntry[];
  /** The brands asked for that have no entry, per study. */
  readonly missing: readonly { readonly brand_id: number; readonly study_id: number }[];
  /** One sentence naming them, or none. */
  readonly notes: readonly string[];
}

export interface MetricCatalogueRecords {
  metrics: BrandMetric[];
  groups: MetricGroupWithMetrics[];
  columns: MetricColumnIndex;
}

export interface BrandscapeClient {
  readonly baseUrl: string;
  readonly version: ApiVersion;
  /**
   * Requests a full load keeps in flight (the `concurrency` option, default 8). Work that fans out
   * into many single requests (brand names resolved by search) keeps to it too.
   */
  readonly concurrency: number;
  readonly audiences: ResourceFetcher<'audiences'>;
  readonly audienceGroups: ResourceFetcher<'audience-groups'>;
  readonly brands: ResourceFetcher<'brands'>;
  readonly brandMetrics: ResourceFetcher<'brand-metrics'>;
  readonly brandMetricGroups: ResourceFetcher<'brand-metric-groups'>;
  readonly categories: ResourceFetcher<'categories'>;
  readonly cities: ResourceFetcher<'cities'>;
  readonly collections: ResourceFetcher<'collections'>;
  readonly companies: ResourceFetcher<'companies'>;
  readonly countries: ResourceFetcher<'countries'> & {
    /**
     * A country's indicators (`/countries/{id}/indicators`, and `.get(yearId)` for one year). The
     * service documents no schema: records are objects with `unknown` values.
     */
    indicators(countryId: number): CountryIndicatorsFetcher;
  };
  readonly gicsSectors: ResourceFetcher<'gics-sectors'>;
  readonly regions: ResourceFetcher<'regions'>;
  readonly sectors: ResourceFetcher<'sectors'>;
  readonly stockExchanges: ResourceFetcher<'stock-exchanges'>;
  readonly stockPrices: ResourceFetcher<'stock-prices'>;
  readonly studies: ResourceFetcher<'studies'> & {
    /** Brand-in-study relations of one study (`/studies/{id}/brands`). */
    brands(studyId: number): ResourceFetcher<'study-brands'>;
    /** Category-in-study relations of one study (`/studies/{id}/categories`). */
    categories(studyId: number): ResourceFetcher<'study-categories'>;
  };
  readonly operatingCompanies: ResourceFetcher<'operating-companies'>;
  readonly ceeOpinions: ResourceFetcher<'cee-opinions'>;
  /** Tools metadata (`/tools`): parameters each tool supports and requires. */
  readonly tools: ResourceFetcher<'tools'>;
  readonly bestCountriesMetrics: ResourceFetcher<'best-countries-metrics'>;
  readonly bestCountriesMetricGroups: ResourceFetcher<'best-countries-metric-groups'>;
  readonly bestCountriesFactors: ResourceFetcher<'best-countries-factors'>;
  /** Best Countries calculated country data (§13.2). */
  readonly bestCountries: BestCountriesFetcher;
  /** The TurboPitch tools (§14), one typed method each. */
  readonly turboPitch: ToolMethods;
  readonly years: ResourceFetcher<'years'>;
  readonly brandscape: BrandscapeFetcher;
  /**
   * The archetypes tool (not paginated). A brand asked for without data is a `DataError` naming
   * it, or, with `{ missing: 'note' }`, listed in the answer with a note.
   */
  archetypes(params: ArchetypeParams, options?: ArchetypeOptions & { missing?: 'error' }): Promise<ArchetypeEntry[]>;
  archetypes(params: ArchetypeParams, options: ArchetypeOptions & { missing: 'note' }): Promise<ArchetypeAnswer>;
  /** The metric catalogue (fetched once per client): metrics, groups and brandscape columns. */
  metricCatalogue(options?: RequestOptions): Promise<MetricCatalogueRecords>;
  /**
   * Signs a user in for embedded tools (`POST /api/v1/auto-login`, §17.1) with this client's token;
   * the returned token expires at the next 00:00 UTC. Pass it to `embedUrl`.
   */
  autoLogin(user: AutoLoginUser, options?: RequestOptions): Promise<AutoLoginResult>;
  /** `GET /health`: up, down, or up with a permission problem (§9). */
  health(): Promise<HealthResult>;
  /**
   * A fetcher by the service's path name (`audience-groups`, `studies/3/brands`, ...), for tools
   * that get the resource and its parameters as text, such as the CLI. Typed code uses the named
   * fetchers (`client.brands`), whose parameters and records the compiler checks.
   */
  resource(path: ResourcePath): DynamicFetcher;
}
