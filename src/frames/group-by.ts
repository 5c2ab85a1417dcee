/**
 * `groupBy`: group a table by one or more key columns and aggregate numeric columns, on typed
 * arrays (`npm run bench` compares it with pandas, polars and danfojs on a 1,000,000-row table).
 */
import { DataError } from '../errors.js';
import { numbersOf } from './column.js';
import { FrameTable, scanOf, takeColumn, type FrameColumn, type FrameMeta, type FrameRow, type TableScan } from './frame-table.js';
import { allRows, compareBy, groupIndex, groupSegments, isAllRows, keyCodes, type GroupIndex } from './group-index.js';
import { quantileSorted } from './stats.js';

export type GroupStat = 'mean' | 'sum' | 'count' | 'min' | 'max' | 'median' | 'std';

export interface GroupByOptions {
  /** Columns to aggregate (default: every numeric column that is not a key). */
  columns?: readonly string[];
  /** Statistics per column (default `['mean']`). Missing values are skipped, as in pandas. */
  stats?: readonly GroupStat[];
  /** Sort groups by their keys (default true, like pandas); false keeps first-appearance order. */
  sort?: boolean;
  /** Add a `rows` column with the number of rows in each group (default false). */
  size?: boolean;
}

export interface GroupByMeta extends FrameMeta {
  readonly by: readonly string[];
  readonly stats: readonly GroupStat[];
}

const STATS: readonly GroupStat[] = ['mean', 'sum', 'count', 'min', 'max', 'median', 'std'];

/**
 * Key columns by name, as the scan's source columns (read them at the scan's rows: nothing is
 * gathered), with a DataError naming the available columns.
 */
export function resolveKeys(scan: TableScan, by: readonly string[]): FrameColumn[] {
  const missing = by.filter((name) => scan.column(name) === undefined);
  if (missing.length > 0) throw new DataError('Cannot group by columns the table does not have.', missing, [...scan.names]);
  return by.map((name) => scan.column(name)!);
}

/** A numeric column of the scan's source, by name (indexed by source row). */
export function sourceNumbers(scan: TableScan, name: string): Float64Array {
  return numbersOf(scan.column(name)!)!;
}

/** Runs of consecutive selected rows in one group: run r is positions `start[r]..start[r + 1] - 1`, all in `group[r]`. */
interface Runs {
  readonly start: Int32Array;
  readonly group: Int32Array;
}

/**
 * The runs of an index, when most rows sit in long runs of one group (a table in study order
 * grouped by market and year); undefined otherwise.
 */
function longRunsOf(index: GroupIndex): Runs | undefined {
  const { groupOf } = index;
  const n = groupOf.length;
  let runs = n > 0 ? 1 : 0;
  for (let k = 1; k < n; k++) if (groupOf[k] !== groupOf[k - 1]) runs++;
  if (runs * 16 > n) return undefined;
  const start = new Int32Array(runs + 1);
  const group = new Int32Array(runs);
  for (let k = 0, r = 0; k < n; k++) {
    if (k > 0 && groupOf[k] === groupOf[k - 1]) continue;
    start[r] = k;
    group[r++] = groupOf[k]!;
  }
  start[runs] = n;
  return { start, group };
}

/**
 * Per-group sums and counts of two columns (`b` may be the same array as `a`), for an index over
 * every row of the table in order whose groups come in long runs. Each run is summed in local
 * variables and added to its group once: adding every row to `sums[g]` in memory makes each
 * addition wait for the previous one's store. Two columns share one pass, and the runs are found
 * once for every column, so the inner loop reads nothing but the two columns (about 30% faster than
 * comparing each row's group with the previous one's, and 2.6x faster than row by row, on
 * 1,000,000 rows in 240 groups). A group that is one run gets exactly the row-by-row sum.
 */
function sumPairInRuns(a: Float64Array, b: Float64Array, runs: Runs, sumA: Float64Array, cntA: Float64Array, sumB: Float64Array, cntB: Float64Array): void {
  const { start, group } = runs;
  for (let r = 0; r < group.length; r++) {
    let sa = 0;
    let ca = 0;
    let sb = 0;
    let cb = 0;
    const end = start[r + 1]!;
    for (let k = start[r]!; k < end; k++) {
      const x = a[k]!;
      if (x === x) {
        sa += x;
        ca++;
      }
      const y = b[k]!;
      if (y === y) {
        sb += y;
        cb++;
      }
    }
    const g = group[r]!;
    sumA[g]! += sa;
    cntA[g]! += ca;
    sumB[g]! += sb;
    cntB[g]! += cb;
  }
}

