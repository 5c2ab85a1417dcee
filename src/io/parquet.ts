/**
 * Parquet export of a `FrameTable`. Column types are kept: `int` as INT32, `float` as DOUBLE,
 * `bool` as BOOLEAN, `date` as a UTC millisecond TIMESTAMP, `string` as dictionary-encoded UTF-8
 * (the table's own dictionary and codes, written as they are); `int` and `float` row groups with
 * few distinct values (at most half their rows, and 65,536) are dictionary-encoded too, as pyarrow
 * does: a brandscape rank has at most 1,001 values, so its pages shrink to 10-bit indices. Every
 * column is nullable and a missing value is a Parquet null (never 0 or NaN). pandas, polars and
 * DuckDB read the files with these types (pandas: Int32 with <NA> for an int column with nulls).
 *
 * The pages are encoded here, straight from the typed arrays (`parquet-pages.ts`); the file's
 * framing (page headers, Thrift metadata, Snappy) is hyparquet-writer's, a pure JavaScript library.
 * Its own column writer takes arrays of JS values and was tens of times slower on the benchmark's
 * 1M x 40 table (parquet-wasm, through Arrow IPC, too); `npm run bench` measures this path.
 */
import type { Writer } from 'hyparquet-writer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ColumnChunk, DecodedArray, Encoding, FileMetaData, PageHeader, ParquetType, RowGroup, SchemaElement } from 'hyparquet';
import { DataError, UsageError } from '../errors.js';
import { BOOL_NULL, FrameTable, INT_NULL, scanOf, takeColumnAt, type FrameColumn, type FrameMeta, type TableScan } from '../frames/frame-table.js';
import { textColumn } from '../frames/string-dictionary.js';
import { writeFileAtomically } from './atomic-file.js';
import { crc32 } from './crc32.js';
import { encodeChunk, type Codec, type EncodedChunk, type TextDictionary } from './parquet-chunks.js';
import { asParquetError, checkColumnChunks, fromParquetFooter, type ParquetSource } from './parquet-footer.js';
import { assertReadableCodecs, kindOf, readColumns as readFlat } from './parquet-read.js';
import { bitWidthOf, PageScratch, rowWidthOf } from './parquet-pages.js';
import { shareWork } from './parquet-workers.js';

/**
 * The Parquet libraries, imported on first use: about 50 modules that a command or a script which
 * never writes Parquet should not load (importing the package stays fast).
 */
async function writerLib() {
  const [main, datapage, metadata, snappy] = await Promise.all([
    import('hyparquet-writer'),
    import('hyparquet-writer/src/datapage.js'),
    import('hyparquet-writer/src/metadata.js'),
    import('hyparquet-writer/src/snappy.js'),
  ]);
  return {
    ByteWriter: main.ByteWriter,
    fileWriter: main.fileWriter,
    writePageHeader: datapage.writePageHeader,
    writeMetadata: metadata.writeMetadata,
    snappyCompress: snappy.snappyCompress,
  };
}
type WriterLib = Awaited<ReturnType<typeof writerLib>>;
/** Set by `loadWriter()` (Node caches the imports); the synchronous encoders below read it. */
let lib: WriterLib;
async function loadWriter(): Promise<void> {
  lib ??= await writerLib();
}

/** Rows per row group (and page): large enough for fast scans, small enough to encode a group at a time. */
const ROW_GROUP = 131072;

export interface ParquetOptions {
  /** Compression of the pages: `SNAPPY` (default; what pandas and polars read fastest) or `UNCOMPRESSED`. */
  codec?: Codec;
  /** Rows per row group (default 131,072). */
  rowGroupSize?: number;
  /**
   * Share the encoding with a worker thread: by default when the table is large (about 16 MB of
   * values or more) and the machine has a second core; `true` always, `false` never. The file's
   * bytes are the same either way.
   */
  parallel?: boolean;
}

const PHYSICAL: Readonly<Record<FrameColumn['kind'], ParquetType>> = { int: 'INT32', float: 'DOUBLE', bool: 'BOOLEAN', string: 'BYTE_ARRAY', date: 'INT64' };

function schemaOf(table: FrameTable<object, FrameMeta>): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.columnNames.length }];
  for (const name of table.columnNames) {
    const kind = table.kindOf(name)!;
    const element: SchemaElement = { name, type: PHYSICAL[kind], repetition_type: 'OPTIONAL' };
    if (kind === 'string') Object.assign(element, { converted_type: 'UTF8', logical_type: { type: 'STRING' } });
    if (kind === 'date') Object.assign(element, { converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } });
    schema.push(element);
  }
  return schema;
}

