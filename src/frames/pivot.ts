/**
 * `pivot`: a long table to a wide one (e.g. market x year), aggregating duplicates.
 */
import { DataError } from '../errors.js';
import { cellOf as cellValue, FrameTable, scanOf, takeColumn, type FrameColumn, type FrameMeta, type FrameRow } from './frame-table.js';
import { aggregate, resolveKeys, sourceNumbers, type GroupStat } from './group-by.js';
import { allRows, compareBy, denseOf, groupIndex, keyCodes } from './group-index.js';

export interface PivotOptions {
  /** Row key column(s), e.g. `market`. */
  index: string | readonly string[];
  /** The column whose values become columns, e.g. `year`. */
  columns: string;
  /** The numeric column to aggregate into the cells. */
  values: string;
  /** How rows that share a cell are combined (default `mean`; missing values skipped). */
  agg?: GroupStat;
}

export interface PivotMeta extends FrameMeta {
  readonly index: readonly string[];
  readonly columns: string;
  readonly values: string;
  readonly agg: GroupStat;
  /** The pivoted values, in column order (the new columns are these, as text). */
  readonly columnValues: readonly (string | number | boolean | null)[];
}

/**
 * Pivots a long table: one row per distinct `index`, one column per distinct value of `columns`
 * (sorted ascending, named by the value as text), cells aggregated with `agg`. Empty cells are NaN
 * (null in plain rows).
 *
 * @example
 * // Mean differentiation rank, market x year.
 * const wide = pivot(tidy, { index: 'market', columns: 'year', values: 'value' });
 * wide.rows(); // [{ market: 'Brazil', '2023': 49.1, '2024': 50.3 }, ...]
 */
export function pivot(table: FrameTable<object, FrameMeta>, options: PivotOptions): FrameTable<FrameRow, PivotMeta> {
  const indexNames = typeof options.index === 'string' ? [options.index] : [...options.index];
  if (indexNames.length === 0) throw new DataError('pivot needs at least one index column.', ['index'], table.columnNames);
  // Read through a lazy table's selection: `rows` are source rows, the columns the source's.
  const scan = scanOf(table);
  const indexColumns = resolveKeys(scan, indexNames);
  const pivotColumn = resolveKeys(scan, [options.columns])[0]!;
  const numeric = table.numericColumnNames();
  if (!numeric.includes(options.values)) throw new DataError(`pivot cannot aggregate '${options.values}'.`, [options.values], numeric);
  const agg = options.agg ?? 'mean';
  const values = sourceNumbers(scan, options.values);
  const rows = scan.rows ?? allRows(table.length);
  const n = rows.length;
  const indexCodes = indexColumns.map(keyCodes);
  const columnCodes = keyCodes(pivotColumn);

  // Result columns and result rows, each numbered in key order: a value's dense code is its rank.
  const byColumn = denseOf(columnCodes, rows, compareBy(pivotColumn));
  const C = byColumn.card;
  let R: number;
  let rowFirst: Int32Array;
  // The result row of each selected row (k-th of `rows`).
  const rowOf = new Int32Array(n);
  if (indexCodes.length === 1) {
    const byRow = denseOf(indexCodes[0]!, rows, compareBy(indexColumns[0]!));
    R = byRow.card;
    rowFirst = byRow.first;
    const { lookup, min, codes } = byRow;
    for (let k = 0; k < n; k++) rowOf[k] = lookup[codes[rows[k]!]! - min]!;
  } else {
    const byRow = groupIndex(indexCodes, rows, { sortBy: indexColumns.map(compareBy) });
    R = byRow.count;
    rowFirst = byRow.firstRow;
    rowOf.set(byRow.groupOf);
  }
  if (R * C > 2 ** 28) throw new DataError(`pivot would make ${R} x ${C} cells; narrow the table first.`, [options.columns], indexNames);
  // The cell of each selected row: result row x C + result column.
  const { lookup: colLookup, min: colMin, codes: colCodes } = byColumn;
  const cellOf = rowOf;
  for (let k = 0; k < n; k++) cellOf[k] = rowOf[k]! * C + colLookup[colCodes[rows[k]!]! - colMin]!;
  const seen = new Uint8Array(R * C);
  for (let k = 0; k < n; k++) seen[cellOf[k]!] = 1;
  // Cells are groups: one aggregation over the selected rows, straight into the cells.
  const cells = aggregate(values, { groupOf: cellOf, count: R * C, firstRow: new Int32Array(0), rows }, agg);
  const wide: Float64Array[] = Array.from({ length: C }, () => new Float64Array(R).fill(NaN));
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      const cell = r * C + c;
      if (seen[cell]) wide[c]![r] = cells[cell]!;
    }
  }
  const columnValues = Array.from(byColumn.first, (row) => {
    const v = cellValue(pivotColumn, row);
    return v instanceof Date ? v.toISOString() : v;
  });
  const out: [string, FrameColumn][] = indexNames.map((name, i) => [name, takeColumn(indexColumns[i]!, rowFirst)]);
  columnValues.forEach((v, c) => {
    const name = String(v);
    if (indexNames.includes(name)) throw new DataError(`A pivoted column would be named '${name}', like an index column.`, [name], indexNames);
    out.push([name, { kind: 'float', values: wide[c]! }]);
  });
  return new FrameTable<FrameRow, PivotMeta>(out, R, {
    source: 'pivot',
    notes: [],
    index: indexNames,
    columns: options.columns,
    values: options.values,
    agg,
    columnValues,
  });
}
