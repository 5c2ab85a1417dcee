/**
 * Selections: how a filtered, sorted or sliced `FrameTable` holds its rows without copying its
 * parent's columns. Such a table keeps the parent's columns (its source) and an index vector, the
 * source row of each of its rows, in order; a column is gathered through it only when it is read
 * in full (`column()`, `numbers()`), or when the table lets go of its parent (`materialize()`).
 * `where` on a million-row table then costs its mask and the index vector (4 bytes a kept row)
 * instead of a copy of every column (about 110 MB for 40 columns), and `sortBy` the order alone.
 *
 * Why an index vector and not a bitmap: one representation serves filters (ascending rows) and
 * orders (any permutation), and a chain of them composes into one vector over the first table's
 * columns, so no intermediate table stays reachable from the last one.
 *
 * Engine operations (group-by, pivot, Parquet, CSV, printing) read a table through its `TableScan`
 * (`scanOf` in frame-table.ts): the source columns and the index vector, read row by row, so they
 * never gather a column they only pass over once.
 */
import type { FrameColumn } from './column.js';

/**
 * What the engine reads of a table: its columns as stored (the source) and which of their rows the
 * table holds, in what order. Not public API: the engine's own modules read tables through it.
 */
export interface TableScan {
  /** Rows of the table. */
  readonly length: number;
  /** Column names, in order. */
  readonly names: readonly string[];
  /** The source row of each row of the table; undefined: every source row, in order. */
  readonly rows: Int32Array | undefined;
  /** Rows of the source columns. */
  readonly sourceLength: number;
  /** A source column, read at `rows[i]` for row i (or at i without `rows`); undefined for an unknown name. */
  column(name: string): FrameColumn | undefined;
}

/**
 * The source rows of `positions` (rows of a table) given the table's own selection `rows`:
 * `out[k] = rows[positions[k]]`. A where after a sortBy, a head after a where, ... each composes
 * into one vector over the first table's columns.
 *
 * @example composeRows(Int32Array.of(4, 7, 9), Int32Array.of(2, 0)) // Int32Array [9, 4]
 */
export function composeRows(rows: Int32Array, positions: Int32Array): Int32Array {
  const n = positions.length;
  const out = new Int32Array(n);
  for (let k = 0; k < n; k++) out[k] = rows[positions[k]!]!;
  return out;
}

/** Whether `positions` is 0, 1, ..., n-1 for a table of n rows: every row, in order (no selection needed). */
export function isEveryRow(positions: Int32Array, n: number): boolean {
  if (positions.length !== n) return false;
  for (let k = 0; k < n; k++) if (positions[k] !== k) return false;
  return true;
}

let materialised = 0;

/**
 * Columns gathered through a selection since the process started: a test's way to check that an
 * operation read through a selection instead of copying columns (the engine never reads it).
 *
 * @example
 * const before = materialisedColumns();
 * table.where({ year: 2024 }).rows();
 * materialisedColumns() - before; // 0: rows() reads through the selection
 */
export function materialisedColumns(): number {
  return materialised;
}

/** Counts `n` columns gathered through a selection (see `materialisedColumns`). */
export function noteMaterialised(n: number): void {
  materialised += n;
}
