/**
 * The bad-input catalogue, Parquet reader (issue 25): damaged files built from a valid file written
 * by our own writer, one field of its footer or one page changed (`test/helpers/parquet-damage.ts`),
 * each read from a path and refused with a `DataError` naming the path and what is wrong, before
 * anything is sized from the damaged count. Paths that are not files are `UsageError`s. Then a
 * seeded fuzz loop (every outcome the original table or a DataError, never another error, never a
 * hang) and, in a child process, the memory a crafted file can make a read take.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { FrameTable } from '../../src/frames/frame-table.js';
import { toTable } from '../../src/frames/to-table.js';
import { fromParquet, readParquet, toParquet } from '../../src/io/parquet.js';
import {
  PATH,
  T,
  damageFooter,
  damagePage,
  fieldAt,
  joinParquet,
  seeded,
  setField,
  splitParquet,
  type ThriftList,
  type ThriftStruct,
  type ThriftValue,
} from '../helpers/parquet-damage.js';

let dir: string;
/** Five kinds of column, nulls, a dictionary-encoded text column; one row group, Snappy. */
let valid: Uint8Array;
/** The same table, uncompressed: page bodies are the values themselves. */
let plain: Uint8Array;
/** One row, one int column, uncompressed: the smallest file (about 115 bytes), as in the issue. */
let tiny: Uint8Array;
const records = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1,
  brand: i % 13 === 0 ? null : `Brand ${i % 7}`,
  score: i % 7 === 0 ? null : (i * 37) / 8 - 60,
  dup: i % 17 === 0 ? null : i % 2 === 0,
  at: i % 19 === 0 ? null : new Date(Date.UTC(2024, i % 12, 1)).toISOString(),
}));
const table = toTable(records);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-bad-parquet-'));
  valid = await toParquet(table);
  plain = await toParquet(table, { codec: 'UNCOMPRESSED' });
  tiny = await toParquet(new FrameTable([['n', { kind: 'int', values: Int32Array.of(7) }]], 1, { source: 'test', notes: [] }), { codec: 'UNCOMPRESSED' });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BIG = 2n ** 31n - 1n;
/** Column 1 (brand) is dictionary-encoded: page 0 its dictionary, page 1 its data. */
const BRAND = 1;

/** The page body of an optional column whose values are all missing: one RLE run of `n` zero levels. */
function allMissing(n: number): Uint8Array {
  const run: number[] = [];
  for (let v = n * 2; ; v = Math.floor(v / 128)) {
    run.push(v >= 128 ? (v % 128) | 0x80 : v);
    if (v < 128) break;
  }
  run.push(0);
  const body = new Uint8Array(4 + run.length);
  new DataView(body.buffer).setUint32(0, run.length, true);
  body.set(run, 4);
  return body;
}

/** A file whose every count says 2^31-1 rows and whose one page really encodes them (all missing): valid, and a bomb. */
function bomb(): Uint8Array {
  const body = allMissing(Number(BIG));
  const paged = damagePage(
    tiny,
    { group: 0, column: 0, page: 0 },
    (header) => {
      setField(header, [2], body.length);
      setField(fieldAt(header, [5]).value as ThriftStruct, [1], Number(BIG));
      return body;
    },
    { crc: 'fix' },
  );
  return damageFooter(paged, (f) => {
    setField(f, PATH.numRows, BIG);
    setField(f, PATH.groupRows(0), BIG);
    setField(f, PATH.numValues(0, 0), BIG);
  });
}

/** A footer made of `depth` nested structs (field 1, type struct), then as many STOPs. */
function nestedFooter(depth: number): Uint8Array {
  const footer = new Uint8Array(depth * 2 + 1).fill(0x1c, 0, depth).fill(0, depth);
  const out = new Uint8Array(4 + footer.length + 8);
  out.set([0x50, 0x41, 0x52, 0x31]);
  out.set(footer, 4);
  new DataView(out.buffer).setUint32(4 + footer.length, footer.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.length - 4);
  return out;
}

/** The file's data with a footer of raw bytes of our choosing. */
function withFooter(file: Uint8Array, footer: number[]): Uint8Array {
  const { data } = splitParquet(file);
  const out = new Uint8Array(data.length + footer.length + 8);
  out.set(data);
  out.set(footer, data.length);
  new DataView(out.buffer).setUint32(data.length + footer.length, footer.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.length - 4);
  return out;
}
/** A footer holding its version (field 1, i32 2), then one raw field of our choosing (field 3 on). */
const rawField = (file: Uint8Array, bytes: number[]) => withFooter(file, [0x15, 0x04, ...bytes, 0x00]);

