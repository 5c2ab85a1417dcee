/**
 * `loadAll`: every record of a query, collected, built on the page iterator. It either returns
 * every record of `meta.total` (or exactly the bounded share asked for with `maxRecords` /
 * `maxPages`, marked `complete: false`) or throws: there is no partial result presented as
 * complete (DESIGN.md: the official Python client warns and returns 2,245 of 2,345 rows).
 *
 * If the data changes during the load (a page reports another total), the load starts again
 * once, asking the service rather than the cache; if it changes again, it fails with a LoadError
 * `data_changed`.
 */
import { LoadError } from '../errors.js';
import { iteratePagesTracked } from './iterate-pages.js';
import { createProgressTracker } from './progress-tracker.js';
import type { FetchPage, LoadOptions, LoadResult } from './types.js';

export type { LoadOptions, LoadProgress, LoadResult, LoadStats } from './types.js';

/**
 * Loads every page of a query and collects the records in order.
 *
 * @example
 * const result = await loadAll(fetchPage, { concurrency: 8, version: 'v2', onProgress: (p) => bar.update(p) });
 * result.records.length === result.total; // true unless maxRecords/maxPages bounded the load
 */
export async function loadAll<T>(fetchPage: FetchPage<T>, options: LoadOptions = {}): Promise<LoadResult<T>> {
  const now = options.now ?? Date.now;
  const started = now();
  const tracker = createProgressTracker(options.onProgress, now);
  for (let attempt = 1; ; attempt += 1) {
    const records: T[] = [];
    let total = 0;
    let pages = 0;
    let perPage = 0;
    try {
      for await (const page of iteratePagesTracked(fetchPage, options, tracker, attempt > 1)) {
        total = page.total;
        perPage = page.perPage;
        pages += 1;
        // One push per record: no copy of the whole array per page.
        for (const record of page.records) records.push(record);
      }
    } catch (error) {
      if (error instanceof LoadError && error.code === 'data_changed') {
        if (attempt === 1) {
          tracker.restarted();
          continue;
        }
        throw new LoadError('data_changed', `The data changed while loading, and again while loading it a second time. ${error.message}`, [], {
          hint: 'The service is publishing new data right now; try again later.',
          cause: error,
        });
      }
      throw error;
    }
    const progress = tracker.snapshot();
    return {
      records,
      total,
      complete: records.length === total,
      stats: {
        pagesFetched: tracker.pagesFetched,
        pages,
        perPage,
        retries: progress.retries,
        rateLimitWaits: progress.rateLimitWaits,
        reloads: progress.reloads,
        elapsedMs: now() - started,
      },
    };
  }
}
