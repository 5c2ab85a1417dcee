/**
 * The optional on-disk cache of answers: one file per request, keyed by the service's base URL, who
 * asks (a one-way identity of the token), API version, path and query parameters, with a
 * time-to-live. Answers depend on the user (what they may see), so two tokens sharing a directory
 * never read each other's entries; the token itself is never part of a key or a file: the key
 * holds a truncated SHA-256 of it, and bodies are passed through `redact()` before they are
 * written, so a token the service might echo never reaches the disk either.
 *
 * Each entry records when it was stored and the load it belongs to (`loadId`), so that one load
 * never mixes answers of different times (see LoadCacheState in `types.ts`).
 *
 * Writes are atomic (a temporary file renamed into place), so a crash or a concurrent load never
 * leaves a half-written entry that a later run would read.
 *
 * What is in the directory is not trusted: an entry is read only when it is a regular file of
 * this user's, not a symbolic link, a FIFO, a device or a folder, not writable by others and not
 * over `MAX_ENTRY_BYTES`, and opened non-blocking (a FIFO planted as an entry would otherwise
 * hang the load). Anything else, or an entry whose header does not name its key, or that was
 * stored in the future, is a miss, and the answer fetched instead replaces it. Entries are
 * written readable by this user only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm, rmdir, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { UsageError, redact } from '../errors.js';
import { checkNumber } from '../option-checks.js';

/** What identifies an answer. */
export interface CacheKey {
  /**
   * The service's base URL, path included (no credentials): two services on one host under
   * different paths never share answers.
   */
  service: string;
  /** Who asks: a one-way identity of the token (the transport's `toCredentialId`), never the token. */
  credential: string;
  version: string;
  /** Path after the version, e.g. `brands` or `studies/3/brands`. */
  path: string;
  /** The query string, in the client's stable parameter order. */
  query: string;
}

/** What is known of a stored answer without reading it. */
export interface CacheEntryInfo {
  /** When it was stored (ms, the cache's clock). */
  storedAt: number;
  /** The load it was stored by: every page of one load from the service shares it. */
  loadId: string;
}

export interface CacheEntry extends CacheEntryInfo {
  /** The answer's JSON text. */
  body: string;
}

/** A store of answer bodies (JSON text). The transport reads it before a request and fills it after a 200. */
export interface ResponseCache {
  /** The entry, if there is one within its time-to-live. */
  get(key: CacheKey): Promise<CacheEntry | undefined>;
  /** As `get`, without the body: cheap enough to check every page of a load before reading one. */
  peek(key: CacheKey): Promise<CacheEntryInfo | undefined>;
  set(key: CacheKey, body: string, info: { loadId: string }): Promise<void>;
}

export interface DiskCacheOptions {
  /** Directory of the cache files (created on first write). Entries of different tokens are kept apart. */
  dir: string;
  /** How long an entry is served, in ms. */
  ttlMs: number;
  now?: () => number;
  /** Masks the client's secrets in what is written (the client passes its own); bearer credentials and token parameters are masked always. */
  redact?: (text: string) => string;
}

const keyText = (key: CacheKey) => redact(JSON.stringify([key.service, key.credential, key.version, key.path, key.query]));

/**
 * The file name of a key: a hash, so that any query fits a file name.
 *
 * @example
 * toCacheFileName({ service: 'https://fount.wppbav.com', credential: '5f0c9a1e2b3d4c6f', version: 'v2', path: 'brands', query: 'page=1' }) // '3f1c…e9.json'
 */
export function toCacheFileName(key: CacheKey): string {
  return `${createHash('sha256').update(keyText(key)).digest('hex').slice(0, 40)}.json`;
}

/** First line of an entry: what it is. The rest is the body, byte for byte as served (redacted). */
const entryHeader = z.object({ key: z.string(), storedAt: z.number(), loadId: z.string() });

/** The largest entry read: a page of 1,000 rows of every metric is a few tens of MB. */
const MAX_ENTRY_BYTES = 128 << 20;
/** The longest time-to-live taken: ten years is "forever" for a cache. */
const MAX_TTL_MS = 10 * 365 * 24 * 3600_000;
/** An entry stored later than this past the clock is not believed (it would never expire). */
const CLOCK_SKEW_MS = 60_000;

/**
 * An entry opened for reading, with its size, when it is one this cache may read (see the top of
 * this file); undefined otherwise (the caller treats it as a miss).
 */
