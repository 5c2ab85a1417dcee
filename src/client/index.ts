/**
 * The client side of Brandscape Kit, exported as `brandscape-kit/client`: the typed client, the
 * endpoint catalogue, the loader, the error family and the record types; what a script that only
 * fetches data needs, without the frames, charts and reports that `brandscape-kit` adds (a third
 * of its start-up time). `brandscape-kit` exports all of it too.
 *
 * @example
 * import { createClient } from 'brandscape-kit/client';
 * const client = createClient(); // BRANDSCAPE_BASE_URL, BRANDSCAPE_TOKEN
 * const brands = await client.brands.all({ filter: { country_codes: 'GB' }, include: ['sector'] });
 */

// Client
export { createClient } from './create-client.js';
export type { ClientOptions } from './client-options.js';
export { MAX_CONCURRENCY, TIMEOUT_RANGE_MS } from './client-options.js';
export { loadDotEnv } from './dot-env.js';
export type {
  ArchetypeParams,
  ArchetypeAnswer,
  ArchetypeOptions,
  BrandscapeClient,
  BrandscapeFetcher,
  FetchAllOptions,
  MetricCatalogueRecords,
  Page,
  DynamicFetcher,
  DynamicListParams,
  DynamicRecord,
  RequestOptions,
  ResourceFetcher,
  ResourcePath,
} from './brandscape-client.js';
export type { HealthResult, HealthStatus } from './health.js';
export type { BestCountriesFetcher, BestCountriesQuery } from './best-countries.js';
export type { BestCountriesRawQuery, CountryIndicatorsFetcher, PagingQuery, UndocumentedList, UndocumentedRecord } from './undocumented-types.js';
export type { BrandsInStudies, CompetitiveSet, Ids, ToolMethods } from './tools.js';
export { FOUNT_APP_URL, autoLogin, embedUrl } from './embed.js';
export type { AutoLoginOptions, AutoLoginResult, AutoLoginUser, EmbedParamValue, EmbedUrlOptions } from './embed.js';
export type {
  BrandscapeFilter,
  BrandscapeInclude,
  BrandscapeItem,
  BrandscapeParams,
  FilterOf,
  IncludeName,
  Item,
  ItemParams,
  ListParams,
  ListResource,
  RecordOf,
  SortKey,
} from './params.js';
export type { TransportEvent } from './transport-event.js';
export type { RetryOptions } from './retry-policy.js';

// Endpoint catalogue (shared by the client and the emulator)
export { BRANDSCAPE_COMBINATIONS_TEXT, RESOURCES, isQualifyingBrandscapeFilter } from '../catalogue/endpoints.js';
export type { IncludeSpec, ResourceName, SearchableResource } from '../catalogue/endpoints.js';
export { PAGE_LIMITS } from '../catalogue/page-limits.js';
export { TOOLS, TOOL_SLUGS } from '../catalogue/tools.js';
export type { ToolSlug, ToolSpec } from '../catalogue/tools.js';
export { BEST_COUNTRIES_DATA, BEST_COUNTRIES_RAW } from '../catalogue/best-countries.js';
export { COUNTRY_INDICATORS } from '../catalogue/country-indicators.js';
export type { ApiVersion } from '../catalogue/page-limits.js';

// Loader (the page iterator and loadAll work on any FetchPage; the client's fetchers use them)
export { iteratePages } from '../loader/iterate-pages.js';
export { loadAll, loadInto } from '../loader/load-all.js';
export { createDiskCache } from '../loader/cache.js';
export type { CacheKey, DiskCacheOptions, ResponseCache } from '../loader/cache.js';
export { withLoadCache } from '../loader/with-load-cache.js';
export type { CacheEvent, LoadCacheOptions, PageSource, SourcedPage } from '../loader/with-load-cache.js';
export type { FetchPage, FetchPageContext, LoadOptions, LoadProgress, LoadResult, LoadStats, LoadSummary, PageEvent, ParsedPage, RecordSink } from '../loader/types.js';

// Errors
export {
  AuthenticationError,
  BadRequestError,
  BrandscapeError,
  CancelledError,
  DataError,
  HttpError,
  LoadError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UsageError,
  isBrandscapeError,
  redact,
} from '../errors.js';
export type { OptionNamer, OptionRef, UsageErrorOptions, Wording } from '../errors.js';

// Records
export type { ArchetypeEntry } from '../schemas/archetypes.js';
export type { Audience, AudienceGroup } from '../schemas/audiences.js';
export type { Brand, Collection } from '../schemas/brands.js';
export type { BrandscapeMeta, BrandscapeRow } from '../schemas/brandscape.js';
export { metricValue } from '../schemas/brandscape.js';
export type { AnnualResult, Company, StockExchange, StockPrice } from '../schemas/companies.js';
export type { City, Country, Region, Year } from '../schemas/geography.js';
export type { BrandMetric, BrandMetricGroup } from '../schemas/metrics.js';
export type { Category, Sector } from '../schemas/sectors.js';
export type { Study, StudyBrand, StudyCategory, StudySlim } from '../schemas/studies.js';
export type { OperatingCompany } from '../schemas/operating-companies.js';
export type {
  BrandWorthMap,
  CategoryWorthMap,
  CostOfEntry,
  FunnelEntry,
  LovePlusEntry,
  PartnershipExchange,
  PersonalityMatch,
  Swot,
  ToolResult,
  ToplistRow,
  VulnerabilityPoint,
} from '../schemas/turbo-pitch.js';
export type { CeeOpinion } from '../schemas/cee-opinions.js';
export type { ToolMetadata } from '../schemas/tools.js';
export type {
  BestCountriesDataType,
  BestCountriesDatapoint,
  BestCountriesFactor,
  BestCountriesMetric,
  BestCountriesMetricGroup,
  BestCountriesScoreType,
} from '../schemas/best-countries.js';
export { SCORE_TYPES, fromMetricColumn, toMetricColumn } from '../schemas/score-types.js';
export type { ScoreType } from '../schemas/score-types.js';
