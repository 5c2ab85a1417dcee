/**
 * The optional on-disk cache of answers: one file per request, keyed by the service's origin, API
 * version, path and query parameters, with a time-to-live. The key never includes the token (it is
 * not part of what identifies an answer), and bodies are passed through `redact()` before they
 * are written, so a token the service might echo never reaches the disk.
 *
 * Writes are atomic (a temporary file renamed into place), so a crash or a concurrent load never
 * leaves a half-written entry that a later run would read.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { redact } from '../errors.js';

/** What identifies an answer. */
export interface CacheKey {
  /** Scheme, host and port of the service (no credentials). */
  origin: string;
  version: string;
  /** Path after the version, e.g. `brands` or `studies/3/brands`. */
  path: string;
  /** The query string, in the client's stable parameter order. */
  query: string;
}

/** A store of answer bodies (JSON text). The transport reads it before a request and fills it after a 200. */
export interface ResponseCache {
  get(key: CacheKey): Promise<string | undefined>;
  set(key: CacheKey, body: string): Promise<void>;
}

export interface DiskCacheOptions {
  /** Directory of the cache files (created on first write). Per user: answers depend on who asks. */
  dir: string;
  /** How long an entry is served, in ms. */
  ttlMs: number;
  now?: () => number;
}

const keyText = (key: CacheKey) => redact(JSON.stringify([key.origin, key.version, key.path, key.query]));

/**
 * The file name of a key: a hash, so that any query fits a file name.
 *
 * @example
 * toCacheFileName({ origin: 'https://fount.wppbav.com', version: 'v2', path: 'brands', query: 'page=1' }) // '3f1c…e9.json'
 */
export function toCacheFileName(key: CacheKey): string {
  return `${createHash('sha256').update(keyText(key)).digest('hex').slice(0, 40)}.json`;
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
  return {
    async get(key) {
      const file = join(options.dir, toCacheFileName(key));
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return undefined;
      }
      // First line: what the entry is; the rest: the body, byte for byte as served (redacted).
      const newline = text.indexOf('\n');
      if (newline < 0) return undefined;
      try {
        const header = JSON.parse(text.slice(0, newline)) as { key?: unknown; storedAt?: unknown };
        if (header.key !== keyText(key) || typeof header.storedAt !== 'number') return undefined;
        if (now() - header.storedAt > options.ttlMs) {
          await rm(file, { force: true });
          return undefined;
        }
      } catch {
        return undefined;
      }
      return text.slice(newline + 1);
    },
    async set(key, body) {
      // Once per cache; a failure is not remembered, so a later write tries again.
      made ??= mkdir(options.dir, { recursive: true }).catch((error: unknown) => {
        made = undefined;
        throw error;
      });
      await made;
      const file = join(options.dir, toCacheFileName(key));
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const header = JSON.stringify({ key: keyText(key), storedAt: now() });
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
