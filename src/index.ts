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

// Client, endpoint catalogue, loader, errors and records: the public entry point of the client side
// (`brandscape-kit/client`), every name of it exported here too, by name (but its SortKey: the
// root's is the frames' sort key).
export {
  AuthenticationError,
  autoLogin,
  BadRequestError,
  BrandscapeError,
  CancelledError,
  createClient,
  DataError,
  embedUrl,
  HttpError,
  isBrandscapeError,
  LoadError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  UsageError,
} from './client/index.js';
export type {
  AnnualResult,
  ApiVersion,
  ArchetypeAnswer,
  ArchetypeEntry,
  ArchetypeOptions,
  ArchetypeParams,
  Audience,
  AudienceGroup,
  AutoLoginOptions,
  AutoLoginResult,
  AutoLoginUser,
  BestCountriesDatapoint,
  BestCountriesDataType,
  BestCountriesFactor,
  BestCountriesFetcher,
  BestCountriesMetric,
  BestCountriesMetricGroup,
  BestCountriesQuery,
  BestCountriesRawQuery,
  BestCountriesScoreType,
  Brand,
  BrandMetric,
  BrandMetricGroup,
  BrandscapeClient,
  BrandscapeFetcher,
  BrandscapeFilter,
  BrandscapeInclude,
  BrandscapeItem,
  BrandscapeMeta,
  BrandscapeParams,
  BrandscapeRow,
  BrandsInStudies,
  BrandWorthMap,
  CacheEvent,
  CacheKey,
  Category,
  CategoryWorthMap,
  CeeOpinion,
  City,
  ClientOptions,
  Collection,
  Company,
  CompetitiveSet,
  CostOfEntry,
  Country,
  CountryIndicatorsFetcher,
  DiskCacheOptions,
  DynamicFetcher,
  DynamicListParams,
  DynamicRecord,
  EmbedParamValue,
  EmbedUrlOptions,
  FetchAllOptions,
  FetchPage,
  FetchPageContext,
  FilterOf,
  FunnelEntry,
  HealthResult,
  HealthStatus,
  Ids,
  IncludeName,
  IncludeSpec,
  Item,
  ItemParams,
  ListParams,
  ListResource,
  LoadCacheOptions,
  LoadOptions,
  LoadProgress,
  LoadResult,
  LoadStats,
  LoadSummary,
  LovePlusEntry,
  MetricCatalogueRecords,
  OperatingCompany,
  Page,
  PageEvent,
  PageSource,
  PagingQuery,
  ParsedPage,
  PartnershipExchange,
  PersonalityMatch,
  RecordOf,
  RecordSink,
  Region,
  RequestOptions,
  ResourceFetcher,
  ResourceName,
  ResourcePath,
  ResponseCache,
  RetryOptions,
  ScoreType,
  SearchableResource,
  Sector,
  SourcedPage,
  StockExchange,
  StockPrice,
  Study,
  StudyBrand,
  StudyCategory,
  StudySlim,
  Swot,
  ToolMetadata,
  ToolMethods,
  ToolResult,
  ToolSlug,
  ToolSpec,
  ToplistRow,
  TransportEvent,
  UndocumentedList,
  UndocumentedRecord,
  VulnerabilityPoint,
  Year,
} from './client/index.js';

// Charts (builders return plain Vega-Lite specs; rendering loads vega lazily, on first use)
export { archetypeHeatmap } from './charts/archetype-heatmap.js';
export type { ArchetypeHeatmapOptions } from './charts/archetype-heatmap.js';
export type { ChartOptions, ChartSpec } from './charts/chart-spec.js';
export type { MetricPanelOptions } from './charts/metric-panels.js';
export { companyView } from './charts/company-view.js';
export type { CompanyViewOptions } from './charts/company-view.js';
export { crossMarketBars } from './charts/cross-market-bars.js';
export type { CrossMarketBarsOptions } from './charts/cross-market-bars.js';
export { crossMarketHeatmap } from './charts/cross-market-heatmap.js';
export type { CrossMarketHeatmapOptions } from './charts/cross-market-heatmap.js';
export { crossYearLines } from './charts/cross-year-lines.js';
export type { CrossYearLinesOptions } from './charts/cross-year-lines.js';
export { display } from './notebook/display.js';
export type { DisplayOptions, MimeBundle, TableDisplayOptions } from './notebook/display.js';
export { FontMissingError } from './charts/font-missing-error.js';
export type { PillarRow, PillarSelection } from './charts/pillar-values.js';
export { pillarsProfile } from './charts/pillars-profile.js';
export type { PillarsProfileOptions } from './charts/pillars-profile.js';
export { powerGrid } from './charts/power-grid.js';
export { commitmentFunnelChart } from './charts/commitment-funnel.js';
export { worthMapChart } from './charts/worth-map.js';
export type { PowerGridOptions } from './charts/power-grid.js';
export { renderPng, renderSvg } from './charts/render.js';
export type { ChartFonts, PngOptions, RenderOptions } from './charts/render.js';
export { sectorDistribution } from './charts/sector-distribution.js';
export type { SectorDistributionOptions } from './charts/sector-distribution.js';
export { slopeChart } from './charts/slope-chart.js';
export type { SlopeChartOptions } from './charts/slope-chart.js';