interface ParquetCase {
  name: string;
  bytes: () => Uint8Array;
  says: RegExp;
}

const CASES: ParquetCase[] = [
  // The frame: magic numbers and the footer's length
  { name: 'an empty file', bytes: () => new Uint8Array(0), says: /is empty \(0 bytes\)/ },
  { name: "'PAR1PAR1' (magic numbers and nothing else)", bytes: () => new TextEncoder().encode('PAR1PAR1'), says: /only 8 bytes, too short for a Parquet file/ },
  { name: 'a file cut short in its data', bytes: () => valid.slice(0, 60), says: /does not end with 'PAR1' \(cut short/ },
  { name: 'a file cut short in its footer', bytes: () => valid.slice(0, valid.length - 9), says: /does not end with 'PAR1'/ },
  { name: 'random bytes', bytes: () => Uint8Array.from({ length: 4096 }, seededBytes(7)), says: /does not start with 'PAR1' \(not a Parquet file\)/ },
  { name: 'random bytes between the magic numbers', bytes: () => Uint8Array.from([0x50, 0x41, 0x52, 0x31, ...Array.from({ length: 200 }, seededBytes(8)), 0x50, 0x41, 0x52, 0x31]), says: /footer claims \d+ bytes, more than the 208-byte file holds|its footer is damaged/ },
  { name: 'a footer length past the start of the file', bytes: () => withFooterLength(valid, valid.length), says: /footer claims \d+ bytes, more than the \d+-byte file holds/ },
  { name: 'a footer length of 0', bytes: () => withFooterLength(valid, 0), says: /its footer is empty/ },
  // Counts of the footer
  { name: '2^40 rows', bytes: () => damageFooter(valid, (f) => setField(f, PATH.numRows, 2n ** 40n)), says: /number of rows is 1099511627776, more than the most rows a table holds \(2,147,483,647\)/ },
  { name: '-5 rows', bytes: () => damageFooter(valid, (f) => setField(f, PATH.numRows, -5n)), says: /number of rows is -5, below zero/ },
  { name: '2^31-1 rows in a 115-byte file (the footer only)', bytes: () => damageFooter(tiny, (f) => setField(f, PATH.numRows, BIG)), says: /declares 2147483647 rows, but its row groups hold 1/ },
  { name: '2^31-1 rows in the footer and its row group', bytes: () => damageFooter(tiny, (f) => (setField(f, PATH.numRows, BIG), setField(f, PATH.groupRows(0), BIG))), says: /column 'n' of row group 0 has 1 values for 2147483647 rows/ },
  { name: '2^31-1 rows everywhere in the footer, one row in the page', bytes: () => damageFooter(tiny, (f) => (setField(f, PATH.numRows, BIG), setField(f, PATH.groupRows(0), BIG), setField(f, PATH.numValues(0, 0), BIG))), says: /pages hold 1 of the 2147483647 values its footer declares|would take about/ },
  { name: '2^31-1 rows that the page really encodes (a valid decompression bomb)', bytes: bomb, says: /1 column of 2,147,483,647 rows would take about 16,384 MB in memory, more than 2,048 times the file's/ },
  { name: 'a row count that is bytes, not a number', bytes: () => damageFooter(valid, (f) => setField(f, PATH.numRows, new Uint8Array([1, 2]), T.BINARY)), says: /its number of rows is a byte string, not a count/ },
  // The schema
  { name: 'a schema declaring 1,000 columns and describing 5', bytes: () => damageFooter(valid, (f) => setField(f, PATH.rootChildren, 1000)), says: /schema declares more columns than it describes \(1000 under the root; 5 elements in all\)/ },
  { name: 'a schema with elements outside its tree', bytes: () => damageFooter(valid, (f) => setField(f, PATH.rootChildren, 2)), says: /schema lists 3 elements outside its tree/ },
  { name: 'a schema with no elements', bytes: () => damageFooter(valid, (f) => setField(f, PATH.schema, { elemType: T.STRUCT, items: [] })), says: /footer has no schema/ },
  { name: 'two columns of one name', bytes: () => damageFooter(valid, (f) => setField(fieldAt(f, [2, 2]).value as ThriftStruct, [4], new TextEncoder().encode('id'))), says: /two columns are named 'id'/ },
  { name: 'a column of an unknown physical type', bytes: () => damageFooter(valid, (f) => setField(fieldAt(f, [2, 1]).value as ThriftStruct, [1], 99)), says: /column 'id' has no known type/ },
  { name: 'a column nested 100 deep', bytes: () => damageFooter(valid, (f) => setField(f, PATH.schema, deepSchema(100))), says: /schema nests more than 64 deep/ },
  // Row groups and column chunks
  { name: 'a row group missing a column chunk', bytes: () => damageFooter(valid, (f) => (fieldAt(f, [4, 0, 1]).value as ThriftList).items.pop()), says: /row group 0 has 4 column chunks for the schema's 5 columns/ },
  { name: 'a column chunk for another column', bytes: () => damageFooter(valid, (f) => setField(fieldAt(f, PATH.chunkMeta(0, 0)).value as ThriftStruct, [3], { elemType: T.BINARY, items: [new TextEncoder().encode('brand')] })), says: /column chunk 0 of row group 0 is for 'brand', where the schema has 'id'/ },
  { name: 'a column chunk of another type than its column', bytes: () => damageFooter(valid, (f) => setField(fieldAt(f, PATH.chunkMeta(0, 0)).value as ThriftStruct, [1], 5)), says: /column 'id' of row group 0 holds DOUBLE, where the schema says INT32/ },
  { name: 'a column chunk whose data point past the end of the file', bytes: () => damageFooter(valid, (f) => setField(f, PATH.dataPageOffset(0, 0), 10n ** 6n)), says: /column 'id' of row group 0 lies at bytes 1000000 to \d+, outside the file's data \(bytes 4 to \d+\)/ },
  { name: 'a column chunk whose data point into the magic number', bytes: () => damageFooter(valid, (f) => setField(f, PATH.dataPageOffset(0, 0), 1n)), says: /column 'id' of row group 0 lies at bytes 1 to/ },
  { name: 'a column chunk that runs into the footer', bytes: () => damageFooter(valid, (f) => setField(f, PATH.compressedSize(0, 2), 10n ** 5n)), says: /column 'score' of row group 0 lies at bytes \d+ to \d+, outside the file's data/ },
  { name: 'a column chunk of 2^62 bytes', bytes: () => damageFooter(valid, (f) => setField(f, PATH.compressedSize(0, 2), 2n ** 62n)), says: /the size of column 'score' of row group 0 is 4611686018427387904, more than/ },
  { name: 'a dictionary after its data', bytes: () => damageFooter(valid, (f) => setField(f, PATH.dictionaryPageOffset(0, BRAND), BIG)), says: /column 'brand' of row group 0 puts its dictionary \(byte 2147483647\) after its data/ },
  { name: 'fewer values than rows in a column chunk', bytes: () => damageFooter(valid, (f) => setField(f, PATH.numValues(0, 3), 2n)), says: /column 'dup' of row group 0 has 2 values for 40 rows/ },
  { name: 'an unknown compression codec', bytes: () => damageFooter(valid, (f) => setField(f, PATH.codec(0, 0), 99)), says: /column 'id' of row group 0 has an unknown compression codec/ },
  { name: 'column data kept in another file', bytes: () => damageFooter(valid, (f) => setField(fieldAt(f, [4, 0, 1, 0]).value as ThriftStruct, [1], new TextEncoder().encode('../../etc/passwd'), T.BINARY)), says: /column 'id' keeps its data in another file \(\.\.\/\.\.\/etc\/passwd\), which this reader does not follow/ },
  // The footer's Thrift bytes
  { name: 'a footer list claiming 2^28 items', bytes: () => damageFooter(valid, (f) => ((fieldAt(f, PATH.rowGroups).value as ThriftList).claimed = 2 ** 28)), says: /its footer is damaged \(a list claims 268435456 items, more than its \d+ bytes can hold\)/ },
  { name: 'a footer text longer than the footer', bytes: () => rawField(valid, [0x28, 0xff, 0xff, 0xff, 0x7f]), says: /its footer is damaged \(a text of 268435455 bytes runs past the end/ },
  { name: 'a footer nested 10,000 structures deep', bytes: () => nestedFooter(10_000), says: /its footer is damaged \(structures nest more than 32 deep\)/ },
  { name: 'a footer with a map (not a Parquet type)', bytes: () => rawField(valid, [0x2b, 0x00]), says: /its footer is damaged \(a field of unknown type 11\)/ },
  { name: 'a footer that ends in the middle of a number', bytes: () => withFooter(valid, [0x15, 0x04, 0x16, 0x80]), says: /its footer is damaged \(a number runs past the end\)/ },
  { name: 'a footer that ends without its STOP byte', bytes: () => withFooter(valid, [0x15, 0x04]), says: /its footer is damaged \(a structure runs past the end\)/ },
  // Page headers and pages
  { name: 'a page larger than its column chunk', bytes: () => damagePage(valid, { group: 0, column: 0, page: 0 }, (h) => setField(h, [3], 5000)), says: /column 'id' of row group 0: the page at byte 4 claims 5000 bytes, past the end of its column chunk/ },
  { name: 'a page that claims to expand a thousandfold', bytes: () => damagePage(valid, { group: 0, column: 2, page: 0 }, (h) => setField(h, [2], 1 << 30)), says: /column 'score' of row group 0: the page at byte \d+ claims to expand from \d+ to 1073741824 bytes/ },
  { name: 'a page with more values than its column chunk', bytes: () => damagePage(valid, { group: 0, column: 0, page: 0 }, (h) => setField(fieldAt(h, [5]).value as ThriftStruct, [1], 41)), says: /column 'id' of row group 0: its pages hold more values \(41\) than its footer declares \(40\)/ },
  { name: 'a page with fewer values than its column chunk', bytes: () => damagePage(valid, { group: 0, column: 0, page: 0 }, (h) => setField(fieldAt(h, [5]).value as ThriftStruct, [1], 39)), says: /column 'id' of row group 0: its pages hold 39 of the 40 values its footer declares/ },
  { name: 'a page with -1 values', bytes: () => damagePage(valid, { group: 0, column: 0, page: 0 }, (h) => setField(fieldAt(h, [5]).value as ThriftStruct, [1], -1)), says: /the page at byte 4: its number of values is -1, below zero/ },
  { name: 'a dictionary of a million values in a few bytes', bytes: () => damagePage(valid, { group: 0, column: BRAND, page: 0 }, (h) => setField(fieldAt(h, [7]).value as ThriftStruct, [1], 1_000_000)), says: /claims 1000000 dictionary values in \d+ bytes/ },
  { name: 'a page of an unknown type', bytes: () => damagePage(valid, { group: 0, column: 0, page: 0 }, (h) => setField(h, [1], 9)), says: /the page at byte 4 is of an unknown type/ },
  { name: 'a page header overwritten with 0xff', bytes: () => overwrite(valid, 4, 12, 0xff), says: /column 'id' of row group 0: a page header at byte 4 is damaged/ },
  { name: 'a page whose body was changed (its checksum no longer matches)', bytes: () => flip(plain, 30), says: /column 'id' of row group 0: the page at byte 4 does not match its checksum \(CRC-32\)/ },
  { name: 'definition levels longer than their page (checksum made to match)', bytes: () => damagePage(plain, { group: 0, column: 0, page: 0 }, (_h, body) => withUint32(body, 0, 1 << 20), { crc: 'fix' }), says: /column 'id' could not be decoded \(a page's definition levels claim 1048576 bytes, past the end of the page\)/ },
  { name: 'dictionary indices past the dictionary (checksum made to match)', bytes: () => damagePage(plain, { group: 0, column: BRAND, page: 1 }, (_h, body) => widenIndices(body), { crc: 'fix' }), says: /column 'brand' could not be decoded \(.*(outside the dictionary|ends past its page)/ },
];

function seededBytes(seed: number): () => number {
  const rand = seeded(seed);
  return () => Math.floor(rand() * 256);
}
function withFooterLength(file: Uint8Array, length: number): Uint8Array {
  const out = file.slice();
  new DataView(out.buffer).setUint32(out.length - 8, length, true);
  return out;
}
function overwrite(file: Uint8Array, at: number, n: number, value: number): Uint8Array {
  const out = file.slice();
  out.fill(value, at, at + n);
  return out;
}
function flip(file: Uint8Array, at: number): Uint8Array {
  const out = file.slice();
  out[at] = out[at]! ^ 0x40;
  return out;
}
function withUint32(body: Uint8Array, at: number, value: number): Uint8Array {
  const out = body.slice();
  new DataView(out.buffer).setUint32(at, value, true);
  return out;
}
/** A dictionary-indexed data page whose indices are read 16 bits wide: values far past the dictionary's few entries. */
function widenIndices(body: Uint8Array): Uint8Array {
  const out = body.slice();
  const levels = new DataView(out.buffer).getUint32(0, true);
  out[4 + levels] = 16;
  out.fill(0xff, 5 + levels);
  return out;
}
/** A schema of `depth` nested groups around one int column. */
function deepSchema(depth: number): ThriftList {
  const items: ThriftValue[] = [];
  for (let k = 0; k < depth; k++) items.push([{ id: 4, type: T.BINARY, value: new TextEncoder().encode(`g${k}`) }, { id: 5, type: T.I32, value: 1 }]);
  items.push([{ id: 1, type: T.I32, value: 1 }, { id: 3, type: T.I32, value: 1 }, { id: 4, type: T.BINARY, value: new TextEncoder().encode('leaf') }]);
  return { elemType: T.STRUCT, items };
}

describe('a damaged Parquet file', () => {
  it.each(CASES)('$name: a DataError naming the file and what is wrong', async (c) => {
    const path = join(dir, 'damaged file.parquet');
    await writeFile(path, c.bytes());
    const error = await readParquet(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, 'expected a DataError').toBeInstanceOf(DataError);
    const message = (error as Error).message;
    expect(message).toContain(`The Parquet file ${path} cannot be read:`);
    expect(message).toMatch(c.says);
    // The same bytes in memory: the same refusal, naming "the Parquet data".
    await expect(fromParquet(c.bytes())).rejects.toThrow(/^The Parquet data cannot be read:/);
    // Reading writes nothing: the folder holds the file and nothing else.
    expect(await readdir(dir)).toEqual(['damaged file.parquet']);
  });

  it('is read when undamaged: the same helpers on an unchanged file give the table back', async () => {
    for (const bytes of [valid, plain, tiny, joinParquet(splitParquet(valid)), damageFooter(valid, () => {})]) {
      const back = await fromParquet(bytes);
      expect(back.length).toBeGreaterThan(0);
    }
    expect((await fromParquet(valid)).rows()).toEqual(table.rows());
  });
});

describe('a path that is not a Parquet file', () => {
  it.each([
    ['a path that does not exist', async () => join(dir, 'nothing-here.parquet'), /Cannot read the Parquet file .*nothing-here\.parquet: there is no such file/],
    ['a folder', async () => dir, /Cannot read the Parquet file .*: it is a folder/],
    [
      'a FIFO (no writer: the read would block forever)',
      async () => {
        const fifo = join(dir, 'pipe.parquet');
        if (!existsSync(fifo)) execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      /it is a named pipe \(FIFO\), and a Parquet file is read from its end/,
    ],
    ['a device that never ends (/dev/zero)', async () => '/dev/zero', /Cannot read the Parquet file \/dev\/zero: it is a device/],
    ['an empty path', async () => '', /readParquet takes the path of a Parquet file; got an empty path/],
  ] as [string, () => Promise<string>, RegExp][])('%s: a UsageError naming it, at once', async (_name, pathOf, says) => {
    const path = await pathOf();
    const error = await readParquet(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error)?.name).toBe('UsageError');
    expect((error as Error).message).toMatch(says);
    await rm(join(dir, 'pipe.parquet'), { force: true });
  });

  it('bytes that are not bytes: a UsageError', async () => {
    await expect(fromParquet('PAR1' as unknown as Uint8Array)).rejects.toThrow(/fromParquet takes a Parquet file's bytes \(a Uint8Array or Buffer\); got string/);
  });
});

/** Integer fields of a footer, anywhere in it, with the path that reaches them (for the fuzz loop). */
function integerFields(struct: ThriftStruct, out: { value: ThriftValue; type: number; set: (v: number) => void }[] = []) {
  for (const f of struct) {
    if (f.type === T.I16 || f.type === T.I32 || f.type === T.I64) out.push({ value: f.value, type: f.type, set: (v) => (f.value = f.type === T.I64 ? BigInt(v) : v) });
    else if (f.type === T.STRUCT) integerFields(f.value as ThriftStruct, out);
    else if (f.type === T.LIST) for (const item of (f.value as ThriftList).items) if (Array.isArray(item)) integerFields(item, out);
  }
  return out;
}

describe('seeded random damage', () => {
  it('gives the original table or a DataError, never another error and never a hang (600 mutations)', async () => {
    const sources = [await toParquet(table, { rowGroupSize: 16 }), await toParquet(table, { codec: 'UNCOMPRESSED', rowGroupSize: 25 })];
    const expected = table.rows();
    const outcomes = { same: 0, refused: 0 };
    const EXTREMES = [0, -1, 1, 7, 1000, 2 ** 20, 2 ** 31 - 1, -(2 ** 31)];
    for (let seed = 1; seed <= 600; seed++) {
      const rand = seeded(seed);
      const pick = (n: number) => Math.floor(rand() * n);
      let bytes: Uint8Array = sources[seed % 2]!.slice();
      const kind = seed % 5;
      if (kind === 0) for (let k = 0; k <= pick(8); k++) bytes[pick(bytes.length)] = pick(256); // random bytes anywhere
      else if (kind === 1) bytes = bytes.slice(0, pick(bytes.length)); // cut short
      else if (kind === 2) {
        // A run of 0x00 or 0xff
        const at = pick(bytes.length);
        bytes.fill(rand() < 0.5 ? 0 : 0xff, at, at + 1 + pick(16));
      }
      else if (kind === 3) {
        // One integer of the footer set to an extreme value
        const parts = splitParquet(bytes);
        const fields = integerFields(parts.footer);
        fields[pick(fields.length)]!.set(EXTREMES[pick(EXTREMES.length)]!);
        bytes = joinParquet(parts);
      } else {
        // Random bytes in the footer's Thrift
        const length = new DataView(bytes.buffer).getUint32(bytes.length - 8, true);
        for (let k = 0; k <= pick(3); k++) bytes[bytes.length - 8 - length + pick(length)] = pick(256);
      }
      const outcome = await fromParquet(bytes).then(
        (back) => ({ back }),
        (error: unknown) => ({ error }),
      );
      if ('back' in outcome) {
        // No checksum covers the footer: a change there may still describe the same table, and must then read as it.
        expect(outcome.back.rows(), `seed ${seed}`).toEqual(expected);
        outcomes.same++;
      } else {
        expect((outcome.error as Error).name, `seed ${seed}: ${(outcome.error as Error).stack}`).toBe('DataError');
        expect((outcome.error as Error).message).toMatch(/^The Parquet data (cannot be read: |is compressed with )/);
        outcomes.refused++;
      }
    }
    // Most mutations damage the file; a few (a footer field nobody reads, bytes already 0) do not.
    expect(outcomes.refused).toBeGreaterThan(400);
    expect(outcomes.same + outcomes.refused).toBe(600);
  }, 120_000);
});

describe('memory', () => {
  it('stays bounded by the file: crafted files claiming 2^31-1 rows are refused in a process of 64 MB heap, its peak memory under 250 MB', async () => {
    const dist = resolve('dist/io/parquet.js');
    expect(existsSync(dist), 'run npm run build first').toBe(true);
    const files = { footerOnly: damageFooter(tiny, (f) => setField(f, PATH.numRows, BIG)), everyCount: damageFooter(tiny, (f) => (setField(f, PATH.numRows, BIG), setField(f, PATH.groupRows(0), BIG), setField(f, PATH.numValues(0, 0), BIG))), validBomb: bomb() };
    const paths: string[] = [];
    for (const [name, bytes] of Object.entries(files)) {
      const path = join(dir, `${name}.parquet`);
      await writeFile(path, bytes);
      paths.push(path);
    }
    const script = `
      const { readParquet } = await import(${JSON.stringify(dist)});
      const out = [];
      for (const path of ${JSON.stringify(paths)}) {
        try { await readParquet(path); out.push('read'); } catch (e) { out.push(e.name); }
      }
      console.log(JSON.stringify({ out, maxRssMb: process.resourceUsage().maxRSS / 1024 }));`;
    const child = spawnSync(process.execPath, ['--max-old-space-size=64', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout) as { out: string[]; maxRssMb: number };
    expect(result.out).toEqual(['DataError', 'DataError', 'DataError']);
    // Node itself and the reader's modules take about 50-70 MB; before the checks, 8 GB and more.
    expect(result.maxRssMb).toBeLessThan(250);
    for (const path of paths) await rm(path);
  }, 90_000);
});
