/**
 * Files written whole or not at all: the content goes to a temporary file next to the target,
 * which is renamed over the target only once everything was written and flushed. A failed or
 * interrupted write leaves the previous file as it was and no temporary file behind.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A file being written: write to `tempPath`, then `commit()` (or `discard()`). */
export interface StagedFile {
  /** The file the content is meant for. */
  readonly path: string;
  /** Where to write the content until it is complete (same folder, hidden, unique). */
  readonly tempPath: string;
  /** Flushes the temporary file to disk and renames it over `path`. */
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
  const tempPath = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.partial`);
  let done = false;
  return {
    path,
    tempPath,
    async commit() {
      // Flushed before the rename: a crash right after must not leave an empty file in place.
      const handle = await open(tempPath, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tempPath, path);
      done = true;
    },
    async discard() {
      if (!done) await rm(tempPath, { force: true });
      done = true;
    },
  };
}

/**
 * Writes a file atomically with a function that writes the temporary path.
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
    throw error;
  }
}
