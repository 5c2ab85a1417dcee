/**
 * Parquet export of a `FrameTable`, with hyparquet-writer (pure JavaScript, no native binary; the
 * same authors' hyparquet reads it back). Column types are kept: `int` as INT32, `float` as DOUBLE,
 * `bool` as BOOLEAN, `date` as a UTC millisecond TIMESTAMP, `string` as dictionary-encoded UTF-8;
 * every column is nullable and a missing value is a Parquet null (never 0 or NaN). pandas, polars
 * and DuckDB read the files with these types (pandas: Int32 with <NA> for an int column with nulls).
 */
import { ByteWriter, ParquetWriter, fileWriter, type ColumnSource } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { BOOL_NULL, INT_NULL, type FrameColumn, type FrameMeta, type FrameTable } from '../frames/frame-table.js';
import { writeFileAtomically } from './atomic-file.js';

/** Rows per row group: large enough for fast scans, small enough to convert a group at a time. */
const ROW_GROUP = 131072;

export interface ParquetOptions {
  /** Compression of the column chunks: `SNAPPY` (default, what pandas and polars read fastest) or `UNCOMPRESSED`. */
  codec?: 'SNAPPY' | 'UNCOMPRESSED';
  /** Rows per row group (default 131,072). */
  rowGroupSize?: number;
}

type Writer = ConstructorParameters<typeof ParquetWriter>[0]['writer'];

function schemaOf(table: FrameTable<object, FrameMeta>): SchemaElement[] {
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.columnNames.length }];
  for (const [name, column] of table.entries()) {
    const repetition_type = 'OPTIONAL' as const;
    switch (column.kind) {
      case 'int':
        schema.push({ name, type: 'INT32', repetition_type });
        break;
      case 'float':
        schema.push({ name, type: 'DOUBLE', repetition_type });
        break;
      case 'bool':
        schema.push({ name, type: 'BOOLEAN', repetition_type });
        break;
      case 'string':
        schema.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type });
        break;
      case 'date':
        schema.push({ name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, repetition_type });
        break;
    }
  }
  return schema;
}

/** Rows `start..end` of a column as the writer takes them: typed arrays when nothing is missing, else values and nulls. */
function chunkOf(column: FrameColumn, start: number, end: number): ColumnSource['data'] {
  const n = end - start;
  switch (column.kind) {
    case 'float': {
      const values = column.values.subarray(start, end);
      let missing = false;
      for (let i = 0; i < n; i++) if (values[i] !== values[i]) { missing = true; break; }
      if (!missing) return values;
      const out = new Array<number | null>(n);
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        out[i] = v === v ? v : null;
      }
      return out;
    }
    case 'int': {
      const values = column.values.subarray(start, end);
      if (!values.includes(INT_NULL)) return values;
      const out = new Array<number | null>(n);
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        out[i] = v === INT_NULL ? null : v;
      }
      return out;
    }
    case 'bool': {
      const out = new Array<boolean | null>(n);
      const values = column.values;
      for (let i = 0; i < n; i++) {
        const v = values[start + i]!;
        out[i] = v === BOOL_NULL ? null : v === 1;
      }
      return out;
    }
    case 'string': {
      const out = new Array<string | null>(n);
      const { codes, dictionary } = column;
      for (let i = 0; i < n; i++) {
        const c = codes[start + i]!;
        out[i] = c < 0 ? null : dictionary[c]!;
      }
      return out;
    }
    case 'date': {
      const out = new Array<bigint | null>(n);
      const values = column.values;
      for (let i = 0; i < n; i++) {
        const v = values[start + i]!;
        out[i] = v === v ? BigInt(v) : null;
      }
      return out;
    }
  }
}

function writeTable(table: FrameTable<object, FrameMeta>, writer: Writer, options: ParquetOptions): void {
  const rowGroup = Math.max(1, Math.floor(options.rowGroupSize ?? ROW_GROUP));
  const parquet = new ParquetWriter({
    writer,
    schema: schemaOf(table),
    codec: options.codec ?? 'SNAPPY',
    kvMetadata: [{ key: 'brandscape.meta', value: JSON.stringify(table.meta) }],
    createdBy: 'brandscape-kit (hyparquet-writer)',
  });
  const columns = [...table.entries()];
  // A group at a time: the converted values of one group are all that is held besides the table.
  for (let start = 0; start < table.length; start += rowGroup) {
    const end = Math.min(table.length, start + rowGroup);
    const columnData: ColumnSource[] = columns.map(([name, column]) => ({
      name,
      data: chunkOf(column, start, end),
      // Text is dictionary-encoded whatever the writer's size estimate says (what readers map to categoricals).
      ...(column.kind === 'string' ? { encoding: 'RLE_DICTIONARY' as const } : {}),
    }));
    // The writers given here flush synchronously: write() returns no promise.
    void parquet.write({ columnData, rowGroupSize: end - start });
  }
  parquet.finish();
}

/**
 * A table as the bytes of a Parquet file.
 *
 * @example
 * const bytes = toParquet(table); // Uint8Array, 'PAR1' ... 'PAR1'
 */
export function toParquet(table: FrameTable<object, FrameMeta>, options: ParquetOptions = {}): Uint8Array {
  const writer = new ByteWriter();
  writeTable(table, writer as Writer, options);
  return writer.getBytes();
}

/**
 * Writes a table to a Parquet file, atomically: the file appears whole or not at all (a previous
 * file stays until the new one is complete). A file system error is an `OutputError` naming `path`.
 *
 * @example
 * await writeParquet(table, 'brandscape.parquet');
 * // python: pd.read_parquet('brandscape.parquet'); polars: pl.read_parquet(...); DuckDB: SELECT * FROM 'brandscape.parquet'
 */
export async function writeParquet(table: FrameTable<object, FrameMeta>, path: string, options: ParquetOptions = {}): Promise<void> {
  await writeFileAtomically(path, async (tempPath) => {
    const writer = fileWriter(tempPath);
    writeTable(table, writer, options);
  });
}
