/**
 * A Parquet file's footer, checked before anything is sized from it.
 *
 * Why: hyparquet trusts the footer. It sizes arrays from the counts it finds there (rows, list
 * lengths, values per page, uncompressed page sizes), so a 115-byte file declaring 2^31-1 rows made
 * the reader allocate until the process was killed, and a damaged file failed with whatever plain
 * `Error`, `RangeError` or `TypeError` the first bad count caused. Here every count is checked
 * against the bytes that are really there, in three steps, before hyparquet sees the file and
 * before a table is allocated:
 *
 * 1. the frame: 'PAR1' at both ends, a footer length that fits the file;
 * 2. the footer's Thrift bytes, walked without building anything: every list and every byte
 *    string fits in the bytes left, structures nest at most 32 deep, only Parquet's types occur;
 * 3. the decoded metadata: rows of the file = rows of its row groups, a schema whose tree uses
 *    exactly its elements, one column chunk per column in every row group, each chunk inside the
 *    file's data, its values at least its rows; then (`checkColumnChunks`) the page headers of the
 *    chunks to be read: each page inside its chunk, values summing to the chunk's, sizes a codec
 *    can really expand to, and a table that fits the memory budget (`MAX_EXPANSION`).
 *
 * A failure is a `DataError` naming the file (when it was read from a path) and what is wrong.
 */
import type { ColumnMetaData, FileMetaData, PageHeader, SchemaElement } from 'hyparquet';
import { BrandscapeError, DataError } from '../errors.js';
import { crc32 } from './crc32.js';

/** 'PAR1' as a little-endian uint32. */
const MAGIC = 0x31524150;
/** Deeper Thrift nesting than a Parquet footer ever has (about 8): a crafted file. */
const MAX_THRIFT_DEPTH = 32;
/** Deeper column nesting than any real schema: hyparquet walks the schema recursively. */
const MAX_SCHEMA_DEPTH = 64;
/** Rows a table can hold (its row indices are 32-bit). */
const MAX_ROWS = 2 ** 31 - 1;
/**
 * The memory a file may become: its columns' values at 8 bytes each may take up to this many times
 * the file's size, or `MIN_BUDGET` for a small file. Real files stay far below: the frames
 * benchmark's 1M x 40 file becomes about 28 times its size, and the extreme a writer makes, a
 * column that is all missing or all one value, about 1,000 to 10,000 times. Past this, the file is
 * a decompression bomb (or almost nothing but repeated values): reading fewer columns helps.
 */
const MAX_EXPANSION = 2048;
const MIN_BUDGET = 256 * 2 ** 20;
/**
 * Snappy's largest expansion: a 3-byte copy writes at most 64 bytes. A page claiming more than this
 * times its compressed size (plus the length header) cannot be real.
 */
const SNAPPY_EXPANSION = 22;

/** Where the bytes came from, for messages: a path, or undefined for bytes in memory. */
export type ParquetSource = string | undefined;

/**
 * The error for a damaged file: names the file and what is wrong, and what to do.
 *
 * @example throw damagedParquet('rows.parquet', 'it does not end with PAR1');
 */
