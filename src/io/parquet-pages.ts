/**
 * The body of a Parquet data page (format v1) for a range of rows of one table column, encoded
 * straight from the typed arrays into one reusable buffer:
 *
 * - the definition levels (which rows hold a value): 4-byte length, then one RLE run when every
 *   row is present (or every row missing), otherwise one bit-packed run of a bit per row, built
 *   eight rows to a byte;
 * - the present values: PLAIN (little-endian numbers, one bit per boolean, INT64 milliseconds for
 *   dates), or for text the dictionary indices as one bit-packed run of `bitWidth` bits each.
 *
 * Why not the library's generic encoders: they take a value at a time through a growing
 * `ByteWriter` (a DataView call and a bounds check per byte) and look for RLE runs first; on the
 * frames benchmark's 1M x 40 table they spent nearly half of an uncompressed write on the levels
 * alone. A float column without missing values is now a single memory copy.
 */
import { BOOL_NULL, INT_NULL, type FrameColumn } from '../frames/column.js';

/** The platform stores typed arrays little-endian (as Parquet does): whole ranges can be copied as bytes. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Bytes a page body of `n` rows can take at most (levels, values, run headers). */
function maxPageBytes(column: FrameColumn, n: number): number {
  // Past the values: the levels' bits, the 4-byte length, run headers (5-byte varints), the index width byte, bit-packing's padding.
  return 64 + ((n + 7) >> 3) + n * widthOf(column);
}

/** Bytes per row of a column's values (a text column's codes). */
export const widthOf = (column: FrameColumn): number => (column.kind === 'float' || column.kind === 'date' ? 8 : column.kind === 'bool' ? 1 : 4);

/** Bytes per row of a table's values: its columns' widths added up. */
export const rowWidthOf = (columns: Iterable<FrameColumn>): number => {
  let sum = 0;
  for (const column of columns) sum += widthOf(column);
  return sum;
};

/** Reusable memory for encoding pages of up to `rows` rows (one per writer: bodies are views into it). */
export class PageScratch {
  bytes: Uint8Array;
  view: DataView;
  private floats = new Float64Array(0);
  private ints = new Int32Array(0);
  private words = new Uint32Array(0);

