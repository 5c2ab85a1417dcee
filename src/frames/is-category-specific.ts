/**
 * The de-duplication modes and which metric columns keep their per-category rows: the part of
 * de-duplication that the input types and `prepareBrandscape` need, in a file of its own so that
 * neither imports `dedupe.ts` (which reads prepared brandscapes): no import cycle.
 */
import type { ScoreType } from '../schemas/score-types.js';

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