// Frames (columnar tables on typed arrays; a danfojs DataFrame comes from `toDanfo` in brandscape-kit/danfo)
export { archetypeMatrix } from './frames/archetype-matrix.js';
export type {
  ArchetypeInput,
  ArchetypeMatrixMeta,
  ArchetypeMatrixOptions,
} from './frames/archetype-matrix.js';
export type {
  BrandRecord,
  BrandscapeInput,
  BrandscapeSelection,
  MetricCatalogue,
  MissingCell,
  MissingData,
  StudyRecord,
} from './frames/brandscape-input.js';
export { companyRollup } from './frames/company-rollup.js';
export type {
  CompanyInput,
  CompanyRecord,
  CompanyRollupMeta,
  CompanyRollupOptions,
  StockPriceRecord,
} from './frames/company-rollup.js';
export { crossMarket } from './frames/cross-market.js';
export type { CrossMarketMeta, CrossMarketOptions } from './frames/cross-market.js';
export { crossYear } from './frames/cross-year.js';
export { TREND_THRESHOLDS, seriesTrend, trendRuleText } from './frames/trend-rule.js';
export type { CrossYearMeta, CrossYearOptions } from './frames/cross-year.js';
export type { DedupeInfo, DedupeMode } from './frames/dedupe.js';
export { FrameTable } from './frames/frame-table.js';
export type {
  Cell,
  ColumnKind,
  DescribeRow,
  FrameColumn,
  FrameMeta,
  FrameRow,
  PrintOptions,
  TableFormatOptions,
} from './frames/frame-table.js';
export { groupBy } from './frames/group-by.js';
export type { GroupByMeta, GroupByOptions, GroupStat } from './frames/group-by.js';
export { loadComparisonInput } from './load/load-comparison-input.js';
export type { LoadComparisonOptions, LoadedProvenance, LoadedQuery } from './load/load-comparison-input.js';
export type { PeriodMode } from './frames/period-cells.js';
export { pivot } from './frames/pivot.js';
export type { PivotMeta, PivotOptions } from './frames/pivot.js';
export { sectorSummary, sectorValues } from './frames/sector-summary.js';
export type { SectorSummaryMeta, SectorSummaryOptions } from './frames/sector-summary.js';
export { toolRecords } from './frames/tool-records.js';
export type { ToolRecord } from './frames/tool-records.js';
export { toTable } from './frames/to-table.js';
export { brandscapeTable, loadTable } from './load/load-table.js';
export type { LoadTableOptions, LoadsInto } from './load/load-table.js';
export type { Condition, Scalar, Where } from './frames/where.js';
export type { SortKey } from './frames/sort-by.js';
export type { ToTableOptions } from './frames/to-table.js';
export { toTidy } from './frames/to-tidy.js';
export type { TidyMeta, TidyOptions } from './frames/to-tidy.js';
export type {
  ArchetypeRow,
  CompanyRollupRow,
  CompanyWeighting,
  CrossMarketRow,
  CrossYearRow,
  EntityKey,
  EntityKind,
  MarketKey,
  MetricKey,
  SectorSummaryRow,
  SectorValueRow,
  TidyRow,
  TrendDirection,
} from './frames/types.js';

// Notebooks: one call for a client (the live service or an embedded emulator), load progress in a cell
export { connect } from './notebook/connect.js';
export type { ConnectOptions, Connection } from './notebook/connect.js';
export { showProgress } from './notebook/show-progress.js';
export type { ShowProgressOptions } from './notebook/show-progress.js';

// Brands by name
export { AmbiguousBrandError, UnknownBrandError, resolveBrands } from './load/resolve-brands.js';
export type { BrandCandidate, ResolvedBrand } from './load/resolve-brands.js';
export { AmbiguousNameError, UnknownNameError } from './frames/resolve-entities.js';
export type { NamedEntityKind } from './frames/resolve-entities.js';

