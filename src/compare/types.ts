/**
 * What a comparison is: its options, its result (table, notes, long-form records) and the columns
 * of the long form. Types only (and the column lists), shared by the plan, the shape and the callers.
 */
import type { FetchAllOptions } from '../client/create-client.js';
import type { MissingData } from '../frames/brandscape-input.js';
import type { CrossMarketMeta } from '../frames/cross-market.js';
import type { CrossYearMeta } from '../frames/cross-year.js';
import type { FrameTable } from '../frames/frame-table.js';
import type { CrossMarketRow, CrossYearRow, TrendDirection } from '../frames/types.js';
import type { LoadedQuery } from '../load/load-comparison-input.js';
import type { ResolvedBrand } from '../load/resolve-brands.js';
import type { ScoreType } from '../schemas/score-types.js';
import type { MarketColumn } from '../report/comparison-tables.js';
import type { ReportSource } from '../report/report-source.js';
import type { AboutItem, ReportTable } from '../report/report-spec.js';
import type { BrandRef, YearValue } from '../report/template/template-params.js';

/** The axis of a comparison: markets in one year, or years (per market). */
export type CompareBy = 'market' | 'year';

export interface CompareBrandsOptions {
  /** Brands by id or by name (resolved with the service's search, ignoring case and accents). */
  brands: readonly BrandRef[];
  /** Markets by ISO code. Default: every market where one of the brands is studied in the year(s). */
  markets?: readonly string[];
  /**
   * Years: calendar years, `latest` (the most recent year with released full-year data in every
   * market) or `latest-N`. Default: the latest year (`by: 'market'`), the five years up to it
   * (`by: 'year'`).
   */
  years?: readonly YearValue[];
  /** Audience by id or name (`'Female'`, case and accents ignored); default 1, All Adults. */
  audience?: number | string;
  /** Metric keys (`differentiation`), exact columns (`esteem_c`) or metric names (`Brand Stature`). */
  metrics?: readonly string[];
  /** Metric groups (`pillars`, `imagery`); default `pillars` when no metric is given. */
  metricGroups?: readonly string[];
  /** Score type of the metric keys (default `rank`, or the type of the exact columns given). */
  scoreType?: ScoreType;
  /**
   * Markets across one year, or years per market. Inferred when left out: several years (or one
   * market) compare years; one year (or several markets, or none named) compare markets. One market
   * and one year, or several of each, cannot be inferred (a UsageError says what to add).
   */
  by?: CompareBy;
  /**
   * The brand the comparison is about, by id or name: one of `brands` (an id, a name as given, or
   * the resolved brand's name). Its row is bold and outlined in the heatmap, its lines thicker in
   * the line chart. Default: none, every brand alike.
   */
  focus?: BrandRef;
  /** Compare US quarterly waves as periods of their own (only with `by: 'year'`); default full years only. */
  waves?: boolean;
  /** True when the client talks to an embedded emulator (said in the workbook's and HTML's About). */
  emulated?: boolean;
  signal?: AbortSignal;
  /** Progress of the brandscape rows' load. */
  onProgress?: FetchAllOptions['onProgress'];
}

/** One cell of a comparison in long form (what CSV, JSON and NDJSON outputs carry). */
export interface ComparisonRecordBase {
  brand_id: number;
  /** The brand's local name in that market (its global name where it has no data there). */
  brand_name: string;
  global_name: string;
  country_code: string;
  market: string;
  year: number;
  audience_id: number;
  metric: string;
  metric_name: string;
  score_type: ScoreType;
  /** The brandscape column the value comes from, e.g. `differentiation_rank`. */
  column: string;
  /** Full precision; null where the brand has no data in that market and year. */
  value: number | null;
}