/** A column's dictionary page body: PLAIN byte arrays (4-byte length, UTF-8 bytes). */
function textDictionary(dictionary: readonly string[]): TextDictionary {
  const encoder = new TextEncoder();
  const parts = dictionary.map((text) => encoder.encode(text));
  const body = new Uint8Array(parts.reduce((sum, p) => sum + 4 + p.length, 0));
  const view = new DataView(body.buffer);
  let at = 0;
  for (const part of parts) {
    view.setUint32(at, part.length, true);
    body.set(part, at + 4);
    at += 4 + part.length;
  }
  return { body, bitWidth: bitWidthOf(dictionary.length), size: dictionary.length };
}

/**
 * Row groups encoded before they are written: as many as hold about this many bytes of values, so
 * a large table is written in a few batches and memory holds one batch's pages, not the file's.
 */
const BATCH_BYTES = 256 << 20;

/** The row group size asked for, checked: a whole number of rows, at least 1 (Infinity: one group). */
function rowGroupOf(size: number | undefined, rows: number): number {
  if (size === undefined) return ROW_GROUP;
  if (typeof size !== 'number' || Number.isNaN(size) || size < 1) {
    throw new UsageError(`rowGroupSize is a number of rows, at least 1; got ${String(size)}.`, { hint: 'Leave it out for the default, 131,072 rows.' });
  }
  return size === Infinity ? Math.max(1, rows) : Math.floor(size);
}

/** The source columns of a table's scan, in order (a lazy table's are its parent's: read them through `scan.rows`). */
const sourceColumns = (scan: TableScan): FrameColumn[] => scan.names.map((name) => scan.column(name)!);

/**
 * The table's row groups, encoded and compressed, in order: each an array of its column chunks.
 * They are encoded a batch at a time (`BATCH_BYTES`); for a batch large enough, a worker thread
 * (`parquet-workers.ts`) encodes about half the columns while this thread encodes the rest. The
 * bytes are the same either way. A lazy table (from `where`, `sortBy`) is read through its
 * selection a column chunk at a time: no column is gathered whole.
 */
async function* encodeGroups(table: FrameTable<object, FrameMeta>, rowGroup: number, codec: Codec, parallel: boolean | undefined): AsyncGenerator<EncodedChunk[]> {
  const scan = scanOf(table);
  const columns = sourceColumns(scan);
  const selection = scan.rows;
  const texts = columns.map((column) => (column.kind === 'string' ? textDictionary(column.dictionary) : undefined));
  const rowBytes = Math.max(1, rowWidthOf(columns));
  const batchGroups = Math.max(1, Math.floor(BATCH_BYTES / (rowBytes * rowGroup)));
  const scratch = new PageScratch();
  for (let start = 0; start < table.length; start += batchGroups * rowGroup) {
    const end = Math.min(table.length, start + batchGroups * rowGroup);
    const chunks = Array.from({ length: Math.ceil((end - start) / rowGroup) }, () => new Array<EncodedChunk>(columns.length));
    const encodeHere = (indices: readonly number[]) => {
      chunks.forEach((group, g) => {
        const from = start + g * rowGroup;
        const to = Math.min(end, from + rowGroup);
        for (const c of indices) {
          // Through a selection: this chunk's rows gathered (a row group's worth, let go once encoded).
          if (selection) group[c] = encodeChunk(takeColumnAt(columns[c]!, selection.subarray(from, to)), 0, to - from, codec, scratch, lib.snappyCompress, texts[c]);
          else group[c] = encodeChunk(columns[c]!, from, to, codec, scratch, lib.snappyCompress, texts[c]);
        }
      });
    };
    const split = parallel === false ? undefined : shareWork(columns, start, end, rowGroup, codec, texts, parallel === true, selection);
    // Settled either way before this thread's share runs, so that a failure there cannot leave the
    // worker's answer unhandled.
    const fromWorker = split?.chunks.then(
      (list) => ({ list }),
      () => undefined,
    );
    encodeHere(split?.here ?? columns.map((_, c) => c));
    if (split) {
      const answer = await fromWorker;
      // The worker failed (it stopped, or ran out of memory): its columns are encoded here instead.
      if (!answer) encodeHere(split.there);
      else for (const { group, column, chunk } of answer.list) chunks[group]![column] = chunk;
    }
    yield* chunks;
  }
}