/**
 * `sumPairInRuns` for an index over selected rows (a lazy table's, ascending after a where): the
 * values are read at `rows[k]`, the rest is the same.
 */
function sumPairInRunsAt(a: Float64Array, b: Float64Array, rows: Int32Array, runs: Runs, sumA: Float64Array, cntA: Float64Array, sumB: Float64Array, cntB: Float64Array): void {
  const { start, group } = runs;
  for (let r = 0; r < group.length; r++) {
    let sa = 0;
    let ca = 0;
    let sb = 0;
    let cb = 0;
    const end = start[r + 1]!;
    for (let k = start[r]!; k < end; k++) {
      const row = rows[k]!;
      const x = a[row]!;
      if (x === x) {
        sa += x;
        ca++;
      }
      const y = b[row]!;
      if (y === y) {
        sb += y;
        cb++;
      }
    }
    const g = group[r]!;
    sumA[g]! += sa;
    cntA[g]! += ca;
    sumB[g]! += sb;
    cntB[g]! += cb;
  }
}

/**
 * The sums and counts of every column, two columns a pass, when the index's groups come in long
 * runs (every row of the table, or a selection of them); undefined otherwise (then `aggregate` goes
 * row by row).
 */
function sumsInRuns(values: readonly Float64Array[], index: GroupIndex): { sums: Float64Array[]; counts: Float64Array[] } | undefined {
  const runs = longRunsOf(index);
  if (!runs) return undefined;
  const every = isAllRows(index.rows);
  const sums = values.map(() => new Float64Array(index.count));
  const counts = values.map(() => new Float64Array(index.count));
  for (let c = 0; c < values.length; c += 2) {
    const d = c + 1 < values.length ? c + 1 : c;
    // A lone last column is summed as its own pair into spare arrays.
    const [sumB, cntB] = d === c ? [new Float64Array(index.count), new Float64Array(index.count)] : [sums[d]!, counts[d]!];
    if (every) sumPairInRuns(values[c]!, values[d]!, runs, sums[c]!, counts[c]!, sumB, cntB);
    else sumPairInRunsAt(values[c]!, values[d]!, index.rows, runs, sums[c]!, counts[c]!, sumB, cntB);
  }
  return { sums, counts };
}

/**
 * Aggregates `values` over the groups of `index`; returns one Float64Array per group (NaN where a
 * group has no value).
 */
export function aggregate(
  values: Float64Array,
  index: GroupIndex,
  stat: GroupStat,
  segments?: { order: Int32Array; start: Int32Array },
  /** A buffer of `index.count` the sums' counts may use (overwritten). */
  scratchCounts?: Float64Array,
): Float64Array {
  const { groupOf, rows, count } = index;
  const n = rows.length;
  const out = new Float64Array(count);
  switch (stat) {
    case 'sum':
    case 'mean':
    case 'count': {
      const cnt = stat !== 'count' && scratchCounts?.length === count ? scratchCounts.fill(0) : new Float64Array(count);
      for (let k = 0; k < n; k++) {
        const v = values[rows[k]!]!;
        if (v === v) {
          const g = groupOf[k]!;
          out[g]! += v;
          cnt[g]!++;
        }
      }
      if (stat === 'count') return cnt;
      if (stat === 'sum') return out;
      for (let g = 0; g < count; g++) out[g] = cnt[g]! > 0 ? out[g]! / cnt[g]! : NaN;
      return out;
    }
    case 'min':
    case 'max': {
      out.fill(NaN);
      const isMin = stat === 'min';
      for (let k = 0; k < n; k++) {
        const v = values[rows[k]!]!;
        if (v !== v) continue;
        const g = groupOf[k]!;
        const cur = out[g]!;
        if (cur !== cur || (isMin ? v < cur : v > cur)) out[g] = v;
      }
      return out;
    }
    case 'std': {
      const cnt = new Float64Array(count);
      const sum = new Float64Array(count);
      for (let k = 0; k < n; k++) {
        const v = values[rows[k]!]!;
        if (v === v) {
          const g = groupOf[k]!;
          sum[g]! += v;
          cnt[g]!++;
        }
      }
      // Two passes (mean first) rather than sum of squares: no cancellation on large values.
      const ss = new Float64Array(count);
      for (let k = 0; k < n; k++) {
        const v = values[rows[k]!]!;
        if (v === v) {
          const g = groupOf[k]!;
          const d = v - sum[g]! / cnt[g]!;
          ss[g]! += d * d;
        }
      }
      for (let g = 0; g < count; g++) out[g] = cnt[g]! > 1 ? Math.sqrt(ss[g]! / (cnt[g]! - 1)) : NaN;
      return out;
    }
    case 'median': {
      const { order, start } = segments ?? groupSegments(index);
      const buffer = new Float64Array(n);
      for (let g = 0; g < count; g++) {
        let m = 0;
        for (let p = start[g]!; p < start[g + 1]!; p++) {
          const v = values[rows[order[p]!]!]!;
          if (v === v) buffer[m++] = v;
        }
        const sorted = buffer.subarray(0, m).sort();
        out[g] = quantileSorted(sorted, 0.5);
      }
      return out;
    }
  }
}

