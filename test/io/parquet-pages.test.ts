/**
 * The Parquet page encoder, decoded by hyparquet's own RLE / bit-packed reader (an implementation
 * independent of ours): definition levels and values for every column kind, row ranges that are
 * not multiples of 8, runs of all-present and all-missing rows, and dictionary indices of every
 * width from 1 to 31 bits (the wide ones take a separate path in the packer; hyparquet's reader
 * stops at 24 bits, so those are also read back a bit at a time).
 */
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js';
import { describe, expect, it } from 'vitest';
import { BOOL_NULL, INT_NULL, type FrameColumn } from '../../src/frames/column.js';
import { encodePage, numberDictionary, PageScratch } from '../../src/io/parquet-pages.js';
import { unpackHybrid } from '../../src/io/parquet-read.js';

/** Decodes a page body: which rows are present, and the reader positioned at the values. */
function decode(body: Uint8Array, n: number) {
  const reader = { view: new DataView(body.buffer, body.byteOffset, body.byteLength), offset: 0 };
  const levels = new Array<number>(n);
  readRleBitPackedHybrid(reader, 1, levels);
  return { levels, reader };
}

const present = (levels: number[]) => levels.reduce((a, b) => a + b, 0);

/** A pseudo-random generator, so the cases are the same on every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('encodePage', () => {
  const scratch = new PageScratch(16);

  it('writes floats with and without missing values, over ranges that are not multiples of 8', () => {
    const next = random(1);
    const values = Float64Array.from({ length: 1003 }, (_, i) => (i % 9 === 0 ? Number.NaN : next() * 100 - 50));
    const full = Float64Array.from({ length: 1003 }, (_, i) => i / 3);
    for (const [start, end] of [
      [0, 1003],
      [5, 998],
      [13, 14],
      [0, 0],
    ] as const) {
      for (const v of [values, full]) {
        const { body, nulls } = encodePage({ kind: 'float', values: v }, start, end, scratch);
        const { levels, reader } = decode(body, end - start);
        const expected = [...v.subarray(start, end)];
        expect(levels).toEqual(expected.map((x) => (Number.isNaN(x) ? 0 : 1)));
        expect(nulls).toBe(end - start - present(levels));
        const got = Array.from({ length: present(levels) }, (_, i) => reader.view.getFloat64(reader.offset + i * 8, true));
        expect(got).toEqual(expected.filter((x) => !Number.isNaN(x)));
        expect(reader.offset + got.length * 8).toBe(body.length);
      }
    }
  });

  it('writes a column of only missing values as one run and no values', () => {
    const { body, nulls } = encodePage({ kind: 'int', values: new Int32Array(21).fill(INT_NULL) }, 0, 21, scratch);
    const { levels, reader } = decode(body, 21);
    expect(levels).toEqual(new Array(21).fill(0));
    expect(nulls).toBe(21);
    expect(reader.offset).toBe(body.length);
    expect(body.length).toBeLessThan(12);
  });

  it('writes ints (the whole range), booleans as bits and dates as INT64 milliseconds', () => {
    const ints = Int32Array.from([0, -1, 2147483647, INT_NULL, -2147483647, 7, INT_NULL, 9, 10]);
    let { body } = encodePage({ kind: 'int', values: ints }, 1, 9, scratch);
    let { levels, reader } = decode(body, 8);
    expect(levels).toEqual([1, 1, 0, 1, 1, 0, 1, 1]);
    expect(Array.from({ length: 6 }, (_, i) => reader.view.getInt32(reader.offset + i * 4, true))).toEqual([-1, 2147483647, -2147483647, 7, 9, 10]);

    const bools = Uint8Array.from([1, 0, BOOL_NULL, 1, 1, 1, 0, 0, 1, BOOL_NULL, 1]);
    ({ body } = encodePage({ kind: 'bool', values: bools }, 0, 11, scratch));
    ({ levels, reader } = decode(body, 11));
    expect(levels).toEqual([...bools].map((b) => (b === BOOL_NULL ? 0 : 1)));
    const bits = [...body.subarray(reader.offset)].flatMap((byte) => Array.from({ length: 8 }, (_, k) => (byte >> k) & 1)).slice(0, 9);
    expect(bits).toEqual([...bools].filter((b) => b !== BOOL_NULL));

    const dates = Float64Array.from([Date.UTC(2024, 0, 1), Number.NaN, -86_400_000]);
    ({ body } = encodePage({ kind: 'date', values: dates }, 0, 3, scratch));
    ({ levels, reader } = decode(body, 3));
    expect(levels).toEqual([1, 0, 1]);
    expect([reader.view.getBigInt64(reader.offset, true), reader.view.getBigInt64(reader.offset + 8, true)]).toEqual([BigInt(Date.UTC(2024, 0, 1)), -86_400_000n]);
  });

  it('packs dictionary indices of every width from 1 to 31 bits', () => {
    for (let width = 1; width <= 31; width++) {
      const next = random(width);
      const n = 101;
      const codes = Int32Array.from({ length: n }, (_, i) => (i % 10 === 3 ? -1 : Math.floor(next() * 2 ** width)));
      codes[0] = 2 ** width - 1; // the widest value of that width
      const column: FrameColumn = { kind: 'string', codes, dictionary: [] };
      const { body } = encodePage(column, 0, n, scratch, { bitWidth: width });
      const { levels, reader } = decode(body, n);
      expect(levels).toEqual([...codes].map((c) => (c < 0 ? 0 : 1)));
      expect(body[reader.offset]).toBe(width);
      reader.offset++;
      const expected = [...codes].filter((c) => c >= 0);
      const header = body[reader.offset]!; // one bit-packed run of ceil(count / 8) groups: (groups << 1) | 1, a varint
      const bits = body.subarray(reader.offset + (header & 0x80 ? 2 : 1));
      const bitAt = (k: number) => (bits[k >> 3]! >> (k & 7)) & 1;
      const slow = expected.map((_, i) => Array.from({ length: width }, (_, b) => bitAt(i * width + b) * 2 ** b).reduce((a, b) => a + b, 0));
      expect(slow, `width ${width}, read a bit at a time`).toEqual(expected);
      expect(bits.length).toBe(Math.ceil(expected.length / 8) * width);
      if (width <= 24) {
        const indices = new Array<number>(present(levels));
        readRleBitPackedHybrid(reader, width, indices, body.length - reader.offset);
        expect(indices, `width ${width}, read by hyparquet`).toEqual(expected);
      }
    }
  });
});

describe('numberDictionary', () => {
  /** The values a dictionary's indices stand for, read back from its PLAIN body. */
  const valuesOf = (kind: 'int' | 'float', body: Uint8Array, indices: Int32Array) => {
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    return [...indices].map((k) => (kind === 'float' ? view.getFloat64(k * 8, true) : view.getInt32(k * 4, true)));
  };

  it('encodes columns with few distinct values, each present row by its index, missing rows left out', () => {
    const n = 131_072;
    const ints = Int32Array.from({ length: n }, (_, i) => (i % 9 === 0 ? INT_NULL : ((i >> 1) * 7919) % 20_000));
    const d = numberDictionary({ kind: 'int', values: ints }, 0, n)!;
    expect(d.size).toBe(20_000);
    expect(d.bitWidth).toBe(15);
    expect(valuesOf('int', d.body, d.indices)).toEqual([...ints].filter((x) => x !== INT_NULL));

    const floats = Float64Array.from({ length: 5000 }, (_, i) => [0, -0, 0.1 + 0.2, 0.3, Number.NaN, -1e300][i % 6]!);
    const f = numberDictionary({ kind: 'float', values: floats }, 7, 4993)!;
    expect(f.size).toBe(5);
    const back = valuesOf('float', f.body, f.indices);
    expect(back.map((x) => (Object.is(x, -0) ? '-0' : String(x)))).toEqual([...floats.subarray(7, 4993)].filter((x) => x === x).map((x) => (Object.is(x, -0) ? '-0' : String(x))));
  });

  it('leaves plain what a dictionary would not shrink: keys (every value new), more distinct values than half the rows, booleans and text', () => {
    const ids = Int32Array.from({ length: 100_000 }, (_, i) => i + 1);
    expect(numberDictionary({ kind: 'int', values: ids }, 0, ids.length)).toBeUndefined();
    // The first 20,000 all new, then repeating: taken for a key column (PLAIN, larger but right).
    const cycle = Int32Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 20_000);
    expect(numberDictionary({ kind: 'int', values: cycle }, 0, cycle.length)).toBeUndefined();
    const many = Float64Array.from({ length: 1000 }, (_, i) => i % 600);
    expect(numberDictionary({ kind: 'float', values: many }, 0, 1000)).toBeUndefined();
    expect(numberDictionary({ kind: 'float', values: Float64Array.from({ length: 1000 }, (_, i) => i % 500) }, 0, 1000)).toBeDefined();
    expect(numberDictionary({ kind: 'bool', values: new Uint8Array(100) }, 0, 100)).toBeUndefined();
    expect(numberDictionary({ kind: 'string', codes: new Int32Array(100), dictionary: ['a'] }, 0, 100)).toBeUndefined();
  });
});