  constructor(size = 1 << 16) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Makes room for `size` bytes (grows once, never shrinks). */
  reserve(size: number): void {
    if (this.bytes.length >= size) return;
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  floatsFor(n: number): Float64Array {
    if (this.floats.length < n) this.floats = new Float64Array(n);
    return this.floats;
  }

  wordsFor(n: number): Uint32Array {
    if (this.words.length < n) this.words = new Uint32Array(n);
    return this.words;
  }

  intsFor(n: number): Int32Array {
    if (this.ints.length < n) this.ints = new Int32Array(n);
    return this.ints;
  }
}

/** Writes `value` as an unsigned LEB128 varint at `at`; returns the position after it. */
function varint(bytes: Uint8Array, at: number, value: number): number {
  while (value > 0x7f) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

/** How a page's values are dictionary-encoded: the index width, and for numbers the indices of the present rows. */
export interface PageDictionary {
  bitWidth: number;
  /** The present rows' indices (a number column's, from `numberDictionary`); a text column's are its codes. */
  indices?: Int32Array;
}

/**
 * Rows `start..end` of a column as a data page body, in `scratch` (valid until its next use):
 * PLAIN values, or dictionary indices when `dictionary` is given (always for text).
 *
 * @example
 * const body = encodePage(table.column('brand_id'), 0, 131072, scratch); // Uint8Array view
 */
export function encodePage(column: FrameColumn, start: number, end: number, scratch: PageScratch, dictionary?: PageDictionary): { body: Uint8Array; nulls: number } {
  const n = end - start;
  scratch.reserve(maxPageBytes(column, n));
  const bytes = scratch.bytes;
  // Levels: a bit per row (1 = present), written after the 4-byte length and the run header.
  const groups = (n + 7) >> 3;
  const header = varint(bytes, 4, (groups << 1) | 1) - 4;
  const bitsAt = 4 + header;
  const nulls = presenceBits(column, start, end, bytes, bitsAt);
  let at: number;
  if (nulls === 0 || nulls === n) {
    // One RLE run of n rows, all present (1) or all missing (0): overwrite the bits.
    at = varint(bytes, 4, n << 1);
    bytes[at++] = nulls === 0 ? 1 : 0;
  } else at = bitsAt + groups;
  scratch.view.setUint32(0, at - 4, true);
  at = dictionary ? writeIndices(column, start, end, n - nulls, dictionary, scratch, at) : writeValues(column, start, end, n - nulls, scratch, at);
  return { body: bytes.subarray(0, at), nulls };
}

/** Sets bit i of `bytes` from `at` when row start+i holds a value; returns the number of missing rows. */
function presenceBits(column: FrameColumn, start: number, end: number, bytes: Uint8Array, at: number): number {
  switch (column.kind) {
    case 'float':
    case 'date':
      return floatPresence(column.values, start, end, bytes, at);
    case 'int':
      return markerPresence(column.values, INT_NULL, start, end, bytes, at);
    case 'bool':
      return markerPresence(column.values, BOOL_NULL, start, end, bytes, at);
    case 'string':
      return markerPresence(column.codes, -1, start, end, bytes, at);
  }
}

function floatPresence(v: Float64Array, start: number, end: number, bytes: Uint8Array, at: number): number {
  let present = 0;
  let i = start;
  for (; i + 8 <= end; i += 8, at++) {
    let b = 0;
    for (let k = 0; k < 8; k++) {
      const x = v[i + k]!;
      b |= (x === x ? 1 : 0) << k;
    }
    bytes[at] = b;
    present += POPCOUNT[b]!;
  }
  if (i < end) {
    let b = 0;
    for (let k = 0; i + k < end; k++) {
      const x = v[i + k]!;
      b |= (x === x ? 1 : 0) << k;
    }
    bytes[at] = b;
    present += POPCOUNT[b]!;
  }
  return end - start - present;
}

/** Presence of an int, bool or code column, whose missing rows hold `missing`. */
function markerPresence(v: Int32Array | Uint8Array, missing: number, start: number, end: number, bytes: Uint8Array, at: number): number {
  let present = 0;
  let i = start;
  for (; i < end; i += 8, at++) {
    let b = 0;
    const stop = Math.min(8, end - i);
    for (let k = 0; k < stop; k++) b |= (v[i + k] !== missing ? 1 : 0) << k;
    bytes[at] = b;
    present += POPCOUNT[b]!;
  }
  return end - start - present;
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => {
  let c = 0;
  for (let x = b; x; x >>= 1) c += x & 1;
  return c;
});

/** The present values of rows `start..end` at `at`; returns the position after them. */
function writeValues(column: FrameColumn, start: number, end: number, present: number, scratch: PageScratch, at: number): number {
  const bytes = scratch.bytes;
  const n = end - start;
  switch (column.kind) {
    case 'float': {
      const v = column.values;
      if (present === n && LITTLE_ENDIAN) {
        bytes.set(new Uint8Array(v.buffer, v.byteOffset + start * 8, n * 8), at);
        return at + n * 8;
      }
      const kept = scratch.floatsFor(present);
      let j = 0;
      for (let i = start; i < end; i++) {
        const x = v[i]!;
        if (x === x) kept[j++] = x;
      }
      if (LITTLE_ENDIAN) bytes.set(new Uint8Array(kept.buffer, 0, present * 8), at);
      else for (let i = 0; i < present; i++) scratch.view.setFloat64(at + i * 8, kept[i]!, true);
      return at + present * 8;
    }
    case 'date': {
      // INT64 milliseconds (dates are rare and short: a DataView write each is fine).
      const v = column.values;
      for (let i = start; i < end; i++) {
        const x = v[i]!;
        if (x !== x) continue;
        scratch.view.setBigInt64(at, BigInt(Math.round(x)), true);
        at += 8;
      }
      return at;
    }
    case 'int': {
      const v = column.values;
      if (present === n && LITTLE_ENDIAN) {
        bytes.set(new Uint8Array(v.buffer, v.byteOffset + start * 4, n * 4), at);
        return at + n * 4;
      }
      for (let i = start; i < end; i++) {
        const x = v[i]!;
        if (x === INT_NULL) continue;
        scratch.view.setInt32(at, x, true);
        at += 4;
      }
      return at;
    }
    case 'bool': {
      // PLAIN booleans: one bit each, least significant first.
      const v = column.values;
      const length = (present + 7) >> 3;
      bytes.fill(0, at, at + length);
      let j = 0;
      for (let i = start; i < end; i++) {
        const x = v[i]!;
        if (x === BOOL_NULL) continue;
        if (x === 1) bytes[at + (j >> 3)]! |= 1 << (j & 7);
        j++;
      }
      return at + length;
    }
    case 'string':
      throw new Error('text pages are dictionary-encoded: pass their dictionary');
  }
}

/** RLE_DICTIONARY values: the index width, then one bit-packed run of the present rows' indices. */
function writeIndices(column: FrameColumn, start: number, end: number, present: number, dictionary: PageDictionary, scratch: PageScratch, at: number): number {
  let indices = dictionary.indices;
  if (!indices) {
    if (column.kind !== 'string') throw new Error(`a ${column.kind} page's dictionary needs its indices`);
    const c = column.codes;
    indices = scratch.intsFor(present);
    let j = 0;
    for (let i = start; i < end; i++) {
      const x = c[i]!;
      if (x >= 0) indices[j++] = x;
    }
  }
  const bytes = scratch.bytes;
  bytes[at++] = dictionary.bitWidth;
  if (present === 0) return at;
  return bitPack(indices, present, dictionary.bitWidth, scratch, varint(bytes, at, (((present + 7) >> 3) << 1) | 1));
}

/**
 * Packs `count` values of `width` bits (1..32), least significant bit first, padded to a multiple
 * of 8 values, at `at`. Values are gathered into whole 32-bit words (in an aligned scratch array:
 * one store per word, no branch per byte) and the words copied as bytes: several times faster than
 * writing a byte at a time.
 */
function bitPack(values: Int32Array, count: number, width: number, scratch: PageScratch, at: number): number {
  const length = ((count + 7) >> 3) * width;
  const words = scratch.wordsFor((length + 3) >> 2);
  let w = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    acc |= v << bits;
    bits += width;
    if (bits >= 32) {
      words[w++] = acc;
      bits -= 32;
      // The bits of v that did not fit start the next word.
      acc = bits === 0 ? 0 : v >>> (width - bits);
    }
  }
  if (bits > 0) words[w++] = acc;
  words.fill(0, w, (length + 3) >> 2);
  scratch.bytes.set(new Uint8Array(words.buffer, 0, length), at);
  return at + length;
}

/** A numeric column chunk's dictionary: its distinct values in first-seen order, and the present rows' indices into it. */
export interface NumberDictionary {
  /** The dictionary page body: the distinct values, PLAIN. */
  body: Uint8Array;
  size: number;
  bitWidth: number;
  /** The present rows' indices, in row order, for `encodePage`. */
  indices: Int32Array;
}

/** Index width of a dictionary of `size` entries (at least 1 bit). */
export function bitWidthOf(size: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, size))));
}

