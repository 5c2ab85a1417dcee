/**
 * Page 1's size, told before its records are parsed (`FetchPageContext.sized`), starts pages 2..N
 * at once: their round trips overlap page 1's parse. The loader's guarantees hold: pages in order,
 * a size that disagrees with the parsed page is an error that cancels what was started, a size
 * that does not add up is ignored. Unit tests with a page source whose page 1 is held back, then
 * the real client against the emulator.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { LoadError } from '../../src/errors.js';
import { iteratePages } from '../../src/loader/iterate-pages.js';
import { loadAll } from '../../src/loader/load-all.js';
import type { FetchPage, ListSize, LoadProgress, ParsedPage } from '../../src/loader/types.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';

const PER_PAGE = 10;

/** Page `n` of a list of `total` ids 1..total. */
const pageOf = (n: number, total: number): ParsedPage<{ id: number }> => {
  const from = (n - 1) * PER_PAGE + 1;
  const to = Math.min(total, n * PER_PAGE);
  return {
    records: Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ({ id: from + i })),
    total,
    lastPage: Math.max(1, Math.ceil(total / PER_PAGE)),
    perPage: PER_PAGE,
    currentPage: n,
  };
};

/**
 * A page source whose page 1 tells `size` (if given) and then waits for `release()` before it is
 * "parsed"; later pages answer at once, or (`hang`) only when cancelled. Logs the pages asked for
 * and the signals they got.
 */
function heldSource(total: number, size: ListSize | undefined, hang = false) {
  const asked: number[] = [];
  const signals = new Map<number, AbortSignal>();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const fetchPage: FetchPage<{ id: number }> = async (page, _perPage, signal, context) => {
    asked.push(page);
    signals.set(page, signal);
    if (page === 1) {
      if (size) context?.sized?.(size);
      await released;
    } else if (hang) {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
    }
    return pageOf(page, total);
  };
  return { fetchPage, asked, signals, release: () => release() };
}

const collect = async <T>(pages: AsyncGenerator<ParsedPage<T>>) => {
  const records: T[] = [];
  for await (const page of pages) records.push(...page.records);
  return records;
};

