/**
 * Plain rows returned by the comparisons (`result.rows()`): the contract between frames and the
 * chart builders and report writers. Every row is a flat object of strings, numbers, booleans and
 * nulls, ready for Vega-Lite `data.values` or a worksheet. Missing numbers are `null` in plain rows
 * (NaN in the columnar tables), never 0.
 */
import type { ScoreType } from '../schemas/score-types.js';

/** What a row of a comparison is about. */
export type EntityKind = 'brand' | 'company' | 'sector';

/** Market (country) identification shared by the rows. */
export interface MarketKey {
  country_id: number;
  /** Country name, e.g. `United Kingdom` (UIs call countries "markets"). */
  market: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
}

export interface EntityKey {
  entity_kind: EntityKind;
  entity_id: number;
  /** Display name: a brand's local name in that market where it differs, else its global name. */
  entity_name: string;
  /** A brand's global name (the same as `entity_name` for companies and sectors). */
  global_name: string;
}

export interface MetricKey {
  /** Metric key, e.g. `differentiation`. */
  metric: string;
  /** Metric display name from the catalogue, e.g. `Differentiation`. */
  metric_name: string;
  /** Brand metric group key, e.g. `pillars`. */
  metric_group: string;
  score_type: ScoreType;
  /** The brandscape column the value comes from, e.g. `differentiation_rank`. */
  column: string;
}

/** `crossMarket`: one year, several markets; one row per entity x market x metric column. */
export interface CrossMarketRow extends EntityKey, MarketKey, MetricKey {
  year: number;
  value: number | null;
  /** Mean over the markets where the entity has a value. */
  cross_market_mean: number | null;
  /** `value - cross_market_mean`. */
  diff_from_mean: number | null;
  /** 1 = highest value among the entity's markets; null when the value is missing. */
  market_rank: number | null;
  markets_compared: number;
  /** Brandscape rows behind the cell (after de-duplication). */
  n_rows: number;
}

export type TrendDirection = 'up' | 'down' | 'flat';

/** `crossYear`: one or several markets, several years (or waves); one row per entity x market x period x metric column. */
export interface CrossYearRow extends EntityKey, MarketKey, MetricKey {
  year: number;
  /** `2024` for full years; `2024 Q2` when US quarterly waves are kept as waves. */
  period: string;
  /** Sortable position of the period: the year, or year + (quarter - 1) / 4 for waves. */
  period_order: number;
  value: number | null;
  /** Change from the previous period with a value; null for the first. */
  change: number | null;
  /** Change from the first to the last period with a value (same on every row of a series). */
  change_over_span: number | null;
  /** Direction of the series over the span (same on every row of a series). */
  trend: TrendDirection | null;
  n_rows: number;
}

/** `sectorSummary`: one row per sector x market x year x metric column. */
export interface SectorSummaryRow extends MarketKey, MetricKey {
  sector_id: number;
  sector_name: string;
  year: number;
  /** Brands with a value. */
  count: number;
  mean: number | null;
  median: number | null;
  /** Sample standard deviation (n - 1); null below two values. */
  std: number | null;
  min: number | null;
  q1: number | null;
  q3: number | null;
  max: number | null;
}

/** One brand's value inside a sector distribution (for box plots of raw values). */
export interface SectorValueRow extends MarketKey, MetricKey {
  sector_id: number;
  sector_name: string;
  year: number;
  brand_id: number;
  brand_name: string;
  value: number;
}

export type CompanyWeighting = 'share_of_company' | 'equal';

/** `companyRollup`: one row per company x market x year x metric column, joined with results and prices. */
export interface CompanyRollupRow extends MarketKey, MetricKey {
  company_id: number;
  company_name: string;
  year: number;
  /** Weighted mean of the company's brands in that market and year. */
  value: number | null;
  /** How `value` was weighted: by the brands' `share_of_company`, or equally when shares are missing. */
  weighting: CompanyWeighting;
  n_brands: number;
  currency: string | null;
  revenue: number | null;
  operating_income: number | null;
  net_income: number | null;
  market_cap: number | null;
  /** Mean daily close over the calendar year, null for private companies. */
  avg_close_price: number | null;
  /** Last close of the calendar year. */
  year_end_close_price: number | null;
}

/** `archetypeMatrix`: one row per brand x archetype, cultural and competitive side by side. */
export interface ArchetypeRow {
  study_id: number;
  audience_id: number;
  brand_id: number;
  brand_name: string;
  archetype: string;
  /** Display name, e.g. `Hero`. */
  archetype_name: string;
  cultural_score: number | null;
  cultural_rank: number | null;
  competitive_score: number | null;
  competitive_rank: number | null;
  /** Name of the competitive set (a collection or a category). */
  comparison_name: string;
  comparison_type: 'collection' | 'category';
}

/** Long (tidy) form of brandscape data: one row per study x audience x brand x category x metric column. */
export interface TidyRow extends MarketKey, MetricKey {
  study_id: number;
  year: number;
  audience_id: number;
  brand_id: number;
  /** Local name used in the market's survey. */
  brand_name: string;
  /** Global brand name when the brand include was loaded, else the local name. */
  global_name: string;
  category_id: number;
  category_name: string;
  sector_id: number | null;
  sector_name: string | null;
  company_id: number | null;
  company_name: string | null;
  is_duplicate: boolean;
  value: number | null;
}