/**
 * Encodes the table and writes the file to `writer`, a batch of row groups at a time (flushed to
 * a file writer after each group).
 */
async function writeTable(table: FrameTable<object, FrameMeta>, options: ParquetOptions, writer: Writer): Promise<void> {
  const codec = options.codec ?? 'SNAPPY';
  const rowGroup = rowGroupOf(options.rowGroupSize, table.length);
  const names = table.columnNames;
  const kinds = names.map((name) => table.kindOf(name));
  writer.appendUint32(0x31524150); // PAR1
  const rowGroups: RowGroup[] = [];
  let g = 0;
  for await (const group of encodeGroups(table, rowGroup, codec, options.parallel)) {
    const n = Math.min(table.length, (g + 1) * rowGroup) - g * rowGroup;
    g++;
    const chunks: ColumnChunk[] = [];
    let groupBytes = 0;
    group.forEach(({ dictionary, data }, c) => {
      const chunkStart = writer.offset;
      let uncompressed = 0;
      let dictionaryOffset: bigint | undefined;
      if (dictionary) {
        dictionaryOffset = BigInt(writer.offset);
        uncompressed += appendPage(writer, dictionary.raw, dictionary.body, { type: 'DICTIONARY_PAGE', dictionary_page_header: { num_values: dictionary.size, encoding: 'PLAIN' } });
      }
      const dataOffset = BigInt(writer.offset);
      const encoding: Encoding = dictionary ? 'RLE_DICTIONARY' : 'PLAIN';
      uncompressed += appendPage(writer, data.raw, data.body, {
        type: 'DATA_PAGE',
        data_page_header: { num_values: n, encoding, definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
      });
      groupBytes += uncompressed;
      chunks.push({
        file_offset: BigInt(chunkStart),
        meta_data: {
          type: PHYSICAL[kinds[c]!],
          encodings: dictionary ? ['PLAIN', 'RLE', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE'],
          path_in_schema: [names[c]!],
          codec,
          num_values: BigInt(n),
          total_uncompressed_size: BigInt(uncompressed),
          total_compressed_size: BigInt(writer.offset - chunkStart),
          data_page_offset: dataOffset,
          ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
        },
      });
    });
    rowGroups.push({ columns: chunks, total_byte_size: BigInt(groupBytes), num_rows: BigInt(n) });
    // A writer's flush and finish may be asynchronous (hyparquet-writer's `Writer`): awaited, so
    // that the file is written in order and a failed write rejects this call.
    await writer.flush?.();
  }
  const metadata = {
    version: 2,
    schema: schemaOf(table),
    num_rows: BigInt(table.length),
    row_groups: rowGroups,
    key_value_metadata: [{ key: 'brandscape.meta', value: JSON.stringify(table.meta) }],
    created_by: 'brandscape-kit',
    metadata_length: 0,
  } as FileMetaData;
  lib.writeMetadata(writer, metadata);
  writer.appendUint32(0x31524150); // PAR1
  await writer.finish();
}

/**
 * Appends a page (its header, then its body); returns its uncompressed size, header included. The
 * header carries the CRC-32 of the body (Parquet's optional page checksum, a signed i32): a reader
 * that checks it, ours among them, finds a damaged page instead of reading wrong values.
 */
function appendPage(writer: Writer, raw: number, body: Uint8Array, header: Omit<PageHeader, 'uncompressed_page_size' | 'compressed_page_size'>): number {
  const bytes = new lib.ByteWriter(64);
  lib.writePageHeader(bytes, { ...header, uncompressed_page_size: raw, compressed_page_size: body.length, crc: crc32(body) | 0 });
  writer.appendBytes(bytes.getBytes());
  writer.appendBytes(body);
  return bytes.offset + raw;
}

/**
 * A table as the bytes of a Parquet file.
 *
 * @example
 * const bytes = await toParquet(table); // Uint8Array, 'PAR1' ... 'PAR1'
 */
export async function toParquet(table: FrameTable<object, FrameMeta>, options: ParquetOptions = {}): Promise<Uint8Array> {
  await loadWriter();
  // A first guess at the file's size (the buffer doubles past it): the values' bytes, or a quarter
  // of them compressed.
  const values = rowWidthOf(sourceColumns(scanOf(table))) * table.length;
  const writer = new lib.ByteWriter((1 << 16) + (options.codec === 'UNCOMPRESSED' ? values : values >> 2));
  await writeTable(table, options, writer);
  return writer.getBytes();
}

/**
 * Writes a table to a Parquet file, atomically: the file appears whole or not at all (a previous
 * file stays until the new one is complete). A file system error is an `OutputError` naming `path`.
 *
 * @example
 * await writeParquet(table, 'brandscape.parquet');
 * // pandas: pd.read_parquet('brandscape.parquet'); polars: pl.read_parquet(...); DuckDB: SELECT * FROM 'brandscape.parquet'
 */
export async function writeParquet(table: FrameTable<object, FrameMeta>, path: string, options: ParquetOptions = {}): Promise<void> {
  await loadWriter();
  rowGroupOf(options.rowGroupSize, table.length); // a bad option fails before the file is begun
  await writeFileAtomically(path, async (tempPath) => {
    await writeTable(table, options, lib.fileWriter(tempPath));
  });
}

function columnFrom(kind: FrameColumn['kind'], data: unknown[] | DecodedArray, n: number): FrameColumn {
  const at = (i: number): unknown => (data as ArrayLike<unknown>)[i];
  switch (kind) {
    case 'int': {
      const values = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const v = at(i);
        values[i] = v === null || v === undefined ? INT_NULL : Number(v);
      }
      return { kind, values };
    }
    case 'float':
    case 'date': {
      const values = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const v = at(i);
        values[i] = v === null || v === undefined ? Number.NaN : v instanceof Date ? v.getTime() : Number(v);
      }
      return { kind, values };
    }
    case 'bool': {
      const values = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const v = at(i);
        values[i] = v === null || v === undefined ? BOOL_NULL : v ? 1 : 0;
      }
      return { kind, values };
    }
    case 'string':
      return textColumn(n, (i) => {
        const v = at(i);
        // A JSON column's values come decoded (objects, numbers): written back as JSON text.
        return v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v);
      });
  }
}

