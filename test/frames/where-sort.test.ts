/**
 * `where` and `sortBy` over the typed arrays, against expectations computed by hand (small tables)
 * and against plain-JavaScript filters and sorts of the same rows (random tables with every kind of
 * column and missing values).
 */
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { FrameTable, INT_NULL, BOOL_NULL, type Cell, type FrameRow } from '../../src/frames/frame-table.js';
import { textColumn } from '../../src/frames/string-dictionary.js';
import { toTable } from '../../src/frames/to-table.js';
import { isLocal } from '../../src/frames/permute-columns.js';
import { sortOrderOf } from '../../src/frames/sort-by.js';

const rows = [
  { id: 1, market: 'GB', year: 2024, score: 12.5, flag: true, seen_at: '2024-03-01T00:00:00Z' },
  { id: 2, market: 'DE', year: 2023, score: null, flag: false, seen_at: null },
  { id: 3, market: null, year: 2024, score: -3, flag: null, seen_at: '2023-01-01T00:00:00Z' },
  { id: 4, market: 'GB', year: null, score: 12.5, flag: true, seen_at: '2024-01-01T00:00:00Z' },
  { id: 5, market: 'US', year: 2022, score: 0, flag: false, seen_at: '2022-06-01T00:00:00Z' },
  { id: 6, market: 'DE', year: 2024, score: 7, flag: true, seen_at: null },
];
const table = toTable(rows);
const ids = (t: FrameTable) => t.values('id');

describe('where', () => {
  it('keeps the rows whose columns equal the values given, in table order', () => {
    expect(ids(table.where({ market: 'GB' }))).toEqual([1, 4]);
    expect(ids(table.where({ market: 'DE', year: 2024 }))).toEqual([6]);
    expect(ids(table.where({ flag: false }))).toEqual([2, 5]);
    expect(ids(table.where({ seen_at: new Date('2024-01-01T00:00:00Z') }))).toEqual([4]);
    expect(ids(table.where({ seen_at: '2023-01-01T00:00:00Z' }))).toEqual([3]);
  });

  it('tests ranges, sets and their negations; missing values never pass a comparison', () => {
    expect(ids(table.where({ score: { gt: 0 } }))).toEqual([1, 4, 6]);
    expect(ids(table.where({ score: { gte: 0, lt: 12.5 } }))).toEqual([5, 6]);
    expect(ids(table.where({ score: { lte: 0 } }))).toEqual([3, 5]);
    expect(ids(table.where({ year: { in: [2022, 2023] } }))).toEqual([2, 5]);
    expect(ids(table.where({ year: { notIn: [2024] } }))).toEqual([2, 5]);
    expect(ids(table.where({ market: { ne: 'GB' } }))).toEqual([2, 5, 6]);
    expect(ids(table.where({ market: { in: ['US', 'DE'] } }))).toEqual([2, 5, 6]);
    expect(ids(table.where({ market: { gte: 'GB' } }))).toEqual([1, 4, 5]);
    expect(ids(table.where({ seen_at: { gte: new Date('2024-01-01T00:00:00Z') } }))).toEqual([1, 4]);
    expect(ids(table.where({ flag: { ne: true } }))).toEqual([2, 5]);
  });

  it('finds missing and present values: null, isNull, notNull, and null inside in', () => {
    expect(ids(table.where({ market: null }))).toEqual([3]);
    expect(ids(table.where({ score: { isNull: true } }))).toEqual([2]);
    expect(ids(table.where({ year: { notNull: true }, flag: null }))).toEqual([3]);
    expect(ids(table.where({ seen_at: { isNull: true } }))).toEqual([2, 6]);
    expect(ids(table.where({ market: { in: ['US', null] } }))).toEqual([3, 5]);
    expect(ids(table.where({ year: { in: [null] } }))).toEqual([4]);
  });

  it('combines filters with and, or and not (not keeps missing values)', () => {
    expect(ids(table.where({ or: [{ market: 'US' }, { score: { gt: 10 } }] }))).toEqual([1, 4, 5]);
    expect(ids(table.where({ and: [{ year: 2024 }, { or: [{ market: 'DE' }, { market: null }] }] }))).toEqual([3, 6]);
    expect(ids(table.where({ not: { market: 'GB' } }))).toEqual([2, 3, 5, 6]);
    expect(ids(table.where({ year: 2024, not: { flag: true } }))).toEqual([3]);
  });

  it('returns an empty table with every column when nothing matches, and the whole table for {}', () => {
    const none = table.where({ market: 'FR' });
    expect(none.length).toBe(0);
    expect(none.columnNames).toEqual(table.columnNames);
    expect(none.rows()).toEqual([]);
    expect(table.where({}).rows()).toEqual(table.rows());
    expect(table.where({ score: { gt: 100 }, market: 'GB' }).length).toBe(0);
  });

  it('keeps the kinds and the metadata of the table', () => {
    const kept = table.where({ market: 'GB' });
    expect(table.columnNames.map((c) => kept.kindOf(c))).toEqual(table.columnNames.map((c) => table.kindOf(c)));
    expect(kept.meta).toBe(table.meta);
  });

  it('names every unknown column in one DataError', () => {
    const attempt = () => table.where({ markt: 'GB', or: [{ yaer: 2024 }, { score: 1 }] });
    expect(attempt).toThrow(DataError);
    expect(attempt).toThrow(/Missing: markt, yaer\. Available: id, market, year, score, flag, seen_at/);
    try {
      attempt();
    } catch (error) {
      expect((error as DataError).missing).toEqual(['markt', 'yaer']);
    }
  });

  it('says when a value cannot be compared with the column, or a condition is not one', () => {
    expect(() => table.where({ market: 3 })).toThrow(/Column 'market' holds text; eq was given 3/);
    expect(() => table.where({ score: { gt: 'high' } })).toThrow(/Column 'score' holds numbers; gt was given "high"/);
    expect(() => table.where({ score: { greater: 3 } as never })).toThrow(/The condition on 'score' is not a value or an object of tests/);
    expect(() => table.where({ seen_at: 'yesterday' })).toThrow(DataError);
  });
});

