/**
 * Record writers for `fetch`: JSON (one array), NDJSON (one record per line) and CSV (nested
 * objects flattened with dotted names such as `sector.name`, so an included brand's `brand.name`
 * never collides with a row's local `brand_name`). Output to a file goes to a temporary file that
 * is renamed into place only when everything was written: a failed load leaves no half file.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { extname, isAbsolute, relative } from 'node:path';
import { UsageError } from '../client/index.js';
import { stageFile, toOutputError, type StagedFile } from '../report/atomic-file.js';

export type OutputFormat = 'json' | 'ndjson' | 'csv' | 'parquet';

/** Extensions `fetch --out` writes, and the format of each. */
export const RECORD_EXTENSIONS: Readonly<Record<string, OutputFormat>> = { '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv', '.parquet': 'parquet' };

const OUTPUT_FORMATS: readonly string[] = ['json', 'ndjson', 'csv', 'parquet'] satisfies OutputFormat[];
const isOutputFormat = (format: string | undefined): format is OutputFormat => format !== undefined && OUTPUT_FORMATS.includes(format);

export function toOutputFormat(value: string | undefined, out: string | undefined): OutputFormat {
  const format = value ?? (out === undefined ? 'json' : RECORD_EXTENSIONS[extname(out).toLowerCase()]);
  if (!isOutputFormat(format)) {
    throw new UsageError(value === undefined ? `--out ${out ?? ''}: unknown extension; use ${Object.keys(RECORD_EXTENSIONS).join(', ')}.` : `--format is json, ndjson, csv or parquet, not '${format}'.`);
  }
  if (format === 'parquet' && out === undefined) {
    throw new UsageError('Parquet is a binary file format: it is written to a file, not to the terminal.', { hint: 'Give --out FILE.parquet.' });
  }
  return format;
}

/**
 * A Parquet file built while loading: each page's records go into a table (the toolkit's
 * flattening: an included brand's name is `global_brand_name`, `sector_name`, ...; ids and years
 * as integers, metrics as floats), written atomically once the load is complete. `metricColumns`
 * (brandscape rows) are typed as floats even when every value is whole.
 */
export async function createParquetSink(file: string, metricColumns: Promise<readonly string[]>): Promise<RecordSink> {
  const { TableBuilder, writeParquet } = await import('../index.js');
  const builder = new TableBuilder({ source: 'brandscape fetch' });
  return {
    droppedColumns: new Set(),
    async write(records) {
      builder.append(records);
    },
    async close() {
      await writeParquet(builder.finishWith({ metricColumns: await metricColumns }), file);
    },
    async abort() {},
  };
}

type Flat = Record<string, string | number | boolean | null>;

/** `{sector: {id: 1, name: 'x'}}` -> `{'sector.id': 1, 'sector.name': 'x'}`; arrays become JSON text. */
export function flatten(record: Record<string, unknown>, prefix = '', out: Flat = {}): Flat {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (value === null || value === undefined) out[name] = null;
    else if (Array.isArray(value)) out[name] = JSON.stringify(value);
    else if (typeof value === 'object') flatten(value as Record<string, unknown>, name, out);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
    else if (typeof value === 'bigint') out[name] = value.toString();
    else out[name] = null; // a function or symbol: JSON has neither
  }
  return out;
}

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' && !Number.isFinite(value) ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export interface RecordSink {
  write(records: readonly Record<string, unknown>[]): Promise<void>;
  /** Finishes the output (and moves the file into place). */
  close(): Promise<void>;
  /** Drops a partial output file. */
  abort(): Promise<void>;
  /** Columns dropped because they first appeared after the CSV header was written. */
  readonly droppedColumns: ReadonlySet<string>;
}

interface Text {
  write(chunk: string): Promise<void>;
  end(): Promise<void>;
}

/** Writes to a stream, waiting for it to drain when it asks to (large loads stay bounded). */
function textTo(stream: { write(chunk: string): unknown; once?: (event: 'drain', listener: () => void) => unknown }): (chunk: string) => Promise<void> {
  return (chunk) =>
    new Promise((resolve) => {
      if (stream.write(chunk) === false && stream.once) stream.once('drain', resolve);
      else resolve();
    });
}

/** Text to a file stream; a write error (disk full, permission) becomes an OutputError naming `path`. */
function fileText(stream: WriteStream, path: string): Text {
  let failure: { error: unknown } | undefined;
  // A failed write ('error') also ends any wait for 'drain', which would then never come.
  const failed = new Promise<never>((_, reject) => {
    stream.on('error', (error) => {
      failure = { error: toOutputError(error, path) };
      reject(failure.error);
    });
  });
  failed.catch(() => {});
  return {
    write: async (chunk) => {
      if (failure) throw failure.error;
      if (stream.write(chunk) === false) await Promise.race([new Promise<void>((resolve) => stream.once('drain', resolve)), failed]);
    },
    end: async () => {
      if (failure) throw failure.error;
      // end()'s callback is also how a failed last write (ENOSPC on a small output) is told.
      await Promise.race([new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(toOutputError(error, path)) : resolve()))), failed]);
    },
  };
}

export function createRecordSink(format: OutputFormat, target: { file: string } | { stdout: { write(chunk: string): unknown } }): RecordSink {
  let staged: StagedFile | undefined;
  let text: Text;
  let fileStream: WriteStream | undefined;
  if ('file' in target) {
    staged = stageFile(target.file);
    fileStream = createWriteStream(staged.tempPath, { encoding: 'utf8', flags: staged.direct ? 'a' : 'w' });
    text = fileText(fileStream, target.file);
  } else {
    text = { write: textTo(target.stdout), end: async () => {} };
  }
  let count = 0;
  let header: string[] | undefined;
  const dropped = new Set<string>();
  return {
    droppedColumns: dropped,
    async write(records) {
      if (records.length === 0) return;
      let chunk = '';
      if (format === 'json') {
        for (const r of records) chunk += `${count++ === 0 ? '[\n' : ',\n'}${JSON.stringify(r)}`;
      } else if (format === 'ndjson') {
        for (const r of records) chunk += `${JSON.stringify(r)}\n`;
        count += records.length;
      } else {
        const flat = records.map((r) => flatten(r));
        if (!header) {
          const keys = new Set<string>();
          for (const f of flat) for (const k of Object.keys(f)) keys.add(k);
          header = [...keys];
          chunk += `${header.map(csvCell).join(',')}\n`;
        }
        const known = new Set(header);
        for (const f of flat) {
          for (const k of Object.keys(f)) if (!known.has(k)) dropped.add(k);
          chunk += `${header.map((k) => csvCell(f[k])).join(',')}\n`;
        }
        count += records.length;
      }
      await text.write(chunk);
    },
    async close() {
      if (format === 'json') await text.write(count === 0 ? '[]\n' : '\n]\n');
      await text.end();
      await staged?.commit();
    },
    async abort() {
      if (fileStream && !fileStream.destroyed) await new Promise<void>((resolve) => fileStream?.end(() => resolve()));
      await staged?.discard();
    },
  };
}

/** A path as the user would type it: relative to the working directory when under it, else absolute. */
export function shownPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