/** The file's columns: the root's children (a list or struct column is one, with its parts below it). */
function topLevel(schema: readonly SchemaElement[]): SchemaElement[] {
  const out: SchemaElement[] = [];
  let at = 1;
  const skip = (): void => {
    const element = schema[at++]!;
    for (let k = 0; k < (element.num_children ?? 0); k++) skip();
  };
  for (let k = 0; k < (schema[0]?.num_children ?? 0) && at < schema.length; k++) {
    out.push(schema[at]!);
    skip();
  }
  return out;
}

/** The table's meta as written by `toParquet`, or a plain one when it is not ours or is damaged. */
function metaOf(text: string | undefined): FrameMeta {
  const plain: FrameMeta = { source: 'parquet', notes: [] };
  if (text === undefined) return plain;
  try {
    const parsed: unknown = JSON.parse(text);
    // Only a meta of the shape FrameMeta promises: a damaged one must not break the table's methods later.
    const ok = typeof parsed === 'object' && parsed !== null && typeof (parsed as FrameMeta).source === 'string' && Array.isArray((parsed as FrameMeta).notes) && (parsed as FrameMeta).notes.every((n) => typeof n === 'string');
    return ok ? (parsed as FrameMeta) : plain;
  } catch {
    return plain;
  }
}

export interface ParquetReadOptions {
  /** The columns to read (default: all), in this order. */
  columns?: readonly string[];
}

/**
 * A Parquet file's bytes as a table (read with hyparquet, the writer's companion library): INT32 as
 * `int`, INT64, FLOAT, DOUBLE and decimals as `float`, BOOLEAN as `bool`, UTF-8 text as `string`,
 * timestamps and dates as `date`; nulls as missing values. Nested or binary columns are a
 * `DataError` naming them (select the others with `columns`).
 *
 * Every count in the file's footer and page headers is checked against its bytes before anything
 * is allocated (`parquet-footer.ts`): a damaged or crafted file is a `DataError` saying what is
 * wrong, and the memory a read takes stays bounded by the file's size.
 *
 * @example
 * const table = await fromParquet(await toParquet(table0)); // the same columns, kinds and values
 */
export async function fromParquet(bytes: Uint8Array, options: ParquetReadOptions = {}): Promise<FrameTable> {
  if (!(bytes instanceof Uint8Array)) throw new UsageError(`fromParquet takes a Parquet file's bytes (a Uint8Array or Buffer); got ${bytes === null ? 'null' : typeof bytes}.`, { hint: 'To read a file by its path, use readParquet(path).' });
  return readTable(bytes, options, undefined);
}

