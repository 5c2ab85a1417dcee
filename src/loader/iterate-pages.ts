/**
 * The page iterator, the loader's primitive (DESIGN.md rule 4): page 1 first, at the largest page
 * size the API version allows, to learn `meta.total` and `meta.last_page`; then pages 2..N
 * concurrently, at most `concurrency` requests in flight (`request-slots.ts`), delivered strictly
 * in order. Pages 2..N are requested as soon as page 1's `meta` is known: before its records are
 * parsed when the page function tells it (`FetchPageContext.sized`), else before page 1 is handed
 * on. Memory stays bounded: at most
 * `concurrency + prefetch` pages are in flight or waiting for the consumer.
 *
 * Next requests are built from the caller's own parameters plus `page`; `links.next` and
 * `meta.links` are never followed (the service drops query parameters from them, §6.5).
 *
 * Every page is checked: the same `meta.total` as page 1 (else the data changed while loading),
 * the page number asked for, the record count the total implies, and ids not seen before. A page
 * that still fails after the transport's retries stops the load with a LoadError naming the
 * failed pages; nothing is silently dropped.
 *
 * With an answer cache, page 1 decides for the whole load (LoadCacheState): from the service, all
 * pages come from the service; from the cache, all pages must come from the cache, stored by the
 * same load, which is checked before the first page is delivered (else the load starts over from
 * the service).
 */
import { setMaxListeners } from 'node:events';
import { PAGE_LIMITS } from '../catalogue/page-limits.js';
import { BrandscapeError, CancelledError, LoadError } from '../errors.js';
import { linkSignals } from '../link-signals.js';
import { createProgressTracker, type ProgressTracker } from './progress-tracker.js';
import { checkInteger } from '../option-checks.js';
import { createRequestSlots } from './request-slots.js';
import type { FetchPage, FetchPageContext, ListSize, LoadCacheState, LoadOptions, ParsedPage } from './types.js';

/** How a load is run: settings checked once. */
interface Plan {
  concurrency: number;
  prefetch: number;
  perPage: number;
  maxPages: number;
  maxRecords: number;
}

function positiveInt(name: string, value: number | undefined, fallback: number, min = 1, max = Number.POSITIVE_INFINITY): number {
  return value === undefined ? fallback : checkInteger(name, value, { min, max });
}

function toPlan(options: LoadOptions): Plan {
  const limits = PAGE_LIMITS[options.version ?? 'v2'];
  const concurrency = positiveInt('concurrency', options.concurrency, 8, 1, 64);
  return {
    concurrency,
    prefetch: positiveInt('prefetch', options.prefetch, concurrency, 0),
    // A larger page size than the service allows would be clamped by it (§20) and the pages would
    // not add up as asked: it is refused, naming the range.
    perPage: positiveInt('perPage', options.perPage, limits.max, 1, limits.max),
    maxPages: positiveInt('maxPages', options.maxPages, Number.POSITIVE_INFINITY),
    maxRecords: positiveInt('maxRecords', options.maxRecords, Number.POSITIVE_INFINITY, 0),
  };
}

const idOf = (record: unknown): unknown => (typeof record === 'object' && record !== null && 'id' in record ? record.id : undefined);

const newCacheState = (refresh: boolean): LoadCacheState => ({ mode: refresh ? 'network' : 'undecided', loadId: undefined, verify: undefined });

/** Pages `from`..`to`. */
const pageRange = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

const listPages = (pages: readonly number[]) => (pages.length === 1 ? `page ${pages[0]}` : `pages ${pages.join(', ')}`);

type Settled<T> = { ok: true; page: ParsedPage<T> } | { ok: false; error: unknown } | { ok: 'skipped' };

/**
 * Every page of a query, in order, fetched concurrently.
 *
 * Throws a LoadError with code `data_changed` if the total changes during the iteration (pages
 * already delivered are then stale: start again), `pages_failed` naming the pages that failed
 * after retries, `inconsistent` if pages overlap or miss records; a CancelledError when `signal`
 * aborts. Page 1's own failure is thrown as is (nothing was loaded yet). Breaking out of the loop
 * cancels the requests still in flight.
 *
 * @example
 * for await (const page of iteratePages(fetchPage, { concurrency: 8, version: 'v2' })) {
 *   await sink.write(page.records);
 * }
 */
