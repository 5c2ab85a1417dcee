/**
 * Parquet files written here, read back by an independent reader: DuckDB (@duckdb/node-api, its
 * own C++ Parquet reader), from npm so that the tests need no Python (Debian's pandas has neither
 * pyarrow nor fastparquet; the frames bench also reads a file back with pyarrow from a venv). Values, types and nulls must come back
 * exactly; text columns must be dictionary-encoded.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type Json } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import type { Emulator } from '../../src/emulator/index.js';
import { DataError, UsageError } from '../../src/errors.js';
import { FrameTable, type FrameMeta } from '../../src/frames/frame-table.js';
import { toTable } from '../../src/frames/to-table.js';
import { fromParquet, readParquet, toParquet, writeParquet } from '../../src/io/parquet.js';
import { readColumns } from '../../src/io/parquet-read.js';
import { startEmulator } from '../helpers/client-harness.js';

let dir: string;
let duck: DuckDBConnection;
let emulator: Emulator;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-parquet-'));
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  emulator = await startEmulator();
});
afterAll(async () => {
  duck?.closeSync();
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
});

const quoted = (path: string) => `'${path.replaceAll("'", "''")}'`;

/** A value DuckDB answered as JSON, as text (a list as its items joined by commas, as `String` writes it). */
const jsonText = (value: Json): string => (Array.isArray(value) ? value.map(jsonText).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** Column name -> DuckDB type, as DuckDB reads the file. */
async function typesOf(path: string): Promise<Record<string, string>> {
  const rows = (await duck.runAndReadAll(`DESCRIBE SELECT * FROM ${quoted(path)}`)).getRowObjectsJson();
  return Object.fromEntries(rows.map((r) => [jsonText(r.column_name!), jsonText(r.column_type!)]));
}

/** Every row as DuckDB reads it (timestamps as epoch milliseconds), in file order. */
async function rowsOf(path: string, dates: readonly string[] = []): Promise<Record<string, unknown>[]> {
  const select = dates.length === 0 ? '*' : `* REPLACE (${dates.map((d) => `CAST(epoch_ms(${d}) AS DOUBLE) AS ${d}`).join(', ')})`;
  return (await duck.runAndReadAll(`SELECT ${select} FROM ${quoted(path)}`)).getRowObjectsJS();
}

async function encodingsOf(path: string): Promise<Record<string, string>> {
  const rows = (await duck.runAndReadAll(`SELECT DISTINCT path_in_schema, encodings FROM parquet_metadata(${quoted(path)})`)).getRowObjectsJson();
  return Object.fromEntries(rows.map((r) => [jsonText(r.path_in_schema!), jsonText(r.encodings!)]));
}

/** The table's rows as DuckDB should give them: dates as epoch ms, missing values null. */
const expectedRows = (table: FrameTable<object, FrameMeta>) =>
  table.rows().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.getTime() : v])));

const records = Array.from({ length: 1000 }, (_, i) => ({
  id: i + 1,
  brand_id: i % 11 === 0 ? null : 100 + (i % 37),
  year: 2020 + (i % 5),
  brand_name: i % 13 === 0 ? null : `Brand ${i % 29} ✓`,
  score: i % 7 === 0 ? null : (i * 37) / 8 - 60,
  is_duplicate: i % 17 === 0 ? null : i % 2 === 0,
  updated_at: i % 19 === 0 ? null : new Date(Date.UTC(2024, i % 12, 1 + (i % 28), 7)).toISOString(),
  empty_metric: null,
}));

