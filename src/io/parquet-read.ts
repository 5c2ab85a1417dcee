/**
 * Reading flat Parquet columns straight into a table's typed arrays, page by page.
 *
 * Why not hyparquet's `parquetRead`: it hands every column over as a JavaScript array with a boxed
 * number (or null) per row, assembled value by value. Reading back the frames benchmark's 1M x 40
 * file (10 MB) took seconds in `parquetRead` alone and gigabytes of memory. Here the pages are
 * still decoded by hyparquet's own page readers (headers, decompression, levels, PLAIN and
 * dictionary values), but the values go into the column's typed array as they come, and a
 * dictionary is converted once per column chunk, not once per row.
 *
 * Covered: flat columns (optional or required) of the kinds a table holds, in data pages v1 and v2
 * with any encoding hyparquet decodes. Anything else (nested columns, decimals, INT96 timestamps,
 * fixed-length byte arrays, unknown logical types) is left to the caller, which reads those columns
 * the general way.
 */
import type { FileMetaData, SchemaElement } from 'hyparquet';
import { DataError } from '../errors.js';
import { damagedParquet, type ParquetSource } from './parquet-footer.js';
import { missingColumn, type FrameColumn } from '../frames/column.js';
import { StringDictionary } from '../frames/string-dictionary.js';

/** A column this reader does not cover; it is read with hyparquet's general reader instead. */
class Unsupported extends Error {}

/** A page whose content contradicts its header: the file is damaged (never a silently wrong value). */
class Damaged extends Error {}

async function readerLib() {
  const [column, datapage, plain, schema] = await Promise.all([
    import('hyparquet/src/column.js'),
    import('hyparquet/src/datapage.js'),
    import('hyparquet/src/plain.js'),
    import('hyparquet/src/schema.js'),
  ]);
  return { parquetHeader: column.parquetHeader, decompressPage: datapage.decompressPage, readDataPage: datapage.readDataPage, readDataPageV2: datapage.readDataPageV2, readPlain: plain.readPlain, schema };
}
type ReaderLib = Awaited<ReturnType<typeof readerLib>>;
/** hyparquet's description of a column for its page readers. */
type ColumnDecoder = Parameters<ReaderLib['readDataPageV2']>[2];

/** How a column's Parquet values become the table's: its kind and the conversion of one value. */
interface Target {
  kind: FrameColumn['kind'];
  /** A decoded value (number, bigint, boolean or bytes) as the table holds it. */
  convert: (value: unknown) => number | string;
}

const decoder = new TextDecoder();

/** An integer column declared unsigned (logical INTEGER, or the older UINT_32 / UINT_64). */
const isUnsigned = (element: SchemaElement): boolean =>
  (element.logical_type?.type === 'INTEGER' && !element.logical_type.isSigned) || element.converted_type === 'UINT_32' || element.converted_type === 'UINT_64';

