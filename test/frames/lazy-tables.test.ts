/**
 * Lazy tables: `where`, `sortBy`, `take` and `head` share their parent's columns through a
 * selection. Checked against plain JavaScript over the same rows (every kind of column, missing
 * values in each), and against the same operations on a table that holds its own columns; the
 * counter of gathered columns (`materialisedColumns`) shows what was copied and what was read
 * through the selection.
 */
import { describe, expect, it } from 'vitest';
import { BOOL_NULL, FrameTable, INT_NULL, cellOf, type Cell, type FrameRow } from '../../src/frames/frame-table.js';
import { groupBy } from '../../src/frames/group-by.js';
import { pivot } from '../../src/frames/pivot.js';
import { materialisedColumns } from '../../src/frames/selection.js';
import { textColumn } from '../../src/frames/string-dictionary.js';
import { fromParquet, toParquet } from '../../src/io/parquet.js';

/** A seeded table of `n` rows with every kind of column, about a tenth of each missing. */
function randomTable(n: number, seed: number): FrameTable {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
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
    d[r] = missing() ? Number.NaN : Date.UTC(2020, Math.floor(rand() * 12), 1 + Math.floor(rand() * 3));
    texts.push(missing() ? null : ['gb', 'de', 'us', 'fr', 'GB, "the" UK', ''][Math.floor(rand() * 6)]!);
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
    { source: 'random', notes: ['seeded'] },
  );
}

const table = randomTable(3000, 5);
const plain = table.rows();

/** Cells in the plain order: missing last, else natural order (booleans and dates as numbers). */
function compareCells(x: Cell, y: Cell, descending = false): number {
  if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
  const a = x instanceof Date ? x.getTime() : typeof x === 'boolean' ? Number(x) : x;
  const c = y instanceof Date ? y.getTime() : typeof y === 'boolean' ? Number(y) : y;
  const order = a < c ? -1 : a > c ? 1 : 0;
  return descending ? -order : order;
}

/** Every way of reading a table, each through its own code path, as plain values. */
function readAll(t: FrameTable): Record<string, unknown> {
  const names = t.columnNames;
  return {
    length: t.length,
    names,
    kinds: names.map((n) => t.kindOf(n)),
    rows: t.rows(),
    values: names.map((n) => t.values(n)),
    get: names.map((n) => Array.from({ length: t.length }, (_, i) => t.get(n, i))),
    toColumns: t.toColumns(),
  };
}

/** The cells of every column as `column()` gives it (gathered on a lazy table), and `numbers()` of the numeric ones. */
function readColumns(t: FrameTable): Record<string, unknown> {
  return {
    columns: t.columnNames.map((n) => Array.from({ length: t.length }, (_, i) => cellOf(t.column(n), i))),
    numbers: t.numericColumnNames().map((n) => Array.from(t.numbers(n))),
    entries: [...t.entries()].map(([n, c]) => [n, c.kind]),
  };
}

/** The table a list of plain rows should give, as `readAll` reads it. */
function expectedOf(rows: readonly FrameRow[], names = table.columnNames): Record<string, unknown> {
  const picked = rows.map((r) => Object.fromEntries(names.map((n) => [n, r[n]!])));
  return {
    length: rows.length,
    names,
    kinds: names.map((n) => table.kindOf(n)),
    rows: picked,
    values: names.map((n) => picked.map((r) => r[n])),
    get: names.map((n) => picked.map((r) => r[n])),
    toColumns: Object.fromEntries(names.map((n) => [n, picked.map((r) => r[n])])),
  };
}

const sortPlain = (rows: readonly FrameRow[], keys: readonly { column: string; descending?: boolean }[]) =>
  [...rows].sort((x, y) => {
    for (const { column, descending } of keys) {
      const c = compareCells(x[column]!, y[column]!, descending);
      if (c !== 0) return c;
    }
    return 0;
  });

const isLate = (r: FrameRow) => r.d !== null && (r.d as Date).getUTCMonth() >= 6;
const isBig = (r: FrameRow) => r.f !== null && (r.f as number) >= 0;

