/**
 * `withLoadCache`: the on-disk answer cache as a decorator of a page function. The page source
 * below it fetches and parses; this layer decides, per page, whether the answer comes from the
 * cache or from the source, and stores what the source fetched.
 *
 * A lone page (no load around it) is served from the cache while its entry lives. The pages of a
 * load follow the decision page 1 made for the whole load (see LoadCacheState in `types.ts`): entries
 * expire one by one, so deciding page by page could join answers of different times under an
 * unchanged `meta.total`, losing or repeating records without any check noticing.
 *
 * - Page 1 from the source: every page comes from the source, stored under one load id.
 * - Page 1 from the cache: every page must come from the cache, stored by the same load. The
 *   loader checks that with `verify` before it delivers anything; a page rewritten since then
 *   fails with a LoadError `data_changed`, and the loader loads again from the source.
 *
 * The decorator knows pages and cache keys, not URLs: the caller says how a page is keyed.
 */
import { randomBytes } from 'node:crypto';
import { LoadError } from '../errors.js';
import type { CacheKey, ResponseCache } from './cache.js';
import type { FetchPage, LoadCacheState, ParsedPage } from './types.js';

/** A page as its source fetched it: parsed, with the bytes of the answer (what the cache stores). */
export interface SourcedPage<T> {
  page: ParsedPage<T>;
  /** The answer's body, as the service sent it (JSON). */
  bytes: Uint8Array;
}

/** Fetches and parses one page, keeping its bytes: what `withLoadCache` decorates. */
export type PageSource<T> = (...args: Parameters<FetchPage<T>>) => Promise<SourcedPage<T>>;

/** What the cache did for a page: served it, or failed to be read or written (the page went on without it). */
export type CacheEvent = { type: 'cache-hit' } | { type: 'cache-error'; message: string };

export interface LoadCacheOptions<T> {
  cache: ResponseCache;
  /** The key of a page's answer. It may wait (it names who asks, and a token may come from an async provider). */
  keyOf: (page: number, perPage: number) => CacheKey | Promise<CacheKey>;
  /** Parses a stored answer as the source parses a fetched one; a stored answer that fails is a miss. */
  parse: (body: string, page: number, perPage: number) => ParsedPage<T> | Promise<ParsedPage<T>>;
  /** Told of cache hits and cache failures. */
  onEvent?: ((event: CacheEvent, page: number, perPage: number) => void) | undefined;
  /** A new load's id (default: random). */
  newLoadId?: (() => string) | undefined;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Wraps a page source with the answer cache.
 *
 * @example
 * const fetchPage = withLoadCache(source, {
 *   cache: createDiskCache({ dir: '.cache', ttlMs: 3_600_000 }),
 *   keyOf: (page, perPage) => ({ service: 'https://fount.wppbav.com', credential, version: 'v2', path: 'brands', query: `page=${page}&per_page=${perPage}` }),
 *   parse: (body) => fromListBody(brand, JSON.parse(body), url),
 * });
 * await loadAll(fetchPage, { version: 'v2' });
 */
export function withLoadCache<T>(source: PageSource<T>, options: LoadCacheOptions<T>): FetchPage<T> {
  const { cache } = options;
  const newLoadId = options.newLoadId ?? (() => randomBytes(8).toString('hex'));
  const decoder = new TextDecoder();

  /** A stored answer within its time-to-live, parsed; undefined when there is none or it cannot be read. */
  const read = async (key: CacheKey, page: number, perPage: number) => {
    try {
      const entry = await cache.get(key);
      return entry && { loadId: entry.loadId, page: await options.parse(entry.body, page, perPage) };
    } catch (error) {
      options.onEvent?.({ type: 'cache-error', message: `a stored answer could not be read (${describe(error)})` }, page, perPage);
      return undefined;
    }
  };

  /** Page 1 came from the cache: every page of the load must, stored by the same load. */
  const decideFromCache = (state: LoadCacheState, loadId: string, perPage: number) => {
    state.mode = 'cache';
    state.loadId = loadId;
    state.verify = async (pages) => {
      for (const page of pages) {
        const info = await Promise.resolve(options.keyOf(page, perPage)).then((key) => cache.peek(key)).catch(() => undefined);
        if (info?.loadId !== loadId) return false;
      }
      return true;
    };
  };

  return async (page, perPage, signal, context) => {
    const state = context?.cache;
    const key = await options.keyOf(page, perPage);
    const hit = (parsed: ParsedPage<T>) => {
      options.onEvent?.({ type: 'cache-hit' }, page, perPage);
      return parsed;
    };
    if (state === undefined || state.mode === 'undecided') {
      // A lone page, or page 1 of a load: the entry's own time-to-live decides.
      const found = context?.refresh ? undefined : await read(key, page, perPage);
      if (found) {
        if (state) decideFromCache(state, found.loadId, perPage);
        return hit(found.page);
      }
      if (state) state.mode = 'network';
    } else if (state.mode === 'cache') {
      // Checked before the load began; another run may have rewritten the page since.
      const found = await read(key, page, perPage);
      if (found && found.loadId === state.loadId) return hit(found.page);
      throw new LoadError('data_changed', `The cache no longer holds the answers of the load that page 1 came from (page ${page} was rewritten or removed since).`, [], {
        hint: 'Load again: the whole load will come from the service.',
      });
    }
    const storeAs = state?.mode === 'network' ? (state.loadId ??= newLoadId()) : newLoadId();
    // The load's mode is decided (network) before the source is asked: the pages that page 1's
    // size starts early (`context.sized`) follow it.
    const fetched = await source(page, perPage, signal, context);
    try {
      await cache.set(key, decoder.decode(fetched.bytes), { loadId: storeAs });
    } catch (error) {
      options.onEvent?.({ type: 'cache-error', message: `the answer could not be stored (${describe(error)})` }, page, perPage);
    }
    return fetched.page;
  };
}