describe('sortBy', () => {
  it('sorts ascending with missing values last, ties in table order', () => {
    expect(ids(table.sortBy('score'))).toEqual([3, 5, 6, 1, 4, 2]);
    expect(ids(table.sortBy('market'))).toEqual([2, 6, 1, 4, 5, 3]);
    expect(ids(table.sortBy('year'))).toEqual([5, 2, 1, 3, 6, 4]);
    expect(ids(table.sortBy('flag'))).toEqual([2, 5, 1, 4, 6, 3]);
    expect(ids(table.sortBy('seen_at'))).toEqual([5, 3, 4, 1, 2, 6]);
  });

  it('sorts descending with missing values still last and ties still in table order', () => {
    expect(ids(table.sortBy({ column: 'score', descending: true }))).toEqual([1, 4, 6, 5, 3, 2]);
    expect(ids(table.sortBy({ column: 'market', descending: true }))).toEqual([5, 1, 4, 2, 6, 3]);
    expect(ids(table.sortBy({ column: 'flag', descending: true }))).toEqual([1, 4, 6, 2, 5, 3]);
  });

  it('sorts by several columns, the first deciding', () => {
    expect(ids(table.sortBy(['market', { column: 'year', descending: true }]))).toEqual([6, 2, 1, 4, 5, 3]);
    expect(ids(table.sortBy([{ column: 'flag', descending: true }, 'score']))).toEqual([6, 1, 4, 5, 2, 3]);
  });

  it('orders negative numbers, zeros, infinities and extremes like numbers', () => {
    const values = [3, -0, Number.NEGATIVE_INFINITY, 0, -1e300, 5e-324, Number.NaN, Number.POSITIVE_INFINITY, -2.5, 1e300];
    const t = new FrameTable([['v', { kind: 'float', values: Float64Array.from(values) }], ['i', { kind: 'int', values: Int32Array.from(values.keys()) }]], values.length, { source: 't', notes: [] });
    // -0 and 0 are equal: they keep their order (index 1 before 3).
    expect(t.sortBy('v').values('i')).toEqual([2, 4, 8, 1, 3, 5, 0, 9, 7, 6]);
    expect(t.sortBy({ column: 'v', descending: true }).values('i')).toEqual([7, 9, 0, 5, 1, 3, 8, 4, 2, 6]);
    const ints = [5, INT_NULL, -7, 2147483647, -2147483647, 0];
    const ti = new FrameTable([['v', { kind: 'int', values: Int32Array.from(ints) }]], ints.length, { source: 't', notes: [] });
    expect(ti.sortBy('v').values('v')).toEqual([-2147483647, -7, 0, 5, 2147483647, null]);
  });

  it('puts every missing float last in table order, after infinities, in either direction and as a later key', () => {
    const v = Float64Array.from([Number.NaN, Number.POSITIVE_INFINITY, Number.NaN, Number.NEGATIVE_INFINITY, 1, Number.NaN, -0, Number.POSITIVE_INFINITY]);
    // Row 2's NaN has every bit set: the bit pattern the sort gives missing rows as a key.
    new DataView(v.buffer).setUint32(16, 0xffffffff, true);
    new DataView(v.buffer).setUint32(20, 0xffffffff, true);
    expect(Number.isNaN(v[2])).toBe(true);
    const t = new FrameTable(
      [
        ['v', { kind: 'float', values: v }],
        ['d', { kind: 'date', values: Float64Array.from(v) }],
        ['g', { kind: 'int', values: Int32Array.from([1, 0, 1, 0, 1, 0, 1, 0]) }],
        ['i', { kind: 'int', values: Int32Array.from(v.keys()) }],
      ],
      v.length,
      { source: 't', notes: [] },
    );
    expect(t.sortBy('v').values('i')).toEqual([3, 6, 4, 1, 7, 0, 2, 5]);
    expect(t.sortBy({ column: 'v', descending: true }).values('i')).toEqual([1, 7, 4, 6, 3, 0, 2, 5]);
    expect(t.sortBy({ column: 'd', descending: true }).values('i')).toEqual([1, 7, 4, 6, 3, 0, 2, 5]);
    expect(t.sortBy(['g', 'v']).values('i')).toEqual([3, 1, 7, 5, 6, 4, 0, 2]);
    expect(t.sortBy(['g', { column: 'v', descending: true }]).values('i')).toEqual([1, 7, 3, 5, 4, 6, 0, 2]);
    expect(t.sortBy([{ column: 'v', descending: true }, { column: 'g', descending: true }]).values('i')).toEqual([1, 7, 4, 6, 3, 0, 2, 5]);
  });

  it('sorts text by code point whatever the dictionary order', () => {
    const t = new FrameTable([['s', textColumn(5, (i) => ['b', 'a', 'Z', null, 'é'][i] ?? null)]], 5, { source: 't', notes: [] });
    expect(t.sortBy('s').values('s')).toEqual(['Z', 'a', 'b', 'é', null]);
  });

  it('handles empty and one-row tables, and names unknown columns in a DataError', () => {
    expect(table.where({ market: 'FR' }).sortBy('score').length).toBe(0);
    expect(ids(table.head(1).sortBy({ column: 'score', descending: true }))).toEqual([1]);
    expect(() => table.sortBy(['score', 'nope'])).toThrow(DataError);
    expect(() => table.sortBy(['score', 'nope'])).toThrow(/Missing: nope\./);
  });
});

