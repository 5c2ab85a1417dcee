/**
 * Output files that are never clobbered or left half-written, for every command and writer that
 * writes (fetch, report, compare; writeXlsx, writeHtml):
 *
 * - a regular file (or a new one) is written to a temporary file next to it, flushed, and renamed
 *   over it only when complete: a failed or interrupted write leaves the previous file as it was
 *   and no temporary file behind;
 * - a symbolic link is written through to its target (the link stays a link);
 * - a FIFO, a character device or a socket (`/dev/stdout`, a named pipe) is written in place,
 *   streamed, never renamed over;
 * - a folder, a missing folder, a folder that cannot be written to, an unknown extension: usage
 *   errors found before any request is made (`checkOutputPath`, in output-path.ts), naming the path
 *   as it was given;
 * - a write that fails (disk full, permission, I/O) is an `OutputError` naming the path as given.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { BrandscapeError } from '../errors.js';
import { isSpecial, throughLinks } from './output-path.js';

/** A write that failed: the previous file is unchanged and no temporary file is left. Exit code 1. */
export class OutputError extends BrandscapeError {
  override name = 'OutputError';
  /** The path as the caller gave it. */
  readonly path: string;
  constructor(path: string, reason: string, options: { cause?: unknown } = {}) {
    super('output', `Could not write ${path}: ${reason}.`, { hint: 'Any previous file there is unchanged.', ...options });
    this.path = path;
  }
}

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a file is in the way of its folder',
  ENOENT: 'its folder does not exist',
  EFBIG: 'the file is too large for the file system',
};

/** A file system error of a write as an `OutputError` naming the path as given (other errors pass). */
export function toOutputError(error: unknown, path: string): unknown {
  if (error instanceof BrandscapeError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  if (code === undefined || !(code in REASONS)) return error;
  return new OutputError(path, `${REASONS[code]!} (${code})`, { cause: error });
}

/**
 * The temporary files staged and not yet committed or discarded, in this process: what
 * `discardStagedFilesSync` removes when the process must leave before its own cleanup has run.
 */
const staged = new Set<string>();

/**
 * Removes, synchronously, every temporary file staged by this process and not yet committed or
 * discarded; returns their paths. For a process that must exit at once (a second Ctrl-C, a
 * cleanup that does not finish): the targets keep their previous content, and no `.partial` file
 * is left behind. Safe to call at any time, and twice.
 *
 * @example
 * process.once('SIGINT', () => { discardStagedFilesSync(); process.exit(130); });
 */
export function discardStagedFilesSync(): string[] {
  const removed = [...staged];
  for (const path of removed) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Already gone, or its folder with it: nothing is left to remove.
    }
    staged.delete(path);
  }
  return removed;
}

/** A file being written: write to `tempPath`, then `commit()` (or `discard()`). */
export interface StagedFile {
  /** The file the content is meant for (as given). */
  readonly path: string;
  /**
   * Where to write the content: a hidden temporary file next to the target, or the target itself
   * when it is a FIFO or a device (`direct`).
   */
  readonly tempPath: string;
  /** True when the content is written in place (a FIFO, a device): nothing to rename. */
  readonly direct: boolean;
  /** Flushes the temporary file to disk and renames it over the target. */
  commit(): Promise<void>;
  /** Removes the temporary file (safe to call after a failure, or twice). */
  discard(): Promise<void>;
}

/**
 * Stages a file: the caller writes `tempPath` and commits. Several staged files can be committed
 * together after all of them were written (a report's workbook and HTML file).
 *
 * @example
 * const file = stageFile('reports/brand-health.xlsx');
 * try { await writeFile(file.tempPath, bytes); await file.commit(); } catch (e) { await file.discard(); throw e; }
 */
export function stageFile(path: string): StagedFile {
  const target = throughLinks(path);
  if (isSpecial(target)) {
    return { path, tempPath: target, direct: true, commit: async () => {}, discard: async () => {} };
  }
  const tempPath = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  let done = false;
  staged.add(tempPath);
  return {
    path,
    tempPath,
    direct: false,
    async commit() {
      try {
        // Flushed before the rename: a crash right after must not leave an empty file in place.
        const handle = await open(tempPath, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(tempPath, target);
        done = true;
        staged.delete(tempPath);
      } catch (error) {
        await rm(tempPath, { force: true });
        done = true;
        staged.delete(tempPath);
        throw toOutputError(error, path);
      }
    },
    async discard() {
      if (!done) await rm(tempPath, { force: true });
      done = true;
      staged.delete(tempPath);
    },
  };
}

/**
 * Writes a file atomically with a function that writes the temporary path. A file system error is
 * an `OutputError` naming `path`; the previous file stays and no temporary file is left.
 *
 * @example
 * await writeFileAtomically('out.html', (temp) => writeFile(temp, html));
 */
export async function writeFileAtomically(path: string, write: (tempPath: string) => Promise<void>): Promise<void> {
  const file = stageFile(path);
  try {
    await write(file.tempPath);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw toOutputError(error, path);
  }
}
