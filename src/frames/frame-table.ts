/**
 * `FrameTable`: the columnar result every frame function returns.
 *
 * Columns are typed arrays (NOTES.md: plain JS over typed arrays runs within 0.3-3x of pandas, while
 * danfojs is 23-100x slower and arquero's group-by measured 30-40x slower here), so heavy work runs
 * on these and a danfojs DataFrame is built only at the edge (`toDanfo` in `brandscape-kit/danfo`). Strings are
 * dictionary-encoded: brandscape text columns (brand, category, market names) repeat heavily, and
 * integer codes make them cheap to group by and small to hold.
 *
 * `where`, `sortBy`, `take` and `head` do not copy columns: the new table reads its parent's
 * columns through a selection (selection.ts) and gathers a column the first time it is read in
 * full, once.
 */
import { DataError, UsageError } from '../errors.js';
import { cellOf, columnLength, numbersOf, takeColumnAt, type Cell, type ColumnKind, type FrameColumn, type FrameRow } from './column.js';
import { selectionOf, type Where } from './where.js';
import { sortOrderOf, type SortKey } from './sort-by.js';
import { permuteColumns } from './permute-columns.js';
import { composeRows, isEveryRow, noteMaterialised, type TableScan } from './selection.js';
import { DEFAULT_WIDTH, type TableFormatOptions } from './display-cells.js';
import { formatTable } from './format-table.js';
import { tableHtml } from './table-html.js';
import { describeColumns, type DescribeRow } from './describe-table.js';
import { csvChunks } from './to-csv.js';

export { BOOL_NULL, INT_NULL, cellOf, columnLength, takeColumn, takeColumnAt } from './column.js';
export type { Cell, ColumnKind, FrameColumn, FrameRow } from './column.js';
export type { TableScan } from './selection.js';
export type { TableFormatOptions } from './display-cells.js';
export type { DescribeRow } from './describe-table.js';

/**
 * `print()`'s options: how the table is shown, and where the text goes.
 *
 * @example
 * table.print({ rows: 20, write: (text) => log.push(text) });
 */
export interface PrintOptions extends TableFormatOptions {
  /** Where the text goes (default: standard output, which a tslab notebook shows in the cell). */
  write?: (text: string) => void;
}

/** Metadata every table carries: where it came from and the choices that shaped it. */
export interface FrameMeta {
  /** The function that produced the table, e.g. `crossMarket`, `toTable`. */
  readonly source: string;
  /** Things a reader of the numbers should know (weighting used, rows dropped, caveats). */
  readonly notes: readonly string[];
}

/**
 * Node's `util.inspect.custom` (what `console.log` calls), by its registered name: the package's
 * types then need no Node types to compile.
 */
const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** Set by FrameTable's static block: the one way into a table's private fields from outside the class. */
let scanTable: (table: FrameTable<object, FrameMeta>) => TableScan;

/**
 * A columnar table: typed-array columns, plain rows for charts (`rows()`), and a danfojs DataFrame
 * for notebooks through `toDanfo(table)` from `brandscape-kit/danfo`. Tables are immutable;
 * operations return new tables.
 *
 * `where`, `sortBy`, `take` and `head` are lazy: the table they return shares this table's columns
 * through a selection (the rows it keeps, in its order) and copies nothing; chained, they compose
 * into one selection. A column is gathered the first time it is read in full (`column()`,
 * `numbers()`), once; `groupBy`, `pivot`, `rows()`, `values()`, Parquet and CSV read through the
 * selection without gathering. A selection keeps its parent's columns alive: `materialize()` gathers
 * the rest and lets them go (worth it for a small table kept from a large one).
 *
 * Arrays returned by `column()` and `numbers()` are the table's own storage (a table's own columns,
 * or the columns it gathered, kept for the next read): read them, do not write to them.
 *
 * @example
 * const table = toTable(rows);               // brandscape rows as loaded by the client
 * table.length;                               // number of rows
 * table.numbers('differentiation_rank');      // Float64Array, NaN where missing
 * const strong = table.where({ differentiation_rank: { gte: 90 } }); // no column copied
 * const df = await toDanfo(table);            // danfojs DataFrame (brandscape-kit/danfo)
 */