describe('unpackHybrid (the reader of levels and indices)', () => {
  it('reads back bit-packed indices of every width from 1 to 31, and the levels beside them', () => {
    const scratch = new PageScratch();
    for (let width = 1; width <= 31; width++) {
      const next = random(100 + width);
      const n = 203;
      const codes = Int32Array.from({ length: n }, (_, i) => (i % 10 === 3 ? -1 : Math.floor(next() * 2 ** width)));
      codes[1] = 2 ** width - 1;
      const { body } = encodePage({ kind: 'string', codes, dictionary: [] }, 0, n, scratch, { bitWidth: width });
      const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
      const levelsLength = view.getUint32(0, true);
      const levels = new Uint8Array(n);
      unpackHybrid(body, 4, 4 + levelsLength, 1, levels, n);
      expect([...levels]).toEqual([...codes].map((c) => (c < 0 ? 0 : 1)));
      const at = 4 + levelsLength;
      expect(body[at]).toBe(width);
      const present = [...codes].filter((c) => c >= 0);
      const indices = new Int32Array(present.length);
      unpackHybrid(body, at + 1, body.length, width, indices, present.length);
      expect([...indices], `width ${width}`).toEqual(present);
    }
  });

  it('reads RLE runs (values of 1 to 4 bytes) mixed with bit-packed runs, and stops at the count asked', () => {
    // width 12: RLE 5 x 0xABC, bit-packed 8 values 0..7, RLE 3 x 7.
    const packed: number[] = [];
    let acc = 0;
    let bits = 0;
    for (let v = 0; v < 8; v++) {
      acc |= v << bits;
      bits += 12;
      while (bits >= 8) {
        packed.push(acc & 0xff);
        acc >>>= 8;
        bits -= 8;
      }
    }
    const bytes = Uint8Array.from([5 << 1, 0xbc, 0x0a, (1 << 1) | 1, ...packed, 3 << 1, 7, 0]);
    const out = new Int32Array(15);
    unpackHybrid(bytes, 0, bytes.length, 12, out, 15);
    expect([...out]).toEqual([0xabc, 0xabc, 0xabc, 0xabc, 0xabc, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7]);
    const wide = new Int32Array(2);
    unpackHybrid(Uint8Array.from([2 << 1, 0xff, 0xff, 0xff, 0x7f]), 0, 5, 31, wide, 2);
    expect([...wide]).toEqual([2 ** 31 - 1, 2 ** 31 - 1]);
    const few = new Int32Array(6);
    unpackHybrid(bytes, 0, bytes.length, 12, few, 6);
    expect([...few]).toEqual([0xabc, 0xabc, 0xabc, 0xabc, 0xabc, 0]);
  });

  it('throws a RangeError on runs that end before the values asked for (a damaged page), instead of looping or leaving zeros', () => {
    // A run header cut off mid-varint; an RLE value cut off; a bit-packed run short of bytes; too few values in all.
    expect(() => unpackHybrid(Uint8Array.from([0x80]), 0, 1, 3, new Int32Array(4), 4)).toThrow(RangeError);
    expect(() => unpackHybrid(Uint8Array.from([4 << 1, 0xbc]), 0, 2, 12, new Int32Array(4), 4)).toThrow(RangeError);
    expect(() => unpackHybrid(Uint8Array.from([(1 << 1) | 1, 0xff]), 0, 2, 12, new Int32Array(8), 8)).toThrow(RangeError);
    expect(() => unpackHybrid(Uint8Array.from([2 << 1, 3]), 0, 2, 3, new Int32Array(6), 6)).toThrow(/2 of 6 values/);
  });
});
