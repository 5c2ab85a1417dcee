import { describe, expect, it } from 'vitest';
import { JsonBytes, numberTables } from '../../src/emulator/http/json-bytes.js';

const text = (write: (out: JsonBytes) => void) => {
  const out = new JsonBytes(4);
  write(out);
  return new TextDecoder().decode(out.bytes());
};

describe('JsonBytes (the brandscape page writer)', () => {
  it('writes integers exactly as String() does, growing the buffer as needed', () => {
    for (const n of [0, 7, 10, 99, 100, 12345, -1, -907, 2 ** 40, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      expect(text((o) => o.int(n))).toBe(String(n));
    }
  });

  it('writes values rounded to 1 or 3 decimals in their shortest form, like String()', () => {
    const values: number[] = [];
    for (let k = -5000; k <= 5000; k += 7) values.push(Math.round(k) / 1000);
    for (const v of values) expect(text((o) => o.fixed(v, 3)), String(v)).toBe(String(v === 0 ? 0 : v));
    for (let k = 0; k <= 1000; k++) expect(text((o) => o.fixed(k / 10, 1))).toBe(String(k / 10));
    expect(text((o) => o.fixed(-0, 3))).toBe('0');
    expect(text((o) => o.fixed(Number.NaN, 1))).toBe('null');
    expect(text((o) => o.number(Number.POSITIVE_INFINITY))).toBe('null');
    expect(text((o) => o.number(0.1 + 0.2))).toBe(String(0.1 + 0.2));
  });

  it('has pre-encoded tables equal to String() of every tabled value', () => {
    const t = numberTables();
    const decode = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
    expect(decode(t.tenths[638])).toBe('63.8');
    expect(decode(t.thousandths[5000 - 87])).toBe('-0.087');
    expect(decode(t.ints[999])).toBe('999');
    for (let k = 0; k <= 1000; k += 13) expect(decode(t.tenths[k])).toBe(String(k / 10));
  });

  it('concatenates raw bytes, ASCII and single bytes into valid JSON', () => {
    const json = text((o) => {
      o.byte(123);
      o.raw(new TextEncoder().encode('"name":"Café 中国"'));
      o.ascii(',"n":');
      o.fixed(1.5, 1);
      o.byte(125);
    });
    expect(JSON.parse(json)).toEqual({ name: 'Café 中国', n: 1.5 });
  });
});
