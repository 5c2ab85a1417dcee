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
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { redact } from '../errors.js';

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

/** The header line of a file (without reading the body), or undefined when there is none. */
async function readFirstLine(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
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
    if (now() - header.data.storedAt > options.ttlMs) return 'expired';
    return { storedAt: header.data.storedAt, loadId: header.data.loadId };
  };

  return {
    async get(key) {
      const file = fileOf(key);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return undefined;
      }
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
      made ??= mkdir(options.dir, { recursive: true }).catch((error: unknown) => {
        made = undefined;
        throw error;
      });
      await made;
      const file = fileOf(key);
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const header = JSON.stringify({ key: keyText(key), storedAt: now(), loadId: info.loadId });
      try {
        await writeFile(temp, `${header}\n${redact(body)}`, 'utf8');
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
  };
}