/** A sum, mean or count per group from the sums and counts. */
function fromSums(sums: Float64Array, counts: Float64Array, stat: GroupStat): Float64Array {
  if (stat === 'count') return counts;
  if (stat === 'sum') return Float64Array.from(sums);
  const out = new Float64Array(sums.length);
  for (let g = 0; g < sums.length; g++) out[g] = counts[g]! > 0 ? sums[g]! / counts[g]! : NaN;
  return out;
}

/**
 * Groups rows by key columns and aggregates numeric columns. With the single stat `mean` (the
 * default) aggregate columns keep their names, as with pandas' `groupby(...).mean()`; with several
 * stats they are named `<column>_<stat>`. Rows whose key is missing form their own group. A lazy
 * table (from `where`, `sortBy`) is grouped through its selection: no column is gathered.
 *
 * @example
 * // Mean of every pillar per market and year.
 * const means = groupBy(toTable(rows), ['country_id', 'year_id'], {
 *   columns: ['differentiation_rank', 'relevance_rank', 'esteem_rank', 'knowledge_rank'],
 * });
 * means.rows(); // [{ country_id: 1, year_id: 28, differentiation_rank: 51.2, ... }, ...]
 */
export function groupBy(table: FrameTable<object, FrameMeta>, by: string | readonly string[], options: GroupByOptions = {}): FrameTable<FrameRow, GroupByMeta> {
  const keys = typeof by === 'string' ? [by] : [...by];
  if (keys.length === 0) throw new DataError('groupBy needs at least one key column.', ['by'], table.columnNames);
  const scan = scanOf(table);
  const keyColumns = resolveKeys(scan, keys);
  const stats = options.stats ?? ['mean'];
  const unknownStats = stats.filter((s) => !STATS.includes(s));
  if (unknownStats.length > 0) throw new DataError('Unknown statistics.', unknownStats, STATS);
  const numeric = table.numericColumnNames();
  const columns = options.columns ?? numeric.filter((c) => !keys.includes(c));
  const missing = columns.filter((c) => !numeric.includes(c));
  if (missing.length > 0) throw new DataError('Cannot aggregate columns the table does not have as numbers.', missing, numeric);

  // Source rows: the table's selection, or all of them.
  const rows = scan.rows ?? allRows(table.length);
  const index = groupIndex(keyColumns.map(keyCodes), rows, options.sort === false ? {} : { sortBy: keyColumns.map(compareBy) });
  const out: [string, FrameColumn][] = keys.map((name, i) => [name, takeColumn(keyColumns[i]!, index.firstRow)]);
  if (options.size) {
    const sizes = new Int32Array(index.count);
    for (let k = 0; k < index.groupOf.length; k++) sizes[index.groupOf[k]!]!++;
    out.push(['rows', { kind: 'int', values: sizes }]);
  }
  const segments = stats.includes('median') ? groupSegments(index) : undefined;
  // One count buffer for every column: fewer fresh arrays, fewer garbage collections (see group-index.ts).
  const counts = new Float64Array(index.count);
  const summed = stats.every((st) => st === 'mean' || st === 'sum' || st === 'count') ? sumsInRuns(columns.map((c) => sourceNumbers(scan, c)), index) : undefined;
  for (const [c, column] of columns.entries()) {
    for (const stat of stats) {
      const name = stats.length === 1 && stat === 'mean' ? column : `${column}_${stat}`;
      const result = summed ? fromSums(summed.sums[c]!, summed.counts[c]!, stat) : aggregate(sourceNumbers(scan, column), index, stat, segments, counts);
      if (stat === 'count') {
        const counts = new Int32Array(result.length);
        for (let g = 0; g < result.length; g++) counts[g] = result[g]!;
        out.push([name, { kind: 'int', values: counts }]);
      } else {
        out.push([name, { kind: 'float', values: result }]);
      }
    }
  }
  return new FrameTable<FrameRow, GroupByMeta>(out, index.count, { source: 'groupBy', notes: [], by: keys, stats });
}
