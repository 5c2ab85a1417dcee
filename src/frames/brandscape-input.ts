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
import type { DedupeMode } from './dedupe.js';
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
   * Records are flattened on every call (about 2 s per 1,000,000 rows), so each call sees them as
   * they are then, edits included. To run several comparisons on the same rows, make the table
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
  /** Brands to keep (ids). */
  brands?: readonly number[];
  /** Keep the brands of these companies (ids). */
  companies?: readonly number[];
  /** Keep the brands of these sectors (ids). */
  sectors?: readonly number[];
  /** Markets to keep: country ids, ISO alpha-2 codes or names (default: every market in the rows). */
  markets?: readonly (number | string)[];
}