/** A cell of a comparison across markets. */
export interface CrossMarketRecord extends ComparisonRecordBase {
  /** Mean of the brand's values over the markets with data. */
  cross_market_mean: number | null;
  diff_from_mean: number | null;
  /** 1 = the brand's highest market; null without a value. */
  market_rank: number | null;
  markets_compared: number;
  /** Brandscape rows behind the value (after de-duplication); 0 without data. */
  n_rows: number;
}

/** A cell of a comparison across years. */
export interface CrossYearRecord extends ComparisonRecordBase {
  /** `2024`, or `2024 Q2` for a US quarterly wave. */
  period: string;
  /** Change from the previous period with a value. */
  change: number | null;
  /** Change from the first to the last period with a value (same on every row of a brand, market and metric). */
  change_over_span: number | null;
  trend: TrendDirection | null;
  n_rows: number;
}

/** The columns of the long form, in order. */
export const COMPARISON_RECORD_COLUMNS = {
  market: [
    'brand_id', 'brand_name', 'global_name', 'country_code', 'market', 'year', 'audience_id', 'metric', 'metric_name', 'score_type', 'column',
    'value', 'cross_market_mean', 'diff_from_mean', 'market_rank', 'markets_compared', 'n_rows',
  ],
  year: [
    'brand_id', 'brand_name', 'global_name', 'country_code', 'market', 'year', 'period', 'audience_id', 'metric', 'metric_name', 'score_type', 'column',
    'value', 'change', 'change_over_span', 'trend', 'n_rows',
  ],
} as const satisfies Record<CompareBy, readonly string[]>;

/** A study a comparison read. */
export interface ComparedStudy {
  readonly id: number;
  readonly countryCode: string;
  readonly market: string;
  readonly year: number;
  /** `2024`, or `2024 Q2` for a wave. */
  readonly period: string;
}

interface ComparisonBase {
  /** `Differentiation and Esteem across markets, 2024`. */
  readonly title: string;
  /** `3 brands × 6 markets × 4 metrics, 2024; percentile ranks, All Adults`. */
  readonly summary: string;
  readonly brands: readonly ResolvedBrand[];
  /** The focus brand (`focus`), highlighted in the chart; undefined without one. */
  readonly focus?: ResolvedBrand;
  /** Markets in the order given (or by name), with their names. */
  readonly markets: readonly MarketColumn[];
  /** The calendar years compared. */
  readonly years: readonly number[];
  /** The year `latest` stands for in these markets. */
  readonly latestYear: number;
  readonly audience: { readonly id: number; readonly name: string };
  readonly scoreType: ScoreType;
  /** The metric columns compared, e.g. `differentiation_rank`. */
  readonly columns: readonly string[];
  /** The matrix: one row per brand x metric (x market), a column per market or period, then the mean or the change. */
  readonly table: ReportTable;
  /** What to know to read the numbers: what had no data, how waves and duplicates were treated. */
  readonly notes: readonly string[];
  /** What was asked for and had no data (by code and id), as the frames list it. */
  readonly missing: MissingData;
  readonly studies: readonly ComparedStudy[];
  readonly queries: readonly LoadedQuery[];
  readonly source: ReportSource;
  /** What was asked for, as given and as resolved (for the About block). */
  readonly asked: readonly AboutItem[];
}

export interface CrossMarketComparison extends ComparisonBase {
  readonly by: 'market';
  readonly year: number;
  readonly result: FrameTable<CrossMarketRow, CrossMarketMeta>;
  /** Long form: every cell of the table's market columns, values at full precision. */
  readonly records: readonly CrossMarketRecord[];
}

export interface CrossYearComparison extends ComparisonBase {
  readonly by: 'year';
  /** The period columns: years, or with waves also `2024 Q1` ... */
  readonly periods: readonly string[];
  readonly result: FrameTable<CrossYearRow, CrossYearMeta>;
  /** Long form: every cell of the table's period columns, values at full precision. */
  readonly records: readonly CrossYearRecord[];
}

export type Comparison = CrossMarketComparison | CrossYearComparison;
