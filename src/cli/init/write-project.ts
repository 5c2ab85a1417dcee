/**
 * Writes a new project's files whole or not at all: every file is written into a staging folder
 * next to the target first (same file system, so moving is a rename), and only then moved in. A
 * failure while staging leaves nothing behind; a failure while moving puts back what was moved.
 */
import { lstat, mkdir, mkdtemp, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../../errors.js';
import { toOutputError } from '../../io/atomic-file.js';
import type { ScaffoldFile } from './scaffold.js';

/** What the folder holds before writing: nothing (or only `.git`), or other files. */
export async function folderState(dir: string): Promise<'missing' | 'empty' | 'not-empty'> {
  let stat;
  try {
    stat = await lstat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (!stat.isDirectory()) throw new UsageError(`${dir} is not a folder.`, { hint: 'Name a new folder, or an empty one, for the project.' });
  // A fresh `git init` is still an empty project.
  const entries = (await readdir(dir)).filter((name) => name !== '.git');
  return entries.length === 0 ? 'empty' : 'not-empty';
}

/** The nearest folder above `dir` (or `dir` itself) that exists: where the staging folder can go. */
async function nearestExisting(dir: string): Promise<string> {
  for (let current = dir; ; current = dirname(current)) {
    try {
      if ((await lstat(current)).isDirectory()) return current;
    } catch {
      // Not there yet: look above.
    }
    if (dirname(current) === current) return current;
  }
}

/**
 * Writes the files into `dir`, creating it (and missing parents) when needed. Files of the same
 * name already in `dir` are replaced (the caller decides whether that is allowed); on failure
 * they are put back and every folder made is removed.
 *
 * @returns the paths (relative to `dir`) that replaced an existing file.
 */
export async function writeProject(dir: string, files: readonly ScaffoldFile[]): Promise<string[]> {
  const base = await nearestExisting(dirname(dir));
  const staging = await mkdtemp(join(base, `.${basename(dir)}.brandscape-init-`));
  const undo: (() => Promise<void>)[] = [];
  let current = dir;
  try {
    for (const file of files) {
      const path = join(staging, 'new', file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.content, { flag: 'wx' });
    }
    const replaced: string[] = [];
    for (const file of files) {
      const target = join(dir, file.path);
      current = target;
      const folders = await missingFolders(dirname(target));
      for (const folder of folders) {
        await mkdir(folder);
        undo.push(() => rmdir(folder));
      }
      let existed = false;
      try {
        existed = (await lstat(target)).isFile();
      } catch {
        existed = false;
      }
      if (existed) {
        // Kept in the staging folder until every file is in place, so a failure can put it back.
        const backup = join(staging, 'old', file.path);
        await mkdir(dirname(backup), { recursive: true });
        await rename(target, backup);
        undo.push(() => rename(backup, target));
        replaced.push(file.path);
      }
      await rename(join(staging, 'new', file.path), target);
      undo.push(() => rm(target, { force: true }));
    }
    undo.length = 0;
    return replaced;
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {});
    throw toOutputError(error, current);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The folders down to `dir` that do not exist yet, outermost first (each is removed again on failure). */
async function missingFolders(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = dir; dirname(current) !== current; current = dirname(current)) {
    try {
      await lstat(current);
      break;
    } catch {
      missing.unshift(current);
    }
  }
  return missing;
}