describe('toParquet / writeParquet read back by DuckDB', () => {
  const table = toTable(records, { metricColumns: ['empty_metric'] });

  it('keeps every column type and value, nulls included, across several row groups', async () => {
    const path = join(dir, 'kinds.parquet');
    await writeParquet(table, path, { rowGroupSize: 300 });
    expect(await typesOf(path)).toEqual({
      id: 'INTEGER',
      brand_id: 'INTEGER',
      year: 'INTEGER',
      brand_name: 'VARCHAR',
      score: 'DOUBLE',
      is_duplicate: 'BOOLEAN',
      updated_at: 'TIMESTAMP WITH TIME ZONE',
      empty_metric: 'DOUBLE',
    });
    expect(await rowsOf(path, ['updated_at'])).toEqual(expectedRows(table));
    const groups = (await duck.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(${quoted(path)})`)).getRowObjectsJS();
    expect(Number(groups[0]!.n)).toBe(4);
  });

  it('dictionary-encodes text, and numbers with few distinct values; numbers with many stay plain', async () => {
    const path = join(dir, 'encodings.parquet');
    await writeFile(path, await toParquet(table));
    const encodings = await encodingsOf(path);
    expect(encodings.brand_name).toMatch(/RLE_DICTIONARY/);
    // 37 brand ids and 5 years in 1,000 rows: dictionaries; 1,000 distinct ids and scores: plain.
    expect(encodings.brand_id).toMatch(/RLE_DICTIONARY/);
    expect(encodings.year).toMatch(/RLE_DICTIONARY/);
    expect(encodings.id).not.toMatch(/DICTIONARY/);
    expect(encodings.score).not.toMatch(/DICTIONARY/);
  });

  it('keeps every distinct float of a dictionary column exactly: -0 apart from 0, the extremes, and nulls', async () => {
    const specials = [0, -0, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 0.1 + 0.2, 0.3, 1 / 3, Number.NaN];
    const values = Float64Array.from({ length: 4000 }, (_, i) => specials[i % specials.length]!);
    const t = new FrameTable([['x', { kind: 'float', values }]], values.length, { source: 'hand', notes: [] });
    const path = join(dir, 'float-dictionary.parquet');
    await writeParquet(t, path, { rowGroupSize: 1000 });
    expect((await encodingsOf(path)).x).toMatch(/RLE_DICTIONARY/);
    const back = (await duck.runAndReadAll(`SELECT x, CAST(x AS VARCHAR) AS text FROM ${quoted(path)}`)).getRowObjectsJS();
    expect(back.map((r) => r.x)).toEqual([...values].map((v) => (Number.isNaN(v) ? null : v)));
    // DuckDB prints -0 as -0.0: the sign survived the dictionary.
    expect(back.slice(0, 2).map((r) => r.text)).toEqual(['0.0', '-0.0']);
    const ours = await readParquet(path);
    expect([...ours.numbers('x')].map((v) => Object.is(v, -0) ? '-0' : String(v))).toEqual([...values].map((v) => Object.is(v, -0) ? '-0' : String(v)));
  });

  it('writes the same bytes uncompressed as compressed, as far as a reader can tell', async () => {
    const path = join(dir, 'plain.parquet');
    await writeParquet(table, path, { codec: 'UNCOMPRESSED' });
    expect(await rowsOf(path, ['updated_at'])).toEqual(expectedRows(table));
  });

  it('writes sorted and filtered tables, and an empty one with its columns', async () => {
    const path = join(dir, 'sorted.parquet');
    const sorted = table.where({ score: { notNull: true }, year: { gte: 2022 } }).sortBy([{ column: 'score', descending: true }, 'id']);
    await writeParquet(sorted, path);
    expect(await rowsOf(path, ['updated_at'])).toEqual(expectedRows(sorted));
    const emptyPath = join(dir, 'empty.parquet');
    await writeParquet(table.where({ id: -1 }), emptyPath);
    expect(Object.keys(await typesOf(emptyPath))).toEqual(table.columnNames);
    expect(await rowsOf(emptyPath)).toEqual([]);
  });

  it('takes rowGroupSize Infinity as one row group, and refuses a size that is not a number of rows before writing anything', async () => {
    const path = join(dir, 'one-group.parquet');
    await writeParquet(table, path, { rowGroupSize: Infinity });
    expect(await rowsOf(path, ['updated_at'])).toEqual(expectedRows(table));
    const groups = (await duck.runAndReadAll(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(${quoted(path)})`)).getRowObjectsJS();
    expect(Number(groups[0]!.n)).toBe(1);
    for (const bad of [Number.NaN, 0, -5, '100' as unknown as number]) {
      const badPath = join(dir, `bad-${String(bad)}.parquet`);
      await expect(writeParquet(table, badPath, { rowGroupSize: bad })).rejects.toThrow(UsageError);
      await expect(toParquet(table, { rowGroupSize: bad })).rejects.toThrow(/rowGroupSize is a number of rows, at least 1/);
      expect(existsSync(badPath)).toBe(false);
    }
  });

  it('writes dates with fractional milliseconds, rounded to the millisecond', async () => {
    const t = new FrameTable([['seen_at', { kind: 'date', values: Float64Array.from([1_700_000_000_000.4, 1_700_000_000_000.6, Number.NaN]) }]], 3, { source: 'hand', notes: [] });
    const path = join(dir, 'fractional-dates.parquet');
    await writeParquet(t, path, { parallel: true });
    expect((await rowsOf(path, ['seen_at'])).map((r) => r.seen_at)).toEqual([1_700_000_000_000, 1_700_000_000_001, null]);
  });

  it('replaces a file atomically and names the path when the folder is missing', async () => {
    const path = join(dir, 'replace.parquet');
    await writeFile(path, 'old');
    await writeParquet(table.head(3), path);
    expect((await readFile(path)).subarray(0, 4).toString()).toBe('PAR1');
    await expect(writeParquet(table, join(dir, 'missing', 'x.parquet'))).rejects.toThrow(/missing\/x\.parquet/);
  });

  it('keeps the whole int range and the kinds of a hand-built table', async () => {
    const t = new FrameTable(
      [
        ['i', { kind: 'int', values: Int32Array.from([2147483647, -2147483647, 0]) }],
        ['f', { kind: 'float', values: Float64Array.from([Number.MAX_VALUE, -0.1, 5e-324]) }],
      ],
      3,
      { source: 'hand', notes: [] },
    );
    const path = join(dir, 'extremes.parquet');
    await writeParquet(t, path);
    expect(await rowsOf(path)).toEqual([
      { i: 2147483647, f: Number.MAX_VALUE },
      { i: -2147483647, f: -0.1 },
      { i: 0, f: 5e-324 },
    ]);
  });

  it('writes wide dictionaries (13-bit indices) and columns with no missing value, in pages of odd lengths', async () => {
    const n = 20_003;
    const wide = toTable(
      Array.from({ length: n }, (_, i) => ({ name: i % 97 === 0 ? null : `Name ${(i * 7) % 5000}`, quarter: i / 4, position: i, flag: i % 3 === 0 })),
      { metricColumns: ['quarter'] },
    );
    const path = join(dir, 'wide.parquet');
    await writeParquet(wide, path, { rowGroupSize: 4_099 });
    const sums = (await duck.runAndReadAll(`SELECT count(*) AS n, count(name) AS names, count(DISTINCT name) AS distinct_names, sum(quarter) AS quarters, sum(position) AS positions, count_if(flag) AS flags FROM ${quoted(path)}`)).getRowObjectsJS()[0]!;
    expect(sums).toEqual({ n: BigInt(n), names: BigInt(n - Math.ceil(n / 97)), distinct_names: 5000n, quarters: (n * (n - 1)) / 8, positions: (n * (n - 1)) / 2, flags: BigInt(Math.ceil(n / 3)) });
    expect(await rowsOf(path)).toEqual(expectedRows(wide));
  });
});

