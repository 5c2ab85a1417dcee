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
import type { DedupeInfo, DedupeMode } from './is-category-specific.js';
import type { MetricInfo, PreparedBrandscape } from './prepare-brandscape.js';

export { isCategorySpecific, type DedupeInfo, type DedupeMode } from './is-category-specific.js';

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