/** Chains of lazy operations and what plain JavaScript makes of the same rows. */
const chains: [string, (t: FrameTable) => FrameTable, () => FrameRow[], string[]?][] = [
  ['where', (t) => t.where({ f: { gte: 0 } }), () => plain.filter(isBig)],
  ['where on a text column (quoted and empty values)', (t) => t.where({ s: { in: ['GB, "the" UK', '', null] } }), () => plain.filter((r) => r.s === 'GB, "the" UK' || r.s === '' || r.s === null)],
  ['where, then where (selections composed)', (t) => t.where({ f: { gte: 0 } }).where({ b: false }), () => plain.filter((r) => isBig(r) && r.b === false)],
  ['sortBy', (t) => t.sortBy(['s', { column: 'f', descending: true }]), () => sortPlain(plain, [{ column: 's' }, { column: 'f', descending: true }])],
  ['where, then sortBy', (t) => t.where({ d: { gte: '2020-07-01' } }).sortBy('i'), () => sortPlain(plain.filter(isLate), [{ column: 'i' }])],
  ['sortBy, then where', (t) => t.sortBy('i').where({ d: { gte: '2020-07-01' } }), () => sortPlain(plain.filter(isLate), [{ column: 'i' }])],
  ['sortBy, then sortBy (the second decides, ties in the first order)', (t) => t.sortBy('f').sortBy({ column: 'b', descending: true }), () => sortPlain(sortPlain(plain, [{ column: 'f' }]), [{ column: 'b', descending: true }])],
  ['where, then head', (t) => t.where({ i: { gt: 0 } }).head(7), () => plain.filter((r) => r.i !== null && (r.i as number) > 0).slice(0, 7)],
  ['sortBy, then head, then where', (t) => t.sortBy({ column: 'd', descending: true }).head(500).where({ s: 'gb' }), () => sortPlain(plain, [{ column: 'd', descending: true }]).slice(0, 500).filter((r) => r.s === 'gb')],
  ['where, then take (repeats and any order)', (t) => t.where({ b: true }).take([5, 0, 5, 3]), () => [5, 0, 5, 3].map((k) => plain.filter((r) => r.b === true)[k]!)],
  ['take, then sortBy', (t) => t.take([9, 4, 7, 1, 8]).sortBy('f'), () => sortPlain([9, 4, 7, 1, 8].map((k) => plain[k]!), [{ column: 'f' }])],
  ['head of the whole table', (t) => t.head(11), () => plain.slice(0, 11)],
  ['where, then select (a lazy table over fewer columns)', (t) => t.where({ f: { lt: 0 } }).select(['s', 'row', 'd']), () => plain.filter((r) => r.f !== null && (r.f as number) < 0), ['s', 'row', 'd']],
  ['select, then sortBy, then where', (t) => t.select(['f', 'row']).sortBy('f').where({ f: { notNull: true } }), () => sortPlain(plain, [{ column: 'f' }]).filter((r) => r.f !== null), ['f', 'row']],
  ['filter(row => ...) of a lazy table', (t) => t.sortBy('f').filter((r) => r.b === true), () => sortPlain(plain, [{ column: 'f' }]).filter((r) => r.b === true)],
  ['where that keeps nothing', (t) => t.sortBy('f').where({ i: 99 }), () => []],
  ['where that keeps everything, then head(0)', (t) => t.where({}).head(0), () => []],
];

describe('lazy tables read like tables that hold their own columns', () => {
  it.each(chains)('%s: rows, values, cells, columns, numbers', (_name, chain, expected, names) => {
    const lazy = chain(table);
    const before = materialisedColumns();
    const rows = expected();
    expect(readAll(lazy)).toEqual(expectedOf(rows, names));
    // Reading rows, values and cells went through the selection: nothing was gathered.
    expect(materialisedColumns()).toBe(before);
    const own = chain(table).materialize();
    expect(readAll(own)).toEqual(expectedOf(rows, names));
    expect(readColumns(chain(table))).toEqual(readColumns(own));
    expect(lazy.meta).toBe(table.meta);
  });

  it('copies no column when chained: only what is read in full is gathered, once', () => {
    const before = materialisedColumns();
    const chained = table.where({ f: { gte: 0 } }).sortBy('s').where({ b: false }).head(100).take([3, 1, 2]);
    // The second where read `b` in full on the sorted table (its one column gathered there).
    expect(materialisedColumns() - before).toBe(2);
    expect(chained.length).toBe(3);
    const mark = materialisedColumns();
    const first = chained.column('f');
    expect(chained.column('f')).toBe(first);
    expect(chained.numbers('f')).toBe(first.kind === 'float' ? first.values : undefined);
    expect(materialisedColumns() - mark).toBe(1);
  });

  it('lets go of the selection once every column is gathered (materialize() then has nothing to do)', () => {
    const lazy = table.where({ i: 1 });
    for (const name of lazy.columnNames) lazy.column(name);
    const mark = materialisedColumns();
    expect(lazy.materialize()).toBe(lazy);
    expect(materialisedColumns()).toBe(mark);
    // Its own columns now: a where on it selects from them, not from the first table's.
    expect(lazy.where({ b: true }).values('row')).toEqual(plain.filter((r) => r.i === 1 && r.b === true).map((r) => r.row));
  });

  it('materialize() gathers only the columns not gathered yet, and returns the table itself', () => {
    const lazy = table.sortBy('f');
    lazy.column('s');
    const mark = materialisedColumns();
    expect(lazy.materialize()).toBe(lazy);
    expect(materialisedColumns() - mark).toBe(table.columnNames.length - 1);
    expect(lazy.rows()).toEqual(sortPlain(plain, [{ column: 'f' }]));
  });

  it('keeps withMeta, select and kinds on a lazy table without gathering', () => {
    const before = materialisedColumns();
    const lazy = table.where({ b: true }).withMeta({ source: 'mine', notes: [] });
    expect(lazy.meta.source).toBe('mine');
    expect(lazy.select(['s']).columns).toEqual(['s']);
    expect(lazy.numericColumnNames()).toEqual(['row', 'f', 'i', 'b', 'd']);
    expect(lazy.has('d')).toBe(true);
    expect(() => lazy.select(['s', 'nope'])).toThrow(/no column 'nope'/);
    expect(() => lazy.column('nope')).toThrow(/no column 'nope'/);
    expect(() => lazy.values('nope')).toThrow(/no column 'nope'/);
    expect(() => lazy.get('s', lazy.length)).toThrow(RangeError);
    expect(() => lazy.take([lazy.length])).toThrow(RangeError);
    expect(materialisedColumns()).toBe(before);
  });

  it('gives .columns as the column names, like pandas', () => {
    expect(table.columns).toEqual(['row', 'f', 'i', 'b', 'd', 's']);
    expect(table.columns).toEqual(table.columnNames);
  });
});