/** The kind a Parquet column becomes in a table (by either reader), from its schema element; undefined for nested or unsupported columns. */
export function kindOf(element: SchemaElement): FrameColumn['kind'] | undefined {
  if (element.num_children) return undefined;
  // hyparquet decodes decimals to numbers.
  if (element.converted_type === 'DECIMAL' || element.logical_type?.type === 'DECIMAL') return 'float';
  const logical = element.logical_type?.type;
  if (logical === 'TIMESTAMP' || logical === 'DATE' || element.converted_type === 'TIMESTAMP_MILLIS' || element.converted_type === 'TIMESTAMP_MICROS' || element.converted_type === 'DATE') return 'date';
  switch (element.type) {
    case 'BOOLEAN':
      return 'bool';
    case 'INT32':
      return isUnsigned(element) ? 'float' : 'int';
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

/**
 * The column's kind and how this reader converts a value to it; Unsupported for what only the
 * general reader converts (decimals, INT96 timestamps, times and other logical types).
 */
function targetOf(element: SchemaElement): Target {
  const kind = kindOf(element);
  const logical = element.logical_type;
  const converted = element.converted_type;
  if (!kind || converted === 'DECIMAL' || logical?.type === 'DECIMAL') throw new Unsupported(`column ${element.name}`);
  if (logical && !['STRING', 'INTEGER', 'ENUM', 'JSON', 'TIMESTAMP', 'DATE'].includes(logical.type)) throw new Unsupported(logical.type);
  const number = (v: unknown) => (typeof v === 'bigint' ? Number(v) : (v as number));
  switch (kind) {
    case 'date': {
      if (logical?.type === 'DATE' || converted === 'DATE') return { kind, convert: (v) => (v as number) * 86_400_000 };
      if (element.type !== 'INT64') throw new Unsupported('timestamp');
      const unit = logical?.type === 'TIMESTAMP' ? logical.unit : converted === 'TIMESTAMP_MICROS' ? 'MICROS' : 'MILLIS';
      // Whole milliseconds, truncated as hyparquet's general reader and Date do.
      const per = BigInt(unit === 'MILLIS' ? 1 : unit === 'MICROS' ? 1e3 : 1e6);
      return { kind, convert: (v) => (typeof v === 'bigint' ? Number(v / per) : Math.trunc((v as number) / Number(per))) };
    }
    case 'bool':
      return { kind, convert: (v) => (v ? 1 : 0) };
    case 'int':
      return { kind, convert: number };
    case 'string':
      return { kind, convert: (v) => decoder.decode(v as Uint8Array) };
    case 'float':
      // An unsigned INT32; an unsigned INT64, which hyparquet reads as signed (values of 2^63 and more reinterpreted).
      if (element.type === 'INT32') return { kind, convert: (v) => (v as number) >>> 0 };
      if (element.type === 'INT64' && isUnsigned(element)) return { kind, convert: (v) => Number(BigInt.asUintN(64, v as bigint)) };
      return { kind, convert: number };
  }
}

/**
 * Throws a DataError when one of the named columns is compressed with a codec neither reader
 * decodes (ZSTD, polars' default; GZIP; LZ4; Brotli), naming the columns and how to write the file.
 */
export function assertReadableCodecs(metadata: FileMetaData, names: readonly string[], file?: ParquetSource): void {
  const found = new Map<string, string>();
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      const name = meta?.path_in_schema.join('.');
      if (meta && name && names.includes(name) && meta.codec !== 'SNAPPY' && meta.codec !== 'UNCOMPRESSED') found.set(name, meta.codec);
    }
  }
  if (found.size === 0) return;
  throw new DataError(`${file === undefined ? 'The Parquet data is' : `The Parquet file ${file} is`} compressed with ${[...new Set(found.values())].join(', ')}; only Snappy and uncompressed files can be read.`, [...found.keys()], [], {
    hint: "Write it with Snappy: pandas to_parquet(compression='snappy'), polars write_parquet(compression='snappy'), DuckDB COPY ... (FORMAT parquet, COMPRESSION snappy).",
  });
}

/**
 * The named flat columns of a Parquet file as table columns; undefined for each column outside what
 * this reader covers (the caller reads those the general way).
 *
 * The metadata must have passed `fromParquetFooter` and `checkColumnChunks` (every count checked
 * against the file); a page that still turns out damaged is a DataError naming `file` and the column.
 *
 * @example await readColumns(buffer, parquetMetadata(buffer), ['brand_id', 'differentiation_rank'])
 */
export async function readColumns(buffer: ArrayBuffer, metadata: FileMetaData, names: readonly string[], file?: ParquetSource): Promise<(FrameColumn | undefined)[]> {
  const lib = await readerLib();
  return names.map((name) => {
    try {
      return readColumn(lib, buffer, metadata, name, file);
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  });
}

/** One flat column; throws Unsupported when it is outside what this reader covers. */
function readColumn(lib: ReaderLib, buffer: ArrayBuffer, metadata: FileMetaData, name: string, file: ParquetSource): FrameColumn {
  const n = Number(metadata.num_rows);
  const schemaPath = lib.schema.getSchemaPath(metadata.schema, [name]);
  if (!lib.schema.isFlatColumn(schemaPath) || lib.schema.getMaxDefinitionLevel(schemaPath) > 1) throw new Unsupported(`nested column ${name}`);
  const element = schemaPath[schemaPath.length - 1]!.element;
  const target = targetOf(element);
  const column = missingColumn(target.kind, n);
  const texts = target.kind === 'string' ? new StringDictionary() : undefined;
  let row = 0;
  try {
    for (const group of metadata.row_groups) {
      const chunk = group.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === name)?.meta_data;
      if (!chunk) throw new Unsupported(`no chunk of ${name}`);
      const decode: ColumnDecoder = { pathInSchema: [name], type: element.type!, element, schemaPath, codec: chunk.codec, parsers: undefined as never };
      readChunk(lib, buffer, chunk, decode, Number(group.num_rows), row, column, target, texts);
      row += Number(group.num_rows);
    }
  } catch (error) {
    if (error instanceof Unsupported || error instanceof DataError) throw error;
    throw damagedParquet(file, `column '${name}' could not be decoded (${error instanceof Error ? error.message : String(error)})`, error);
  }
  return texts && column.kind === 'string' ? { ...column, dictionary: texts.values } : column;
}