async function openEntry(file: string): Promise<{ handle: FileHandle; size: number } | undefined> {
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: a link is not followed (ELOOP); O_NONBLOCK: a FIFO's open does not wait for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    const uid = process.getuid?.();
    if (info.isFile() && info.size <= MAX_ENTRY_BYTES && (uid === undefined || info.uid === uid) && (info.mode & 0o002) === 0) return { handle, size: info.size };
  } catch {
    // Not readable after all: a miss.
  }
  await handle.close();
  return undefined;
}

/** The whole text of an entry, or undefined when it is not one to read. */
async function readEntry(file: string): Promise<string | undefined> {
  const entry = await openEntry(file);
  if (!entry) return undefined;
  try {
    const bytes = Buffer.alloc(entry.size);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await entry.handle.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes.toString('utf8', 0, at);
  } catch {
    return undefined;
  } finally {
    await entry.handle.close();
  }
}

/** The header line of a file (without reading the body), or undefined when there is none. */
async function readFirstLine(file: string): Promise<string | undefined> {
  const entry = await openEntry(file);
  if (!entry) return undefined;
  const handle = entry.handle;
  try {
    const chunks: Buffer[] = [];
    for (let position = 0; position < 1 << 20; ) {
      const chunk = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return undefined;
      const newline = chunk.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(chunk.subarray(0, newline < 0 ? bytesRead : newline));
      // A newline byte is never part of a multi-byte character: the line decodes whole.
      if (newline >= 0) return Buffer.concat(chunks).toString('utf8');
      position += bytesRead;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Creates an on-disk cache.
 *
 * @example
 * const client = createClient({ baseUrl, token, cache: { dir: '.cache/brandscape', ttlMs: 24 * 3600_000 } });
 * // or directly: createDiskCache({ dir: '.cache/brandscape', ttlMs: 3600_000 })
 */
export function createDiskCache(options: DiskCacheOptions): ResponseCache {
  if (typeof options.dir !== 'string' || options.dir.trim() === '') throw new UsageError(`cache.dir must be the path of a folder; got ${JSON.stringify(options.dir) ?? String(options.dir)}.`);
  // NaN would make every entry live forever (no comparison with NaN is true).
  checkNumber('cache.ttlMs', options.ttlMs, { min: 0, max: MAX_TTL_MS, unit: 'ms' });
  const now = options.now ?? Date.now;
  let made: Promise<unknown> | undefined;
  const fileOf = (key: CacheKey) => join(options.dir, toCacheFileName(key));

  /** The header if it is this key's and within the time-to-live; `expired` to have it removed. */
  const fromHeaderLine = (line: string, key: CacheKey): CacheEntryInfo | 'expired' | undefined => {
    let header;
    try {
      header = entryHeader.safeParse(JSON.parse(line));
    } catch {
      return undefined;
    }
    if (!header.success || header.data.key !== keyText(key)) return undefined;
    // Stored in the future: a forged or damaged entry (or a clock set back), never to be served.
    if (header.data.storedAt > now() + CLOCK_SKEW_MS) return undefined;
    if (now() - header.data.storedAt > options.ttlMs) return 'expired';
    return { storedAt: header.data.storedAt, loadId: header.data.loadId };
  };

  return {
    async get(key) {
      const file = fileOf(key);
      const text = await readEntry(file);
      if (text === undefined) return undefined;
      const newline = text.indexOf('\n');
      if (newline < 0) return undefined;
      const info = fromHeaderLine(text.slice(0, newline), key);
      if (info === 'expired') {
        await rm(file, { force: true });
        return undefined;
      }
      return info && { ...info, body: text.slice(newline + 1) };
    },
    async peek(key) {
      const line = await readFirstLine(fileOf(key));
      const info = line === undefined ? undefined : fromHeaderLine(line, key);
      return info === 'expired' ? undefined : info;
    },
    async set(key, body, info) {
      // Once per cache; a failure is not remembered, so a later write tries again.
      made ??= mkdir(options.dir, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        made = undefined;
        throw error;
      });
      await made;
      const file = fileOf(key);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const header = JSON.stringify({ key: keyText(key), storedAt: now(), loadId: info.loadId });
      try {
        // Readable by this user only (answers are what this user may see); 'wx': a new file, never
        // through a link someone placed at the temporary name.
        await writeFile(temp, `${header}\n${(options.redact ?? redact)(body)}`, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
        await rename(temp, file).catch(async (error: unknown) => {
          // An empty folder where the entry goes (rename cannot replace it): removed, then replaced.
          if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
          await rmdir(file);
          await rename(temp, file);
        });
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