/**
 * Rows `start..end` of an `int` or `float` column dictionary-encoded, when that pays: when they
 * hold at most `min(65,536, rows / 2)` distinct values (a brandscape rank has at most 1,001: 0.0 to
 * 100.0) and do not look like a key column (`uniqueSoFar`); otherwise undefined and the chunk stays
 * PLAIN. pyarrow also dictionary-encodes numbers by default (it falls back to PLAIN past a 1 MB
 * dictionary page); it makes the pages a fraction of their plain size, so there is that much less
 * to compress.
 *
 * Values are told apart by their bits (a float's two 32-bit halves) in an open-addressing table,
 * so 0 and -0 stay distinct and nothing is boxed; the scan stops at the first value over the limit.
 */
export function numberDictionary(column: FrameColumn, start: number, end: number): NumberDictionary | undefined {
  if ((column.kind !== 'float' && column.kind !== 'int') || !LITTLE_ENDIAN) return undefined;
  const n = end - start;
  const limit = Math.min(65_536, n >> 1);
  if (limit < 2) return undefined;
  const indices = new Int32Array(n);
  const found = columnKeys(column, start, end, limit, indices);
  if (!found) return undefined;
  const { keys, size } = found;
  // A float's two words in order are its 8 little-endian bytes; an int is the first word of each pair.
  const body = column.kind === 'float' ? new Uint8Array(keys.buffer, 0, size * 8) : new Uint8Array(Int32Array.from({ length: size }, (_, k) => keys[2 * k]!).buffer);
  return { body, size, bitWidth: bitWidthOf(size), indices: indices.subarray(0, found.present) };
}

/**
 * The distinct keys of a column chunk, with the present rows' indices into them: an open-addressing
 * table (linear probing, doubled when a quarter full, so a column of a thousand values keeps a
 * table of a few thousand slots, in the cache, however many rows it has) over 32-bit words. A float
 * is its two halves, an int itself and 0; a slot holds its key's index + 1 (0 = empty).
 *
 * The scans below run with the table's arrays in constants and stop when it must grow (the caller
 * grows it and goes on): arrays that could change inside the loop measured 1.5-2x slower.
 */
