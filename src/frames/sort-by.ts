/**
 * `sortBy`: a stable multi-column sort over the typed arrays, missing values last whatever the
 * direction. It is a least-significant-digit radix sort: the last key first, each key in 16-bit
 * digits from the lowest, every pass stable, so earlier keys win and ties keep the table's order.
 * Numbers (float, date) are sorted by their IEEE bits made order-preserving; integers and
 * booleans by their value; text by its rank in code-point order (the dictionary is sorted once,
 * not the rows). No comparator runs per row and no row objects are built.
 */
import { DataError } from '../errors.js';
import { BOOL_NULL, INT_NULL, type FrameColumn } from './column.js';

/** A sort key: a column name (ascending), or the column with its direction. */
export type SortKey = string | { readonly column: string; readonly descending?: boolean };

/** What `sortBy` reads of a table. */
export interface SortSource {
  readonly length: number;
  readonly columnNames: string[];
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
  const unknown = [...new Set(resolved.map((k) => k.column).filter((name) => table.columnOrUndefined(name) === undefined))];
  if (unknown.length > 0) throw new DataError(`sortBy() names ${unknown.length === 1 ? 'a column' : 'columns'} the table does not have.`, unknown, table.columnNames);
  const n = table.length;
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;
  let spare = new Int32Array(n);
  const counts = new Int32Array(RADIX);
  // Scratch for the digits of the current order (one 32-bit word per row).
  let words = new Uint32Array(n);
  let wordsSpare = new Uint32Array(n);
  for (let k = resolved.length - 1; k >= 0; k--) {
    const { column: name, descending } = resolved[k]!;
    const column = table.columnOrUndefined(name)!;
    const { low, high, missing } = keyWords(column, n, descending);
    // Least significant word first; each word is sorted in two 16-bit passes.
    for (const word of high ? [low, high] : [low]) {
      for (let i = 0; i < n; i++) words[i] = word[order[i]!]!;
      for (let shift = 0; shift < 32; shift += 16) {
        counts.fill(0);
        for (let i = 0; i < n; i++) counts[(words[i]! >>> shift) & 0xffff]!++;
        // One bucket holding every row: this digit does not reorder anything.
        if (counts[(words[0]! >>> shift) & 0xffff] === n) continue;
        let sum = 0;
        for (let d = 0; d < RADIX; d++) {
          const c = counts[d]!;
          counts[d] = sum;
          sum += c;
        }
        for (let i = 0; i < n; i++) {
          const w = words[i]!;
          const at = counts[(w >>> shift) & 0xffff]!++;
          spare[at] = order[i]!;
          wordsSpare[at] = w;
        }
        [order, spare] = [spare, order];
        [words, wordsSpare] = [wordsSpare, words];
      }
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
          miss(i);
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
