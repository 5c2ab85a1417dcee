/**
 * `FrameTable`: the columnar result every frame function returns.
 *
 * Columns are typed arrays (NOTES.md: plain JS over typed arrays runs within 0.3-3x of pandas, while
 * danfojs is 23-100x slower and arquero's group-by measured 30-40x slower here), so heavy work runs
 * on these and a danfojs DataFrame is built only at the edge (`toDanfo` in `brandscape-kit/danfo`). Strings are
 * dictionary-encoded: brandscape text columns (brand, category, market names) repeat heavily, and
 * integer codes make them cheap to group by and small to hold.
 */
import { DataError } from '../errors.js';
import { BOOL_NULL, INT_NULL, cellOf, columnLength, takeColumn, takeColumnAt, type Cell, type ColumnKind, type FrameColumn, type FrameRow } from './column.js';
import { selectionOf, type Where } from './where.js';
import { sortOrderOf, type SortKey } from './sort-by.js';
import { permuteColumns } from './permute-columns.js';

export { BOOL_NULL, INT_NULL, cellOf, columnLength, takeColumn, takeColumnAt } from './column.js';
export type { Cell, ColumnKind, FrameColumn, FrameRow } from './column.js';

/** Metadata every table carries: where it came from and the choices that shaped it. */
export interface FrameMeta {
  /** The function that produced the table, e.g. `crossMarket`, `toTable`. */
  readonly source: string;
  /** Things a reader of the numbers should know (weighting used, rows dropped, caveats). */
  readonly notes: readonly string[];
}

/**
 * A columnar table: typed-array columns, plain rows for charts (`rows()`), and a danfojs DataFrame
 * for notebooks through `toDanfo(table)` from `brandscape-kit/danfo`. Tables are immutable;
 * operations return new tables. Arrays returned by `column()` and `numbers()` are the table's own
 * storage: read them, do not write to them.
 *
 * @example
 * const table = toTable(rows);               // brandscape rows as loaded by the client
 * table.length;                               // number of rows
 * table.numbers('differentiation_rank');      // Float64Array, NaN where missing
 * const df = await toDanfo(table);            // danfojs DataFrame (brandscape-kit/danfo)
 */
export class FrameTable<R extends object = FrameRow, M extends FrameMeta = FrameMeta> {
  readonly length: number;
  readonly meta: M;
  readonly #columns: ReadonlyMap<string, FrameColumn>;

  constructor(columns: Iterable<readonly [string, FrameColumn]>, length: number, meta: M) {
    const map = new Map<string, FrameColumn>();
    for (const [name, column] of columns) {
      if (columnLength(column) !== length) {
        throw new RangeError(`Column '${name}' has ${columnLength(column)} values; the table has ${length} rows.`);
      }
      map.set(name, column);
    }
    this.#columns = map;
    this.length = length;
    this.meta = meta;
  }

