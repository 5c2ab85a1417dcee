/**
 * `pivot`: a long table to a wide one (e.g. market x year), aggregating duplicates.
 */
import { DataError } from '../errors.js';
import { cellOf, FrameTable, takeColumn, type FrameColumn, type FrameMeta, type FrameRow } from './frame-table.js';
import { aggregate, resolveKeys, type GroupStat } from './group-by.js';
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
  const indexColumns = resolveKeys(table, indexNames);
  const pivotColumn = resolveKeys(table, [options.columns])[0]!;
  const numeric = table.numericColumnNames();
  if (!numeric.includes(options.values)) throw new DataError(`pivot cannot aggregate '${options.values}'.`, [options.values], numeric);
  const agg = options.agg ?? 'mean';
  const values = table.numbers(options.values);
  const rows = allRows(table.length);
  const indexCodes = indexColumns.map(keyCodes);
  const columnCodes = keyCodes(pivotColumn);

  // Result columns and result rows, each numbered in key order: a value's dense code is its rank.
  const byColumn = denseOf(columnCodes, rows, compareBy(pivotColumn));
  const C = byColumn.card;
  let R: number;
  let rowFirst: Int32Array;
  let rowOf: (i: number) => number;
  if (indexCodes.length === 1) {
    const byRow = denseOf(indexCodes[0]!, rows, compareBy(indexColumns[0]!));
    R = byRow.card;
    rowFirst = byRow.first;
    const { lookup, min, codes } = byRow;
    rowOf = (i) => lookup[codes[i]! - min]!;
  } else {
    const byRow = groupIndex(indexCodes, rows, { sortBy: indexColumns.map(compareBy) });
    R = byRow.count;
    rowFirst = byRow.firstRow;
    const groupOf = byRow.groupOf;
    rowOf = (i) => groupOf[i]!;
  }
  if (R * C > 2 ** 28) throw new DataError(`pivot would make ${R} x ${C} cells; narrow the table first.`, [options.columns], indexNames);
  const { lookup: colLookup, min: colMin, codes: colCodes } = byColumn;
  const wide: Float64Array[] = Array.from({ length: C }, () => new Float64Array(R).fill(NaN));
  if (agg === 'mean' || agg === 'sum' || agg === 'count') {
    // Straight into the cells in one pass over the rows.
    const sum = new Float64Array(R * C);
    const cnt = new Float64Array(R * C);
    const seen = new Uint8Array(R * C);
    for (let i = 0; i < rows.length; i++) {
      const cell = rowOf(i) * C + colLookup[colCodes[i]! - colMin]!;
      seen[cell] = 1;
      const v = values[i]!;
      if (v !== v) continue;
      sum[cell]! += v;
      cnt[cell]!++;
    }
    for (let r = 0; r < R; r++) {
      for (let c = 0; c < C; c++) {
        const cell = r * C + c;
        if (!seen[cell]) continue;
        wide[c]![r] = agg === 'count' ? cnt[cell]! : agg === 'sum' ? sum[cell]! : cnt[cell]! > 0 ? sum[cell]! / cnt[cell]! : NaN;
      }
    }
  } else {
    const cells = groupIndex([...indexCodes, columnCodes], rows);
    const aggregated = aggregate(values, cells, agg);
    for (let g = 0; g < cells.count; g++) {
      const row = cells.firstRow[g]!;
      wide[colLookup[colCodes[row]! - colMin]!]![rowOf(row)] = aggregated[g]!;
    }
  }
  const columnValues = Array.from(byColumn.first, (row) => {
    const v = cellOf(pivotColumn, row);
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
