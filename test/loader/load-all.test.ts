/**
 * The loader against the emulator: page sizes per version, order, concurrency, bounds, the checks
 * (total, counts, unique ids), reload on a data change, failed pages, progress and cancellation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, type Emulator } from '../../src/emulator/index.js';
import { CancelledError, LoadError, ServerError } from '../../src/errors.js';
import type { LoadProgress } from '../../src/loader/types.js';
import { paramsOf, recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

/** Most requests in flight at once, from the emulator's log (arrival and duration). */
const peakConcurrency = (requests: readonly { at: number; durationMs: number }[]) => {
  const edges = requests.flatMap((r) => [
    [r.at, 1],
    [r.at + r.durationMs, -1],
  ]);
  edges.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (now += d ?? 0));
  return peak;
};

describe('paging', () => {
  it('asks for page 1 at the largest v2 page size and stops there when it holds everything', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    const result = await client.brands.load();
    expect(result).toMatchObject({ total: 300, complete: true, stats: { pages: 1, perPage: 1000, reloads: 0 } });
    expect(emulator.requests.map((r) => paramsOf(r).get('per_page'))).toEqual(['1000']);
  });

  it('v1: 100 per page at most (a larger size is a usage error naming the range)', async () => {
    const { client } = recordingClient(emulator, { version: 'v1' });
    await expect(client.brands.load({ perPage: 500 })).rejects.toThrow(/perPage must be a whole number from 1 to 100; got 500/);
    await expect(client.brands.page({ perPage: 500 })).rejects.toThrow(/perPage must be a whole number from 1 to 100; got 500/);
    emulator.clearRequests();
    const result = await client.brands.load({});
    expect(result.records).toHaveLength(300);
    expect(result.stats).toMatchObject({ pages: 3, perPage: 100 });
    const requests = requestsTo(emulator, 'brands', 'v1');
    expect(requests.map((r) => paramsOf(r).get('per_page'))).toEqual(['100', '100', '100']);
    expect(requests.map((r) => paramsOf(r).get('page')).sort()).toEqual(['1', '2', '3']);
    expect(result.records.map((b) => b.id)).toEqual(emulator.dataset.brands.map((b) => b.record.id));
  });

  it('builds every request from its own parameters (never from links), each page once, in order', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    const pages: number[] = [];
    for await (const page of client.brands.pages({ filter: { is_core: true }, sort: 'name', perPage: 7 }, { concurrency: 4 })) pages.push(page.currentPage);
    const requests = requestsTo(emulator, 'brands');
    expect(pages).toEqual(Array.from({ length: pages.length }, (_, i) => i + 1));
    expect(requests.map((r) => Number(paramsOf(r).get('page'))).sort((a, b) => a - b)).toEqual(pages);
    for (const r of requests) {
      const q = paramsOf(r);
      expect([q.get('filter[is_core]'), q.get('sort'), q.get('per_page')]).toEqual(['1', 'name', '7']);
    }
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const slow = await startEmulator({ latencyMs: 40 });
    try {
      const { client } = recordingClient(slow);
      const result = await client.brands.load({ perPage: 10 }, { concurrency: 3 });
      expect(result.records).toHaveLength(300);
      expect(peakConcurrency(slow.requests)).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it('bounds: maxPages and maxRecords give complete: false, exactly what was asked', async () => {
    const { client } = recordingClient(emulator);
    const byPages = await client.brands.load({ perPage: 20 }, { maxPages: 4 });
    expect(byPages).toMatchObject({ total: 300, complete: false, stats: { pages: 4 } });
    expect(byPages.records.map((b) => b.id)).toEqual(emulator.dataset.brands.slice(0, 80).map((b) => b.record.id));
    emulator.clearRequests();
    const byRecords = await client.brands.load({ perPage: 20 }, { maxRecords: 45 });
    expect(byRecords).toMatchObject({ total: 300, complete: false });
    expect(byRecords.records).toHaveLength(45);
    expect(emulator.requests).toHaveLength(3);
    const roomy = await client.brands.load({ perPage: 100 }, { maxRecords: 10_000, maxPages: 50 });
    expect(roomy).toMatchObject({ complete: true });
    expect(roomy.records).toHaveLength(300);
  });

  it('an empty result is one request and a complete, empty load', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    const result = await client.brands.load({ filter: { name: 'no brand is called this' } });
    expect(result).toMatchObject({ records: [], total: 0, complete: true });
    expect(emulator.requests).toHaveLength(1);
  });

  it('checks its options', async () => {
    const { client } = recordingClient(emulator);
    await expect(client.brands.all({}, { concurrency: 0 })).rejects.toThrow(/concurrency must be a whole number from 1 to 64; got 0/);
    await expect(client.brands.all({ perPage: 2.5 })).rejects.toThrow(/perPage must be a whole number from 1 to 1000; got 2.5/);
    for (const perPage of [0, Number.NaN, 2.5, -1, 1001]) {
      await expect(client.brands.page({ perPage }), String(perPage)).rejects.toThrow(/perPage must be a whole number from 1 to 1000/);
    }
    await expect(client.brands.page({ page: 0 })).rejects.toThrow(/page must be a whole number 1 or more; got 0/);
    expect(() => recordingClient(emulator, { timeoutMs: 0 })).toThrow(/timeoutMs must be a number from 1 to 600000 ms; got 0/);
    expect(() => recordingClient(emulator, { concurrency: 200 })).toThrow(/concurrency must be a whole number from 1 to 64; got 200/);
    expect(() => recordingClient(emulator, { retry: { retries: 99 } })).toThrow(/retry.retries must be a whole number from 0 to 10; got 99/);
  });
});