describe('fromParquet / readParquet', () => {
  const table = toTable(records, { metricColumns: ['empty_metric'] });
  const contents = (t: FrameTable<object, FrameMeta>) => t.columnNames.map((name) => [name, t.kindOf(name), t.values(name)]);

  it('reads back what toParquet wrote: columns, kinds, values, nulls and metadata', async () => {
    const back = await fromParquet(await toParquet(table, { rowGroupSize: 256 }));
    expect(contents(back)).toEqual(contents(table));
    expect(back.meta).toEqual(table.meta);
  });

  it('reads a file DuckDB wrote with its typed reader: ints, doubles, text, booleans, timestamps, nulls, several pages', async () => {
    const path = join(dir, 'duck-typed.parquet');
    await duck.run(
      `COPY (SELECT i::INTEGER AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 1001) / 10 END::DOUBLE AS rank, i::BIGINT * 3 AS big, CASE WHEN i % 11 = 0 THEN NULL ELSE 'Brand ' || (i % 613) END AS brand, CASE WHEN i % 13 = 0 THEN NULL ELSE i % 2 = 0 END AS even, TIMESTAMP '2024-01-01 07:00:00' + INTERVAL (i) MINUTE AS seen FROM range(30000) t(i)) TO ${quoted(path)} (FORMAT parquet, ROW_GROUP_SIZE 10000)`,
    );
    const buffer = (await readFile(path)).buffer;
    const { parquetMetadata } = await import('hyparquet');
    const metadata = parquetMetadata(buffer);
    // The typed reader covers every column of this file (no fallback to the general reader).
    const columns = await readColumns(buffer, metadata, ['id', 'rank', 'big', 'brand', 'even', 'seen']);
    expect(columns.map((c) => c?.kind)).toEqual(['int', 'float', 'float', 'string', 'bool', 'date']);
    const table = await readParquet(path);
    const expected = (await duck.runAndReadAll(`SELECT id, rank, big::DOUBLE AS big, brand, even, epoch_ms(seen)::DOUBLE AS seen FROM ${quoted(path)}`)).getRowObjectsJS();
    expect(table.rows().map((r) => ({ ...r, seen: (r.seen as Date).getTime() }))).toEqual(expected);
  });

  it('reads unsigned 64-bit ints, micro- and nanosecond timestamps, and a decimal beside them (the general reader, for that column only)', async () => {
    const path = join(dir, 'wide-ints.parquet');
    await duck.run(
      `COPY (SELECT * FROM (VALUES (18446744073709551615::UBIGINT, make_timestamp(1700000000000999), make_timestamp_ns(1700000000000999999), 1.5::DECIMAL(4, 1)), (9223372036854775808::UBIGINT, make_timestamp(-1500), make_timestamp_ns(-1500000), 2.5), (5::UBIGINT, NULL, NULL, 3.5)) t(u, us, ns, d)) TO ${quoted(path)} (FORMAT parquet)`,
    );
    const buffer = (await readFile(path)).buffer;
    const { parquetMetadata } = await import('hyparquet');
    expect((await readColumns(buffer, parquetMetadata(buffer), ['u', 'us', 'ns', 'd'])).map((c) => c?.kind)).toEqual(['float', 'date', 'date', undefined]);
    const table = await readParquet(path);
    expect(table.values('u')).toEqual([2 ** 64, 2 ** 63, 5]);
    // Whole milliseconds, truncated (as hyparquet's general reader and Date do).
    expect(table.numbers('us')).toEqual(Float64Array.from([1_700_000_000_000, -1, Number.NaN]));
    expect(table.numbers('ns')).toEqual(Float64Array.from([1_700_000_000_000, -1, Number.NaN]));
    expect(table.values('d')).toEqual([1.5, 2.5, 3.5]);
  });

  it('names list and struct columns in a DataError, and reads the others when asked for them', async () => {
    const path = join(dir, 'nested.parquet');
    await duck.run(`COPY (SELECT i AS id, [i, i + 1] AS pair, {'a': i, 'b': 'x'} AS point, 'm' || i AS market FROM range(5) t(i)) TO ${quoted(path)} (FORMAT parquet)`);
    const refused = await readParquet(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataError);
    expect(String(refused)).toMatch(/nested or binary.*Missing: pair, point/);
    const scalar = await readParquet(path, { columns: ['id', 'market'] });
    expect(scalar.rows()).toEqual([0, 1, 2, 3, 4].map((i) => ({ id: i, market: `m${i}` })));
  });

  it('refuses a ZSTD file with a DataError that says how to write one it reads', async () => {
    const path = join(dir, 'zstd.parquet');
    await duck.run(`COPY (SELECT i AS id FROM range(10) t(i)) TO ${quoted(path)} (FORMAT parquet, COMPRESSION zstd)`);
    await expect(readParquet(path)).rejects.toThrow(DataError);
    await expect(readParquet(path)).rejects.toThrow(/compressed with ZSTD; only Snappy and uncompressed .*compression='snappy'/);
  });

  it('reads a file DuckDB wrote, and only the columns asked for (its decimal column through the general reader)', async () => {
    const path = join(dir, 'duck.parquet');
    await duck.run(
      `COPY (SELECT i::INTEGER AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE (i * 0.5)::DOUBLE END AS score, (i * 0.25)::DECIMAL(6, 2) AS share, 'm' || (i % 4) AS market, i % 2 = 0 AS even, TIMESTAMP '2024-01-01' + INTERVAL (i) DAY AS day FROM range(10) t(i)) TO ${quoted(path)} (FORMAT parquet)`,
    );
    const back = await readParquet(path);
    expect(back.columnNames.map((c) => back.kindOf(c))).toEqual(['int', 'float', 'float', 'string', 'bool', 'date']);
    expect(back.values('share').slice(0, 3)).toEqual([0, 0.25, 0.5]);
    expect(back.values('score')).toEqual([null, 0.5, 1, null, 2, 2.5, null, 3.5, 4, null]);
    expect(back.values('market').slice(0, 5)).toEqual(['m0', 'm1', 'm2', 'm3', 'm0']);
    expect((back.get('day', 2) as Date).toISOString()).toBe('2024-01-03T00:00:00.000Z');
    expect((await readParquet(path, { columns: ['market', 'id'] })).columnNames).toEqual(['market', 'id']);
    await expect(readParquet(path, { columns: ['nope'] })).rejects.toThrow(/Missing: nope/);
  });
});

