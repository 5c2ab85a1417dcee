/**
 * One column chunk of a Parquet file (a column's rows in one row group), encoded and compressed:
 * its dictionary page body when it has one, and its data page body, with their uncompressed sizes.
 * What `toParquet` frames with page headers, on the calling thread or on a worker
 * (`parquet-worker.ts`): it depends on nothing but the column and a compressor.
 */
import type { FrameColumn } from '../frames/column.js';
import { encodePage, numberDictionary, type PageScratch } from './parquet-pages.js';

export type Codec = 'SNAPPY' | 'UNCOMPRESSED';

/** A text column's dictionary page: the same for every row group. */
export interface TextDictionary {
  body: Uint8Array;
  bitWidth: number;
  size: number;
}

/** A page body as written (compressed or not), and its size before compression. */
export interface EncodedPage {
  raw: number;
  body: Uint8Array;
}

export interface EncodedChunk {
  dictionary?: EncodedPage & { size: number };
  data: EncodedPage;
}

/**
 * Rows `start..end` of a column as a column chunk: text through its dictionary, numbers through
 * their own when `numberDictionary` finds that it pays, everything else PLAIN.
 *
 * @example encodeChunk(table.column('m0_rank'), 0, 131072, 'SNAPPY', new PageScratch(), snappyCompress)
 */
export function encodeChunk(
  column: FrameColumn,
  start: number,
  end: number,
  codec: Codec,
  scratch: PageScratch,
  compress: (bytes: Uint8Array) => Uint8Array,
  text?: TextDictionary,
): EncodedChunk {
  // Uncompressed bodies are copied out of the scratch buffer, which the next page reuses.
  const pack = (bytes: Uint8Array): EncodedPage => ({ raw: bytes.length, body: codec === 'SNAPPY' ? compress(bytes) : bytes.slice() });
  const dictionary = text ?? numberDictionary(column, start, end);
  const data = pack(encodePage(column, start, end, scratch, dictionary).body);
  return dictionary ? { dictionary: { ...pack(dictionary.body), size: dictionary.size }, data } : { data };
}
