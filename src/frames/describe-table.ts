/**
 * `describe()`: one row per column of a table, with the summary an analyst checks first. Numbers
 * (`int`, `float`): count, missing, mean, sample standard deviation, min, quartiles and max, as
 * pandas' `describe()` computes them (n - 1, linear interpolation). Text, booleans and dates:
 * count, missing, distinct values, the most frequent one and its count (ties: the one met first).
 * Statistics that do not apply to a column are missing. A lazy table is read through its selection.
 */
import { BOOL_NULL, INT_NULL, numbersOf, type ColumnKind, type FrameColumn } from './column.js';
import type { TableScan } from './selection.js';
import { textColumn } from './string-dictionary.js';
import { mean, quantileSorted, sampleStd } from './stats.js';

/** The columns of `describe()`'s table, in order. */
export const DESCRIBE_COLUMNS = ['column', 'kind', 'count', 'missing', 'mean', 'std', 'min', 'q1', 'median', 'q3', 'max', 'distinct', 'top', 'top_count'] as const;

/**
 * One row of `describe()`'s table: one column of the described table.
 *
 * @example
 * const [first]: DescribeRow[] = table.describe().rows();
 * first.column; // 'id'
 */
export interface DescribeRow {
  column: string;
  kind: ColumnKind;
  /** Rows with a value. */
  count: number;
  /** Rows without one. */
  missing: number;
  mean: number | null;
  /** Sample standard deviation (n - 1); null below two values. */
  std: number | null;
  min: number | null;
  q1: number | null;
  median: number | null;
  q3: number | null;
  max: number | null;
  /** Distinct values (text, booleans, dates). */
  distinct: number | null;
  /** The most frequent value, as text (text, booleans, dates). */
  top: string | null;
  top_count: number | null;
}

/**
 * The describe table's columns for a table's scan.
 *
 * @example describeColumns(scanOf(table)) // [['column', {...}], ['kind', {...}], ['count', {...}], ...]
 */
export function describeColumns(scan: TableScan): [string, FrameColumn][] {
  const rows = scan.names.map((name) => describeOne(name, scan.column(name)!, scan.rows, scan.length));
  const float = (key: 'mean' | 'std' | 'min' | 'q1' | 'median' | 'q3' | 'max'): FrameColumn => ({ kind: 'float', values: Float64Array.from(rows, (r) => r[key] ?? NaN) });
  const int = (key: 'count' | 'missing' | 'distinct' | 'top_count'): FrameColumn => ({ kind: 'int', values: Int32Array.from(rows, (r) => r[key] ?? INT_NULL) });
  const text = (key: 'column' | 'kind' | 'top'): FrameColumn => textColumn(rows.length, (i) => rows[i]![key]);
  return [
    ['column', text('column')],
    ['kind', text('kind')],
    ['count', int('count')],
    ['missing', int('missing')],
    ['mean', float('mean')],
    ['std', float('std')],
    ['min', float('min')],
    ['q1', float('q1')],
    ['median', float('median')],
    ['q3', float('q3')],
    ['max', float('max')],
    ['distinct', int('distinct')],
    ['top', text('top')],
    ['top_count', int('top_count')],
  ];
}

const finite = (v: number): number | null => (Number.isNaN(v) ? null : v);

function describeOne(name: string, column: FrameColumn, rows: Int32Array | undefined, n: number): DescribeRow {
  const none = { mean: null, std: null, min: null, q1: null, median: null, q3: null, max: null, distinct: null, top: null, top_count: null };
  if (column.kind === 'int' || column.kind === 'float') {
    const values = numbersOf(column)!;
    const present = new Float64Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const v = values[rows ? rows[i]! : i]!;
      if (v === v) present[count++] = v;
    }
    const sorted = present.subarray(0, count).sort();
    return {
      ...none,
      column: name,
      kind: column.kind,
      count,
      missing: n - count,
      mean: finite(mean(sorted)),
      std: finite(sampleStd(sorted)),
      min: count > 0 ? sorted[0]! : null,
      q1: finite(quantileSorted(sorted, 0.25)),
      median: finite(quantileSorted(sorted, 0.5)),
      q3: finite(quantileSorted(sorted, 0.75)),
      max: count > 0 ? sorted[count - 1]! : null,
    };
  }
  const { counts, firstAt, label } = tally(column, rows, n);
  let count = 0;
  let top: string | null = null;
  let topCount = 0;
  let topFirst = Infinity;
  for (const [key, c] of counts) {
    count += c;
    const first = firstAt.get(key)!;
    if (c > topCount || (c === topCount && first < topFirst)) [top, topCount, topFirst] = [label(key), c, first];
  }
  return { ...none, column: name, kind: column.kind, count, missing: n - count, distinct: counts.size, top, top_count: count > 0 ? topCount : null };
}

/**
 * Occurrences of each present value (by a numeric key: a text code, 0 / 1, a date's ms), the
 * position each is first met at, and its label. Codes are counted in arrays (a text column has few
 * distinct values), dates in a Map.
 */
function tally(column: Exclude<FrameColumn, { kind: 'int' | 'float' }>, rows: Int32Array | undefined, n: number) {
  const counts = new Map<number, number>();
  const firstAt = new Map<number, number>();
  if (column.kind === 'date') {
    const values = column.values;
    for (let i = 0; i < n; i++) {
      const v = values[rows ? rows[i]! : i]!;
      if (v !== v) continue;
      const c = counts.get(v);
      if (c === undefined) {
        counts.set(v, 1);
        firstAt.set(v, i);
      } else counts.set(v, c + 1);
    }
  } else {
    const codes = column.kind === 'string' ? column.codes : column.values;
    const size = column.kind === 'string' ? column.dictionary.length : 2;
    const missing = column.kind === 'string' ? -1 : BOOL_NULL;
    const cnt = new Int32Array(size);
    const first = new Int32Array(size);
    for (let i = 0; i < n; i++) {
      const c = codes[rows ? rows[i]! : i]!;
      if (c === missing) continue;
      if (cnt[c]!++ === 0) first[c] = i;
    }
    for (let c = 0; c < size; c++) {
      if (cnt[c] === 0) continue;
      counts.set(c, cnt[c]!);
      firstAt.set(c, first[c]!);
    }
  }
  const label = (key: number): string =>
    column.kind === 'string' ? column.dictionary[key]! : column.kind === 'bool' ? (key === 1 ? 'true' : 'false') : new Date(key).toISOString();
  return { counts, firstAt, label };
}
