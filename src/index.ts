/**
 * Brandscape Kit: typed access to the Brand Data Service, a concurrency-limited full-pagination
 * loader, dataframes, Vega-Lite charts and Excel reports. The embedded emulator is exported
 * separately as `brandscape-kit/emulator`.
 *
 * @example
 * import { createClient } from 'brandscape-kit';
 * const client = createClient(); // BRANDSCAPE_BASE_URL, BRANDSCAPE_TOKEN
 * const brands = await client.brands.all({ filter: { country_codes: 'GB' }, include: ['sector'] });
 */

// Client
export { createClient } from './client/create-client.js';
export type {
  ArchetypeParams,
  BrandscapeClient,
  BrandscapeFetcher,
  ClientOptions,
  FetchAllOptions,
  MetricCatalogueRecords,
  Page,
  ResourceFetcher,
} from './client/create-client.js';
export type { HealthResult, HealthStatus } from './client/health.js';
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
} from './client/params.js';
export {
  BRANDSCAPE_COMBINATIONS_TEXT,
  PAGE_LIMITS,
  RESOURCES,
  isQualifyingBrandscapeFilter,
} from './client/endpoints.js';
export type { ApiVersion, ResourceName, SearchableResource } from './client/endpoints.js';

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
} from './errors.js';

// Records
export type { ArchetypeEntry } from './schemas/archetypes.js';
export type { Audience, AudienceGroup } from './schemas/audiences.js';
export type { Brand, Collection } from './schemas/brands.js';
export type { BrandscapeMeta, BrandscapeRow } from './schemas/brandscape.js';
export { metricValue } from './schemas/brandscape.js';
export type { AnnualResult, Company, StockExchange, StockPrice } from './schemas/companies.js';
export type { City, Country, Region, Year } from './schemas/geography.js';
export type { BrandMetric, BrandMetricGroup } from './schemas/metrics.js';
export type { Category, Sector } from './schemas/sectors.js';
export type { Study, StudyBrand, StudySlim } from './schemas/studies.js';
export { SCORE_TYPES, fromMetricColumn, toMetricColumn } from './schemas/score-types.js';
export type { ScoreType } from './schemas/score-types.js';