export function iteratePages<T>(fetchPage: FetchPage<T>, options: LoadOptions = {}): AsyncGenerator<ParsedPage<T>, void, undefined> {
  const plan = toPlan(options);
  const tracker = createProgressTracker(options.onProgress, options.now);
  return iteratePagesWith(fetchPage, options, plan, tracker, false);
}

/**
 * The iterator with a tracker and cache mode chosen by the caller: what `loadAll` uses to carry
 * counts across a reload. Not part of the public API.
 *
 * @example
 * const tracker = createProgressTracker(options.onProgress);
 * for await (const page of iteratePagesTracked(fetchPage, options, tracker, true)) collect(page);
 */
export function iteratePagesTracked<T>(fetchPage: FetchPage<T>, options: LoadOptions, tracker: ProgressTracker, refresh: boolean): AsyncGenerator<ParsedPage<T>, void, undefined> {
  return iteratePagesWith(fetchPage, options, toPlan(options), tracker, refresh);
}

async function* iteratePagesWith<T>(
  fetchPage: FetchPage<T>,
  options: LoadOptions,
  plan: Plan,
  tracker: ProgressTracker,
  refresh: boolean,
): AsyncGenerator<ParsedPage<T>, void, undefined> {
  const outer = options.signal;
  if (outer?.aborted) throw new CancelledError('Loading the pages');
  // Our own signal: aborted by the caller's, and by us when the load cannot succeed any more.
  const link = linkSignals(outer);
  const signal = link.signal;
  // Every request in flight listens to this signal (and a brandscape page waiting for the metric
  // catalogue once more): a listener per request is expected, not a leak.
  setMaxListeners(2 * (plan.concurrency + plan.prefetch) + 8, signal);
  const onEvent: FetchPageContext['onEvent'] = (event) => tracker.onPageEvent(event);
  let context: FetchPageContext = { onEvent, refresh, cache: newCacheState(refresh) };
  const cancelled = () => new CancelledError('Loading the pages');
  const slots = createRequestSlots(plan.concurrency);
  const pending = new Map<number, Promise<Settled<T>>>();

  try {
    /**
     * The load as page 1's `meta` describes it: the pages to fetch and how many records each must
     * hold. Undefined when that does not add up (page 1's parse then throws).
     */
    const layoutOf = (size: ListSize) => {
      const { total, lastPage, perPage } = size;
      const expectedLast = Math.max(1, Math.ceil(total / perPage));
      if (lastPage !== expectedLast || size.currentPage !== 1) return undefined;
      const pagesWanted = Math.max(1, Math.min(lastPage, plan.maxPages, Math.ceil(plan.maxRecords / perPage)));
      return { total, lastPage, perPage, pagesWanted };
    };
    type Layout = NonNullable<ReturnType<typeof layoutOf>>;

    /** Set when the data changed under the load (another total, rewritten cache): stop and report it. */
    let changed: LoadError | undefined;
    let stopping = false;
    const dataChanged = (message: string) => new LoadError('data_changed', `The data changed while loading: ${message}.`, [], { hint: 'Load again; the service published new data during the load.' });
    const stopForChange = (error: LoadError) => {
      changed ??= error;
      stopping = true;
      // No use fetching the rest: every page delivered is stale.
      link.abort();
    };
    /**
     * Pages done before page 1 (started early, they may finish first) are counted once page 1 is:
     * progress counts page 1 first, and nothing of a load whose page 1 fails.
     */
    let countedEarly: number[] | undefined = [];
    const pageDone = (records: number) => (countedEarly ? countedEarly.push(records) : tracker.pageDone(records));
    const fetchOne = async (number: number, layout: Layout, answered: () => void): Promise<Settled<T>> => {
      if (stopping || signal.aborted) return { ok: 'skipped' };
      try {
        const page = await fetchPage(number, layout.perPage, signal, { ...context, answered });
        pageDone(page.records.length);
        if (page.total !== layout.total) stopForChange(dataChanged(`page ${number} reports ${page.total} records in all, page 1 reported ${layout.total}`));
        return { ok: true, page };
      } catch (error) {
        if (error instanceof LoadError && error.code === 'data_changed') {
          // The answers this load was built on were replaced (a cached load rewritten meanwhile).
          stopForChange(error);
          return { ok: 'skipped' };
        }
        // The load has failed: start no other page (those in flight finish, to be named).
        stopping = true;
        return { ok: false, error };
      }
    };

    /** The layout pages 2..N are requested by, once known (from page 1's meta, before or after its parse). */
    let scheduled: Layout | undefined;
    let nextToSchedule = 2;
    /** Starts every page up to `concurrency + prefetch` ahead of page `from` (bounded memory). */
    const scheduleFrom = (from: number) => {
      const layout = scheduled;
      if (!layout) return;
      while (!stopping && nextToSchedule <= layout.pagesWanted && nextToSchedule < from + plan.concurrency + plan.prefetch) {
        const n = nextToSchedule;
        nextToSchedule += 1;
        pending.set(n, slots.run((free) => fetchOne(n, layout, free)));
      }
    };
    const startPages = (layout: Layout) => {
      scheduled = layout;
      tracker.planned(layout.pagesWanted, layout.total);
      scheduleFrom(2);
    };

    /** Page 1 and what it says of the load; throws if it does not add up. */
    const fetchFirst = async () => {
      // Told page 1's size before its records are parsed, pages 2..N are requested at once (never
      // for a page 1 from the cache: the cache decorator does not tell it).
      const sized = (size: ListSize) => {
        const layout = scheduled === undefined ? layoutOf(size) : undefined;
        if (layout && layout.pagesWanted > 1 && !signal.aborted) startPages(layout);
      };
      let first: ParsedPage<T>;
      try {
        first = await fetchPage(1, plan.perPage, signal, { ...context, sized });
      } catch (error) {
        if (outer?.aborted) throw cancelled();
        // A page started early saw another total (page 1 was being retried): that is the cause.
        if (changed) throw changed;
        throw error;
      }
      const layout = layoutOf(first);
      if (!layout) {
        throw new LoadError(
          'inconsistent',
          `Page 1 does not add up: total ${first.total}, ${first.perPage} per page, but last page ${first.lastPage} and current page ${first.currentPage}.`,
        );
      }
      if (scheduled && (scheduled.total !== layout.total || scheduled.perPage !== layout.perPage || scheduled.lastPage !== layout.lastPage)) {
        // Page 1 was asked again (its first answer could not be read) and the list had changed.
        throw dataChanged(`page 1 reported ${scheduled.total} records in all, then ${layout.total} when it was asked again`);
      }
      return { first, layout };
    };
    let firstPage = await fetchFirst();
    if (context.cache?.mode === 'cache' && firstPage.layout.pagesWanted > 1) {
      const coherent = (await context.cache.verify?.(pageRange(2, firstPage.layout.pagesWanted))) ?? false;
      if (outer?.aborted) throw cancelled();
      if (!coherent) {
        // Page 1 came from the cache, the other pages not all with it (an interrupted or another
        // load rewrote some): the whole load comes from the service, so that no page of another
        // time joins it. Nothing has been delivered yet.
        context = { onEvent, refresh: true, cache: newCacheState(true) };
        firstPage = await fetchFirst();
      }
    }
    const { first, layout } = firstPage;
    const { total, lastPage, perPage, pagesWanted } = layout;
    const recordsWanted = Math.min(total, plan.maxRecords, pagesWanted * perPage);

    // Duplicate ids are looked up in a set, built only once the ids stop rising: until then the
    // ids seen are kept as a plain list (the default order is by id, so usually for good).
    const seen = new Set<unknown>();
    const risingIds: number[] = [];
    let lastId = Number.NEGATIVE_INFINITY;
    let delivered = 0;
    /** Checks a page and trims it to `maxRecords`; throws what is wrong with it. */
    const accept = (page: ParsedPage<T>, number: number): ParsedPage<T> => {
      const expected = number < lastPage ? perPage : total - (lastPage - 1) * perPage;
      if (page.currentPage !== number) {
        throw new LoadError('inconsistent', `Asked for page ${number}, the service answered page ${page.currentPage}.`, [number]);
      }
      if (page.records.length !== expected) {
        throw new LoadError('inconsistent', `Page ${number} holds ${page.records.length} records; with ${total} in all and ${perPage} per page it should hold ${expected}.`, [number], {
          hint: 'Records moved between pages while loading (the data changed) or the service miscounted; load again.',
        });
      }
      for (const record of page.records) {
        const id = idOf(record);
        if (id === undefined) continue;
        if (typeof id === 'number' && id > lastId && seen.size === 0) {
          // Ids rising so far (the service's default order): a larger one cannot have been seen.
          lastId = id;
          risingIds.push(id);
          continue;
        }
        if (seen.size === 0) for (const earlier of risingIds.splice(0)) seen.add(earlier);
        if (seen.has(id)) {
          throw new LoadError('inconsistent', `Record id ${JSON.stringify(id)} appears twice (again on page ${number}): the pages overlap.`, [number], {
            hint: 'The order is not stable (sort by a field with repeated values? add id as the last sort key) or the data changed while loading; load again.',
          });
        }
        seen.add(id);
      }
      const room = recordsWanted - delivered;
      const kept = page.records.length > room ? { ...page, records: page.records.slice(0, room) } : page;
      delivered += kept.records.length;
      return kept;
    };

    // Pages 2..N are on their way before page 1 is handed on (if page 1 did not start them before
    // its parse): the consumer's work on page 1 (a parse, a write) overlaps their round trips.
    const firstAccepted = accept(first, 1);
    if (!scheduled) startPages(layout);
    tracker.pageDone(first.records.length);
    for (const records of countedEarly.splice(0)) tracker.pageDone(records);
    countedEarly = undefined;
    yield firstAccepted;

    for (let number = 2; number <= pagesWanted; number += 1) {
      scheduleFrom(number);
      const settled = (await pending.get(number)) ?? { ok: 'skipped' };
      pending.delete(number);
      if (outer?.aborted) throw cancelled();
      if (changed) throw changed;
      if (settled.ok === true) {
        yield accept(settled.page, number);
        if (outer?.aborted) throw cancelled();
        continue;
      }
      // A page failed after retries: start nothing new, let the requests in flight finish so the
      // error can name every page that failed, then stop.
      stopping = true;
      const failures: { page: number; error: unknown }[] = [];
      if (settled.ok === false) failures.push({ page: number, error: settled.error });
      for (const [n, promise] of [...pending].sort((a, b) => a[0] - b[0])) {
        const other = await promise;
        if (other.ok === false) failures.push({ page: n, error: other.error });
      }
      pending.clear();
      if (outer?.aborted) throw cancelled();
      // `changed` is set by the page callbacks while awaiting above, which narrowing does not see.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (changed) throw changed;
      const firstFailure = failures[0];
      if (!firstFailure) throw new LoadError('pages_failed', `Page ${number} of ${pagesWanted} was not fetched.`, [number]);
      const cause = firstFailure.error;
      const pages = failures.map((f) => f.page);
      const said = cause instanceof Error ? cause.message : String(cause);
      throw new LoadError('pages_failed', `Loading stopped: ${listPages(pages)} of ${pagesWanted} failed after retries. First failure: ${said}`, pages, {
        // The cause's message already carries its advice; add ours only when it has none.
        ...(cause instanceof BrandscapeError && cause.hint ? {} : { hint: 'Run the load again; if it keeps failing, lower the concurrency.' }),
        cause,
      });
    }
  } finally {
    // The consumer stopped early or something failed: cancel what is still in flight.
    slots.clear();
    link.abort();
  }
}
