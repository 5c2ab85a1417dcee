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
 * Its own column writer takes arrays of JS values and measured about 50 s for the benchmark's
 * 1M x 40 table on this machine (parquet-wasm, through Arrow IPC, about 15 s); this path takes
 * under a second.
 */
import type { Writer } from 'hyparquet-writer';
import { readFile } from 'node:fs/promises';
import type { ColumnChunk, DecodedArray, Encoding, FileMetaData, ParquetType, RowGroup, SchemaElement } from 'hyparquet';
import { DataError } from '../errors.js';
import { BOOL_NULL, FrameTable, INT_NULL, type FrameColumn, type FrameMeta } from '../frames/frame-table.js';
import { textColumn } from '../frames/string-dictionary.js';
import { writeFileAtomically } from './atomic-file.js';
import { bitWidthOf, encodePage, maxPageBytes, numberDictionary, PageScratch } from './parquet-pages.js';

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
  codec?: 'SNAPPY' | 'UNCOMPRESSED';
  /** Rows per row group (default 131,072). */
  rowGroupSize?: number;
}

const PHYSICAL: Readonly<Record<FrameColumn['kind'], ParquetType>> = { int: 'INT32', float: 'DOUBLE', bool: 'BOOLEAN', string: 'BYTE_ARRAY', date: 'INT64' };

function schemaOf(table: FrameTable<object, FrameMeta>): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.columnNames.length }];
  for (const [name, column] of table.entries()) {
    const element: SchemaElement = { name, type: PHYSICAL[column.kind], repetition_type: 'OPTIONAL' };
    if (column.kind === 'string') Object.assign(element, { converted_type: 'UTF8', logical_type: { type: 'STRING' } });
    if (column.kind === 'date') Object.assign(element, { converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } });
    schema.push(element);
  }
  return schema;
}

const textEncoder = new TextEncoder();

/** A column's dictionary page body: PLAIN byte arrays (4-byte length, UTF-8 bytes). */
function dictionaryBody(dictionary: readonly string[]): Uint8Array {
  const writer = new lib.ByteWriter();
  for (const text of dictionary) {
    const bytes = textEncoder.encode(text);
    writer.appendUint32(bytes.length);
    writer.appendBytes(bytes);
  }
  return writer.getBytes();
}

function compress(codec: 'SNAPPY' | 'UNCOMPRESSED', bytes: Uint8Array): Uint8Array {
  return codec === 'SNAPPY' ? lib.snappyCompress(bytes) : bytes;
}

function writeTable(table: FrameTable<object, FrameMeta>, writer: Writer, options: ParquetOptions): void {
  const codec = options.codec ?? 'SNAPPY';
  const rowGroup = Math.max(1, Math.floor(options.rowGroupSize ?? ROW_GROUP));
  const schema = schemaOf(table);
  const columns = [...table.entries()];
  const scratch = new PageScratch();
  const dictionaries = new Map<string, { body: Uint8Array; bitWidth: number; size: number }>();
  for (const [name, column] of columns) {
    if (column.kind === 'string') dictionaries.set(name, { body: dictionaryBody(column.dictionary), bitWidth: bitWidthOf(column.dictionary.length), size: column.dictionary.length });
  }
  writer.appendUint32(0x31524150); // PAR1
  const rowGroups: RowGroup[] = [];
  for (let start = 0; start < table.length; start += rowGroup) {
    const end = Math.min(table.length, start + rowGroup);
    const n = end - start;
    const chunks: ColumnChunk[] = [];
    let groupBytes = 0;
    for (const [name, column] of columns) {
      const chunkStart = writer.offset;
      let uncompressed = 0;
      let dictionaryOffset: bigint | undefined;
      // Text: the table's dictionary, in every row group. Numbers: the chunk's own, when it pays.
      const numbers = dictionaries.has(name) ? undefined : numberDictionary(column, start, end);
      const dictionary = dictionaries.get(name) ?? numbers;
      if (dictionary) {
        dictionaryOffset = BigInt(writer.offset);
        const body = compress(codec, dictionary.body);
        const header = new lib.ByteWriter(64);
        lib.writePageHeader(header, {
          type: 'DICTIONARY_PAGE',
          uncompressed_page_size: dictionary.body.length,
          compressed_page_size: body.length,
          dictionary_page_header: { num_values: dictionary.size, encoding: 'PLAIN' },
        });
        writer.appendBytes(header.getBytes());
        writer.appendBytes(body);
        uncompressed += header.offset + dictionary.body.length;
      }
      const dataOffset = BigInt(writer.offset);
      const { body: raw } = encodePage(column, start, end, scratch, dictionary);
      const body = compress(codec, raw);
      const encoding: Encoding = dictionary ? 'RLE_DICTIONARY' : 'PLAIN';
      const header = new lib.ByteWriter(64);
      lib.writePageHeader(header, {
        type: 'DATA_PAGE',
        uncompressed_page_size: raw.length,
        compressed_page_size: body.length,
        data_page_header: { num_values: n, encoding, definition_level_encoding: 'RLE', repetition_level_encoding: 'RLE' },
      });
      writer.appendBytes(header.getBytes());
      writer.appendBytes(body);
      uncompressed += header.offset + raw.length;
      const compressed = writer.offset - chunkStart;
      groupBytes += uncompressed;
      chunks.push({
        file_offset: BigInt(chunkStart),
        meta_data: {
          type: PHYSICAL[column.kind],
          encodings: dictionary ? ['PLAIN', 'RLE', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE'],
          path_in_schema: [name],
          codec,
          num_values: BigInt(n),
          total_uncompressed_size: BigInt(uncompressed),
          total_compressed_size: BigInt(compressed),
          data_page_offset: dataOffset,
          ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
        },
      } as ColumnChunk);
    }
    rowGroups.push({ columns: chunks, total_byte_size: BigInt(groupBytes), num_rows: BigInt(n) } as RowGroup);
    writer.flush?.();
  }
  const metadata = {
    version: 2,
    schema,
    num_rows: BigInt(table.length),
    row_groups: rowGroups,
    key_value_metadata: [{ key: 'brandscape.meta', value: JSON.stringify(table.meta) }],
    created_by: 'brandscape-kit',
    metadata_length: 0,
  } as FileMetaData;
  lib.writeMetadata(writer, metadata);
  writer.appendUint32(0x31524150); // PAR1
  writer.finish();
}

/**
 * A table as the bytes of a Parquet file.
 *
 * @example
 * const bytes = await toParquet(table); // Uint8Array, 'PAR1' ... 'PAR1'
 */
export async function toParquet(table: FrameTable<object, FrameMeta>, options: ParquetOptions = {}): Promise<Uint8Array> {
  await loadWriter();
  let size = 1 << 20;
  for (const [, column] of table.entries()) size += maxPageBytes(column, table.length) + (column.kind === 'string' ? column.dictionary.length * 16 : 0);
  // One buffer of about the file's size: a doubling buffer copied itself about 1 s on 1M x 40.
  const writer = new lib.ByteWriter(size);
  writeTable(table, writer, options);
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
  await writeFileAtomically(path, async (tempPath) => {
    writeTable(table, lib.fileWriter(tempPath), options);
  });
}

/** The kind a Parquet column becomes, from its schema element; undefined for nested or unsupported columns. */
function kindOf(element: SchemaElement): FrameColumn['kind'] | undefined {
  if (element.num_children) return undefined;
  // hyparquet decodes decimals to numbers.
  if (element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL') return 'float';
  const logical = element.logical_type?.type;
  if (logical === 'TIMESTAMP' || logical === 'DATE' || element.converted_type === 'TIMESTAMP_MILLIS' || element.converted_type === 'TIMESTAMP_MICROS' || element.converted_type === 'DATE') return 'date';
  switch (element.type) {
    case 'BOOLEAN':
      return 'bool';
    case 'INT32':
      return logical === 'INTEGER' && element.logical_type && 'bitWidth' in element.logical_type && !element.logical_type.isSigned ? 'float' : 'int';
    case 'INT64':
    case 'FLOAT':
    case 'DOUBLE':
      return 'float';
    case 'BYTE_ARRAY':
      return element.converted_type === 'UTF8' || logical === 'STRING' || logical === 'ENUM' || logical === 'JSON' ? 'string' : undefined;
    default:
      return undefined;
  }
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
        return v === null || v === undefined ? null : String(v);
      });
  }
}

