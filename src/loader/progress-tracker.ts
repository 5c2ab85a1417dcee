/**
 * Counts what a load did (pages, records, retries, rate-limit waits) and reports it as progress
 * events. One tracker per load: events of a page's request reach it through the FetchPage context,
 * so concurrent loads of one client keep separate counts.
 */
import type { LoadProgress, PageEvent } from './types.js';

export interface ProgressTracker {
  /** Feeds an event of one of this load's requests. */
  onPageEvent(event: PageEvent): void;
  /** Page 1 told how many pages and records there are. */
  planned(pagesTotal: number, total: number): void;
  /** A page arrived with this many records. */
  pageDone(records: number): void;
  /** The load starts again (the data changed): page counts restart, retries and waits add up. */
  restarted(): void;
  snapshot(): LoadProgress;
  /** Pages fetched over every try. */
  readonly pagesFetched: number;
}

/**
 * Creates a tracker that calls `onProgress` after every change.
 *
 * @example
 * const tracker = createProgressTracker((p) => bar.update(p), Date.now);
 * tracker.planned(40, 39_512);
 * tracker.pageDone(1000);
 */
export function createProgressTracker(onProgress: ((progress: LoadProgress) => void) | undefined, now: () => number = Date.now): ProgressTracker {
  const started = now();
  let tryStarted = started;
  let pagesDone = 0;
  let pagesTotal = 0;
  let records = 0;
  let total = 0;
  let retries = 0;
  let rateLimitWaits = 0;
  let reloads = 0;
  let pagesFetched = 0;

  const snapshot = (): LoadProgress => {
    const t = now();
    const remaining = pagesTotal - pagesDone;
    // The pace of this try so far; meaningless before the second page.
    const etaMs = pagesDone >= 2 && pagesTotal > 0 ? Math.max(0, Math.round(((t - tryStarted) / pagesDone) * remaining)) : remaining === 0 && pagesTotal > 0 ? 0 : undefined;
    return { pagesDone, pagesTotal, records, total, retries, rateLimitWaits, etaMs, elapsedMs: t - started, reloads };
  };
  const emit = () => onProgress?.(snapshot());

  return {
    onPageEvent(event) {
      if (event.type === 'retry') {
        retries += 1;
        if (event.reason === 'rate-limited') rateLimitWaits += 1;
        emit();
      } else if (event.type === 'rate-limit-wait') {
        rateLimitWaits += 1;
        emit();
      }
    },
    planned(pages, matching) {
      pagesTotal = pages;
      total = matching;
      emit();
    },
    pageDone(count) {
      pagesDone += 1;
      pagesFetched += 1;
      records += count;
      emit();
    },
    restarted() {
      reloads += 1;
      pagesDone = 0;
      pagesTotal = 0;
      records = 0;
      tryStarted = now();
      emit();
    },
    snapshot,
    get pagesFetched() {
      return pagesFetched;
    },
  };
}