class KeyTable {
  lo: Int32Array;
  hi: Int32Array;
  slot: Int32Array;
  /** The keys in index order, two words each (low, high): a float's 8 little-endian bytes. */
  keys: Int32Array;
  size = 0;
  /** Rows with a value so far (their indices are the first `present` of the output). */
  present = 0;

  constructor(slots: number) {
    this.lo = new Int32Array(slots);
    this.hi = new Int32Array(slots);
    this.slot = new Int32Array(slots);
    this.keys = new Int32Array(slots / 2);
  }

  /** Bits to shift a 32-bit product right by to index the slots (Fibonacci hashing). */
  get shift(): number {
    return 32 - Math.log2(this.slot.length);
  }

  /** The same keys in a table twice the size. */
  grown(): KeyTable {
    const next = new KeyTable(this.slot.length * 2);
    next.keys.set(this.keys);
    next.size = this.size;
    next.present = this.present;
    const mask = next.slot.length - 1;
    const shift = next.shift;
    for (let k = 0; k < this.size; k++) {
      const lo = this.keys[2 * k]!;
      const hi = this.keys[2 * k + 1]!;
      let h = Math.imul((lo + hi) | 0, 0x9e3779b1) >>> shift;
      while (next.slot[h] !== 0) h = (h + 1) & mask;
      next.lo[h] = lo;
      next.hi[h] = hi;
      next.slot[h] = k + 1;
    }
    return next;
  }
}

/** What a scan stopped for: the table must grow before row `at`, or there are more keys than allowed. */
const OVER_LIMIT = -1;

/**
 * Nearly every row so far held a new value (checked when the table must grow, from 16,384 rows):
 * most likely a key column such as `id`, which a dictionary cannot make smaller, so the scan stops
 * there instead of at `limit`. A column whose first 16,384 values
 * all differ but which repeats later is written PLAIN too: larger, never wrong.
 */
const uniqueSoFar = (t: KeyTable): boolean => t.present >= 16_384 && t.size * 20 > t.present * 19;

/**
 * The key indices of the present rows of `start..end` of an int or float column, in `out`;
 * undefined past `limit` keys or for a key column (`uniqueSoFar`).
 */
function columnKeys(column: { kind: 'int'; values: Int32Array } | { kind: 'float'; values: Float64Array }, start: number, end: number, limit: number, out: Int32Array): KeyTable | undefined {
  const v = column.values;
  // A float is read as its two 32-bit words; an int is one word.
  const words = column.kind === 'float' ? new Int32Array(v.buffer, v.byteOffset, v.length * 2) : column.values;
  const stride = column.kind === 'float' ? 2 : 1;
  let t = new KeyTable(4096);
  for (let at = start; ; t = t.grown()) {
    at = scanKeys(t, words, stride, at, end, limit, out);
    if (at === OVER_LIMIT) return undefined;
    if (at === end) return t;
    if (uniqueSoFar(t)) return undefined;
  }
}

/**
 * Rows from `at` until the end, or until the table must grow (returns that row); OVER_LIMIT past
 * `limit` keys. Missing rows are skipped: a NaN's bits (all-ones exponent, non-zero fraction) for
 * floats, INT_NULL for ints.
 */
function scanKeys(t: KeyTable, words: Int32Array, stride: 1 | 2, at: number, end: number, limit: number, out: Int32Array): number {
  const { lo: los, hi: his, slot, keys } = t;
  const mask = slot.length - 1;
  const shift = t.shift;
  const room = Math.min(limit, slot.length >> 2);
  let size = t.size;
  let j = t.present;
  let i = at;
  for (; i < end; i++) {
    const lo = words[stride * i]!;
    const hi = stride === 2 ? words[2 * i + 1]! : 0;
    if (stride === 2 ? (hi & 0x7ff00000) === 0x7ff00000 && ((hi & 0xfffff) | lo) !== 0 : lo === INT_NULL) continue;
    let h = Math.imul((lo + hi) | 0, 0x9e3779b1) >>> shift;
    for (;;) {
      const s = slot[h]!;
      if (s === 0) {
        if (size === room) {
          t.size = size;
          t.present = j;
          return size === limit ? OVER_LIMIT : i;
        }
        keys[2 * size] = lo;
        keys[2 * size + 1] = hi;
        los[h] = lo;
        his[h] = hi;
        slot[h] = ++size;
        out[j++] = size - 1;
        break;
      }
      if (los[h] === lo && his[h] === hi) {
        out[j++] = s - 1;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  t.size = size;
  t.present = j;
  return i;
}