/** A seeded random table with every kind of column, about a tenth missing. */
function randomTable(n: number, seed: number): FrameTable {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const missing = () => rand() < 0.1;
  const f = new Float64Array(n);
  const i32 = new Int32Array(n);
  const b = new Uint8Array(n);
  const d = new Float64Array(n);
  const texts: (string | null)[] = [];
  for (let r = 0; r < n; r++) {
    f[r] = missing() ? Number.NaN : Math.round((rand() - 0.5) * 40) / 4;
    i32[r] = missing() ? INT_NULL : Math.floor(rand() * 7) - 3;
    b[r] = missing() ? BOOL_NULL : rand() < 0.5 ? 1 : 0;
    d[r] = missing() ? Number.NaN : Date.UTC(2020, Math.floor(rand() * 12), 1);
    texts.push(missing() ? null : ['gb', 'de', 'us', 'fr', 'GB'][Math.floor(rand() * 5)]!);
  }
  return new FrameTable(
    [
      ['row', { kind: 'int', values: Int32Array.from({ length: n }, (_, k) => k) }],
      ['f', { kind: 'float', values: f }],
      ['i', { kind: 'int', values: i32 }],
      ['b', { kind: 'bool', values: b }],
      ['d', { kind: 'date', values: d }],
      ['s', textColumn(n, (r) => texts[r]!)],
    ],
    n,
    { source: 'random', notes: [] },
  );
}

