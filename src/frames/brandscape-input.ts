/**
 * What the brandscape comparisons read: the rows the client loaded and the context that names and
 * places them (studies, brands, the metric catalogue), and the selection options they share.
 *
 * Frames do no I/O (DESIGN: frames take data): a comparison receives these, typed here.
 * `loadComparisonInput` shows how to fetch them with the client; `prepareBrandscape` turns them
 * into the typed columns the comparisons work on.
 */
import type { BrandscapeMeta } from '../schemas/brandscape.js';
import type { BrandMetric, BrandMetricGroup, BrandMetricSlim } from '../schemas/metrics.js';
import type { ScoreType } from '../schemas/score-types.js';
import type { DedupeMode } from './is-category-specific.js';
import type { FrameMeta, FrameTable } from './frame-table.js';

/** The metric catalogue as `client.metricCatalogue()` returns it (only metrics and groups are read). */
export interface MetricCatalogue {
  readonly metrics: readonly BrandMetric[];
  readonly groups: readonly (BrandMetricGroup & { readonly metrics: readonly BrandMetricSlim[] })[];
}

/**
 * A study with its market and year: `client.studies.all({ include: ['country', 'year'] })`, or the
 * `study` include of brandscape rows (whose slim study carries `period`, `country` and `year`).
 */
export interface StudyRecord {
  readonly id: number;
  readonly name: string | null;
  /** `{ id, name }`, e.g. `Full Year` or `Q2` (shape undocumented, §11.19). */
  readonly period?: { readonly id: number; readonly name: string | null } | null;
  readonly country?: { readonly id: number; readonly name: string | null; readonly code?: string | null } | null;
  /** The slim year documents `year` as a string (`"2024"`), the full one as a number. */
  readonly year?: { readonly id: number; readonly year?: string | number | null } | null;
}

/**
 * A brand with what the comparisons may need: its global name, its share of its company's results,
 * and (with `include: ['company', 'sector']`) its owner and sector.
 */
export interface BrandRecord {
  readonly id: number;
  readonly name: string | null;
  readonly share_of_company?: number | null;
  readonly company?: { readonly id: number; readonly name: string | null } | null;
  readonly sector?: { readonly id: number; readonly name: string | null } | null;
}

/** Brandscape rows and their context. */
export interface BrandscapeInput {
  /**
   * Rows as the client loads them (any includes; `include: ['study']` or `['country', 'year']`
   * make `studies` optional), or a table already made from them with `toTable`.
   *
   * Records are flattened on every call (which costs time on large loads), so each call sees them
   * as they are then, edits included. To run several comparisons on the same rows, make the table
   * once and pass it: a table is a snapshot of the records when it was made.
   *
   * @example
   * const table = toTable(rows); // once
   * crossMarket({ rows: table, catalogue, studies }, { year: 2024, metrics: ['esteem'] });
   * crossYear({ rows: table, catalogue, studies }, { markets: ['GB'], metrics: ['esteem'] });
   */
  readonly rows: readonly BrandscapeMeta[] | FrameTable<object, FrameMeta>;
  /** `client.metricCatalogue()`: metric names and groups for the result rows. */
  readonly catalogue: MetricCatalogue;
  /** Studies with country and year; needed unless the rows carry them (see `rows`). */
  readonly studies?: readonly StudyRecord[];
  /** Brands: global names, `share_of_company`, and company and sector when rows lack those includes. */
  readonly brands?: readonly BrandRecord[];
}

/** Options shared by the comparisons that read brandscape rows. */
export interface BrandscapeSelection {
  /** Metric keys (`differentiation`) or exact columns (`differentiation_rank`). */
  metrics: readonly string[];
  /**
   * Score types to compare for metric keys (default: `rank`, the percentile rank, which is
   * comparable across markets; a metric without one contributes all its columns). Exact columns
   * must be of these types when given.
   */
  scoreTypes?: readonly ScoreType[];
  /** Audience id (default 1, All Adults: without one, every audience would be mixed in). */
  audience?: number;
  /** De-duplication (default `auto`); see `DedupeMode`. */
  dedupe?: DedupeMode;
  /**
   * Brands to keep: ids, or names (a global or local name in the rows; case and accents ignored; a
   * name that fits several brands is a UsageError listing them).
   */
  brands?: readonly (number | string)[];
  /** Keep the brands of these companies (ids or names). */
  companies?: readonly (number | string)[];
  /** Keep the brands of these sectors (ids or names, e.g. `'Automotive'`). */
  sectors?: readonly (number | string)[];
  /** Markets to keep: country ids, ISO alpha-2 codes or names (default: every market in the rows). */
  markets?: readonly (number | string)[];
  /**
   * Years, markets, brands, companies or sectors asked for that have no rows: `error` (default)
   * throws a DataError naming them and what there is; `note` leaves them out, lists them in the
   * result's `meta.missing` and says so in its notes (for scheduled reports, where a market whose
   * study is not released yet should not stop the run). A selection left with no rows at all is an
   * error either way.
   */
  missing?: 'error' | 'note';
}

/**
 * What a comparison was asked for and found no data for. `years`, `markets`, `brands`, `companies`
 * and `sectors` had no rows at all in the selection (only with `missing: 'note'`); `cells` are
 * entities that have rows in the comparison but none in some of its markets or periods (always
 * listed: such a cell has no result row, rather than a row with a null value).
 */
export interface MissingData {
  readonly years: readonly number[];
  /** As asked for (an ISO code, a name or an id). */
  readonly markets: readonly (number | string)[];
  readonly brands: readonly number[];
  readonly companies: readonly number[];
  readonly sectors: readonly number[];
  readonly cells: readonly MissingCell[];
}

/** An entity without a value in one market and period of a comparison. */
export interface MissingCell {
  readonly entity_id: number;
  readonly entity_name: string;
  readonly market: string;
  readonly country_code: string;
  /** The year, or the period label (`2024 Q2`) of a wave. */
  readonly period: string;
}
