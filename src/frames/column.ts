/**
 * The columns of a `FrameTable`: typed arrays with a missing-value marker per kind, and the few
 * functions every table operation reads them with. `frame-table.ts` re-exports all of it.
 */

/** Missing value of an `int` column (ids are never this small). */
export const INT_NULL = -2147483648;

/** Missing value of a `bool` column (0 = false, 1 = true). */
export const BOOL_NULL = 2;

/**
 * One column. Missing values: `NaN` in `float` and `date` (epoch milliseconds), `INT_NULL` in
 * `int`, `BOOL_NULL` in `bool`, code `-1` in `string`. Never 0: a 0 is a real value.
 */
export type FrameColumn =
  | { readonly kind: 'int'; readonly values: Int32Array }
  | { readonly kind: 'float'; readonly values: Float64Array }
  | { readonly kind: 'bool'; readonly values: Uint8Array }
  | { readonly kind: 'string'; readonly codes: Int32Array; readonly dictionary: readonly string[] }
  | { readonly kind: 'date'; readonly values: Float64Array };

export type ColumnKind = FrameColumn['kind'];

/** A value of a plain row: missing values are `null`. */
export type Cell = string | number | boolean | Date | null;

/** A plain row of a table whose columns are not known statically. */
export type FrameRow = Record<string, Cell>;

/**
 * A column of `n` rows of the given kind, every row missing.
 *
 * @example
 * missingColumn('int', 3) // { kind: 'int', values: Int32Array [INT_NULL, INT_NULL, INT_NULL] }
 */
export function missingColumn(kind: ColumnKind, n: number): FrameColumn {
  switch (kind) {
    case 'int':
      return { kind, values: new Int32Array(n).fill(INT_NULL) };
    case 'bool':
      return { kind, values: new Uint8Array(n).fill(BOOL_NULL) };
    case 'string':
      return { kind, codes: new Int32Array(n).fill(-1), dictionary: [] };
    case 'float':
    case 'date':
      return { kind, values: new Float64Array(n).fill(Number.NaN) };
  }
}

/** The number of rows of a column. */
export function columnLength(column: FrameColumn): number {
  return column.kind === 'string' ? column.codes.length : column.values.length;
}

/** The value of one row of a column, as it appears in plain rows. */
export function cellOf(column: FrameColumn, i: number): Cell {
  switch (column.kind) {
    case 'float': {
      const v = column.values[i]!;
      return v === v ? v : null;
    }
    case 'int': {
      const v = column.values[i]!;
      return v === INT_NULL ? null : v;
    }
    case 'bool': {
      const v = column.values[i]!;
      return v === BOOL_NULL ? null : v === 1;
    }
    case 'string': {
      const c = column.codes[i]!;
      return c < 0 ? null : (column.dictionary[c] ?? null);
    }
    case 'date': {
      const v = column.values[i]!;
      return v === v ? new Date(v) : null;
    }
  }
}

/** A column restricted to the given rows, in their order. */
export function takeColumn(column: FrameColumn, rows: ArrayLike<number>): FrameColumn {
  const n = rows.length;
  switch (column.kind) {
    case 'string': {
      const codes = new Int32Array(n);
      const src = column.codes;
      for (let i = 0; i < n; i++) codes[i] = src[rows[i]!]!;
      return { kind: 'string', codes, dictionary: column.dictionary };
    }
    case 'int': {
      const values = new Int32Array(n);
      const src = column.values;
      for (let i = 0; i < n; i++) values[i] = src[rows[i]!]!;
      return { kind: 'int', values };
    }
    case 'bool': {
      const values = new Uint8Array(n);
      const src = column.values;
      for (let i = 0; i < n; i++) values[i] = src[rows[i]!]!;
      return { kind: 'bool', values };
    }
    case 'float':
    case 'date': {
      const values = new Float64Array(n);
      const src = column.values;
      for (let i = 0; i < n; i++) values[i] = src[rows[i]!]!;
      return { kind: column.kind, values };
    }
  }
}


/**
 * `takeColumn` for row positions in an `Int32Array` (what `where` and `sortBy` produce): one loop
 * per element type, each seeing a single array type, so V8 keeps them monomorphic (the shared
 * `takeColumn` sees plain arrays and typed arrays, and measured several times slower on 1M rows).
 */
export function takeColumnAt(column: FrameColumn, rows: Int32Array): FrameColumn {
  switch (column.kind) {
    case 'string':
      return { kind: 'string', codes: gatherInt32(column.codes, rows), dictionary: column.dictionary };
    case 'int':
      return { kind: 'int', values: gatherInt32(column.values, rows) };
    case 'bool':
      return { kind: 'bool', values: gatherUint8(column.values, rows) };
    case 'float':
    case 'date':
      return { kind: column.kind, values: gatherFloat64(column.values, rows) };
  }
}

function gatherInt32(src: Int32Array, rows: Int32Array): Int32Array {
  const n = rows.length;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = src[rows[i]!]!;
  return out;
}

function gatherUint8(src: Uint8Array, rows: Int32Array): Uint8Array {
  const n = rows.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = src[rows[i]!]!;
  return out;
}

function gatherFloat64(src: Float64Array, rows: Int32Array): Float64Array {
  const n = rows.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[rows[i]!]!;
  return out;
}

/**
 * A column's values as numbers, indexed like the column: `float` and `date` columns as stored (no
 * copy), `int` and `bool` columns converted (missing = NaN); undefined for text.
 *
 * @example numbersOf({ kind: 'int', values: Int32Array.of(3, INT_NULL) }) // Float64Array [3, NaN]
 */
export function numbersOf(column: FrameColumn): Float64Array | undefined {
  switch (column.kind) {
    case 'float':
    case 'date':
      return column.values;
    case 'int':
      return fromInt32(column.values);
    case 'bool':
      return fromUint8(column.values);
    case 'string':
      return undefined;
  }
}

// One loop per element type (monomorphic, as the gathers above).

function fromInt32(src: Int32Array): Float64Array {
  const out = new Float64Array(src.length);
  for (let i = 0; i < out.length; i++) {
    const v = src[i]!;
    out[i] = v === INT_NULL ? NaN : v;
  }
  return out;
}

function fromUint8(src: Uint8Array): Float64Array {
  const out = new Float64Array(src.length);
  for (let i = 0; i < out.length; i++) {
    const v = src[i]!;
    out[i] = v === BOOL_NULL ? NaN : v;
  }
  return out;
}
