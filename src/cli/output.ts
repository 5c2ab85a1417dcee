/**
 * Record writers for `fetch`: JSON (one array), NDJSON (one record per line) and CSV (nested
 * objects flattened with dotted names such as `sector.name`, so an included brand's `brand.name`
 * never collides with a row's local `brand_name`). Output to a file goes to a temporary file that
 * is renamed into place only when everything was written: a failed load leaves no half file.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../errors.js';

export type OutputFormat = 'json' | 'ndjson' | 'csv';

export function toOutputFormat(value: string | undefined, out: string | undefined): OutputFormat {
  const format = value ?? (out?.endsWith('.csv') ? 'csv' : out?.endsWith('.ndjson') || out?.endsWith('.jsonl') ? 'ndjson' : 'json');
  if (format !== 'json' && format !== 'ndjson' && format !== 'csv') throw new UsageError(`--format is json, ndjson or csv, not '${format}'.`);
  return format;
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
    else out[name] = String(value);
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

function fileText(stream: WriteStream): Text {
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  const write = textTo(stream);
  return {
    write: async (chunk) => {
      if (failure) throw failure;
      await write(chunk);
    },
    end: () =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}

export function createRecordSink(format: OutputFormat, target: { file: string } | { stdout: { write(chunk: string): unknown } }): RecordSink {
  let temp: string | undefined;
  let text: Text;
  let fileStream: WriteStream | undefined;
  if ('file' in target) {
    temp = join(dirname(target.file), `.${basename(target.file)}.${process.pid}.${Date.now()}.partial`);
    fileStream = createWriteStream(temp, { encoding: 'utf8' });
    text = fileText(fileStream);
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
      if (temp !== undefined && 'file' in target) await rename(temp, target.file);
    },
    async abort() {
      if (fileStream) await new Promise<void>((resolve) => fileStream?.end(() => resolve()));
      if (temp !== undefined) await rm(temp, { force: true });
    },
  };
}

/** A path as the user would type it: relative to the working directory when under it, else absolute. */
export function shownPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
