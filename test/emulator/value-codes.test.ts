import { describe, expect, it } from 'vitest';
import { percentileRanks, rankCodes } from '../../src/emulator/dataset/brandscape-store.js';
import { createRng } from '../../src/emulator/dataset/rng.js';
import {
  MAX_WHOLE,
  NULL_CODE,
  VALUE_OF_CODE,
  codeText,
  tenthsCode,
  thousandthsCode,
  toWordText,
  wholeCode,
  toChunkText,
  type ChunkText,
  type WordText,
} from '../../src/emulator/dataset/value-codes.js';
import { BufferPool, JsonBytes, toBytes } from '../../src/emulator/http/json-bytes.js';

/** Codes as values (NaN = null). */
const decodeValues = (codes: Uint16Array) => Float64Array.from(codes, (k) => VALUE_OF_CODE[k] as number);

/** Text k of a chunk table, read back from its bytes. */
const chunkTextOf = (t: ChunkText, k: number) => {
  const bytes = new Uint8Array(t.chunks.buffer, 8 * (t.chunkStart[k] ?? 0), 8 * ((t.chunkStart[k + 1] ?? 0) - (t.chunkStart[k] ?? 0)));
  return String.fromCharCode(...bytes.subarray(0, t.length[k]));
};

/** Text k of a word table, read back from its words. */
const textOf = (t: WordText, k: number) => {
  const bytes: number[] = [];
  for (let w = t.wordStart[k] ?? 0; w < (t.wordStart[k + 1] ?? 0); w++) {
    const word = t.words[w] ?? 0;
    for (let j = 0; j < 4; j++) bytes.push((word >>> (8 * j)) & 0xff);
  }
  return String.fromCharCode(...bytes.slice(0, t.length[k]));
};

describe('value codes (how brandscape values are stored and written)', () => {
  it('round-trips every precision the dataset serves, clamping to its range and keeping null', () => {
    for (let k = 0; k <= 1000; k += 7) expect(VALUE_OF_CODE[tenthsCode(k / 10)]).toBe(k / 10);
    for (let k = -5000; k <= 5000; k += 13) expect(VALUE_OF_CODE[thousandthsCode(k / 1000)]).toBe(k / 1000);
    for (const n of [0, 1, 99, 999, 12345, MAX_WHOLE]) expect(VALUE_OF_CODE[wholeCode(n)]).toBe(n);
    // Rounding happens in the code, as Math.round does it.
    expect(VALUE_OF_CODE[tenthsCode(63.849)]).toBe(63.8);
    expect(VALUE_OF_CODE[thousandthsCode(-0.0874)]).toBe(-0.087);
    // Out of range values are clamped, NaN is null.
    expect(VALUE_OF_CODE[tenthsCode(100.4)]).toBe(100);
    expect(VALUE_OF_CODE[thousandthsCode(-7)]).toBe(-5);
    expect(VALUE_OF_CODE[wholeCode(MAX_WHOLE + 10)]).toBe(MAX_WHOLE);
    for (const code of [tenthsCode(Number.NaN), thousandthsCode(Number.NaN), wholeCode(Number.NaN)]) expect(code).toBe(NULL_CODE);
    expect([...decodeValues(Uint16Array.of(tenthsCode(1.5), NULL_CODE, wholeCode(7)))]).toEqual([1.5, Number.NaN, 7]);
  });

  it('has for every code the JSON text String() gives its value, in at most 8 bytes', () => {
    const text = codeText();
    for (let code = 0; code < NULL_CODE; code++) {
      const v = VALUE_OF_CODE[code] as number;
      const expected = v === v ? String(v) : '';
      if (code % 97 === 0 || code < 1100 || expected.includes('-')) expect(chunkTextOf(text, code)).toBe(expected);
      expect(text.chunkStart[code]).toBe(code);
      expect(text.length[code]).toBeLessThanOrEqual(8);
    }
    expect(chunkTextOf(text, NULL_CODE)).toBe('null');
    expect(chunkTextOf(text, thousandthsCode(0))).toBe('0');
    expect(chunkTextOf(text, thousandthsCode(-0.5))).toBe('-0.5');
  });

  it('keeps any bytes as words, and ASCII as 8-byte chunks whose bits survive a trip through a double', () => {
    const texts = ['', 'a', ',"relevance_rank":', 'Café 中国', '{"x":1}'].map(toBytes);
    const table = toWordText(texts);
    texts.forEach((t, k) => expect(Buffer.from(textOf(table, k), 'latin1').equals(Buffer.from(t))).toBe(true));
    const ascii = [',"recommendation_category_index":', '\u0000\u007f~', 'null', ''].map(toBytes);
    const chunks = toChunkText(ascii);
    const out = new Uint8Array(64);
    const view = new DataView(out.buffer);
    ascii.forEach((t, k) => {
      for (let w = chunks.chunkStart[k] ?? 0; w < (chunks.chunkStart[k + 1] ?? 0); w++) view.setFloat64(8 * (w - (chunks.chunkStart[k] ?? 0)), chunks.chunks[w] ?? 0, true);
      expect(Buffer.from(out.subarray(0, t.length)).equals(Buffer.from(t))).toBe(true);
    });
    expect(() => toChunkText([toBytes('Café')])).toThrow(/ASCII/);
  });

  it('ranks coded scores exactly as percentileRanks ranks their values, ties and nulls included', () => {
    const rng = createRng(42);
    for (const [n, spread, nulls] of [
      [1, 10, 0],
      [2, 1, 0],
      [37, 5, 0.2],
      [550, 400, 0.1],
      [600, 9000, 0],
    ] as const) {
      const values = Float64Array.from({ length: n }, () => (rng.chance(nulls) ? Number.NaN : Math.round(rng.next() * spread) / 1000 - spread / 2000));
      const codes = Uint16Array.from(values, (v) => thousandthsCode(v));
      const out = new Uint16Array(n);
      rankCodes(codes, n, out);
      const expected = percentileRanks(decodeValues(codes));
      expect([...decodeValues(out)]).toEqual([...expected]);
    }
  });
});

describe('page buffers', () => {
  it('are reused once given back, and a writer growing past one takes a larger one', () => {
    const pool = new BufferPool(2);
    const out = new JsonBytes(100, pool);
    const first = out.buf;
    out.raw(new Uint8Array(first.length + 10).fill(65));
    expect(out.buf).not.toBe(first);
    expect(out.pos).toBe(first.length + 10);
    // The outgrown buffer went back to the pool.
    expect(pool.acquire(10)).toBe(first);
    const { body, release } = out.detach();
    expect(body.length).toBe(first.length + 10);
    expect(body.every((b) => b === 65)).toBe(true);
    release();
    expect(pool.acquire(first.length + 10)).toBe(out.buf);
  });

  it('write JSON that parses, from raw bytes and single bytes', () => {
    const out = new JsonBytes(4);
    out.byte(123);
    out.raw(toBytes('"name":"Café 中国"'));
    out.byte(125);
    expect(JSON.parse(new TextDecoder().decode(out.bytes()))).toEqual({ name: 'Café 中国' });
  });
});