export class FrameTable<R extends object = FrameRow, M extends FrameMeta = FrameMeta> {
  readonly meta: M;
  #length: number;
  /** The columns the table reads: its own, or with a selection its parent's; all of one length. */
  #source: ReadonlyMap<string, FrameColumn>;
  /** Rows of the source columns (the table's own length without a selection). */
  #sourceLength: number;
  /** With a selection: the source row of each of the table's rows. */
  #rows: Int32Array | undefined;
  /** With a selection: the columns gathered so far (each gathered once, then read from here). */
  #gathered: Map<string, FrameColumn> | undefined;
  /** The selection holds every source row once (a sort): gathering all columns can use `permuteColumns`. */
  #permutation = false;

  constructor(columns: Iterable<readonly [string, FrameColumn]>, length: number, meta: M) {
    const map = new Map<string, FrameColumn>();
    for (const [name, column] of columns) {
      if (columnLength(column) !== length) {
        throw new RangeError(`Column '${name}' has ${columnLength(column)} values; the table has ${length} rows.`);
      }
      map.set(name, column);
    }
    this.#source = map;
    this.#sourceLength = length;
    this.#length = length;
    this.meta = meta;
  }

  /**
   * A table of `rows` of `source`'s columns (`sourceLength` rows each; all of them without `rows`),
   * copying nothing. `gathered`: columns already gathered through `rows`.
   */
  static #over<R extends object, M extends FrameMeta>(
    source: ReadonlyMap<string, FrameColumn>,
    sourceLength: number,
    rows: Int32Array | undefined,
    meta: M,
    gathered?: ReadonlyMap<string, FrameColumn>,
    permutation = false,
  ): FrameTable<R, M> {
    const table = new FrameTable<R, M>([], 0, meta);
    table.#source = source;
    table.#sourceLength = sourceLength;
    table.#rows = rows;
    table.#length = rows ? rows.length : sourceLength;
    if (rows) table.#gathered = new Map(gathered);
    table.#permutation = permutation;
    return table;
  }

  static {
    scanTable = (table) => table.#scan();
  }

  /** Number of rows. */
  get length(): number {
    return this.#length;
  }

  /** Column names, in order. */
  get columnNames(): string[] {
    return [...this.#source.keys()];
  }

  /**
   * Column names, in order (`columnNames`, under the name pandas and polars use).
   *
   * @example toTable([{ brand: 'Veros', esteem_rank: 71.5 }]).columns // ['brand', 'esteem_rank']
   */
  get columns(): string[] {
    return this.columnNames;
  }

  has(name: string): boolean {
    return this.#source.has(name);
  }

  /**
   * A column by name; a `DataError` naming the available columns when there is none. On a lazy
   * table (from `where`, `sortBy`, ...) the column is gathered through the selection the first time
   * it is read, and kept.
   */
  column(name: string): FrameColumn {
    const source = this.#source.get(name);
    if (!source) throw new DataError(`The table has no column '${name}'.`, [name], this.columnNames);
    return this.#rows ? this.#gather(name, source, this.#rows) : source;
  }

  #gather(name: string, source: FrameColumn, rows: Int32Array): FrameColumn {
    const gathered = this.#gathered!;
    let column = gathered.get(name);
    if (column) return column;
    column = takeColumnAt(source, rows);
    noteMaterialised(1);
    gathered.set(name, column);
    if (gathered.size === this.#source.size) this.#ownGathered();
    return column;
  }

  /** Every column gathered: the table holds them as its own and lets go of its parent's columns. */
  #ownGathered(): void {
    const gathered = this.#gathered!;
    this.#source = new Map([...this.#source.keys()].map((name) => [name, gathered.get(name)!] as const));
    this.#sourceLength = this.#length;
    this.#rows = undefined;
    this.#gathered = undefined;
    this.#permutation = false;
  }

  /**
   * The table holding its own columns: a lazy table (from `where`, `sortBy`, `take`, `head`)
   * gathers every column it has not gathered yet and lets go of its parent's columns, which a
   * selection otherwise keeps alive. Returns the table itself; a table without a selection has
   * nothing to do.
   *
   * @example
   * let big = await brandscapeTable(client, query);
   * const few = big.where({ brand_id: 305 }).materialize();
   * big = undefined; // the million rows can now be collected: `few` holds its own columns
   */
  materialize(): this {
    const rows = this.#rows;
    if (!rows) return this;
    const gathered = this.#gathered!;
    const missing = [...this.#source].filter(([name]) => !gathered.has(name));
    // A full permutation of a large table gathers fastest column by column in cache-sized blocks.
    const columns = this.#permutation && missing.length > 0 ? permuteColumns(missing.map(([, c]) => c), rows) : missing.map(([, c]) => takeColumnAt(c, rows));
    noteMaterialised(missing.length);
    missing.forEach(([name], i) => gathered.set(name, columns[i]!));
    this.#ownGathered();
    return this;
  }

  /** The column's kind, or undefined when the table has no such column. */
  kindOf(name: string): ColumnKind | undefined {
    return this.#source.get(name)?.kind;
  }

  /**
   * A numeric view of a column: `float` and `date` columns as stored; `int` and `bool` columns
   * converted (missing = NaN).
   */
  numbers(name: string): Float64Array {
    const numbers = numbersOf(this.column(name));
    if (!numbers) throw new DataError(`Column '${name}' holds text, not numbers.`, [name], this.numericColumnNames());
    return numbers;
  }

  /** Names of the columns `numbers()` accepts. */
  numericColumnNames(): string[] {
    return [...this.#source].filter(([, c]) => c.kind !== 'string').map(([n]) => n);
  }

  /** The values of one column as plain cells (read through a selection, nothing gathered). */
  values(name: string): Cell[] {
    // An unknown name: column() throws the DataError.
    const source = this.#source.get(name) ?? this.column(name);
    const rows = this.#rows;
    const out = new Array<Cell>(this.#length);
    for (let i = 0; i < out.length; i++) out[i] = cellOf(source, rows ? rows[i]! : i);
    return out;
  }

  /** One cell. */
  get(name: string, row: number): Cell {
    if (!(row >= 0 && row < this.#length)) throw new RangeError(`Row ${row} is outside the table (0..${this.#length - 1}).`);
    const source = this.#source.get(name) ?? this.column(name);
    return cellOf(source, this.#rows ? this.#rows[row]! : row);
  }

  /** Plain rows (missing values are `null`), for chart data and worksheets; read through a selection, nothing gathered. */
  rows(): R[] {
    const columns = [...this.#source];
    const rows = this.#rows;
    const out = new Array<R>(this.#length);
    for (let i = 0; i < out.length; i++) {
      const at = rows ? rows[i]! : i;
      const row: Record<string, Cell> = {};
      for (const [name, column] of columns) row[name] = cellOf(column, at);
      // The row's fields are exactly the table's columns, which the producer typed as R.
      out[i] = row as R;
    }
    return out;
  }

  /** Plain column arrays, e.g. for `new DataFrame(...)` or Vega-Lite in columnar form. */
  toColumns(): Record<string, Cell[]> {
    const out: Record<string, Cell[]> = {};
    for (const name of this.#source.keys()) out[name] = this.values(name);
    return out;
  }

  /** The rows at the given positions, in that order (a lazy table: nothing copied but the positions). */
  take(rows: ArrayLike<number>): FrameTable<R, M> {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!(r >= 0 && r < this.#length)) throw new RangeError(`Row ${r} is outside the table (0..${this.#length - 1}).`);
    }
    return this.#select(Int32Array.from(rows));
  }

  /** A column by name (gathered as `column()` does), or undefined. */
  columnOrUndefined(name: string): FrameColumn | undefined {
    return this.#source.has(name) ? this.column(name) : undefined;
  }

  /**
   * The rows that match column conditions, in table order: evaluated over the typed arrays (text
   * once per distinct value), no row objects built, no column copied (the result is a lazy table
   * over this one's columns; a where on a lazy table reads its condition columns and composes the
   * selections). Several columns in one object must all match; `and`, `or` and `not` combine
   * filters. A value means equals (`null`: missing); an object holds tests: `eq`, `ne`, `in`,
   * `notIn`, `gt`, `gte`, `lt`, `lte`, `isNull`, `notNull`. Missing values match only `null` /
   * `isNull` (every comparison is false on them). An unknown column is a `DataError` naming it.
   *
   * @example
   * table.where({ country_code: { in: ['GB', 'DE'] }, year: 2024, differentiation_rank: { gte: 90 } });
   * table.where({ or: [{ brand_id: 6 }, { sector_name: null }] });
   */
  where(where: Where): FrameTable<R, M> {
    return this.#select(selectionOf(this, where));
  }

  /**
   * The rows sorted by one or more columns, ascending unless `descending`; missing values last in
   * either direction; stable (ties keep their order). Radix sort over the typed arrays: no
   * comparator per row, no row objects, no column copied (the result is a lazy table in the new
   * order). An unknown column is a `DataError` naming it.
   *
   * @example
   * table.sortBy('brand_name');
   * table.sortBy(['country_code', { column: 'differentiation_rank', descending: true }]);
   */
  sortBy(keys: SortKey | readonly SortKey[]): FrameTable<R, M> {
    return this.#select(sortOrderOf(this, keys), true);
  }

  /**
   * The table of the rows at `positions` (rows of this table), sharing this table's source
   * columns: selections compose, so no intermediate table stays reachable from the result.
   * `permutation`: the positions hold every row once (a sort's order).
   */
  #select(positions: Int32Array, permutation = false): FrameTable<R, M> {
    const rows = this.#rows;
    // Every row in order (a filter that kept everything, a sort of sorted rows): no selection.
    if (isEveryRow(positions, this.#length)) return FrameTable.#over<R, M>(this.#source, this.#sourceLength, rows, this.meta, this.#gathered, this.#permutation);
    return FrameTable.#over<R, M>(this.#source, this.#sourceLength, rows ? composeRows(rows, positions) : positions, this.meta, undefined, permutation && !rows);
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

  /** The first `n` rows (views of this table's columns, or of its selection: nothing copied). */
  head(n = 5): FrameTable<R, M> {
    const count = Math.max(0, Math.min(Math.floor(n) || 0, this.#length));
    const rows = this.#rows;
    if (rows) return FrameTable.#over<R, M>(this.#source, this.#sourceLength, rows.slice(0, count), this.meta);
    return new FrameTable<R, M>([...this.#source].map(([name, column]) => [name, headOf(column, count)] as const), count, this.meta);
  }

  /** Only the named columns, in that order (a lazy table stays lazy, over those columns only). */
  select(names: readonly string[]): FrameTable<FrameRow, M> {
    const missing = names.filter((name) => !this.#source.has(name));
    if (missing.length > 0) throw new DataError(`The table has no column '${missing[0]!}'.`, missing, this.columnNames);
    const source = new Map(names.map((name) => [name, this.#source.get(name)!] as const));
    const gathered = this.#gathered && new Map([...this.#gathered].filter(([name]) => source.has(name)));
    return FrameTable.#over<FrameRow, M>(source, this.#sourceLength, this.#rows, this.meta, gathered, this.#permutation);
  }

  /** The same columns with other metadata. */
  withMeta<M2 extends FrameMeta>(meta: M2): FrameTable<R, M2> {
    return FrameTable.#over<R, M2>(this.#source, this.#sourceLength, this.#rows, meta, this.#gathered, this.#permutation);
  }

  /** Iterates the columns: `[name, column]` (a lazy table gathers each as it comes). */
  *entries(): IterableIterator<[string, FrameColumn]> {
    for (const name of [...this.#source.keys()]) yield [name, this.column(name)];
  }

  /**
   * The table as aligned text: a title line (what made it, its size), column names and kinds, then
   * the first and last rows around a "… N more rows" line; numbers rounded for display, long text
   * cut, columns that do not fit in `width` left out around a "…" column. Only the shown rows are
   * read. `console.log(table)` and a notebook's bare `table` show the same.
   *
   * @example
   * console.log(toTable([{ brand: 'Veros', market: 'GB', esteem_rank: 71.25 }, { brand: 'Aldo', market: 'GB', esteem_rank: null }]).toString());
   * // toTable: 2 rows × 3 columns
   * // brand   market  esteem_rank
   * // string  string        float
   * // ──────  ──────  ───────────
   * // Veros   GB            71.25
   * // Aldo    GB             null
   */
  toString(options: TableFormatOptions = {}): string {
    return formatTable(this.#scan(), this.meta.source, options);
  }

  /**
   * Prints the table as `toString()` shows it, to standard output (a notebook cell's output in
   * tslab) or to `write`; the width is the terminal's when there is one.
   *
   * @example
   * table.where({ differentiation_rank: { gte: 90 } }).print({ rows: 20 });
   */
  print(options: PrintOptions = {}): void {
    const { write, ...format } = options;
    const width = format.width ?? (process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : DEFAULT_WIDTH);
    const text = `${this.toString({ ...format, width })}\n`;
    if (write) write(text);
    else process.stdout.write(text);
  }

  /** What `console.log(table)` and `util.inspect` show: `toString()`. */
  [INSPECT](): string {
    return this.toString();
  }

  /**
   * The table as a compact HTML table (escaped, with its own scoped style): the first and last rows
   * around a "… N more rows" row, kinds under the column names, numbers right-aligned and rounded
   * for display, missing values greyed, long text cut with the whole value as its tooltip, at most
   * 20 columns unless told. `display(table)` shows it in a notebook.
   *
   * @example
   * await writeFile('table.html', table.toHtml({ rows: 50 }));
   */
  toHtml(options: TableFormatOptions = {}): string {
    return tableHtml(this.#scan(), this.meta.source, options);
  }

  /**
   * A summary of every column, one row each: for numbers (`int`, `float`) the count of values,
   * missing values, mean, sample standard deviation, min, quartiles (`q1`, `median`, `q3`) and max;
   * for text, booleans and dates the count, missing values, distinct values and the most frequent
   * value (`top`, as text) with its count (`top_count`). Statistics that do not apply are missing.
   *
   * @example
   * table.describe().print({ rows: 50 });
   * table.describe().where({ kind: 'float' }).select(['column', 'mean', 'median']).rows();
   */
  describe(): FrameTable<DescribeRow, FrameMeta> {
    return new FrameTable<DescribeRow, FrameMeta>(describeColumns(this.#scan()), this.#source.size, { source: 'describe', notes: [] });
  }

  /**
   * The table as CSV text (RFC 4180: quoted where needed, CRLF line ends), with a header line;
   * missing values are empty fields, an empty text is `""`, numbers keep full precision, dates are
   * ISO 8601 UTC. For a large table write a file with `writeCsv(table, path)`: it streams.
   *
   * @example
   * toTable([{ brand: 'Procter & Gamble, Inc.', esteem_rank: 71.25 }]).toCsv()
   * // 'brand,esteem_rank\r\n"Procter & Gamble, Inc.",71.25\r\n'
   */
  toCsv(): string {
    try {
      return [...csvChunks(this.#scan())].join('');
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new UsageError(`The CSV text of this table (${this.#length} rows) is longer than a JavaScript string can be.`, {
        hint: 'Write it to a file with writeCsv(table, path), which streams it, or narrow the table first.',
        cause: error,
      });
    }
  }

  #scan(): TableScan {
    const source = this.#source;
    const rows = this.#rows;
    return {
      length: this.#length,
      names: [...source.keys()],
      rows,
      sourceLength: this.#sourceLength,
      column: (name) => source.get(name),
    };
  }
}

/**
 * How the engine reads a table without gathering its columns: the source columns and the
 * selection (see selection.ts). Not public API.
 *
 * @example
 * const { rows, column } = scanOf(table);
 * const brand = column('brand_id')!; // read row i at rows ? rows[i] : i
 */
export function scanOf(table: FrameTable<object, FrameMeta>): TableScan {
  return scanTable(table);
}

/** The first `n` rows of a column, as views of its arrays. */
function headOf(column: FrameColumn, n: number): FrameColumn {
  switch (column.kind) {
    case 'string':
      return { kind: 'string', codes: column.codes.subarray(0, n), dictionary: column.dictionary };
    case 'int':
      return { kind: 'int', values: column.values.subarray(0, n) };
    case 'bool':
      return { kind: 'bool', values: column.values.subarray(0, n) };
    case 'float':
    case 'date':
      return { kind: column.kind, values: column.values.subarray(0, n) };
  }
}
