/**
 * De-duplication of brandscape rows (REFERENCE §12.9, DESIGN domain notes).
 *
 * A brand studied in several categories of one study has one row per category; all but one carry
 * `is_duplicate = true`. Category-agnostic scores are identical on those rows, so counting every row
 * would weight multi-category brands two or three times in a mean. Usage, preference and
 * recommendation are asked within a category and differ between the rows, as does every
 * `_category_index` (an index against the row's category): those keep their per-category rows.
 *
 * `keepMask` applies a mode to one column; `dedupeInfo` records what a result did.
 */
import type { ScoreType } from '../schemas/score-types.js';
import type { MetricInfo, PreparedBrandscape } from './prepare-brandscape.js';

/**
 * - `auto` (default): category-agnostic columns use one row per brand and study; category-specific
 *   columns (usage, preference, recommendation, `_category_index`) keep every per-category row.
 * - `all`: every column uses one row per brand and study.
 * - `none`: every row counts for every column (what a naive mean over the loaded rows does).
 */
export type DedupeMode = 'auto' | 'all' | 'none';

/** How a table or comparison de-duplicated its rows; part of every result's metadata. */
export interface DedupeInfo {
  readonly mode: DedupeMode;
  /**
   * What identified duplicates: the rows' `is_duplicate` flag, or (when the rows were loaded
   * without it) the first row of each study x audience x brand.
   */
  readonly basis: 'is_duplicate' | 'first row per study, audience and brand';
  /** Selected columns that kept their per-category rows. */
  readonly categorySpecificColumns: readonly string[];
  /** Selected rows left out of category-agnostic columns. */
  readonly rowsDropped: number;
}

/** Metric keys asked within a category (REFERENCE §11.7). */
const CATEGORY_METRIC = /usage|preference|recommend/i;

/**
 * Whether a metric column differs between a brand's category rows: usage, preference and
 * recommendation metrics (by metric key or metric group key), and every index against the category.
 *
 * @example isCategorySpecific({ metric: 'usage', group: 'commitment', scoreType: 'pct' }) // true
 * @example isCategorySpecific({ metric: 'esteem', group: 'pillars', scoreType: 'category_index' }) // true
 * @example isCategorySpecific({ metric: 'esteem', group: 'pillars', scoreType: 'rank' }) // false
 */
export function isCategorySpecific(metric: { metric: string; group: string; scoreType: ScoreType }): boolean {
  return metric.scoreType === 'category_index' || CATEGORY_METRIC.test(metric.metric) || CATEGORY_METRIC.test(metric.group);
}

/** Per column: the rows mask de-duplication applies (undefined = every row counts). */
export function keepMask(prep: PreparedBrandscape, info: MetricInfo, mode: DedupeMode): Uint8Array | undefined {
  return mode === 'none' || (mode === 'auto' && info.categorySpecific) ? undefined : prep.agnosticRow;
}

/** The de-duplication record of a result. */
export function dedupeInfo(prep: PreparedBrandscape, rows: Int32Array, columns: readonly MetricInfo[], mode: DedupeMode): DedupeInfo {
  let dropped = 0;
  if (mode !== 'none') for (let k = 0; k < rows.length; k++) if (prep.agnosticRow[rows[k]!] === 0) dropped++;
  return {
    mode,
    basis: prep.dedupeBasis,
    categorySpecificColumns: mode === 'auto' ? columns.filter((c) => c.categorySpecific).map((c) => c.column) : [],
    rowsDropped: columns.every((c) => mode === 'auto' && c.categorySpecific) ? 0 : dropped,
  };
}
