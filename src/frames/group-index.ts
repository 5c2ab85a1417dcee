/**
 * Group indexes over typed columns: the primitive under `groupBy`, `pivot` and every comparison.
 *
 * Each key's values are mapped to dense codes through a small lookup table (ids and dictionary
 * codes span small ranges), the codes of all keys are combined into one number per row, and that
 * number indexes a table of group ids: no Map on the hot path, and no row-sized temporary arrays.
 * The second point matters as much as the first: with 1,000,000 loaded records on the JS heap,
 * every few tens of MB of new typed arrays trigger a full garbage collection that has to mark all
 * of those records (hundreds of ms), which measured as a 4x slowdown of repeated group-bys.
 *
 * Sorting groups by their keys costs almost nothing: each key's few distinct values are sorted
 * once and its codes are those ranks, so the combined numbers already sort like the keys.
 */
import { INT_NULL, type FrameColumn } from './frame-table.js';

/** Rows grouped: `groupOf[k]` is the group of the k-th selected row; `firstRow[g]` a row of group g. */
export interface GroupIndex {
  /** Group number (0..count-1) of each selected row, in selection order. */
  readonly groupOf: Int32Array;
  readonly count: number;
  /** Table row (not selection position) of each group's first row. */
  readonly firstRow: Int32Array;
  /** Table rows that were grouped. */
  readonly rows: Int32Array;
}

export interface GroupIndexOptions {
  /** One comparator of table rows per key: groups are then numbered in ascending key order. */
  sortBy?: readonly ((a: number, b: number) => number)[];
}

/** Lookup tables above this many entries are not used (16 MB of Int32). */
const MAX_LOOKUP = 1 << 22;

let allRowsCache = new Int32Array(0);

/**
 * All rows 0..n-1. The array is shared between calls and never written after it is made (callers
 * must not write to it either), so an array handed out earlier stays valid. A fresh 4 MB array per
 * group-by measured as a ~30% slower group-by of 1,000,000 rows while the loaded records are still
 * referenced (each allocation brings on a full collection that marks every record).
 */
export function allRows(n: number): Int32Array {
  if (allRowsCache.length !== n) {
    allRowsCache = new Int32Array(n);
    for (let i = 0; i < n; i++) allRowsCache[i] = i;
  }
  return allRowsCache;
}

/** Whether `rows` is the array `allRows` handed out: every row of the table, in order. */
export const isAllRows = (rows: Int32Array): boolean => rows === allRowsCache && rows.length > 0;

/** Integer codes of a column for grouping: equal values get equal codes, missing values one code. */
export function keyCodes(column: FrameColumn): Int32Array {
  switch (column.kind) {
    case 'int':
      return column.values;
    case 'string':
      return column.codes;
    case 'bool':
      return Int32Array.from(column.values);
    case 'float':
    case 'date': {
      const values = column.values;
      const codes = new Int32Array(values.length);
      const map = new Map<number, number>();
      for (let i = 0; i < values.length; i++) {
        const v = values[i]!;
        // NaN is not equal to itself, so missing values share the code -1.
        if (v !== v) {
          codes[i] = -1;
          continue;
        }
        let code = map.get(v);
        if (code === undefined) {
          code = map.size;
          map.set(v, code);
        }
        codes[i] = code;
      }
      return codes;
    }
  }
}

/** One key's values -> dense codes 0..card-1 (in key order when sorted). */
export interface Dense {
  /** `lookup[value - min]` is the dense code. */
  readonly lookup: Int32Array;
  readonly min: number;
  readonly card: number;
  /** The codes to read (the key's own, or remapped when its range was too wide for a lookup). */
  readonly codes: Int32Array;
  /** A table row of each dense code (its first). */
  readonly first: Int32Array;
}

