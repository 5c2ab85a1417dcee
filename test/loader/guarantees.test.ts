/**
 * The loader's guarantees with the client's real pages and the default concurrency: pages that
 * arrive out of order are delivered in order; random faults (5xx, resets, bodies cut short) change
 * nothing in the result; cancellation while pages are in flight stops at once and leaves nothing
 * behind; concurrent loads of one client share its rate governor.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CancelledError } from '../../src/errors.js';
import { recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
let study: number;
beforeAll(async () => {
  emulator = await startEmulator();
  study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
});
afterAll(() => emulator.close());

const query = () => ({ filter: { studies: study }, metricGroupKeys: ['pillars'], perPage: 20 }) as const;

describe('the loader with real pages, concurrently', () => {
  it('delivers pages in order when they arrive out of order', async () => {
    const jittery = await startEmulator({ latencyMs: 5, jitterMs: 40 });
    try {
      const reference = await recordingClient(emulator).client.brandscape.all(query(), { concurrency: 1 });
      const { client } = recordingClient(jittery);
      const seen: number[] = [];
      const ids: number[] = [];
      for await (const page of client.brandscape.pages(query(), { concurrency: 8 })) {
        seen.push(page.currentPage);
        for (const row of page.records) ids.push(row.id);
      }
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
      expect(seen.length).toBeGreaterThan(8);
      expect(ids).toEqual(reference.map((r) => r.id));
      // They did arrive out of order: the emulator answered some later page before an earlier one.
      const answered = requestsTo(jittery, 'brandscape-data')
        .sort((a, b) => a.at + a.durationMs - (b.at + b.durationMs))
        .map((r) => Number(new URLSearchParams(r.query).get('page')));
      expect(answered).not.toEqual([...answered].sort((a, b) => a - b));
    } finally {
      await jittery.close();
    }
  });

  it('returns exactly the fault-free records when a quarter of the requests fail at random', async () => {
    const faulty = await startEmulator({ faultRate: 0.25, seed: 3, brands: 300 });
    try {
      const reference = await recordingClient(emulator).client.brandscape.load(query());
      const { client, events } = recordingClient(faulty, { retry: { retries: 8, baseDelayMs: 1, maxDelayMs: 5 } });
      const result = await client.brandscape.load(query(), { concurrency: 8 });
      expect(result.complete).toBe(true);
      expect(result.records).toEqual(reference.records);
      expect(result.stats.retries).toBeGreaterThan(0);
      const faults = new Set(faulty.requests.map((r) => r.fault).filter((f) => f !== undefined));
      expect(faults.size).toBeGreaterThan(2);
      expect(events.some((e) => e.type === 'retry' && e.reason === 'network')).toBe(true);
    } finally {
      await faulty.close();
    }
  });

  it('stops at once when cancelled while pages are in flight, and leaves no listener behind', async () => {
    const slow = await startEmulator({ latencyMs: 100 });
    try {
      slow.faults.add({ path: '/brandscape-data', nth: 3, kind: 'hang' });
      const { client, events } = recordingClient(slow);
      const sent = () => events.filter((e) => e.type === 'request').length;
      const controller = new AbortController();
      let abortedAt = 0;
      let sentBeforeAbort = -1;
      const pending = client.brandscape.all(query(), {
        signal: controller.signal,
        concurrency: 4,
        onProgress: (p) => {
          // Page 1 is in; pages 2-5 are in flight, page 3 will never be answered.
          if (p.pagesDone === 1 && abortedAt === 0) {
            setTimeout(() => {
              abortedAt = Date.now();
              sentBeforeAbort = sent();
              controller.abort();
            }, 30);
          }
        },
      });
      await expect(pending).rejects.toBeInstanceOf(CancelledError);
      expect(Date.now() - abortedAt).toBeLessThan(300);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Nothing was sent after the abort; the hanging request was dropped, not left to hang.
      expect(sent()).toBe(sentBeforeAbort);
      expect(slow.requests.length).toBeLessThanOrEqual(sentBeforeAbort);
    } finally {
      await slow.close();
    }
  });

  it('shares the rate limit across concurrent loads of one client: no 429 once the limit is known, never over it', async () => {
    const limited = await startEmulator({ rateLimit: 6, rateWindowS: 1 });
    try {
      const { client } = recordingClient(limited, { rateWindowMs: 1000 });
      const [brands, studies] = await Promise.all([
        client.brands.load({ perPage: 50 }, { concurrency: 4 }),
        client.studies.load({ perPage: 20 }, { concurrency: 4 }),
      ]);
      expect(brands.complete && studies.complete).toBe(true);
      const served = limited.requests.filter((r) => r.path.startsWith('/api/v2/'));
      expect(served.slice(2).filter((r) => r.status === 429)).toEqual([]);
      // No window of a second ever saw more than the limit of answered requests.
      const times = served.filter((r) => r.status === 200).map((r) => r.at).sort((a, b) => a - b);
      const busiest = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
      expect(busiest).toBeLessThanOrEqual(6);
      expect(brands.stats.rateLimitWaits + studies.stats.rateLimitWaits).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
