/**
 * The second core for large Parquet exports: one worker thread (`parquet-worker.ts`) that encodes
 * and compresses the column chunks of the columns it is given while the calling thread does the
 * rest. Measured on the frames benchmark's 1M x 40 table on two cores: about half the time of one
 * thread (the encoding is per column chunk, so the two share nothing but the finished bytes).
 *
 * The worker is started on first use and kept (unreferenced while idle, so it never keeps a
 * process alive). Its columns are copied once into shared memory for it to read. When the compiled
 * worker is not there (the sources run directly, as in the unit tests) or cannot start, everything
 * is encoded on the calling thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FrameColumn } from '../frames/column.js';
import type { Codec, EncodedChunk, TextDictionary } from './parquet-chunks.js';
import { rowWidthOf, widthOf } from './parquet-pages.js';

/** What the worker is asked: one column's rows of a batch (in shared memory), for each row group in it. */
export interface ChunkJob {
  id: number;
  index: number;
  column: FrameColumn;
  text?: TextDictionary;
  length: number;
  rowGroup: number;
  codec: Codec;
}

/** A column chunk the worker encoded: which row group and which column of the table. */
export interface WorkerChunk {
  group: number;
  column: number;
  chunk: EncodedChunk;
}

export type ChunkReply = { id: number; chunks: WorkerChunk[] } | { id: number; error: string };

/** Below this many bytes of values, starting the worker and copying columns costs more than it saves. */
const MIN_BYTES = 16 << 20;

const WORKER_URL = new URL('./parquet-worker.js', import.meta.url);

/** The worker, once started; null when it cannot run here (or failed once: it is not restarted). */
let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (chunks: WorkerChunk[]) => void; reject: (error: Error) => void }>();

/** The worker stopped or failed: its jobs are rejected (their columns get encoded on the calling thread) and it is not started again. */
function failAll(error: Error): void {
  worker = null;
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
}

function theWorker(): Worker | undefined {
  if (worker !== undefined) return worker ?? undefined;
  if (!existsSync(fileURLToPath(WORKER_URL))) {
    worker = null;
    return undefined;
  }
  // No inherited Node options: the worker is plain compiled JavaScript, and some options of the
  // parent stop it from starting (\`node --input-type=module -e ...\` makes it fail with
  // ERR_INPUT_TYPE_NOT_ALLOWED).
  let started: Worker;
  try {
    started = new Worker(WORKER_URL, { execArgv: [] });
  } catch {
    // Not allowed here (e.g. Node's permission model without --allow-worker): one thread.
    worker = null;
    return undefined;
  }
  started.unref();
  started.on('message', (reply: ChunkReply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    if (pending.size === 0) started.unref();
    if ('error' in reply) job.reject(new Error(`Parquet worker: ${reply.error}`));
    else job.resolve(reply.chunks);
  });
  started.on('error', (error) => failAll(error));
  started.on('messageerror', (error) => failAll(error));
  started.on('exit', (code) => {
    if (worker === started) failAll(new Error(`The Parquet worker stopped (exit code ${code}).`));
  });
  worker = started;
  return started;
}

/**
 * Rows `start..end` of a typed array, copied into shared memory; with `selection`, the rows
 * `selection[start..end]` (a lazy table's), gathered straight into it.
 */
function shared<T extends Float64Array | Int32Array | Uint8Array>(values: T, start: number, end: number, selection: Int32Array | undefined): T {
  const copy = new (values.constructor as new (buffer: SharedArrayBuffer) => T)(new SharedArrayBuffer((end - start) * values.BYTES_PER_ELEMENT));
  if (!selection) copy.set(values.subarray(start, end));
  else for (let k = start; k < end; k++) copy[k - start] = values[selection[k]!]!;
  return copy;
}

/** Rows `start..end` of a column in shared memory (text without its dictionary: the worker writes indices). */
function sharedColumn(column: FrameColumn, start: number, end: number, selection: Int32Array | undefined): FrameColumn {
  return column.kind === 'string'
    ? { kind: 'string', codes: shared(column.codes, start, end, selection), dictionary: [] }
    : ({ kind: column.kind, values: shared(column.values, start, end, selection) } as FrameColumn);
}

/**
 * Splits the columns between this thread and the worker (about the same bytes of values each) and
 * starts the worker on its share of rows `start..end` (a batch of whole row groups); undefined when
 * the batch is too small (unless `force`), the machine has one core, there are no columns, or the
 * worker cannot run. With `selection` (a lazy table's), rows are rows of the selection. `chunks` settles with the worker's chunks of the columns in `there`, their
 * `group` counted from the batch's first.
 */
export function shareWork(
  columns: readonly FrameColumn[],
  start: number,
  end: number,
  rowGroup: number,
  codec: Codec,
  texts: readonly (TextDictionary | undefined)[],
  force: boolean,
  selection?: Int32Array,
): { here: number[]; there: number[]; chunks: Promise<WorkerChunk[]> } | undefined {
  const length = end - start;
  const bytes = rowWidthOf(columns) * length;
  if (columns.length === 0 || (!force && (bytes < MIN_BYTES || availableParallelism() < 2))) return undefined;
  const thread = theWorker();
  if (!thread) return undefined;
  // Widest columns first, each to whichever side has less so far.
  const here: number[] = [];
  const there: number[] = [];
  let hereBytes = 0;
  let thereBytes = 0;
  for (const c of columns.map((_, i) => i).sort((a, b) => widthOf(columns[b]!) - widthOf(columns[a]!) || a - b)) {
    if (thereBytes <= hereBytes) {
      there.push(c);
      thereBytes += widthOf(columns[c]!);
    } else {
      here.push(c);
      hereBytes += widthOf(columns[c]!);
    }
  }
  // A job per column, each sent as soon as it is copied: the worker starts on the first while the
  // others are being copied.
  thread.ref();
  const done = there.map((index) => {
    const id = nextId++;
    const text = texts[index];
    const job: ChunkJob = { id, index, column: sharedColumn(columns[index]!, start, end, selection), length, rowGroup, codec, ...(text ? { text } : {}) };
    const chunks = new Promise<WorkerChunk[]>((resolve, reject) => pending.set(id, { resolve, reject }));
    thread.postMessage(job);
    return chunks;
  });
  return { here: here.sort((a, b) => a - b), there, chunks: Promise.all(done).then((lists) => lists.flat()) };
}
