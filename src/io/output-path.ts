/**
 * Output paths: where a path's content really goes (through symbolic links) and whether it can be
 * written there, checked before any request is made so that a long load never ends in a path
 * error. The writing itself is atomic-file.ts.
 */
import { constants, lstatSync, readlinkSync, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** Where a path's content really goes: through symbolic links (also dangling ones) to their target. */
export function throughLinks(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let info;
    try {
      info = lstatSync(current);
    } catch {
      return current;
    }
    if (!info.isSymbolicLink()) return current;
    current = resolve(dirname(current), readlinkSync(current));
  }
  throw new UsageError(`${path} is a chain of symbolic links that does not end.`);
}

/** Whether a path is a FIFO, a character device or a socket: written in place, never renamed over. */
export function isSpecial(path: string): boolean {
  try {
    const info = statSync(path);
    return info.isFIFO() || info.isCharacterDevice() || info.isSocket();
  } catch {
    return false;
  }
}

/**
 * Checks an output path before any work is done: its folder exists and can be written to, it is
 * not a folder, and (with `extensions`) its extension is one of them. Usage errors name the path as
 * given and the option (`--out`) when told.
 *
 * @example
 * await checkOutputPath('reports/brands.csv', { extensions: ['.csv', '.json'], option: '--out' });
 */
export async function checkOutputPath(path: string, options: { extensions?: readonly string[]; option?: string; shownAs?: string } = {}): Promise<void> {
  // Messages name the path as the user typed it (`shownAs`), not the resolved one.
  const shown = options.shownAs ?? path;
  const what = options.option ? `${options.option} ${shown}` : shown;
  if (path.trim() === '') throw new UsageError(`${options.option ?? 'The output path'} is empty.`, { hint: 'Give a file name.' });
  const target = throughLinks(path);
  const info = await stat(target).catch(() => undefined);
  if (info?.isDirectory()) throw new UsageError(`${what} is a folder.`, { hint: 'Give a file name inside it.' });
  if (options.extensions && !info?.isFIFO() && !info?.isCharacterDevice()) {
    const ext = extname(path).toLowerCase();
    if (!options.extensions.includes(ext)) {
      throw new UsageError(`${what}: ${ext === '' ? 'no extension' : `unknown extension '${ext}'`}; use one of ${options.extensions.join(', ')}.`);
    }
  }
  if (info && (info.isFIFO() || info.isCharacterDevice() || info.isSocket())) {
    await access(target, constants.W_OK).catch(() => {
      throw new UsageError(`${what} cannot be written to.`, { hint: 'Check its permissions.' });
    });
    return;
  }
  const folder = dirname(target);
  const folderInfo = await stat(folder).catch(() => undefined);
  if (!folderInfo) throw new UsageError(`The folder of ${what} (${dirname(shown) || '.'}) does not exist.`, { hint: 'Create it, or write somewhere else.' });
  if (!folderInfo.isDirectory()) throw new UsageError(`${what}: ${dirname(shown)} is not a folder.`);
  await access(folder, constants.W_OK).catch(() => {
    throw new UsageError(`The folder of ${what} (${dirname(shown) || '.'}) cannot be written to.`, { hint: 'Check its permissions, or write somewhere else.' });
  });
  if (info) {
    await access(target, constants.W_OK).catch(() => {
      throw new UsageError(`${what} exists and cannot be written to.`, { hint: 'Check its permissions, or write somewhere else.' });
    });
  }
}
