/**
 * Contracts of the loader: how it asks for a page, what it is told, what it reports.
 *
 * The loader knows pages, not URLs or resources: it is handed a `FetchPage` function (the client
 * builds one per query) and drives it page by page. It imports nothing of the client.
 */
import type { ApiVersion } from '../catalogue/page-limits.js';

/** What a page's `meta` says of the whole list. */
export interface ListSize {
  total: number;
  lastPage: number;
  perPage: number;
  currentPage: number;
}

/** One page of a list, parsed: its records and what `meta` says of the whole list. */
export interface ParsedPage<T> extends ListSize {
  records: T[];
}

/**
 * What the loader hears of a page's request while it runs: the client's request events
 * (`TransportEvent`) are of this shape. The loader counts `retry` events (and their `reason`,
 * `rate-limited` for a 429) and `rate-limit-wait` events; it ignores the others.
 */
export interface PageEvent {
  readonly type: string;
  readonly reason?: string | undefined;
}

/** What the loader passes along with each page request. */
export interface FetchPageContext {
  /**
   * Events of this page's request (retries, rate-limit waits): how they reach this load's
   * progress without mixing with other loads of the same client.
   */
  onEvent?: ((event: PageEvent) => void) | undefined;
  /** Bypass cached answers (set when a load starts again because the data changed). */
  refresh?: boolean | undefined;
  /** How this load uses the answer cache: one object per load, shared by all its pages. */
  cache?: LoadCacheState | undefined;
  /**
   * Call when the page's answer has arrived and only parsing it remains: the loader sends its
   * next request then instead of after the parse (the parse of one page overlaps the round trip of
   * the next). Calling it is optional; the slot is freed when the page function settles anyway.
   */
  answered?: (() => void) | undefined;
  /**
   * Call with what the answer's `meta` says of the list as soon as it is known, before the records
   * are parsed: told it of page 1, the loader requests the next pages at once, so their round
   * trips overlap page 1's parse. Optional; the parsed page must say the same.
   */
  sized?: ((size: ListSize) => void) | undefined;
}

/**
 * How the pages of one load use the answer cache. Entries expire one by one, so deciding page by
 * page could join a cached page 1 to fresh later pages (or the reverse) under an unchanged
 * `meta.total`, losing or repeating records without any check noticing. The decision is made once,
 * by page 1 (the loader always fetches it before any other page), and every page follows it:
 *
 * - `network`: page 1 came from the service, so every page does; all are stored under `loadId`.
 * - `cache`: page 1 came from the cache, so every page must come from the cache, stored by the
 *   same load (`loadId`). The loader checks that with `verify` before it delivers anything, and
 *   fetches the whole load from the service when it does not hold.
 *
 * The loader creates the state (`undecided`, or `network` for a reload); the cache decorator
 * (`withLoadCache`) fills it in.
 */
export interface LoadCacheState {
  mode: 'undecided' | 'network' | 'cache';
  /** The stored load every page is written under (`network`) or must have been written by (`cache`). */
  loadId: string | undefined;
  /**
   * Set with `mode: 'cache'`: whether every one of these pages is in the cache, stored by the load
   * page 1 came from. Reads entry headers only, never bodies.
   */
  verify: ((pages: readonly number[]) => Promise<boolean>) | undefined;
}

/**
 * Fetches one page of a query: 1-based `page`, `perPage` records per page.
 *
 * @example
 * const fetchPage: FetchPage<Brand> = async (page, perPage, signal, context) =>
 *   parse(await transport.get('brands', params(page, perPage), { signal, onEvent: context?.onEvent }));
 */
export type FetchPage<T> = (page: number, perPage: number, signal: AbortSignal, context?: FetchPageContext) => Promise<ParsedPage<T>>;

/**
 * Where a load stands; the CLI's progress bar draws it (`src/cli/progress.ts` ProgressState is a
 * subset).
 */
export interface LoadProgress {
  /** Pages fetched so far (page 1 included). */
  pagesDone: number;
  /** Pages this load will fetch (after maxPages/maxRecords); 0 until page 1 is known. */
  pagesTotal: number;
  /** Records fetched so far. */
  records: number;
  /** Records the query matches (`meta.total`). */
  total: number;
  /** Retries of failed attempts (any reason, 429 included). */
  retries: number;
  /** Times a request waited for the rate limit: governor pacing or a 429's Retry-After. */
  rateLimitWaits: number;
  /** Estimated time to finish, from the pace so far; undefined until it can be estimated. */
  etaMs: number | undefined;
  elapsedMs: number;
  /** Times the load started again because the data changed (at most 1). */
  reloads: number;
}

export interface LoadOptions {
  /** Requests in flight for pages 2..N (default 8). */
  concurrency?: number;
  /** API version: sets the default and largest page size (1000 in v2, 100 in v1). */
  version?: ApiVersion;
  /** Page size (default: the largest the version allows; larger values are clamped to it). */
  perPage?: number;
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
  /** Fetch at most this many pages; the result is then marked `complete: false`. */
  maxPages?: number;
  /** Keep at most this many records; the result is then marked `complete: false`. */
  maxRecords?: number;
  /** Pages fetched ahead of the consumer, beyond those in flight (default: `concurrency`). */
  prefetch?: number;
  /** Clock for elapsed time and ETA (default `Date.now`). */
  now?: () => number;
}

export interface LoadStats {
  /** Pages fetched, including those of a discarded first try. */
  pagesFetched: number;
  /** Pages in the result. */
  pages: number;
  perPage: number;
  retries: number;
  rateLimitWaits: number;
  reloads: number;
  elapsedMs: number;
}

/**
 * Where `loadInto` puts a load's records: page by page, in the service's order.
 *
 * @example
 * const rows: unknown[] = [];
 * const sink: RecordSink<unknown> = { start: () => (rows.length = 0), append: (r) => rows.push(...r), get length() { return rows.length; } };
 */
export interface RecordSink<T> {
  /**
   * Called before the first page of an attempt with the records the query matches (`meta.total`,
   * an upper bound once `maxRecords` / `maxPages` apply): drop anything appended before (a load
   * starts again once when the data changed during it).
   */
  start(total: number): void;
  /** One page's records; the sink must not keep the array (it is the loader's). */
  append(records: readonly T[]): void;
  /** Records appended since `start`. */
  readonly length: number;
}

/** What a load reports besides its records. */
export interface LoadSummary {
  /** `meta.total`: how many records the query matches. */
  total: number;
  /** True when `records` holds every record of `total`; false only when maxPages/maxRecords bounded the load. */
  complete: boolean;
  stats: LoadStats;
}

export interface LoadResult<T> extends LoadSummary {
  /** The records, in the service's order. */
  records: T[];
}