export function denseOf(codes: Int32Array, rows: Int32Array, compare: ((a: number, b: number) => number) | undefined): Dense {
  const n = rows.length;
  let min = 0x7fffffff;
  let max = -0x80000000;
  for (let k = 0; k < n; k++) {
    const v = codes[rows[k]!]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (n === 0) return { lookup: new Int32Array(1), min: 0, card: 0, codes, first: new Int32Array(0) };
  if (max - min >= MAX_LOOKUP) {
    // A wide range (e.g. grouping by row id): remap through a Map once, then use the small path.
    const map = new Map<number, number>();
    const remapped = new Int32Array(codes.length);
    for (let k = 0; k < n; k++) {
      const row = rows[k]!;
      const v = codes[row]!;
      let c = map.get(v);
      if (c === undefined) {
        c = map.size;
        map.set(v, c);
      }
      remapped[row] = c;
    }
    return denseOf(remapped, rows, compare);
  }
  const lookup = new Int32Array(max - min + 1).fill(-1);
  const rep: number[] = [];
  for (let k = 0; k < n; k++) {
    const row = rows[k]!;
    const slot = codes[row]! - min;
    if (lookup[slot]! < 0) {
      lookup[slot] = rep.length;
      rep.push(row);
    }
  }
  if (!compare) return { lookup, min, card: rep.length, codes, first: Int32Array.from(rep) };
  const order = rep.map((_, i) => i).sort((a, b) => compare(rep[a]!, rep[b]!) || a - b);
  const rank = new Int32Array(rep.length);
  order.forEach((dense, r) => (rank[dense] = r));
  for (let s = 0; s < lookup.length; s++) if (lookup[s]! >= 0) lookup[s] = rank[lookup[s]!]!;
  return { lookup, min, card: rep.length, codes, first: Int32Array.from(order, (dense) => rep[dense]!) };
}

/**
 * Groups the selected rows by the given key codes (one array per key, indexed by table row).
 * Groups are numbered in order of first appearance, or in key order with `sortBy`.
 */
export function groupIndex(keys: readonly Int32Array[], rows: Int32Array, options: GroupIndexOptions = {}): GroupIndex {
  const n = rows.length;
  const groupOf = new Int32Array(n);
  if (keys.length === 0 || n === 0) {
    groupOf.fill(0);
    return { groupOf, count: n > 0 ? 1 : 0, firstRow: n > 0 ? Int32Array.of(rows[0]!) : new Int32Array(0), rows };
  }
  const dense = keys.map((codes, i) => denseOf(codes, rows, options.sortBy?.[i]));
  // Combined code = sum of dense code x stride: unique per key tuple, ordered like the tuples.
  const strides: number[] = new Array<number>(dense.length);
  let product = 1;
  for (let i = dense.length - 1; i >= 0; i--) {
    strides[i] = product;
    product *= dense[i]!.card;
  }
  if (product > Number.MAX_SAFE_INTEGER) return groupIndexPairwise(keys, rows, options, groupOf);
  const sorted = options.sortBy !== undefined;
  let count = 0;
  let firstRow: Int32Array;
  if (product <= Math.max(4 * n, 1 << 16) && product <= MAX_LOOKUP) {
    // groupOf first holds each row's combined code, then (in place) its group number.
    fillCombined(dense, strides, rows, groupOf);
    const ids = new Int32Array(product).fill(-1);
    if (sorted) {
      // Mark the tuples that occur, then number them in tuple order.
      for (let k = 0; k < n; k++) ids[groupOf[k]!] = 0;
      for (let c = 0; c < product; c++) if (ids[c] === 0) ids[c] = count++;
      firstRow = new Int32Array(count).fill(-1);
      for (let k = 0; k < n; k++) {
        const g = ids[groupOf[k]!]!;
        groupOf[k] = g;
        if (firstRow[g]! < 0) firstRow[g] = rows[k]!;
      }
    } else {
      const first: number[] = [];
      for (let k = 0; k < n; k++) {
        const c = groupOf[k]!;
        let g = ids[c]!;
        if (g < 0) {
          ids[c] = g = count++;
          first.push(rows[k]!);
        }
        groupOf[k] = g;
      }
      firstRow = Int32Array.from(first);
    }
    return { groupOf, count, firstRow, rows };
  }
  // Sparse tuples: a Map of combined codes (still one lookup per row, no row-sized temporaries).
  const combined = (row: number) => {
    let c = 0;
    for (let i = 0; i < dense.length; i++) {
      const d = dense[i]!;
      c += d.lookup[d.codes[row]! - d.min]! * strides[i]!;
    }
    return c;
  };
  const ids = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const c = combined(rows[k]!);
    let id = ids.get(c);
    if (id === undefined) ids.set(c, (id = ids.size));
    groupOf[k] = id;
  }
  count = ids.size;
  if (sorted) {
    const codes = Float64Array.from(ids.keys()).sort();
    const rank = new Int32Array(count);
    codes.forEach((c, r) => (rank[ids.get(c)!] = r));
    for (let k = 0; k < n; k++) groupOf[k] = rank[groupOf[k]!]!;
  }
  firstRow = new Int32Array(count).fill(-1);
  for (let k = 0; k < n; k++) {
    const g = groupOf[k]!;
    if (firstRow[g]! < 0) firstRow[g] = rows[k]!;
  }
  return { groupOf, count, firstRow, rows };
}

/**
 * Writes each row's combined code into `out`. Loops are written out for one and two keys (the
 * common cases): a tight loop per case stays monomorphic, which a per-row callback would not.
 */