// Discovery: what exists (markets, years, studies, audiences, metrics), names to ids, the latest
// full year of some markets and a brand's competitors, each one call
export { latestFullYear } from './load/latest-full-year.js';
export { loadAudiences } from './load/load-audiences.js';
export type { AudienceRow, LoadAudiencesOptions } from './load/load-audiences.js';
export { loadCompetitors } from './load/load-competitors.js';
export type { CompetitorRow, LoadCompetitorsOptions } from './load/load-competitors.js';
export { loadMarkets } from './load/load-markets.js';
export type { MarketRow } from './load/load-markets.js';
export { loadMetrics } from './load/load-metrics.js';
export type { LoadMetricsOptions, MetricRow } from './load/load-metrics.js';
export { loadStudies } from './load/load-studies.js';
export type { LoadStudiesOptions, StudyRow } from './load/load-studies.js';
export { loadYears } from './load/load-years.js';
export type { LoadYearsOptions, YearRow } from './load/load-years.js';
export { resolveAudience, resolveMarkets, resolveSectors } from './load/resolve-names.js';
export type { ResolvedAudience, ResolvedMarket, ResolvedSector } from './load/resolve-names.js';

// Reports (templates -> data -> ReportSpec -> workbook and HTML; exceljs and the zip library load on first write)
export { OutputError } from './io/atomic-file.js';
export { compareBrands } from './compare/compare-brands.js';
export { comparisonChart, comparisonReport } from './compare/comparison-report.js';
export type {
  CompareBrandsOptions,
  CompareBy,
  ComparedStudy,
  Comparison,
  ComparisonRecordBase,
  CrossMarketComparison,
  CrossMarketRecord,
  CrossYearComparison,
  CrossYearRecord,
} from './compare/types.js';
export { buildReport } from './report/build-report.js';
export { fromParquet, readParquet, toParquet, writeParquet } from './io/parquet.js';
export { writeCsv } from './io/write-csv.js';
export type { ParquetOptions } from './io/parquet.js';
export type { BuildReportOptions } from './report/build-report.js';
export { loadTemplate } from './report/template/load-template.js';
export { loadReportData } from './report/load-report-data.js';
export type {
  LoadReportDataOptions,
  MarketInfo,
  ReportData,
  ReportSource,
  SectionArchetypes,
  StudyContext,
  StudyStamp,
} from './report/load-report-data.js';
export type {
  AboutItem,
  CellFormat,
  ColourScale,
  ReportAbout,
  ReportCell,
  ReportColumn,
  ReportSection,
  ReportSpec,
  ReportTable,
} from './report/report-spec.js';
export { defineTemplate, resolveTemplate } from './report/template/resolve-template.js';
export type {
  ResolvedParameter,
  ResolvedTemplate,
  Template,
} from './report/template/resolve-template.js';
export { runReport } from './report/run-report.js';
export { checkAgainstService } from './report/check-against-service.js';
export type { CheckedTemplate } from './report/check-against-service.js';
export { TEMPLATE_LIMITS } from './report/template/template-limits.js';

// Webhooks that refresh reports
export { createReplayGuard, verifyWebhook } from './webhooks/verify-webhook.js';
export type {
  VerifyWebhookOptions,
  WebhookEvent,
  WebhookVerdict,
} from './webhooks/verify-webhook.js';
export { createWebhookReceiver } from './webhooks/webhook-receiver.js';
export type { WebhookReceiver, WebhookReceiverOptions } from './webhooks/webhook-receiver.js';
export { refreshReports } from './webhooks/refresh-reports.js';
// Audience export (§16): the receiver writes exports with `audiencesTo`; a notebook reads one back
export { loadAudienceExport } from './webhooks/load-audience-export.js';
export type { AudienceExportMeta, AudienceRespondentRow } from './webhooks/load-audience-export.js';
export { fromAudienceExportEvent, writeAudienceExport } from './webhooks/audience-export-files.js';
export type {
  AudienceExportVerdict,
  ReceivedAudienceExport,
  WrittenAudienceExport,
} from './webhooks/audience-export-files.js';
export type {
  AudienceDefinition,
  AudienceExportFormat,
  ExportedAudience,
} from './schemas/audience-export.js';
export type { RefreshOutcome, ReportTarget, StudyOfEvent } from './webhooks/refresh-reports.js';
export type { RunReportOptions, RunReportResult } from './report/run-report.js';
export { TemplateError } from './report/template/template-error.js';
export type { TemplateProblem } from './report/template/template-error.js';
export type {
  BrandRef,
  ParameterType,
  ParameterValue,
  ParameterValues,
  YearValue,
} from './report/template/template-params.js';
export type {
  DataSpec,
  OutputFormat,
  ParameterSpec,
  SectionKind,
  SectionSpec,
} from './report/template/template-schema.js';
export { toHtml, writeHtml } from './report/write-html.js';
export { writeXlsx } from './report/write-xlsx.js';
export type { WriteXlsxOptions } from './report/write-xlsx.js';