/** Plain comparison of two cells for the reference sort: missing last, else natural order. */
function compareCells(x: Cell, y: Cell, descending: boolean): number {
  if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
  const a = x instanceof Date ? x.getTime() : typeof x === 'boolean' ? Number(x) : x;
  const c = y instanceof Date ? y.getTime() : typeof y === 'boolean' ? Number(y) : y;
  const order = a < c ? -1 : a > c ? 1 : 0;
  return descending ? -order : order;
}

describe('where and sortBy agree with plain JavaScript on random tables', () => {
  const t = randomTable(5000, 7);
  const plain = t.rows();

  it.each([
    ['f > 1 and s in (gb, us)', { f: { gt: 1 }, s: { in: ['gb', 'us'] } }, (r: FrameRow) => (r.f as number) > 1 && (r.s === 'gb' || r.s === 'us')],
    ['i missing or b false', { or: [{ i: null }, { b: false }] }, (r: FrameRow) => r.i === null || r.b === false],
    ['d in 2020 H1, f not missing', { d: { gte: new Date(Date.UTC(2020, 0, 1)), lt: new Date(Date.UTC(2020, 6, 1)) }, f: { notNull: true } }, (r: FrameRow) => r.d !== null && (r.d as Date).getUTCMonth() < 6 && r.f !== null],
    ['not (i between -1 and 1)', { not: { i: { gte: -1, lte: 1 } } }, (r: FrameRow) => !(r.i !== null && (r.i as number) >= -1 && (r.i as number) <= 1)],
  ] as const)('where %s', (_name, where, keep) => {
    expect(t.where(where).values('row')).toEqual(plain.filter(keep).map((r) => r.row));
  });

  it.each([
    [['f']],
    [[{ column: 'f', descending: true }]],
    [['s', { column: 'i', descending: true }, 'd']],
    [[{ column: 'b', descending: true }, 'f']],
    [[{ column: 'd', descending: true }, { column: 's', descending: true }]],
  ] as const)('sortBy %j (stable, missing last)', (keys) => {
    const expected = [...plain].sort((x, y) => {
      for (const key of keys) {
        const { column, descending } = typeof key === 'string' ? { column: key, descending: false } : key;
        const c = compareCells(x[column]!, y[column]!, descending);
        if (c !== 0) return c;
      }
      return 0; // Array.prototype.sort is stable: ties keep table order.
    });
    expect(t.sortBy(keys).values('row')).toEqual(expected.map((r) => r.row));
  });
});

describe('sortBy on a table large enough for the bucketed column gather', () => {
  // 200,003 rows with ties and missing values in every column: sorting scatters the rows, so
  // materialize() after sortBy writes its columns with the two-pass gather of permute-columns.ts.
  const t = randomTable(200_003, 11);
  const plain = t.rows();
  const columnNames = t.columnNames;

  // Keys with many distinct values scatter the rows (bucketed gather); keys with a handful leave
  // long runs in table order, which the direct gather reads locally.
  it.each([
    [['f'], 'bucketed'],
    [[{ column: 'f', descending: true }], 'bucketed'],
    [['b', { column: 'f', descending: true }], 'bucketed'],
    [['s'], 'direct'],
    [[{ column: 'i', descending: true }], 'direct'],
    [['d'], 'direct'],
  ] as const)(
    'sortBy %j (%s gather): every column of every row as the plain stable sort has it',
    (keys, gather) => {
      const expected = [...plain].sort((x, y) => {
        for (const key of keys) {
          const { column, descending } = typeof key === 'string' ? { column: key, descending: false } : key;
          const c = compareCells(x[column]!, y[column]!, descending);
          if (c !== 0) return c;
        }
        return 0;
      });
      // Read through the lazy table's selection, then with every column moved by materialize()
      // (the bucketed or the direct gather of permute-columns.ts).
      const sorted = t.sortBy(keys);
      expect(isLocal(sortOrderOf(t, keys))).toBe(gather === 'direct');
      for (const name of columnNames) expect(sorted.values(name), name).toEqual(expected.map((r) => r[name]));
      const moved = t.sortBy(keys).materialize();
      for (const name of columnNames) expect(moved.values(name), name).toEqual(expected.map((r) => r[name]));
    },
  );
});