describe('progress', () => {
  it('reports pages, records, retries and an ETA, ending at the totals', async () => {
    const slow = await startEmulator({ latencyMs: 10 });
    try {
      const { client } = recordingClient(slow);
      slow.faults.add({ path: '/brands', nth: 4, times: 2, kind: 502 });
      const events: LoadProgress[] = [];
      const result = await client.brands.load({ perPage: 20 }, { concurrency: 2, onProgress: (p) => events.push(p) });
      const lastEvent = events.at(-1);
      expect(lastEvent).toMatchObject({ pagesDone: 15, pagesTotal: 15, records: 300, total: 300, retries: 2, rateLimitWaits: 0 });
      expect(result.stats).toMatchObject({ retries: 2, pagesFetched: 15 });
      const done = events.map((e) => e.pagesDone);
      expect(done).toEqual([...done].sort((a, b) => a - b));
      expect(events.some((e) => e.etaMs !== undefined && e.etaMs > 0 && e.pagesDone < e.pagesTotal)).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('failures', () => {
  it('a page that still fails after retries fails the load, naming it; no partial result', async () => {
    const { client } = recordingClient(emulator, { retry: { retries: 1, baseDelayMs: 1 } });
    emulator.faults.add({ path: '/brands', nth: 3, times: 2, kind: 500 });
    const error = await client.brands.load({ perPage: 50 }, { concurrency: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoadError);
    expect(error).toMatchObject({ code: 'pages_failed', failedPages: [3] });
    expect((error as LoadError).cause).toBeInstanceOf(ServerError);
    expect((error as Error).message).toMatch(/^Loading stopped: page 3 of 6 failed after retries\. First failure: GET .*page=3&per_page=50 answered 500/);
  });

  it('names every page that failed among those in flight', async () => {
    const { client } = recordingClient(emulator, { retry: { retries: 0 } });
    emulator.faults.add({ path: '/brands', nth: 2, times: Infinity, kind: 503 });
    const error = await client.brands.load({ perPage: 25 }, { concurrency: 4 }).catch((e: unknown) => e);
    emulator.faults.clear();
    expect(error).toMatchObject({ code: 'pages_failed' });
    expect((error as LoadError).failedPages).toEqual([2, 3, 4, 5]);
    expect((error as Error).message).toMatch(/pages 2, 3, 4, 5 of 12 failed/);
  });

  it("page 1's own failure is thrown as is", async () => {
    const { client } = recordingClient(emulator, { token: 'wrong-token-value' });
    await expect(client.brands.all()).rejects.toMatchObject({ name: 'AuthenticationError', status: 401 });
  });

  it('cancellation stops the load and the requests still to come', async () => {
    const slow = await startEmulator({ latencyMs: 30 });
    try {
      const { client, events } = recordingClient(slow);
      const sent = () => events.filter((e) => e.type === 'request').length;
      const controller = new AbortController();
      let sentBeforeAbort = -1;
      const pending = client.brands.all({ perPage: 10 }, {
        concurrency: 2,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.pagesDone === 3 && sentBeforeAbort < 0) {
            sentBeforeAbort = sent();
            controller.abort();
          }
        },
      });
      await expect(pending).rejects.toBeInstanceOf(CancelledError);
      await new Promise((resolve) => setTimeout(resolve, 150));
      // Nothing is sent after the abort (the two requests in flight then may still reach the emulator).
      expect(sent()).toBe(sentBeforeAbort);
      expect(sentBeforeAbort).toBeLessThanOrEqual(5);
      expect(slow.requests.length).toBeLessThanOrEqual(sentBeforeAbort);
    } finally {
      await slow.close();
    }
  });
});

describe('data changing during a load', () => {
  it('reloads once when the total changes, then returns the new total', async () => {
    const changing = await startEmulator({ dataset: createDataset({ seed: 8, brands: 300 }), latencyMs: 5 });
    try {
      const { client } = recordingClient(changing);
      const before = changing.dataset.studies.filter((s) => s.released).length;
      let published = false;
      const result = await client.studies.load(
        { filter: { released: true }, perPage: 10 },
        {
          concurrency: 2,
          onProgress: (p) => {
            if (p.pagesDone === 3 && !published) {
              published = true;
              void changing.publish({ kind: 'study' });
            }
          },
        },
      );
      expect(result.stats.reloads).toBe(1);
      expect(result).toMatchObject({ total: before + 1, complete: true });
      expect(result.records).toHaveLength(before + 1);
      expect(new Set(result.records.map((s) => s.id)).size).toBe(before + 1);
    } finally {
      await changing.close();
    }
  });

  it('fails with data_changed when the total changes again during the reload', async () => {
    const changing = await startEmulator({ dataset: createDataset({ seed: 9, brands: 300 }), latencyMs: 5 });
    try {
      const { client } = recordingClient(changing);
      const publishedIn = new Set<number>();
      const error = await client.studies
        .load(
          { filter: { released: true }, perPage: 10 },
          {
            concurrency: 2,
            onProgress: (p) => {
              if (p.pagesDone === 3 && !publishedIn.has(p.reloads)) {
                publishedIn.add(p.reloads);
                void changing.publish({ kind: 'study' });
              }
            },
          },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LoadError);
      expect(error).toMatchObject({ code: 'data_changed' });
      expect((error as Error).message).toMatch(/changed while loading, and again/);
    } finally {
      await changing.close();
    }
  });

  it('the iterator reports a change rather than deliver stale pages', async () => {
    const changing = await startEmulator({ dataset: createDataset({ seed: 10, brands: 300 }) });
    try {
      const { client } = recordingClient(changing);
      const seen: number[] = [];
      const run = async () => {
        for await (const page of client.studies.pages({ filter: { released: true }, perPage: 10 }, { concurrency: 1 })) {
          seen.push(page.currentPage);
          if (page.currentPage === 2) await changing.publish({ kind: 'study' });
        }
      };
      await expect(run()).rejects.toMatchObject({ code: 'data_changed' });
      expect(seen.length).toBeLessThan(5);
    } finally {
      await changing.close();
    }
  });

  it('pages that overlap (records moved with the same total) fail as inconsistent, naming the duplicate', async () => {
    const changing = await startEmulator({ dataset: createDataset({ seed: 12, brands: 300 }) });
    try {
      const { client } = recordingClient(changing);
      const order = await client.brands.all({ sort: '-updated_at', fields: ['id'] });
      const mover = order[200]?.id ?? 0;
      let published = false;
      const error = await client.brands
        .load(
          { sort: '-updated_at', perPage: 10 },
          {
            concurrency: 1,
            prefetch: 0,
            onProgress: (p) => {
              if (p.pagesDone === 3 && !published) {
                published = true;
                void changing.publish({ kind: 'brands', brandIds: [mover] });
              }
            },
          },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LoadError);
      expect(error).toMatchObject({ code: 'inconsistent' });
      expect((error as Error).message).toMatch(/appears twice \(again on page 4\)/);
    } finally {
      await changing.close();
    }
  });
});

describe('the iterator', () => {
  it('keeps memory bounded: requests run at most concurrency + prefetch pages ahead of a slow consumer', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    let consumed = 0;
    let maxAhead = 0;
    for await (const page of client.brands.pages({ perPage: 10 }, { concurrency: 2, prefetch: 1 })) {
      consumed += 1;
      await new Promise((resolve) => setTimeout(resolve, 15));
      maxAhead = Math.max(maxAhead, requestsTo(emulator, 'brands').length - consumed);
      expect(page.records).toHaveLength(10);
    }
    expect(consumed).toBe(30);
    expect(maxAhead).toBeLessThanOrEqual(3);
  });

  it('breaking out early cancels what is in flight and starts nothing more', async () => {
    const slow = await startEmulator({ latencyMs: 50 });
    try {
      const { client } = recordingClient(slow);
      for await (const page of client.brands.pages({ perPage: 10 }, { concurrency: 4 })) {
        if (page.currentPage === 2) break;
      }
      const count = slow.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(slow.requests.length).toBeLessThanOrEqual(count + 4);
      expect(slow.requests.length).toBeLessThan(12);
    } finally {
      await slow.close();
    }
  });
});