/** One column chunk's pages into `column` from row `row`. */
function readChunk(
  lib: ReaderLib,
  buffer: ArrayBuffer,
  chunk: NonNullable<FileMetaData['row_groups'][number]['columns'][number]['meta_data']>,
  decode: ColumnDecoder,
  rows: number,
  row: number,
  column: FrameColumn,
  target: Target,
  texts: StringDictionary | undefined,
): void {
  const dictionaryAt = chunk.dictionary_page_offset === undefined ? undefined : Number(chunk.dictionary_page_offset);
  const start = dictionaryAt !== undefined && dictionaryAt > 0 && dictionaryAt < Number(chunk.data_page_offset) ? dictionaryAt : Number(chunk.data_page_offset);
  const reader = { view: new DataView(buffer, start, Number(chunk.total_compressed_size)), offset: 0 };
  /** The dictionary's values as the table holds them (text: codes in the table's dictionary). */
  let dictionary: (number | string)[] | Int32Array | undefined;
  let done = 0;
  while (done < rows) {
    if (reader.offset >= reader.view.byteLength) throw new Damaged('its column chunk ends before its rows do');
    const header = lib.parquetHeader(reader);
    const bytes = new Uint8Array(buffer, start + reader.offset, header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    if (header.type === 'DICTIONARY_PAGE') {
      const page = lib.decompressPage(bytes, header.uncompressed_page_size, decode.codec, undefined);
      const plain = readPlainExactly(lib, page, 0, decode.type, header.dictionary_page_header!.num_values, decode.element.type_length);
      const converted = Array.from(plain as ArrayLike<unknown>, target.convert);
      dictionary = texts ? Int32Array.from(converted as string[], (s) => texts.codeOf(s)) : converted;
      continue;
    }
    let page;
    let count: number;
    let encoding: string;
    if (header.type === 'DATA_PAGE') {
      const daph = header.data_page_header!;
      const body = lib.decompressPage(bytes, header.uncompressed_page_size, decode.codec, undefined);
      page = readPageV1(lib, body, daph.num_values, daph.encoding, decode) ?? lib.readDataPage(body, daph, decode);
      count = daph.num_values;
      encoding = daph.encoding;
    } else if (header.type === 'DATA_PAGE_V2') {
      page = lib.readDataPageV2(bytes, header, decode);
      count = header.data_page_header_v2!.num_values;
      encoding = header.data_page_header_v2!.encoding;
    } else continue; // index pages: nothing to read
    const indexed = encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY';
    if (indexed && !dictionary) throw new Damaged('a page holds dictionary indices, and its column chunk has no dictionary page before it');
    if (done + count > rows) throw new Damaged(`its pages hold more than the row group's ${rows} rows`);
    fill(column, row + done, count, page.definitionLevels ?? [], page.dataPage as ArrayLike<unknown>, indexed ? dictionary : undefined, target, texts);
    done += count;
  }
}

/** `count` rows from `at`: present ones (definition level 1, or all when there are no levels) take the next value. */
function fill(
  column: FrameColumn,
  at: number,
  count: number,
  levels: ArrayLike<number>,
  values: ArrayLike<unknown>,
  dictionary: (number | string)[] | Int32Array | undefined,
  target: Target,
  texts: StringDictionary | undefined,
): void {
  const out = column.kind === 'string' ? column.codes : column.values;
  const all = levels.length === 0;
  if (!all && levels.length < count) throw new Damaged(`a page has ${levels.length} definition levels for ${count} values`);
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (!all && levels[i] !== 1) continue;
    // A damaged page can say a value is present and not hold it, or index past its dictionary:
    // without these checks the row would silently take 0, NaN or another row's text.
    if (k >= values.length) throw new Damaged(`a page holds ${values.length} values where its levels say more are present`);
    const v = values[k++];
    if (dictionary) {
      if (typeof v !== 'number' || v < 0 || v >= dictionary.length) throw new Damaged(`a dictionary index (${String(v)}) is outside the dictionary's ${dictionary.length} values`);
      out[at + i] = dictionary[v] as number;
    } else if (texts) out[at + i] = texts.codeOf(target.convert(v) as string);
    else out[at + i] = target.convert(v) as number;
  }
}

/**
 * A v1 data page of a flat column: its definition levels (one byte a row; none when the column is
 * required) and its values, PLAIN or dictionary indices. Undefined for other encodings, which
 * hyparquet's `readDataPage` then reads. Levels and indices are unpacked here into typed arrays:
 * hyparquet unpacks them into arrays of numbers, which took most of the read.
 */