describe('page 1 tells its size before its parse', () => {
  it('requests pages 2..N at once (up to concurrency + prefetch), then delivers every page in order', async () => {
    const source = heldSource(95, { total: 95, lastPage: 10, perPage: PER_PAGE, currentPage: 1 });
    const progress: LoadProgress[] = [];
    const loading = collect(iteratePages(source.fetchPage, { perPage: PER_PAGE, concurrency: 3, prefetch: 2, onProgress: (p) => progress.push(p) }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Page 1 is still held, yet pages 2..6 were asked for: as many as concurrency + prefetch
    // ahead of page 2 (they answer at once here, so their slots free), and no more.
    expect(source.asked).toEqual([1, 2, 3, 4, 5, 6]);
    // The plan is known from the size: 10 pages, 95 records. Pages 2..6 are in, but progress
    // counts page 1 first: nothing is done yet.
    expect(progress[0]).toMatchObject({ pagesDone: 0, pagesTotal: 10, total: 95 });
    expect(progress.map((p) => p.pagesDone)).toEqual([0]);
    source.release();
    const records = await loading;
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
    expect(source.asked.slice().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(progress.at(-1)).toMatchObject({ pagesDone: 10, pagesTotal: 10, records: 95 });
    // Counted one at a time, page 1's records first.
    expect(progress.map((p) => p.pagesDone)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(progress[1]?.records).toBe(10);
  });

  it('respects maxPages and maxRecords when it schedules early', async () => {
    const source = heldSource(95, { total: 95, lastPage: 10, perPage: PER_PAGE, currentPage: 1 });
    const loading = collect(iteratePages(source.fetchPage, { perPage: PER_PAGE, concurrency: 8, maxRecords: 25 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.asked).toEqual([1, 2, 3]);
    source.release();
    expect((await loading).map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('a size that disagrees with the parsed page 1 (asked again, the list had changed) is a data change; the pages it started are cancelled', async () => {
    const source = heldSource(95, { total: 120, lastPage: 12, perPage: PER_PAGE, currentPage: 1 }, true);
    const loading = collect(iteratePages(source.fetchPage, { perPage: PER_PAGE, concurrency: 4 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.asked).toEqual([1, 2, 3, 4, 5]);
    source.release();
    const error = await loading.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoadError);
    expect(error).toMatchObject({ code: 'data_changed' });
    expect((error as Error).message).toMatch(/page 1 reported 120 records in all, then 95 when it was asked again/);
    for (const page of [2, 3, 4, 5]) expect(source.signals.get(page)?.aborted).toBe(true);
  });

  it('loadAll loads again after such a change, and gets it right', async () => {
    let calls = 0;
    const fetchPage: FetchPage<{ id: number }> = async (page, _perPage, _signal, context) => {
      if (page === 1) {
        calls += 1;
        // The first time, page 1's envelope said 12 pages; the page read after a retry says 10.
        context?.sized?.(calls === 1 ? { total: 120, lastPage: 12, perPage: PER_PAGE, currentPage: 1 } : { total: 95, lastPage: 10, perPage: PER_PAGE, currentPage: 1 });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return pageOf(page, 95);
    };
    const result = await loadAll(fetchPage, { perPage: PER_PAGE, concurrency: 4 });
    expect(result.complete).toBe(true);
    expect(result.stats.reloads).toBe(1);
    expect(result.records.map((r) => r.id)).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
  });

  it('a size that does not add up, a one-page list, or no size at all: nothing starts before page 1 is parsed', async () => {
    for (const [total, size] of [
      [95, { total: 95, lastPage: 3, perPage: PER_PAGE, currentPage: 1 }],
      [95, { total: 95, lastPage: 10, perPage: PER_PAGE, currentPage: 2 }],
      [7, { total: 7, lastPage: 1, perPage: PER_PAGE, currentPage: 1 }],
      [95, undefined],
    ] as const) {
      const source = heldSource(total, size);
      const loading = collect(iteratePages(source.fetchPage, { perPage: PER_PAGE, concurrency: 4 }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(source.asked).toEqual([1]);
      source.release();
      expect((await loading).map((r) => r.id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    }
  });
});

describe('the client tells page 1 size from its bytes', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(() => emulator.close());

  it("a new client's pages started early are paced by page 1's rate-limit headers: no 429", async () => {
    const limited = await startEmulator({ rateLimit: 6, rateWindowS: 1 });
    try {
      const { client } = recordingClient(limited, { rateWindowMs: 1000 });
      const brands = await client.brands.load({ perPage: 20 }, { concurrency: 8 });
      expect(brands.complete).toBe(true);
      expect(brands.stats.pages).toBe(15);
      expect(limited.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(brands.stats.rateLimitWaits).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('with an answer cache too: a load from the service starts its pages early, and the next load reads them all from the cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-early-cache-'));
    try {
      const { client, events } = recordingClient(emulator, { cache: { dir, ttlMs: 60_000 } });
      let atPageOne: number[] | undefined;
      const first = await client.brands.load({ perPage: 40 }, { onProgress: (p) => (atPageOne ??= p.pagesDone === 1 ? requestedPages(events, 'brands') : undefined) });
      expect(first.stats.pages).toBeGreaterThan(2);
      expect(atPageOne?.slice(0, 2)).toEqual([1, 2]);
      emulator.clearRequests();
      const again = await recordingClient(emulator, { cache: { dir, ttlMs: 60_000 } }).client.brands.load({ perPage: 40 });
      expect(again.records).toEqual(first.records);
      expect(emulator.requests.filter((r) => r.path.includes('/brands'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('requests page 2 before page 1 is parsed (brandscape rows, whose parse waits for the metric catalogue)', async () => {
    const { client, events } = recordingClient(emulator);
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const query = { filter: { studies: study }, metricGroupKeys: ['pillars'], perPage: 100 };
    // What had been requested when page 1 was done (parsed and checked).
    let atPageOne: number[] | undefined;
    const result = await client.brandscape.load(query, { onProgress: (p) => (atPageOne ??= p.pagesDone === 1 ? requestedPages(events) : undefined) });
    expect(result.complete).toBe(true);
    expect(result.stats.pages).toBeGreaterThan(2);
    expect(atPageOne?.slice(0, 2)).toEqual([1, 2]);
    expect(requestedPages(events).sort((a, b) => a - b)).toEqual(Array.from({ length: result.stats.pages }, (_, i) => i + 1));
    // The records are those of a load one page at a time.
    const oneByOne = await recordingClient(emulator).client.brandscape.load(query, { concurrency: 1, prefetch: 0 });
    expect(result.records).toEqual(oneByOne.records);
  });
});

/** Pages of a resource (brandscape-data by default) requested so far, in the order asked. */
function requestedPages(events: readonly { type: string; url?: string }[], path = 'brandscape-data'): number[] {
  return events.filter((e) => e.type === 'request' && e.url?.includes(`/${path}?`)).map((e) => Number(new URL(e.url ?? '').searchParams.get('page')));
}
