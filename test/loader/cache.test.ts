/**
 * The on-disk cache: a hit makes no request (the emulator's log stays empty), entries are keyed
 * by version, path and parameters and expire; files are written atomically and never hold the
 * token.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { toCredentialId } from '../../src/client/page-functions.js';
import { createDiskCache, toCacheFileName } from '../../src/loader/cache.js';
import { paramsOf, recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';

const TOKEN = 'cache-test-token-7d1e9b2f';
const OTHER = 'another-users-token-51c8e0';
let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN, OTHER] });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('on-disk cache', () => {
  it('answers a repeated load from disk, without a single request', async () => {
    const { client, events } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    const first = await client.brands.all({ include: ['sector'], perPage: 100 });
    expect(emulator.requests.length).toBeGreaterThan(0);
    emulator.clearRequests();
    const again = await client.brands.all({ include: ['sector'], perPage: 100 });
    expect(emulator.requests).toHaveLength(0);
    expect(again).toEqual(first);
    expect(events.filter((e) => e.type === 'cache-hit')).toHaveLength(3);
    // A second client on the same directory (a later run) hits too.
    const later = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } }).client;
    emulator.clearRequests();
    expect(await later.brands.all({ include: ['sector'], perPage: 100 })).toEqual(first);
    expect(emulator.requests).toHaveLength(0);
  });

  it('keys by version, path and parameters', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await client.brands.page({ perPage: 5 });
    emulator.clearRequests();
    await client.brands.page({ perPage: 6 });
    await client.brands.page({ perPage: 5, filter: { is_core: true } });
    await client.sectors.page({ perPage: 5 });
    await recordingClient(emulator, { token: TOKEN, version: 'v1', cache: { dir, ttlMs: 60_000 } }).client.brands.page({ perPage: 5 });
    expect(emulator.requests).toHaveLength(4);
    const key = (path: string, query: string) => ({ service: emulator.url, credential: toCredentialId(TOKEN), version: 'v2', path, query });
    expect(toCacheFileName(key('brands', 'page=1&per_page=5'))).not.toBe(toCacheFileName(key('brands', 'page=1&per_page=6')));
    expect(toCacheFileName(key('brands', 'page=1&per_page=5'))).not.toBe(toCacheFileName({ ...key('brands', 'page=1&per_page=5'), version: 'v1' }));
  });

  it('serves an entry only within its time-to-live', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 40 } });
    await client.years.page();
    emulator.clearRequests();
    await client.years.page();
    expect(emulator.requests).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await client.years.page();
    expect(emulator.requests).toHaveLength(1);
  });

  it('never writes the token, leaves no temporary files, and ignores a damaged entry', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await client.brands.all({ perPage: 50, include: ['company'] });
    const files = await readdir(dir);
    expect(files.length).toBe(6);
    expect(files.every((f) => /^[0-9a-f]{40}\.json$/.test(f))).toBe(true);
    for (const file of files) expect(await readFile(join(dir, file), 'utf8')).not.toContain(TOKEN);
    await writeFile(join(dir, files[0] ?? ''), '{"key": broken');
    await writeFile(join(dir, files[1] ?? ''), '');
    emulator.clearRequests();
    const again = await client.brands.all({ perPage: 50, include: ['company'] });
    expect(again).toHaveLength(300);
    // The cache no longer holds the whole load: the whole load comes from the service (never a
    // mix of cached and fresh pages).
    expect(emulator.requests).toHaveLength(6);
  });

  it('stores bodies with secrets redacted', async () => {
    // The client's secrets, which it gives its cache (no other client's, and nothing global).
    const { createSecrets } = await import('../../src/errors.js');
    const cache = createDiskCache({ dir, ttlMs: 60_000, redact: createSecrets(['echoed-secret-value-123']).redact });
    const key = { service: 'http://x', credential: toCredentialId('some-token-value'), version: 'v2', path: 'brands', query: '' };
    await cache.set(key, '{"data":{"message":"token echoed-secret-value-123 refused"}}', { loadId: 'load-1' });
    expect(await cache.get(key)).toMatchObject({ body: '{"data":{"message":"token *** refused"}}', loadId: 'load-1' });
  });

  it('keeps the answers of different tokens apart, without writing either token', async () => {
    const mine = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await mine.client.brands.all({ perPage: 100 });
    emulator.clearRequests();
    const theirs = recordingClient(emulator, { token: OTHER, cache: { dir, ttlMs: 60_000 } });
    await theirs.client.brands.all({ perPage: 100 });
    // Another user may see other records: nothing of the first user's answers is served.
    expect(emulator.requests).toHaveLength(3);
    expect(theirs.events.some((e) => e.type === 'cache-hit')).toBe(false);
    const files = await readdir(dir);
    expect(files).toHaveLength(6);
    for (const file of files) {
      const text = await readFile(join(dir, file), 'utf8');
      for (const token of [TOKEN, OTHER]) expect(text).not.toContain(token);
    }
    const identity = toCredentialId(TOKEN);
    expect(identity).toMatch(/^[0-9a-f]{16}$/);
    expect(identity).not.toBe(toCredentialId(OTHER));
    // Each user still hits their own entries.
    emulator.clearRequests();
    await theirs.client.brands.all({ perPage: 100 });
    await mine.client.brands.all({ perPage: 100 });
    expect(emulator.requests).toHaveLength(0);
  });
});

describe('one load, one time: page 1 decides where every page comes from', () => {
  /** A clock the test moves: entries age without waiting. */
  const testClock = () => {
    let t = Date.now();
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };
  const pagesAsked = () =>
    requestsTo(emulator, 'brands')
      .map((r) => Number(paramsOf(r).get('page')))
      .sort((a, b) => a - b);
  /** The cache file of one page of `brands?per_page=100`, found by what its first line says it holds. */
  const fileOfPage = (page: number) => {
    const file = readdirSync(dir).find((f) => readFileSync(join(dir, f), 'utf8').split('\n', 1)[0]?.includes(`page=${page}&per_page=100`));
    if (file === undefined) throw new Error(`no cache file for page ${page}`);
    return join(dir, file);
  };

  it('page 1 from the service: every page comes from the service, even pages the cache still holds', async () => {
    const clock = testClock();
    const { client, events } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 1000 }, now: clock.now });
    await client.brands.all({ perPage: 100 });
    clock.advance(1100);
    // Page 2 alone, later: it is the only page still fresh when the next load starts.
    await client.brands.page({ page: 2, perPage: 100 });
    clock.advance(400);
    emulator.clearRequests();
    events.length = 0;
    const records = await client.brands.all({ perPage: 100 });
    expect(records.map((b) => b.id)).toEqual(emulator.dataset.brands.map((b) => b.record.id));
    expect(pagesAsked()).toEqual([1, 2, 3]);
    expect(events.some((e) => e.type === 'cache-hit')).toBe(false);
  });

  it('page 1 from the cache: the other pages must be stored by the same load, else the whole load comes from the service', async () => {
    const clock = testClock();
    const { client, events } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 }, now: clock.now });
    await client.brands.all({ perPage: 100 });
    // Page 3 is stored again, alone and later, by another request: every entry is within its
    // time-to-live, but page 3 is not of the time page 1 is.
    rmSync(fileOfPage(3));
    clock.advance(500);
    await client.brands.page({ page: 3, perPage: 100 });
    emulator.clearRequests();
    events.length = 0;
    const pages: number[] = [];
    for await (const page of client.brands.pages({ perPage: 100 })) pages.push(page.currentPage);
    expect(pages).toEqual([1, 2, 3]);
    // Checked before the first page was delivered: the whole load came from the service.
    expect(pagesAsked()).toEqual([1, 2, 3]);
    expect(events.filter((e) => e.type === 'cache-hit')).toHaveLength(1);
    // It is stored as one load now: the next load is served whole from the cache.
    emulator.clearRequests();
    await client.brands.all({ perPage: 100 });
    expect(emulator.requests).toHaveLength(0);
  });

  it('a cached page rewritten during the load: the load starts again from the service rather than mix', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await client.brands.all({ perPage: 100 });
    emulator.clearRequests();
    let removed = false;
    const result = await client.brands.load(
      { perPage: 100 },
      {
        concurrency: 1,
        onProgress: (p) => {
          // After page 1 and the check of the others, before page 3 is read: another run removes it.
          if (p.pagesDone === 1 && !removed) {
            removed = true;
            rmSync(fileOfPage(3));
          }
        },
      },
    );
    expect(result).toMatchObject({ total: 300, complete: true, stats: { reloads: 1 } });
    expect(result.records.map((b) => b.id)).toEqual(emulator.dataset.brands.map((b) => b.record.id));
    expect(pagesAsked()).toEqual([1, 2, 3]);
  });
});
