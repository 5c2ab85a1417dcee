/**
 * `permuteColumns`: every column of a table rearranged by one permutation of its rows (what
 * `sortBy` produces).
 *
 * Why not a plain gather per column (`out[i] = src[order[i]]`): after a sort by a key with many
 * values, consecutive output rows come from far-apart input rows, so nearly every read of the
 * gather misses the caches and the TLB (a 1M-row float column is 8 MB, 2,048 pages of 4 KB).
 * Profiled on the frames benchmark (1M rows x 40 columns, sorted by one float column): the order
 * was a small part of the sort; the gather ran several times slower a row than the same loop over
 * the identity permutation; page faults on the new columns were few once the process had warmed
 * up (glibc reuses the freed memory), so fresh memory was not the cost. Hence two passes that
 * each touch memory locally, planned once per permutation and run for every column (a
 * radix-partitioned gather):
 *
 * 1. read the column in input order and append each value to the bucket of its output block (a
 *    block is 4,096 output rows, so a few hundred write streams, each sequential);
 * 2. move each bucket's values to their output rows, which all lie within that block (32 KB of
 *    floats: in the L1/L2 cache).
 *
 * On the benchmark's permutation that writes the 40 columns in about half the time. Small tables,
 * and permutations that already read locally (e.g. a table nearly in order, or sorted by a key
 * with few values), keep the direct gather, which is then the cheaper one.
 */
import type { FrameColumn } from './column.js';
import { takeColumnAt } from './column.js';

/** log2 of the output block: 4,096 rows, 32 KB of float64 (measured: 2^10 slower, 2^14 no better). */
const BLOCK_SHIFT = 12;

/**
 * Below this many rows a window can never read enough distinct pages for `isLocal` to say no (a
 * float column of 131,072 rows is 256 pages): skip the scan.
 */
const MIN_ROWS = 1 << 17;

/**
 * The columns with their rows in the order given. `order` must be a permutation of 0..n-1
 * (each row exactly once), as `sortOrderOf` returns; dictionaries are shared, not copied.
 *
 * @example permuteColumns([...table.entries()].map(([, c]) => c), sortOrderOf(table, 'm1_rank'))
 */
export function permuteColumns(columns: readonly FrameColumn[], order: Int32Array): FrameColumn[] {
  if (order.length < MIN_ROWS || isLocal(order)) return columns.map((column) => takeColumnAt(column, order));
  const n = order.length;
  const plan = planOf(order);
  // One scratch buffer for the buckets, viewed as each element type in turn: the columns are
  // permuted one group after the other, so they can share it.
  const scratch = unfilled(n * 16);
  const f64 = new Float64Array(scratch);
  const i32 = new Int32Array(scratch, 0, 2 * n);
  const u8 = new Uint8Array(scratch, 0, n);
  const out = new Array<FrameColumn>(columns.length);
  const wide: [number, Float64Column][] = [];
  const narrow: [number, Int32Column][] = [];
  columns.forEach((column, i) => {
    switch (column.kind) {
      case 'bool':
        out[i] = { kind: 'bool', values: permuteUint8(column.values, plan, u8) };
        break;
      case 'float':
      case 'date':
        wide.push([i, column]);
        break;
      case 'int':
      case 'string':
        narrow.push([i, column]);
    }
  });
  // Columns of one element type move two at a time: each pass then reads the plan once for both
  // (measured about 12% faster than one at a time on 1M-row float columns; four at a time gained
  // nothing more).
  for (let j = 0; j < wide.length; j += 2) {
    const [i, a] = wide[j]!;
    const next = wide[j + 1];
    if (next) {
      const [x, y] = permuteFloat64Pair(a.values, next[1].values, plan, f64);
      out[i] = { kind: a.kind, values: x };
      out[next[0]] = { kind: next[1].kind, values: y };
    } else out[i] = { kind: a.kind, values: permuteFloat64(a.values, plan, f64) };
  }
  for (let j = 0; j < narrow.length; j += 2) {
    const [i, a] = narrow[j]!;
    const next = narrow[j + 1];
    if (next) {
      const [x, y] = permuteInt32Pair(int32Of(a), int32Of(next[1]), plan, i32);
      out[i] = withInt32(a, x);
      out[next[0]] = withInt32(next[1], y);
    } else out[i] = withInt32(a, permuteInt32(int32Of(a), plan, i32));
  }
  return out;
}

type Float64Column = Extract<FrameColumn, { kind: 'float' | 'date' }>;
type Int32Column = Extract<FrameColumn, { kind: 'int' | 'string' }>;

/** An `int` column's values or a `string` column's codes. */
function int32Of(column: Int32Column): Int32Array {
  return column.kind === 'string' ? column.codes : column.values;
}

/** The column of the same kind (and dictionary) holding `values`. */
function withInt32(column: Int32Column, values: Int32Array): FrameColumn {
  return column.kind === 'string' ? { kind: 'string', codes: values, dictionary: column.dictionary } : { kind: 'int', values };
}

/**
 * Where each input row goes in the scratch buffer (`slot`, input order) and which output row each
 * scratch position belongs to (`target`, scratch order). Bucket b occupies exactly the scratch
 * positions of output block b, as every block receives exactly its own number of rows.
 */
interface Plan {
  readonly slot: Int32Array;
  readonly target: Int32Array;
}

