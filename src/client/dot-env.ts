/**
 * `.env` in the working directory, read with dotenv: settings such as BRANDSCAPE_TOKEN kept out of
 * shell history and out of the repository (`.env` is git-ignored). What the environment already
 * sets wins over the file.
 *
 * The file is read without ever blocking. It is read synchronously, on the event loop, so a read
 * that blocks blocks everything: a `.env` that was a FIFO hung every command, and Ctrl-C and
 * SIGTERM with it (their handlers never ran). So it is opened non-blocking (a FIFO's open returns
 * at once), checked with fstat on the open descriptor (no swap between a check and the read), and
 * read only when it is a regular file of at most `MAX_DOT_ENV_BYTES`.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { UsageError } from '../errors.js';

/** A `.env` larger than this is refused: settings take a few hundred bytes, not megabytes. */
export const MAX_DOT_ENV_BYTES = 1 << 20;

/** What a file is, for a message, when it is not a regular file. */
function kindOf(info: ReturnType<typeof fstatSync>): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The text of `path`, or undefined when there is no such file; a UsageError for anything else but a small regular file. */
function readSettingsFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No .env (or no folder to hold one): nothing to add.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ELOOP' ? 'a loop of symbolic links' : `it could not be opened (${code ?? String(error)})`;
    throw new UsageError(`The settings file ${path} cannot be read: ${why}.`, { hint: 'Fix its permissions, or remove it and set BRANDSCAPE_* in the environment.' });
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      throw new UsageError(`The settings file ${path} is ${kindOf(info)}, not a file; it is not read.`, { hint: 'Settings are read from a regular file of KEY=value lines: replace it with one, or remove it.' });
    }
    if (info.size > MAX_DOT_ENV_BYTES) {
      throw new UsageError(`The settings file ${path} is ${info.size.toLocaleString('en-US')} bytes; a .env holds at most ${MAX_DOT_ENV_BYTES.toLocaleString('en-US')} bytes (1 MB) of KEY=value lines.`, { hint: 'Is it the right file? Keep only the settings in it.' });
    }
    const bytes = Buffer.alloc(info.size);
    let at = 0;
    // At most the size fstat gave: a file that grows while it is read cannot make the read grow.
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return bytes.toString('utf8', 0, at);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`The settings file ${path} cannot be read: ${code === 'EISDIR' ? 'it is a folder' : `a read failed (${code ?? String(error)})`}.`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The BRANDSCAPE_* settings whose unquoted value has a `#` right after another character:
 * dotenv ends the value there (`BRANDSCAPE_TOKEN=hash#part` gives `hash`), which a user cannot
 * see, and a token cut short only fails later as a 401. A `#` after a space is a comment, as in a
 * shell, and a quoted value keeps its `#`.
 */
function cutValues(text: string): string[] {
  const cut: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?(BRANDSCAPE_[\w.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const value = match[2]!;
    if (/^['"`]/.test(value)) continue;
    if (/[^\s#]#/.test(value)) cut.push(match[1]!);
  }
  return cut;
}

/**
 * The environment with `<cwd>/.env`'s settings added where the environment has none. A `.env`
 * that is a folder, a FIFO, a device, unreadable or over 1 MB is a `UsageError` naming it, as is a
 * BRANDSCAPE_* value that a `#` would silently cut short (quote the value). Values are never shown.
 *
 * @example
 * const env = loadDotEnv(process.env, process.cwd());
 */
export function loadDotEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): Record<string, string | undefined> {
  const path = join(cwd, '.env');
  const text = readSettingsFile(path);
  if (text === undefined) return { ...env };
  const fromFile = parse(text);
  const cut = cutValues(text).filter((key) => env[key] === undefined || env[key] === '');
  if (cut.length > 0) {
    throw new UsageError(
      `In ${path}, the value of ${cut.join(' and ')} has a '#' inside it without quotes: everything from the '#' on would be read as a comment and the value cut short.`,
      { hint: `Quote the value: ${cut[0]}="..." (or, if the '#' starts a comment, put a space before it).` },
    );
  }
  const out: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(fromFile)) if (out[key] === undefined || out[key] === '') out[key] = value;
  return out;
}