function readPageV1(lib: ReaderLib, body: Uint8Array, count: number, encoding: string, decode: ColumnDecoder): { definitionLevels: ArrayLike<number>; dataPage: unknown } | undefined {
  const indexed = encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY';
  if (!indexed && encoding !== 'PLAIN') return undefined;
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = 0;
  let levels: Uint8Array = new Uint8Array(0);
  let present = count;
  if (lib.schema.getMaxDefinitionLevel(decode.schemaPath) === 1) {
    if (body.length < 4) throw new Damaged('a page is too short for its definition levels');
    const length = view.getUint32(0, true);
    if (4 + length > body.length) throw new Damaged(`a page's definition levels claim ${length} bytes, past the end of the page`);
    levels = new Uint8Array(count);
    unpackHybrid(body, 4, 4 + length, 1, levels, count);
    present = 0;
    for (let i = 0; i < count; i++) present += levels[i]!;
    at = 4 + length;
  }
  if (!indexed) return { definitionLevels: levels, dataPage: readPlainExactly(lib, body, at, decode.type, present, decode.element.type_length) };
  const indices = new Int32Array(present);
  if (present > 0) {
    const width = body[at];
    if (width === undefined || width > 32) throw new Damaged(`a page's dictionary indices have a bit width of ${String(width)}`);
    unpackHybrid(body, at + 1, body.length, width, indices, present);
  }
  return { definitionLevels: levels, dataPage: indices };
}

/**
 * `count` PLAIN values from `bytes[at...]`, which they must fill exactly. hyparquet's readPlain
 * views the whole file's buffer, so values claimed past the page would be read from the next page's
 * bytes; and a page whose levels were damaged (an optional column read as required) has bytes left
 * over. Either way the values would be wrong without a word.
 */
function readPlainExactly(lib: ReaderLib, bytes: Uint8Array, at: number, type: ColumnDecoder['type'], count: number, typeLength: number | undefined): unknown {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: at };
  const values = lib.readPlain(reader, type, count, typeLength);
  if (reader.offset !== bytes.length) throw new Damaged(`a page's ${count} values take ${reader.offset - at} bytes, and the page holds ${bytes.length - at}`);
  return values;
}

/**
 * Decodes Parquet's RLE / bit-packed hybrid encoding of `count` values `width` bits wide (0..32)
 * from `bytes[at, end)` into `out`. A RangeError when the runs end before `count` values (a
 * damaged page).
 */
export function unpackHybrid(bytes: Uint8Array, at: number, end: number, width: number, out: Uint8Array | Int32Array, count: number): void {
  const valueBytes = (width + 7) >> 3;
  const mask = width === 32 ? -1 : (1 << width) - 1;
  let filled = 0;
  const short = () => new RangeError(`an RLE / bit-packed run ends past its page (${filled} of ${count} values read)`);
  while (filled < count) {
    if (at >= end) throw short();
    let header = 0;
    for (let shift = 0; ; shift += 7) {
      if (at >= end || shift > 35) throw short();
      const b = bytes[at++]!;
      header += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
    }
    if ((header & 1) === 0) {
      // An RLE run: a value repeated.
      if (at + valueBytes > end) throw short();
      let value = 0;
      for (let k = 0; k < valueBytes; k++) value |= bytes[at++]! << (8 * k);
      const stop = Math.min(count, filled + Math.floor(header / 2));
      out.fill(value, filled, stop);
      filled = stop;
    } else {
      // Bit-packed: (header >> 1) groups of 8 values, `width` bytes a group, least significant bit first.
      const runBytes = Math.floor(header / 2) * width;
      const stop = Math.min(count, filled + Math.floor(header / 2) * 8);
      // A last run may stop after the bytes of the values it holds (its padding left out).
      if (at + Math.ceil(((stop - filled) * width) / 8) > end) throw short();
      if (width === 1) {
        for (let q = at; filled < stop; q++) {
          const b = bytes[q]!;
          for (let k = 0; k < 8 && filled < stop; k++) out[filled++] = (b >> k) & 1;
        }
      } else {
        const last = at + runBytes;
        for (let bit = at * 8; filled < stop; filled++, bit += width) {
          const q = bit >>> 3;
          const r = bit & 7;
          // The value's bits start `r` bits into byte q and span at most 5 bytes.
          const low = (bytes[q]! | (bytes[q + 1]! << 8) | (bytes[q + 2]! << 16) | (bytes[q + 3]! << 24)) >>> r;
          const high = r + width > 32 && q + 4 < last ? bytes[q + 4]! << (32 - r) : 0;
          out[filled] = (low | high) & mask;
        }
      }
      at += runBytes;
    }
  }
}