/**
 * A Parquet file's bytes as a table (read with hyparquet, the writer's companion library): INT32 as
 * `int`, INT64, FLOAT, DOUBLE and decimals as `float`, BOOLEAN as `bool`, UTF-8 text as `string`,
 * timestamps and dates as `date`; nulls as missing values. Nested or binary columns are a
 * `DataError` naming them (select the others with `columns`).
 *
 * @example
 * const table = await fromParquet(await toParquet(table0)); // the same columns, kinds and values
 */
export async function fromParquet(bytes: Uint8Array, options: { columns?: readonly string[] } = {}): Promise<FrameTable> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { parquetMetadata, parquetRead } = await import('hyparquet');
  const metadata = parquetMetadata(buffer);
  const leaves = metadata.schema.slice(1);
  const names = options.columns ? [...options.columns] : leaves.filter((e) => !e.num_children).map((e) => e.name);
  const unknown = names.filter((name) => !leaves.some((e) => e.name === name));
  if (unknown.length > 0) throw new DataError('The Parquet file has no such column.', unknown, leaves.map((e) => e.name));
  const kinds = names.map((name) => kindOf(leaves.find((e) => e.name === name)!));
  const unsupported = names.filter((_, i) => kinds[i] === undefined);
  if (unsupported.length > 0) throw new DataError('These Parquet columns are nested or binary: a table holds numbers, text, booleans and dates.', unsupported, names.filter((_, i) => kinds[i] !== undefined));
  const n = Number(metadata.num_rows);
  const data = new Map<string, unknown[]>(names.map((name) => [name, new Array<unknown>(n)]));
  await parquetRead({
    file: buffer,
    metadata,
    columns: names,
    onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
      const out = data.get(columnName);
      if (!out) return;
      for (let i = rowStart; i < Math.min(rowEnd, n); i++) out[i] = columnData[i - rowStart];
    },
  });
  const meta = metadata.key_value_metadata?.find((kv) => kv.key === 'brandscape.meta')?.value;
  let parsed: FrameMeta = { source: 'parquet', notes: [] };
  try {
    if (meta) parsed = JSON.parse(meta) as FrameMeta;
  } catch {
    // Not ours, or damaged: the table is still the file's.
  }
  return new FrameTable(names.map((name, i) => [name, columnFrom(kinds[i]!, data.get(name)!, n)] as const), n, parsed);
}

/**
 * A Parquet file as a table (`fromParquet` of its bytes).
 *
 * @example
 * const table = await readParquet('brandscape.parquet');
 */
export async function readParquet(path: string, options: { columns?: readonly string[] } = {}): Promise<FrameTable> {
  return fromParquet(await readFile(path), options);
}