describe('engine operations read through the selection, with the results of a table that holds its columns', () => {
  const lazyOf = () => table.where({ f: { gte: -5 } }).sortBy([{ column: 'd', descending: true }, 'row']);
  const ownOf = () => lazyOf().materialize();

  /** Runs `read` on a fresh lazy table; returns its result and the columns it gathered. */
  const through = <T>(read: (t: FrameTable) => T): [T, number] => {
    const lazy = lazyOf();
    const before = materialisedColumns();
    const result = read(lazy);
    return [result, materialisedColumns() - before];
  };

  it('groupBy: every statistic, sizes, sorted or in order of appearance', () => {
    for (const sort of [true, false]) {
      const options = { stats: ['mean', 'sum', 'count', 'min', 'max', 'median', 'std'] as const, size: true, sort };
      const [result, gathered] = through((t) => groupBy(t, ['s', 'b'], options).rows());
      expect(gathered).toBe(0);
      expect(result).toEqual(groupBy(ownOf(), ['s', 'b'], options).rows());
    }
  });

  it('groupBy over rows in long runs (the summed-in-runs path), through a filter', () => {
    const sorted = table.sortBy(['s']).materialize();
    const lazy = sorted.where({ b: true });
    const before = materialisedColumns();
    const means = groupBy(lazy, 's', { columns: ['f', 'i'] }).rows();
    expect(materialisedColumns()).toBe(before);
    expect(means).toEqual(groupBy(sorted.where({ b: true }).materialize(), 's', { columns: ['f', 'i'] }).rows());
  });

  it('pivot: one and two index columns, mean and median', () => {
    for (const [index, agg] of [['s', 'mean'], [['s', 'b'], 'median'], ['i', 'count'], ['b', 'max']] as const) {
      const [result, gathered] = through((t) => pivot(t, { index, columns: 'i', values: 'f', agg }).rows());
      expect(gathered).toBe(0);
      expect(result).toEqual(pivot(ownOf(), { index, columns: 'i', values: 'f', agg }).rows());
    }
  });

  it('Parquet: the same bytes as the materialised table, and the same rows read back', async () => {
    const lazy = lazyOf();
    const before = materialisedColumns();
    const bytes = await toParquet(lazy, { rowGroupSize: 700, parallel: false });
    expect(materialisedColumns()).toBe(before);
    expect(Buffer.from(bytes).equals(Buffer.from(await toParquet(ownOf(), { rowGroupSize: 700, parallel: false })))).toBe(true);
    expect((await fromParquet(bytes)).rows()).toEqual(ownOf().rows());
  });

  it('CSV, text, HTML and describe: the same as the materialised table', () => {
    const reads: ((t: FrameTable) => unknown)[] = [(t) => t.toCsv(), (t) => t.toString({ rows: 30 }), (t) => t.toHtml(), (t) => t.describe().rows()];
    for (const read of reads) {
      const [result, gathered] = through(read);
      expect(gathered).toBe(0);
      expect(result).toEqual(read(ownOf()));
    }
  });
});

describe('a filter of a large table costs its selection, not a copy of the columns', () => {
  it('gathers nothing for where, sortBy, groupBy, rows of a head, Parquet of a slice', async () => {
    const n = 200_000;
    const columns = Array.from({ length: 30 }, (_, c) => [`m${c}`, { kind: 'float' as const, values: Float64Array.from({ length: n }, (_, i) => ((i * 7 + c) % 101) / 2) }] as const);
    const big = new FrameTable([['g', { kind: 'int', values: Int32Array.from({ length: n }, (_, i) => i % 40) }], ...columns], n, { source: 'big', notes: [] });
    const before = materialisedColumns();
    const kept = big.where({ m0: { gte: 25 } });
    const sorted = kept.sortBy({ column: 'm1', descending: true });
    const means = groupBy(kept, 'g');
    const top = sorted.head(3).rows();
    await toParquet(sorted.head(5000), { parallel: false });
    // Only the sort key was read in full (by sortBy, on the filtered table).
    expect(materialisedColumns() - before).toBe(1);
    expect(means.length).toBe(40);
    expect(top[0]!.m1).toBe(50);
    expect(kept.length).toBeGreaterThan(n / 3);
  });
});
