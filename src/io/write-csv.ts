/**
 * `writeCsv`: a table to a CSV file, atomically. It lives here, beside `writeParquet`, and not as a
 * method of `FrameTable`, because atomic files (`atomic-file.ts`) belong to this layer and frames
 * may not import it (the architecture test: frames come before report).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { scanOf } from '../frames/frame-table.js';
import { csvChunks } from '../frames/to-csv.js';
import { writeFileAtomically } from './atomic-file.js';

/**
 * Writes a table to a CSV file as `toCsv()` gives it (RFC 4180, CRLF, header line, missing values
 * empty, numbers at full precision), streamed a block of rows at a time, so a table of any length
 * can be written. Atomic: the file appears whole or not at all (a previous file stays until the
 * new one is complete); a file system error is an `OutputError` naming `path`. A lazy table is
 * read through its selection.
 *
 * @example
 * await writeCsv(table.where({ year: 2024 }), 'brands-2024.csv');
 * // pandas: pd.read_csv('brands-2024.csv'); DuckDB: SELECT * FROM 'brands-2024.csv'
 */
export async function writeCsv(table: FrameTable<object, FrameMeta>, path: string): Promise<void> {
  // A stream with backpressure: the next block of rows is made once the file has taken the last.
  await writeFileAtomically(path, (tempPath) => pipeline(Readable.from(csvChunks(scanOf(table))), createWriteStream(tempPath)));
}