export function damagedParquet(file: ParquetSource, what: string, cause?: unknown): DataError {
  const subject = file === undefined ? 'The Parquet data' : `The Parquet file ${file}`;
  return new DataError(`${subject} cannot be read: ${what}.`, [], [], {
    hint: 'It is damaged, cut short or not a Parquet file: write it again, or fetch a fresh copy.',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A failure inside the Thrift walk: the caller names where (the footer, a page header). */
class ThriftDamage extends Error {}

/** An unsigned varint at `at` (at most `maxBytes` long); returns [value, next offset]. */
function varint(bytes: Uint8Array, at: number, end: number, maxBytes: number): [number, number] {
  let value = 0;
  for (let k = 0; k < maxBytes; k++) {
    if (at >= end) throw new ThriftDamage('a number runs past the end');
    const b = bytes[at++]!;
    value += (b & 0x7f) * 2 ** (7 * k);
    if (b < 0x80) return [value, at];
  }
  throw new ThriftDamage(`a number is longer than ${maxBytes} bytes`);
}

/** The fewest bytes one element of a list of this type takes (a list may not claim more elements than that allows). */
const minSize = (type: number): number => (type === 7 ? 8 : 1);

function scanValue(bytes: Uint8Array, at: number, end: number, type: number, inList: boolean, depth: number): number {
  switch (type) {
    case 1: // TRUE
    case 2: // FALSE: in a struct the type is the value; in a list, one byte
      if (!inList) return at;
      if (at + 1 > end) throw new ThriftDamage('a value runs past the end');
      return at + 1;
    case 3: // BYTE
      if (at + 1 > end) throw new ThriftDamage('a value runs past the end');
      return at + 1;
    case 4: // I16
    case 5: // I32
      return varint(bytes, at, end, 5)[1];
    case 6: // I64
      return varint(bytes, at, end, 10)[1];
    case 7: // DOUBLE
      if (at + 8 > end) throw new ThriftDamage('a value runs past the end');
      return at + 8;
    case 8: {
      // BINARY: a length, then the bytes
      const [length, next] = varint(bytes, at, end, 5);
      if (length > end - next) throw new ThriftDamage(`a text of ${length} bytes runs past the end (${end - next} bytes left)`);
      return next + length;
    }
    case 9: // LIST
    case 10: {
      // SET (not used by Parquet, but encoded as a list)
      if (at >= end) throw new ThriftDamage('a list runs past the end');
      const head = bytes[at++]!;
      const elemType = head & 0x0f;
      let size = head >> 4;
      if (size === 15) [size, at] = varint(bytes, at, end, 5);
      if (elemType === 0 || elemType > 12) throw new ThriftDamage(`a list of unknown type ${elemType}`);
      if (size * minSize(elemType) > end - at) throw new ThriftDamage(`a list claims ${size} items, more than its ${end - at} bytes can hold`);
      if (elemType === 12 && depth + 1 > MAX_THRIFT_DEPTH) throw new ThriftDamage(`structures nest more than ${MAX_THRIFT_DEPTH} deep`);
      for (let i = 0; i < size; i++) at = scanValue(bytes, at, end, elemType, true, depth + 1);
      return at;
    }
    case 12: // STRUCT
      return scanStruct(bytes, at, end, depth + 1);
    default:
      // 11 (MAP) and anything else: Parquet's Thrift has no maps.
      throw new ThriftDamage(`a field of unknown type ${type}`);
  }
}

function scanStruct(bytes: Uint8Array, at: number, end: number, depth: number): number {
  if (depth > MAX_THRIFT_DEPTH) throw new ThriftDamage(`structures nest more than ${MAX_THRIFT_DEPTH} deep`);
  for (;;) {
    if (at >= end) throw new ThriftDamage('a structure runs past the end');
    const head = bytes[at++]!;
    const type = head & 0x0f;
    if (type === 0) return at;
    // A field id as a delta in the high nibble, or (0) a zigzag varint of its own.
    if (head >> 4 === 0) at = varint(bytes, at, end, 3)[1];
    at = scanValue(bytes, at, end, type, false, depth);
  }
}

/**
 * Walks one Thrift compact structure in `bytes[at, end)` without building it; returns where it
 * ends. Throws when it would make a reader allocate more than the bytes hold, nest too deep, or
 * read past `end`.
 */
function checkThrift(bytes: Uint8Array, at: number, end: number, file: ParquetSource, where: string): number {
  try {
    return scanStruct(bytes, at, end, 1);
  } catch (error) {
    if (error instanceof ThriftDamage) throw damagedParquet(file, `${where} is damaged (${error.message})`);
    throw error;
  }
}

/**
 * A count from the decoded metadata: a whole number from 0 to `max`. Thrift gives bigint or
 * number, or, in a damaged footer, anything else (bytes where a number should be).
 */
function countOf(value: unknown, what: string, file: ParquetSource, max = Number.MAX_SAFE_INTEGER, limit = 'the most this reader takes'): number {
  if ((typeof value !== 'bigint' && typeof value !== 'number') || (typeof value === 'number' && !Number.isInteger(value))) throw damagedParquet(file, `${what} is ${describe(value)}, not a count`);
  // Compared before any conversion: a bigint past 2^53 must not round to a plausible number.
  if (value < 0) throw damagedParquet(file, `${what} is ${value}, below zero`);
  if (value > max) throw damagedParquet(file, `${what} is ${value}, more than ${limit} (${max.toLocaleString('en-US')})`);
  return Number(value);
}

const describe = (value: unknown): string => (typeof value === 'number' ? String(value) : value === undefined ? 'missing' : `a ${value instanceof Uint8Array ? 'byte string' : typeof value}`);

/** What the footer check found, for the page check: where the data ends. */
export interface ParquetLayout {
  metadata: FileMetaData;
  /** The file's size in bytes. */
  size: number;
  /** Where the footer starts: every column chunk ends at or before it. */
  dataEnd: number;
}

/**
 * The file's metadata, every count in it checked against the file (see the top of this file).
 *
 * @example
 * const { metadata } = await fromParquetFooter(new Uint8Array(buffer), 'rows.parquet');
 */
export async function fromParquetFooter(bytes: Uint8Array, file: ParquetSource): Promise<ParquetLayout> {
  const size = bytes.byteLength;
  if (size === 0) throw damagedParquet(file, 'it is empty (0 bytes)');
  // 'PAR1', at least an empty footer's STOP byte, its length and 'PAR1' again.
  if (size < 13) throw damagedParquet(file, `it is only ${size} bytes, too short for a Parquet file`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  if (view.getUint32(0, true) !== MAGIC) throw damagedParquet(file, "it does not start with 'PAR1' (not a Parquet file)");
  if (view.getUint32(size - 4, true) !== MAGIC) throw damagedParquet(file, "it does not end with 'PAR1' (cut short, or not a Parquet file)");
  const footerLength = view.getUint32(size - 8, true);
  if (footerLength === 0) throw damagedParquet(file, 'its footer is empty');
  if (footerLength > size - 12) throw damagedParquet(file, `its footer claims ${footerLength} bytes, more than the ${size}-byte file holds`);
  const dataEnd = size - 8 - footerLength;
  checkThrift(bytes, dataEnd, size - 8, file, 'its footer');
  const { parquetMetadata } = await import('hyparquet');
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(bytes);
  } catch (error) {
    throw damagedParquet(file, `its footer could not be decoded (${error instanceof Error ? error.message : String(error)})`, error);
  }
  checkMetadata(metadata, dataEnd, file);
  return { metadata, size, dataEnd };
}

/**
 * Whether a decoded footer field really is a list (a crafted footer can leave it out). Unlike a bare
 * `Array.isArray`, which narrows a readonly array to `any[]`, it keeps the element type.
 */
function isList<T>(value: readonly T[]): value is readonly T[] {
  return Array.isArray(value);
}

/** The leaves of the schema (its columns of values) with their paths, the tree checked on the way. */
function leavesOf(schema: readonly SchemaElement[], file: ParquetSource): { element: SchemaElement; path: string[] }[] {
  if (!isList(schema) || schema.length === 0) throw damagedParquet(file, 'its footer has no schema');
  const root = schema[0]!;
  const leaves: { element: SchemaElement; path: string[] }[] = [];
  // A stack of [children still to visit, path] instead of recursion: depth is what a crafted schema attacks.
  const stack: { left: number; path: string[] }[] = [{ left: countOf(root.num_children ?? 0, 'the number of columns', file), path: [] }];
  const declared = stack[0]!.left;
  let at = 1;
  const topNames = new Set<string>();
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.left === 0) {
      stack.pop();
      continue;
    }
    top.left--;
    const element = schema[at];
    if (element === undefined) throw damagedParquet(file, `its schema declares more columns than it describes (${declared} under the root; ${schema.length - 1} elements in all)`);
    at++;
    if (typeof element.name !== 'string') throw damagedParquet(file, `schema element ${at - 1} has no name`);
    const path = [...top.path, element.name];
    if (stack.length === 1) {
      if (topNames.has(element.name)) throw damagedParquet(file, `two columns are named '${element.name}'`);
      topNames.add(element.name);
    }
    const children = countOf(element.num_children ?? 0, `the number of children of '${path.join('.')}'`, file);
    if (children > 0) {
      if (stack.length >= MAX_SCHEMA_DEPTH) throw damagedParquet(file, `its schema nests more than ${MAX_SCHEMA_DEPTH} deep`);
      stack.push({ left: children, path });
    } else {
      if (element.type === undefined) throw damagedParquet(file, `column '${path.join('.')}' has no known type`);
      leaves.push({ element, path });
    }
  }
  if (at !== schema.length) throw damagedParquet(file, `its schema lists ${schema.length - at} elements outside its tree`);
  return leaves;
}

/** Step 3 of the top of this file: the decoded metadata against itself and the file's size. */
function checkMetadata(metadata: FileMetaData, dataEnd: number, file: ParquetSource): void {
  const leaves = leavesOf(metadata.schema, file);
  const rows = countOf(metadata.num_rows, 'its number of rows', file, MAX_ROWS, 'the most rows a table holds');
  if (!Array.isArray(metadata.row_groups)) throw damagedParquet(file, 'its footer has no list of row groups');
  let groupRows = 0;
  metadata.row_groups.forEach((group, g) => {
    const n = countOf(group.num_rows, `the number of rows of row group ${g}`, file, MAX_ROWS, 'the most rows a table holds');
    groupRows += n;
    if (!Array.isArray(group.columns) || group.columns.length !== leaves.length) {
      throw damagedParquet(file, `row group ${g} has ${Array.isArray(group.columns) ? group.columns.length : 'no'} column chunks for the schema's ${leaves.length} columns`);
    }
    group.columns.forEach((chunk, c) => {
      const leaf = leaves[c]!;
      const name = leaf.path.join('.');
      const meta = chunk.meta_data;
      if (chunk.file_path !== undefined) throw damagedParquet(file, `column '${name}' keeps its data in another file (${chunk.file_path}), which this reader does not follow`);
      if (!meta) throw damagedParquet(file, `column '${name}' of row group ${g} has no metadata`);
      if (!Array.isArray(meta.path_in_schema) || meta.path_in_schema.join('.') !== name) {
        throw damagedParquet(file, `column chunk ${c} of row group ${g} is for '${Array.isArray(meta.path_in_schema) ? meta.path_in_schema.join('.') : '?'}', where the schema has '${name}'`);
      }
      if (meta.type !== leaf.element.type) throw damagedParquet(file, `column '${name}' of row group ${g} holds ${meta.type ?? 'an unknown type'}, where the schema says ${leaf.element.type}`);
      if (meta.codec === undefined) throw damagedParquet(file, `column '${name}' of row group ${g} has an unknown compression codec`);
      const values = countOf(meta.num_values, `the number of values of column '${name}' in row group ${g}`, file);
      // Every row has at least one value (a null counts) in every column.
      if (values < n) throw damagedParquet(file, `column '${name}' of row group ${g} has ${values} values for ${n} rows`);
      const { start, end } = chunkRange(meta, `column '${name}' of row group ${g}`, file);
      if (start < 4 || end > dataEnd) throw damagedParquet(file, `column '${name}' of row group ${g} lies at bytes ${start} to ${end}, outside the file's data (bytes 4 to ${dataEnd})`);
      if (values > 0 && end === start) throw damagedParquet(file, `column '${name}' of row group ${g} has ${values} values in 0 bytes`);
    });
  });
  if (groupRows !== rows) throw damagedParquet(file, `it declares ${rows} rows, but its row groups hold ${groupRows}`);
}

/** Where a column chunk's bytes are: from its dictionary page (if it comes first) to its compressed size on. */
function chunkRange(meta: ColumnMetaData, what: string, file: ParquetSource): { start: number; end: number } {
  const dataAt = countOf(meta.data_page_offset, `the data offset of ${what}`, file);
  const dictionaryAt = meta.dictionary_page_offset === undefined ? undefined : countOf(meta.dictionary_page_offset, `the dictionary offset of ${what}`, file);
  // Some writers put 0 for "no dictionary", and some point both offsets at the dictionary page. A
  // dictionary after the data is damage: read from the data page on, the values would lose it.
  if (dictionaryAt !== undefined && dictionaryAt > dataAt) throw damagedParquet(file, `${what} puts its dictionary (byte ${dictionaryAt}) after its data (byte ${dataAt})`);
  const start = dictionaryAt !== undefined && dictionaryAt > 0 ? dictionaryAt : dataAt;
  return { start, end: start + countOf(meta.total_compressed_size, `the size of ${what}`, file) };
}

/** hyparquet's page header parser, loaded with the rest of the reader. */
type HeaderParser = (reader: { view: DataView; offset: number }) => PageHeader;

/**
 * Checks the column chunks of the columns to be read, before any value is decoded: the memory the
 * table will take against the budget (`MAX_EXPANSION`), and every page header (each inside its
 * chunk, values adding up to the chunk's, a believable uncompressed size). Throws a DataError
 * naming the file and the column.
 *
 * @example checkColumnChunks(bytes, layout, ['brand_id', 'esteem_rank'], parquetHeader, 'rows.parquet')
 */
export function checkColumnChunks(bytes: Uint8Array, layout: ParquetLayout, names: readonly string[], parseHeader: HeaderParser, file: ParquetSource): void {
  const { metadata, size } = layout;
  const chosen = (meta: ColumnMetaData) => names.includes(meta.path_in_schema[0]!);
  // 8 bytes a value: the widest a table column holds, and about what decoding needs beside it.
  let cells = 0;
  for (const group of metadata.row_groups) for (const chunk of group.columns) if (chosen(chunk.meta_data!)) cells += Number(chunk.meta_data!.num_values);
  const budget = Math.max(MIN_BUDGET, MAX_EXPANSION * size);
  if (cells * 8 > budget) {
    const mb = (n: number) => `${Math.round(n / 2 ** 20).toLocaleString('en-US')} MB`;
    const subject = file === undefined ? 'The Parquet data' : `The Parquet file ${file}`;
    throw new DataError(
      `${subject} cannot be read: its ${names.length} column${names.length === 1 ? '' : 's'} of ${Number(metadata.num_rows).toLocaleString('en-US')} rows would take about ${mb(cells * 8)} in memory, more than ${MAX_EXPANSION.toLocaleString('en-US')} times the file's ${size.toLocaleString('en-US')} bytes: a file made to exhaust memory, or one of almost nothing but missing or repeated values.`,
      [],
      [],
      { hint: 'If the file is genuine, read fewer columns at a time with { columns: [...] }.' },
    );
  }
  metadata.row_groups.forEach((group, g) => {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data!;
      if (chosen(meta)) checkPages(bytes, meta, `column '${meta.path_in_schema.join('.')}' of row group ${g}`, parseHeader, file);
    }
  });
}

