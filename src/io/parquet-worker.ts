/**
 * The Parquet worker thread (started by `parquet-workers.ts`): encodes and compresses the column
 * chunks of each column it is sent, for every row group, and sends back their bytes (transferred,
 * not copied).
 */
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { parentPort } from 'node:worker_threads';
import { encodeChunk } from './parquet-chunks.js';
import { PageScratch } from './parquet-pages.js';
import type { ChunkJob, ChunkReply, WorkerChunk } from './parquet-workers.js';

const port = parentPort!;
const scratch = new PageScratch();

port.on('message', (job: ChunkJob) => {
  try {
    const chunks: WorkerChunk[] = [];
    for (let group = 0, start = 0; start < job.length; group++, start += job.rowGroup) {
      const end = Math.min(job.length, start + job.rowGroup);
      chunks.push({ group, column: job.index, chunk: encodeChunk(job.column, start, end, job.codec, scratch, snappyCompress, job.text) });
    }
    const buffers = new Set<ArrayBuffer>();
    for (const { chunk } of chunks) for (const page of [chunk.data, chunk.dictionary]) if (page) buffers.add(page.body.buffer as ArrayBuffer);
    port.postMessage({ id: job.id, chunks } satisfies ChunkReply, [...buffers]);
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ChunkReply);
  }
});