async function readTable(bytes: Uint8Array, options: ParquetReadOptions, file: ParquetSource): Promise<FrameTable> {
  const layout = await fromParquetFooter(bytes, file);
  const { metadata } = layout;
  const leaves = topLevel(metadata.schema);
  const names = options.columns ? [...options.columns] : leaves.map((e) => e.name);
  const unknown = names.filter((name) => !leaves.some((e) => e.name === name));
  if (unknown.length > 0) throw new DataError(`The Parquet ${file === undefined ? 'data has' : `file ${file} has`} no such column.`, unknown, leaves.map((e) => e.name));
  const kinds = names.map((name) => kindOf(leaves.find((e) => e.name === name)!));
  const unsupported = names.filter((_, i) => kinds[i] === undefined);
  if (unsupported.length > 0) throw new DataError('These Parquet columns are nested or binary: a table holds numbers, text, booleans and dates.', unsupported, names.filter((_, i) => kinds[i] !== undefined));
  const n = Number(metadata.num_rows);
  assertReadableCodecs(metadata, names, file);
  const { parquetHeader } = await import('hyparquet/src/column.js');
  // Before anything is sized from the footer: the memory the columns take, and every page header.
  checkColumnChunks(bytes, layout, names, parquetHeader, file);
  // Reading never writes to the bytes: they are used in place when they fill their buffer.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const buffer = whole ? bytes.buffer : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  try {
    const { parquetRead } = await import('hyparquet');
    const columns = await readFlat(buffer, metadata, names, file);
    // Columns outside what the typed reader covers (nested, decimal, INT96...): hyparquet's general reader.
    const others = names.filter((_, i) => columns[i] === undefined);
    if (others.length > 0) {
      const data = new Map<string, unknown[]>(others.map((name) => [name, new Array<unknown>(n)]));
      await parquetRead({
        file: buffer,
        metadata,
        columns: others,
        onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
          const out = data.get(columnName);
          if (!out) return;
          for (let i = rowStart; i < Math.min(rowEnd, n); i++) out[i] = columnData[i - rowStart];
        },
      });
      names.forEach((name, i) => (columns[i] ??= columnFrom(kinds[i]!, data.get(name)!, n)));
    }
    const meta = metaOf(metadata.key_value_metadata?.find((kv) => kv.key === 'brandscape.meta')?.value);
    return new FrameTable(names.map((name, i) => [name, columns[i]!] as const), n, meta);
  } catch (error) {
    throw asParquetError(error, file);
  }
}

/**
 * The bytes of a file to read as Parquet, refusing what is not a regular file before reading: a
 * FIFO or a device would block the read or never end (`/dev/zero`), a folder has no bytes. Opened
 * non-blocking so that even a FIFO's open returns at once.
 */
async function loadParquetBytes(path: string): Promise<Uint8Array> {
  if (typeof path !== 'string' || path === '') throw new UsageError('readParquet takes the path of a Parquet file; got an empty path.');
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a part of its path is not a folder' : `it could not be opened (${code ?? String(error)})`;
    throw new UsageError(`Cannot read the Parquet file ${path}: ${why}.`, { hint: 'Check the path.', cause: error });
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new UsageError(`Cannot read the Parquet file ${path}: it is a folder.`, { hint: 'Give the path of a .parquet file inside it.' });
    if (!info.isFile()) {
      const kind = info.isFIFO() ? 'a named pipe (FIFO)' : info.isCharacterDevice() || info.isBlockDevice() ? 'a device' : info.isSocket() ? 'a socket' : 'not a regular file';
      throw new UsageError(`Cannot read the Parquet file ${path}: it is ${kind}, and a Parquet file is read from its end.`, { hint: 'Save the data to a regular file first, or pass its bytes to fromParquet.' });
    }
    // Exactly the size the file had when opened: a file that grows meanwhile cannot make the read grow.
    const bytes = new Uint8Array(info.size);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read the Parquet file ${path}: ${code === 'EISDIR' ? 'it is a folder' : `a read failed (${code ?? String(error)})`}.`, { cause: error });
  } finally {
    await handle.close();
  }
}

/**
 * A Parquet file as a table (`fromParquet` of its bytes). A path that is missing, a folder, a FIFO
 * or a device is a `UsageError`; a damaged file a `DataError` naming the path and what is wrong.
 *
 * @example
 * const table = await readParquet('brandscape.parquet');
 */
export async function readParquet(path: string, options: ParquetReadOptions = {}): Promise<FrameTable> {
  return readTable(await loadParquetBytes(path), options, path);
}