function planOf(order: Int32Array): Plan {
  const n = order.length;
  // First the inverse permutation (output row of each input row); it is then overwritten in
  // place by the slots, since each entry is read once, just before its slot is written.
  const slot = new Int32Array(unfilled(n * 4));
  for (let i = 0; i < n; i++) slot[order[i]!] = i;
  const cursor = new Int32Array(((n - 1) >> BLOCK_SHIFT) + 1);
  for (let b = 0; b < cursor.length; b++) cursor[b] = b << BLOCK_SHIFT;
  const target = new Int32Array(unfilled(n * 4));
  for (let s = 0; s < n; s++) {
    const out = slot[s]!;
    const at = cursor[out >> BLOCK_SHIFT]!++;
    slot[s] = at;
    target[at] = out;
  }
  return { slot, target };
}

/**
 * Whether the direct gather already reads locally: counted over windows of 4,096 output rows, how
 * many distinct 4 KB pages of a float column each window reads. A table nearly in order, or sorted
 * by a key that follows its order (e.g. market, then a metric within each market), reads a few
 * dozen pages per window and gathers fast; the benchmark's one-float sort reads a new page for
 * almost every row (its rows step through the table 8 KB apart).
 */
export function isLocal(order: Int32Array): boolean {
  const n = order.length;
  const PAGE_SHIFT = 9; // 512 float64 rows
  const seenIn = new Int32Array((n >> PAGE_SHIFT) + 1).fill(-1);
  let pages = 0;
  for (let i = 0; i < n; i++) {
    const page = order[i]! >> PAGE_SHIFT;
    const window = i >> BLOCK_SHIFT;
    if (seenIn[page] !== window) {
      seenIn[page] = window;
      pages++;
    }
  }
  return pages < n >> 4;
}

/**
 * Memory that is written in full before it is read (output columns: `order` is a permutation,
 * so the second pass writes every row; the scratch buffer and the plan likewise), not zeroed:
 * zeroing would be a wasted pass over 8 MB per 1M-row float column.
 * `allocUnsafeSlow` gives a buffer of its own (never a slice of Node's pool), at offset 0, so any
 * typed array can view it.
 */
function unfilled(bytes: number): ArrayBuffer {
  const buffer = Buffer.allocUnsafeSlow(bytes);
  // A fresh, unpooled Buffer spans its whole ArrayBuffer (checked, not assumed).
  if (buffer.byteOffset !== 0 || buffer.buffer.byteLength !== bytes || !(buffer.buffer instanceof ArrayBuffer)) return new ArrayBuffer(bytes);
  return buffer.buffer;
}

// One pair of loops per element type, each seeing a single array type, so V8 keeps them
// monomorphic (a shared generic loop measured several times slower on 1M rows).

function permuteFloat64(src: Float64Array, plan: Plan, scratch: Float64Array): Float64Array {
  const { slot, target } = plan;
  const n = src.length;
  for (let s = 0; s < n; s++) scratch[slot[s]!] = src[s]!;
  const out = new Float64Array(unfilled(n * 8));
  for (let k = 0; k < n; k++) out[target[k]!] = scratch[k]!;
  return out;
}

function permuteInt32(src: Int32Array, plan: Plan, scratch: Int32Array): Int32Array {
  const { slot, target } = plan;
  const n = src.length;
  for (let s = 0; s < n; s++) scratch[slot[s]!] = src[s]!;
  const out = new Int32Array(unfilled(n * 4));
  for (let k = 0; k < n; k++) out[target[k]!] = scratch[k]!;
  return out;
}

function permuteUint8(src: Uint8Array, plan: Plan, scratch: Uint8Array): Uint8Array {
  const { slot, target } = plan;
  const n = src.length;
  for (let s = 0; s < n; s++) scratch[slot[s]!] = src[s]!;
  const out = new Uint8Array(unfilled(n));
  for (let k = 0; k < n; k++) out[target[k]!] = scratch[k]!;
  return out;
}

function permuteFloat64Pair(a: Float64Array, b: Float64Array, plan: Plan, scratch: Float64Array): [Float64Array, Float64Array] {
  const { slot, target } = plan;
  const n = a.length;
  for (let s = 0; s < n; s++) {
    const at = slot[s]! << 1;
    scratch[at] = a[s]!;
    scratch[at + 1] = b[s]!;
  }
  const outA = new Float64Array(unfilled(n * 8));
  const outB = new Float64Array(unfilled(n * 8));
  for (let k = 0; k < n; k++) {
    const t = target[k]!;
    outA[t] = scratch[2 * k]!;
    outB[t] = scratch[2 * k + 1]!;
  }
  return [outA, outB];
}

function permuteInt32Pair(a: Int32Array, b: Int32Array, plan: Plan, scratch: Int32Array): [Int32Array, Int32Array] {
  const { slot, target } = plan;
  const n = a.length;
  for (let s = 0; s < n; s++) {
    const at = slot[s]! << 1;
    scratch[at] = a[s]!;
    scratch[at + 1] = b[s]!;
  }
  const outA = new Int32Array(unfilled(n * 4));
  const outB = new Int32Array(unfilled(n * 4));
  for (let k = 0; k < n; k++) {
    const t = target[k]!;
    outA[t] = scratch[2 * k]!;
    outB[t] = scratch[2 * k + 1]!;
  }
  return [outA, outB];
}