describe('the CLI writes Parquet', () => {
  async function cli(argv: string[]) {
    let stderr = '';
    const code = await run(argv, {
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token },
      signal: new AbortController().signal,
      cwd: dir,
    });
    return { code, stderr };
  }

  it('fetch --out x.parquet: the rows as a typed table, metrics as floats', async () => {
    const r = await cli(['fetch', 'brandscape-data', '--filter', 'country_code=GB', '--filter', 'year_number=2024', '--filter', 'audiences=1', '--metric-keys', 'esteem', '--include', 'brand,sector', '--per-page', '100', '--out', 'gb.parquet']);
    expect(r.stderr).toMatch(/into gb\.parquet/);
    expect(r.code).toBe(0);
    const path = join(dir, 'gb.parquet');
    const types = await typesOf(path);
    expect(types).toMatchObject({ id: 'INTEGER', brand_id: 'INTEGER', brand_name: 'VARCHAR', global_name: 'VARCHAR', sector_name: 'VARCHAR', esteem_rank: 'DOUBLE', esteem_c: 'DOUBLE' });
    const rows = await rowsOf(path);
    const client = (await import('../../src/client/create-client.js')).createClient({ baseUrl: emulator.url, token: emulator.token });
    const direct = await client.brandscape.all({ filter: { country_code: 'GB', year_number: 2024, audiences: 1 }, metricKeys: ['esteem'], include: ['brand', 'sector'] });
    expect(rows.length).toBe(direct.length);
    expect(rows.map((x) => [x.id, x.brand_id, x.global_name, x.esteem_rank])).toEqual(direct.map((d) => [d.id, d.brand_id, d.brand?.name ?? null, d.esteem_rank ?? null]));
  });

  it('compare --out x.parquet: the long form with its columns typed', async () => {
    const r = await cli(['compare', '--brands', 'Verion,Helos', '--markets', 'GB,US', '--metrics', 'esteem', '--out', 'veros.parquet', '--out', 'veros.csv']);
    expect(r.stderr).toMatch(/Wrote veros\.parquet/);
    expect(r.code).toBe(0);
    const rows = await rowsOf(join(dir, 'veros.parquet'));
    const csv = (await readFile(join(dir, 'veros.csv'), 'utf8')).trim().split('\n');
    expect(rows.length).toBe(csv.length - 1);
    expect(Object.keys(rows[0]!)).toEqual(csv[0]!.split(','));
    const types = await typesOf(join(dir, 'veros.parquet'));
    expect(types).toMatchObject({ brand_id: 'INTEGER', year: 'INTEGER', value: 'DOUBLE', market: 'VARCHAR', markets_compared: 'INTEGER' });
  });

  it('refuses Parquet on stdout, and an unknown extension still names the known ones', async () => {
    const r = await cli(['fetch', 'brands', '--format', 'parquet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/written to a file, not to the terminal/);
    const x = await cli(['fetch', 'brands', '--out', 'b.xls']);
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/\.parquet/);
  });
});