function fillCombined(dense: readonly Dense[], strides: readonly number[], rows: Int32Array, out: Int32Array): void {
  const n = rows.length;
  if (dense.length === 1) {
    const { lookup, min, codes } = dense[0]!;
    for (let k = 0; k < n; k++) out[k] = lookup[codes[rows[k]!]! - min]!;
    return;
  }
  if (dense.length === 2) {
    const a = dense[0]!;
    const b = dense[1]!;
    const la = a.lookup;
    const lb = b.lookup;
    const ca = a.codes;
    const cb = b.codes;
    const ma = a.min;
    const mb = b.min;
    const stride = strides[0]!;
    for (let k = 0; k < n; k++) {
      const row = rows[k]!;
      out[k] = la[ca[row]! - ma]! * stride + lb[cb[row]! - mb]!;
    }
    return;
  }
  out.fill(0);
  dense.forEach((d, i) => {
    const { lookup, min, codes } = d;
    const stride = strides[i]!;
    for (let k = 0; k < n; k++) out[k]! += lookup[codes[rows[k]!]! - min]! * stride;
  });
}

/** Fallback for key tuples too many to number directly: combine the keys two at a time. */
function groupIndexPairwise(keys: readonly Int32Array[], rows: Int32Array, options: GroupIndexOptions, groupOf: Int32Array): GroupIndex {
  const n = rows.length;
  let group = new Int32Array(n);
  let count = 1;
  for (const codes of keys) {
    const map = new Map<number, number>();
    const combined = new Int32Array(n);
    const local = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const v = codes[rows[k]!]!;
      let code = local.get(v);
      if (code === undefined) local.set(v, (code = local.size));
      const key = group[k]! * (1 << 26) + code;
      let c = map.get(key);
      if (c === undefined) map.set(key, (c = map.size));
      combined[k] = c;
    }
    group = combined;
    count = map.size;
  }
  groupOf.set(group);
  const firstRow = new Int32Array(count).fill(-1);
  for (let k = 0; k < n; k++) {
    const g = groupOf[k]!;
    if (firstRow[g]! < 0) firstRow[g] = rows[k]!;
  }
  const index = { groupOf, count, firstRow, rows };
  return options.sortBy ? sortGroups(index, options.sortBy) : index;
}

/**
 * The selected rows ordered by group (a counting sort): group g's rows are
 * `order[start[g]] .. order[start[g + 1] - 1]`, as positions into the selection.
 */
export function groupSegments(index: GroupIndex): { order: Int32Array; start: Int32Array } {
  const { groupOf, count } = index;
  const start = new Int32Array(count + 1);
  for (let k = 0; k < groupOf.length; k++) start[groupOf[k]! + 1]!++;
  for (let g = 0; g < count; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, count);
  const order = new Int32Array(groupOf.length);
  for (let k = 0; k < groupOf.length; k++) order[fill[groupOf[k]!]!++] = k;
  return { order, start };
}

/** Compares two table rows by a key column (missing values last, numbers and text ascending). */
export function compareBy(column: FrameColumn): (a: number, b: number) => number {
  switch (column.kind) {
    case 'string': {
      const { codes, dictionary } = column;
      return (a, b) => {
        const ca = codes[a]!;
        const cb = codes[b]!;
        if (ca === cb) return 0;
        if (ca < 0) return 1;
        if (cb < 0) return -1;
        const sa = dictionary[ca]!;
        const sb = dictionary[cb]!;
        return sa < sb ? -1 : sa > sb ? 1 : 0;
      };
    }
    case 'int': {
      const values = column.values;
      return (a, b) => {
        const va = values[a]!;
        const vb = values[b]!;
        if (va === vb) return 0;
        if (va === INT_NULL) return 1;
        if (vb === INT_NULL) return -1;
        return va - vb;
      };
    }
    case 'bool': {
      const values = column.values;
      // 0 (false) < 1 (true) < 2 (missing).
      return (a, b) => values[a]! - values[b]!;
    }
    case 'float':
    case 'date': {
      const values = column.values;
      return (a, b) => {
        const va = values[a]!;
        const vb = values[b]!;
        if (va === vb) return 0;
        if (va !== va) return vb !== vb ? 0 : 1;
        if (vb !== vb) return -1;
        return va - vb;
      };
    }
  }
}

/** Renumbers groups in key order (used by the pairwise fallback). */
function sortGroups(index: GroupIndex, compares: readonly ((a: number, b: number) => number)[]): GroupIndex {
  const groups = Array.from({ length: index.count }, (_, g) => g);
  const first = index.firstRow;
  groups.sort((ga, gb) => {
    for (const compare of compares) {
      const c = compare(first[ga]!, first[gb]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  const rank = new Int32Array(index.count);
  groups.forEach((g, r) => (rank[g] = r));
  const groupOf = index.groupOf;
  for (let k = 0; k < groupOf.length; k++) groupOf[k] = rank[groupOf[k]!]!;
  const firstRow = new Int32Array(index.count);
  for (let g = 0; g < index.count; g++) firstRow[rank[g]!] = first[g]!;
  return { groupOf, count: index.count, firstRow, rows: index.rows };
}