describe('where: range tests at their bounds, as plain comparisons have them', () => {
  // Whole and fractional bounds on ints, booleans compared as 0/1, infinities, -0, extremes.
  const f = Float64Array.from([-Infinity, -1e300, -2.5, -0, 0, 5e-324, 1, 2.5, 3, 1e300, Infinity, Number.NaN]);
  const n = f.length;
  const t = new FrameTable(
    [
      ['k', { kind: 'int', values: Int32Array.from({ length: n }, (_, i) => i) }],
      ['f', { kind: 'float', values: f }],
      ['i', { kind: 'int', values: Int32Array.from([INT_NULL, -2147483647, -3, -1, 0, 0, 1, 2, 3, 2147483647, 5, INT_NULL]) }],
      ['b', { kind: 'bool', values: Uint8Array.from([0, 1, BOOL_NULL, 0, 1, 1, 0, BOOL_NULL, 1, 0, 1, 0]) }],
      ['d', { kind: 'date', values: Float64Array.from(f, (v) => (Number.isFinite(v) && Math.abs(v) < 1e15 ? Math.round(v * 86_400_000) : Number.NaN)) }],
    ],
    n,
    { source: 't', notes: [] },
  );
  const plain = t.rows();
  const num = (v: Cell): number | null => (v === null ? null : v instanceof Date ? v.getTime() : typeof v === 'boolean' ? Number(v) : (v as number));
  const tests: Record<string, (v: number, x: number) => boolean> = {
    eq: (v, x) => v === x,
    gt: (v, x) => v > x,
    gte: (v, x) => v >= x,
    lt: (v, x) => v < x,
    lte: (v, x) => v <= x,
    ne: (v, x) => v !== x,
  };
  const bounds: Record<string, readonly (number | boolean)[]> = {
    f: [-Infinity, -1e300, -2.5, -0, 0, 5e-324, 2.5, 1e300, Infinity],
    i: [-2147483647, -2.5, -1, -0.5, 0, 0.5, 2, 2147483647, 1e12, -1e12],
    b: [false, true],
    d: [-2.5 * 86_400_000, 0, 86_400_000, 1.5 * 86_400_000],
  };
  for (const [column, values] of Object.entries(bounds)) {
    for (const [test, pass] of Object.entries(tests)) {
      it(`${column} ${test} each bound`, () => {
        for (const x of values) {
          const given = column === 'd' ? new Date(x as number) : x;
          const expected = plain.filter((r) => {
            const v = num(r[column]!);
            return v !== null && pass(v, typeof x === 'boolean' ? Number(x) : x);
          });
          expect(t.where({ [column]: { [test]: given } }).values('k'), `${column} ${test} ${String(x)}`).toEqual(expected.map((r) => r.k));
        }
      });
    }
  }

  it('combines bounds on one column into one range, empty when they cross', () => {
    expect(t.where({ f: { gt: -3, lte: 1 } }).values('k')).toEqual([2, 3, 4, 5, 6]);
    expect(t.where({ i: { gte: 0.5, lt: 2.5 } }).values('k')).toEqual([6, 7]);
    expect(t.where({ f: { gt: 1, lt: 1 } }).length).toBe(0);
    expect(t.where({ f: { eq: 1, gt: 0 }, i: { notIn: [7] } }).values('k')).toEqual([6]);
  });
});