  /** Column names, in order. */
  get columnNames(): string[] {
    return [...this.#columns.keys()];
  }

  has(name: string): boolean {
    return this.#columns.has(name);
  }

  /** A column by name; a `DataError` naming the available columns when there is none. */
  column(name: string): FrameColumn {
    const column = this.#columns.get(name);
    if (!column) throw new DataError(`The table has no column '${name}'.`, [name], this.columnNames);
    return column;
  }

  /** The column's kind, or undefined when the table has no such column. */
  kindOf(name: string): ColumnKind | undefined {
    return this.#columns.get(name)?.kind;
  }

  /**
   * A numeric view of a column: `float` and `date` columns as stored; `int` and `bool` columns
   * converted (missing = NaN).
   */
  numbers(name: string): Float64Array {
    const column = this.column(name);
    switch (column.kind) {
      case 'float':
      case 'date':
        return column.values;
      case 'int': {
        const out = new Float64Array(this.length);
        const src = column.values;
        for (let i = 0; i < out.length; i++) {
          const v = src[i]!;
          out[i] = v === INT_NULL ? NaN : v;
        }
        return out;
      }
      case 'bool': {
        const out = new Float64Array(this.length);
        const src = column.values;
        for (let i = 0; i < out.length; i++) {
          const v = src[i]!;
          out[i] = v === BOOL_NULL ? NaN : v;
        }
        return out;
      }
      case 'string':
        throw new DataError(`Column '${name}' holds text, not numbers.`, [name], this.numericColumnNames());
    }
  }

  /** Names of the columns `numbers()` accepts. */
  numericColumnNames(): string[] {
    return [...this.#columns].filter(([, c]) => c.kind !== 'string').map(([n]) => n);
  }

  /** The values of one column as plain cells. */
  values(name: string): Cell[] {
    const column = this.column(name);
    const out = new Array<Cell>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = cellOf(column, i);
    return out;
  }

  /** One cell. */
  get(name: string, row: number): Cell {
    if (!(row >= 0 && row < this.length)) throw new RangeError(`Row ${row} is outside the table (0..${this.length - 1}).`);
    return cellOf(this.column(name), row);
  }

  /** Plain rows (missing values are `null`), for chart data and worksheets. */
  rows(): R[] {
    const columns = [...this.#columns];
    const out = new Array<R>(this.length);
    for (let i = 0; i < this.length; i++) {
      const row: Record<string, Cell> = {};
      for (const [name, column] of columns) row[name] = cellOf(column, i);
      // The row's fields are exactly the table's columns, which the producer typed as R.
      out[i] = row as R;
    }
    return out;
  }

  /** Plain column arrays, e.g. for `new DataFrame(...)` or Vega-Lite in columnar form. */
  toColumns(): Record<string, Cell[]> {
    const out: Record<string, Cell[]> = {};
    for (const name of this.#columns.keys()) out[name] = this.values(name);
    return out;
  }

  /** The rows at the given positions, in that order. */
  take(rows: ArrayLike<number>): FrameTable<R, M> {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!(r >= 0 && r < this.length)) throw new RangeError(`Row ${r} is outside the table (0..${this.length - 1}).`);
    }
    return new FrameTable<R, M>(
      [...this.#columns].map(([name, column]) => [name, takeColumn(column, rows)] as const),
      rows.length,
      this.meta,
    );
  }

  /** A column by name, or undefined. */
  columnOrUndefined(name: string): FrameColumn | undefined {
    return this.#columns.get(name);
  }

  /**
   * The rows that match column conditions, in table order: evaluated over the typed arrays (text
   * once per distinct value), no row objects built. Several columns in one object must all match;
   * `and`, `or` and `not` combine filters. A value means equals (`null`: missing); an object holds
   * tests: `eq`, `ne`, `in`, `notIn`, `gt`, `gte`, `lt`, `lte`, `isNull`, `notNull`. Missing values
   * match only `null` / `isNull` (every comparison is false on them). An unknown column is a
   * `DataError` naming it.
   *
   * @example
   * table.where({ country_code: { in: ['GB', 'DE'] }, year: 2024, differentiation_rank: { gte: 90 } });
   * table.where({ or: [{ brand_id: 6 }, { sector_name: null }] });
   */
  where(where: Where): FrameTable<R, M> {
    return this.#takeValid(selectionOf(this, where));
  }

  /**
   * The rows sorted by one or more columns, ascending unless `descending`; missing values last in
   * either direction; stable (ties keep their order). Radix sort over the typed arrays: no
   * comparator per row, no row objects. An unknown column is a `DataError` naming it.
   *
   * @example
   * table.sortBy('brand_name');
   * table.sortBy(['country_code', { column: 'differentiation_rank', descending: true }]);
   */
  sortBy(keys: SortKey | readonly SortKey[]): FrameTable<R, M> {
    const order = sortOrderOf(this, keys);
    return this.#withColumns(permuteColumns([...this.#columns.values()], order), order.length);
  }

  #takeValid(rows: Int32Array): FrameTable<R, M> {
    return this.#withColumns([...this.#columns.values()].map((column) => takeColumnAt(column, rows)), rows.length);
  }

  /** A table of the same column names and meta holding `columns` (in this table's column order). */
  #withColumns(columns: readonly FrameColumn[], length: number): FrameTable<R, M> {
    const names = [...this.#columns.keys()];
    return new FrameTable<R, M>(
      names.map((name, i) => [name, columns[i]!] as const),
      length,
      this.meta,
    );
  }

  /**
   * Rows for which `keep` returns true. The slow path: it builds a plain object per row (a million
   * rows take seconds and their memory); prefer `where` for column conditions.
   */
  filter(keep: (row: R, index: number) => boolean): FrameTable<R, M> {
    const rows = this.rows();
    const kept: number[] = [];
    for (let i = 0; i < rows.length; i++) if (keep(rows[i]!, i)) kept.push(i);
    return this.take(kept);
  }

  /** The first `n` rows. */
  head(n = 5): FrameTable<R, M> {
    return this.take(Array.from({ length: Math.max(0, Math.min(n, this.length)) }, (_, i) => i));
  }

  /** Only the named columns, in that order. */
  select(names: readonly string[]): FrameTable<FrameRow, M> {
    return new FrameTable<FrameRow, M>(
      names.map((name) => [name, this.column(name)] as const),
      this.length,
      this.meta,
    );
  }

  /** The same columns with other metadata. */
  withMeta<M2 extends FrameMeta>(meta: M2): FrameTable<R, M2> {
    return new FrameTable<R, M2>(this.#columns, this.length, meta);
  }

  /** Iterates the columns: `[name, column]`. */
  entries(): IterableIterator<[string, FrameColumn]> {
    return this.#columns.entries();
  }
}