/** One chunk's page headers (see `checkColumnChunks`). */
function checkPages(bytes: Uint8Array, meta: ColumnMetaData, what: string, parseHeader: HeaderParser, file: ParquetSource): void {
  const { start, end } = chunkRange(meta, what, file);
  const expected = Number(meta.num_values);
  let at = start;
  let values = 0;
  while (values < expected) {
    if (at >= end) throw damagedParquet(file, `${what}: its pages hold ${values} of the ${expected} values its footer declares`);
    const bodyAt = checkThrift(bytes, at, end, file, `${what}: a page header at byte ${at}`);
    let header: PageHeader;
    try {
      header = parseHeader({ view: new DataView(bytes.buffer, bytes.byteOffset + at, bodyAt - at), offset: 0 });
    } catch (error) {
      throw damagedParquet(file, `${what}: the page header at byte ${at} could not be decoded`, error);
    }
    const page = `${what}: the page at byte ${at}`;
    const compressed = countOf(header.compressed_page_size, `${page}: its size`, file);
    const uncompressed = countOf(header.uncompressed_page_size, `${page}: its uncompressed size`, file);
    if (compressed > end - bodyAt) throw damagedParquet(file, `${page} claims ${compressed} bytes, past the end of its column chunk (${end - bodyAt} bytes left)`);
    if (uncompressed > compressed * SNAPPY_EXPANSION + 16) throw damagedParquet(file, `${page} claims to expand from ${compressed} to ${uncompressed} bytes, more than any codec this reader knows can`);
    // The page checksum, when the writer gave one (ours does; pyarrow on request): a damaged body
    // would otherwise decode to wrong values without a word.
    if (header.crc !== undefined && crc32(bytes.subarray(bodyAt, bodyAt + compressed)) !== header.crc >>> 0) throw damagedParquet(file, `${page} does not match its checksum (CRC-32)`);
    switch (header.type) {
      case 'DICTIONARY_PAGE': {
        // Each PLAIN value takes at least a bit (booleans); the reader sizes an array from the count.
        const n = countOf(header.dictionary_page_header?.num_values, `${page}: its number of dictionary values`, file);
        if (n > uncompressed * 8) throw damagedParquet(file, `${page} claims ${n} dictionary values in ${uncompressed} bytes`);
        break;
      }
      case 'DATA_PAGE':
        values += countOf(header.data_page_header?.num_values, `${page}: its number of values`, file);
        break;
      case 'DATA_PAGE_V2': {
        const v2 = header.data_page_header_v2;
        const n = countOf(v2?.num_values, `${page}: its number of values`, file);
        const levels = countOf(v2?.definition_levels_byte_length, `${page}: its definition levels' size`, file) + countOf(v2?.repetition_levels_byte_length, `${page}: its repetition levels' size`, file);
        if (countOf(v2?.num_nulls, `${page}: its number of nulls`, file) > n || countOf(v2?.num_rows, `${page}: its number of rows`, file) > n) throw damagedParquet(file, `${page} has more nulls or rows than values`);
        if (levels > compressed) throw damagedParquet(file, `${page} claims ${levels} bytes of levels in a ${compressed}-byte page`);
        values += n;
        break;
      }
      case 'INDEX_PAGE':
        break;
      default:
        throw damagedParquet(file, `${page} is of an unknown type`);
    }
    if (values > expected) throw damagedParquet(file, `${what}: its pages hold more values (${values}) than its footer declares (${expected})`);
    at = bodyAt + compressed;
  }
}

/** Any error of a read as the DataError of a damaged file (errors of the family pass as they are). */
export function asParquetError(error: unknown, file: ParquetSource): BrandscapeError {
  if (error instanceof BrandscapeError) return error;
  return damagedParquet(file, `its data could not be decoded (${error instanceof Error ? error.message : String(error)})`, error);
}
