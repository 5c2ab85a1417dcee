/**
 * The load cache as a decorator of a page function, on its own: the page source is an in-memory
 * list of records (the loader's own contract, no HTTP), the store the real on-disk cache. Hits and
 * misses, a lone page, a changed total, corrupt files.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiskCache, type CacheKey } from '../../src/loader/cache.js';
import { loadAll } from '../../src/loader/load-all.js';
import type { ParsedPage } from '../../src/loader/types.js';
import { withLoadCache, type CacheEvent, type PageSource } from '../../src/loader/with-load-cache.js';

interface Row {
  id: number;
  name: string;
}

/** A list the test changes at will, served page by page as the service would, counting requests. */
function fakeSource(initial: number) {
  let rows: Row[] = Array.from({ length: initial }, (_, i) => ({ id: i + 1, name: `row ${i + 1}` }));
  const asked: number[] = [];
  const pageOf = (page: number, perPage: number): ParsedPage<Row> => ({
    records: rows.slice((page - 1) * perPage, page * perPage),
    total: rows.length,
    lastPage: Math.max(1, Math.ceil(rows.length / perPage)),
    perPage,
    currentPage: page,
  });
  const source: PageSource<Row> = async (page, perPage) => {
    asked.push(page);
    const parsed = pageOf(page, perPage);
    return { page: parsed, bytes: Buffer.from(JSON.stringify(parsed)) };
  };
  return {
    source,
    asked,
    /** Adds a row at the front: every page's contents move, and the total changes. */
    publish: () => (rows = [{ id: rows.length + 1000, name: 'new' }, ...rows]),
    ids: () => rows.map((r) => r.id),
  };
}

const parse = (text: string): ParsedPage<Row> => JSON.parse(text) as ParsedPage<Row>;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-load-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A decorated page function over `source`, with a clock the test moves and the events it reports. */
function cached(source: PageSource<Row>, ttlMs = 60_000) {
  let now = 1_000_000;
  const events: (CacheEvent & { page: number })[] = [];
  const keyOf = (page: number, perPage: number): CacheKey => ({ service: 'memory:', credential: 'test', version: 'v2', path: 'rows', query: `page=${page}&per_page=${perPage}` });
  const fetchPage = withLoadCache(source, {
    cache: createDiskCache({ dir, ttlMs, now: () => now }),
    keyOf,
    parse,
    onEvent: (event, page) => events.push({ ...event, page }),
  });
  return { fetchPage, events, advance: (ms: number) => (now += ms) };
}

/** The cache file holding a page, found by the key on its first line. */
const fileOfPage = (page: number) => {
  const file = readdirSync(dir).find((f) => readFileSync(join(dir, f), 'utf8').split('\n', 1)[0]?.includes(`page=${page}&`));
  if (!file) throw new Error(`no cache file for page ${page}`);
  return join(dir, file);
};

describe('withLoadCache', () => {
  it('misses, then hits: a repeated load asks the source nothing and returns the same records', async () => {
    const data = fakeSource(45);
    const { fetchPage, events } = cached(data.source);
    const first = await loadAll(fetchPage, { perPage: 10 });
    expect(first.records.map((r) => r.id)).toEqual(data.ids());
    expect(data.asked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(events).toEqual([]);
    data.asked.length = 0;
    const again = await loadAll(fetchPage, { perPage: 10 });
    expect(data.asked).toEqual([]);
    expect(again.records).toEqual(first.records);
    expect(events.map((e) => e.type)).toEqual(['cache-hit', 'cache-hit', 'cache-hit', 'cache-hit', 'cache-hit']);
  });

  it('a lone page (no load around it) is served while its entry lives, then asked again', async () => {
    const data = fakeSource(30);
    const { fetchPage, advance } = cached(data.source, 1000);
    const signal = new AbortController().signal;
    await fetchPage(2, 10, signal);
    await fetchPage(2, 10, signal);
    expect(data.asked).toEqual([2]);
    advance(1001);
    await fetchPage(2, 10, signal);
    expect(data.asked).toEqual([2, 2]);
  });

  it('a changed total: once page 1 has expired, every page comes from the source, never old pages with the new total', async () => {
    const data = fakeSource(30);
    const { fetchPage, advance, events } = cached(data.source, 1000);
    await loadAll(fetchPage, { perPage: 10 });
    advance(600);
    // Page 2 is stored again later, alone: when page 1 expires it is still fresh.
    data.asked.length = 0;
    await fetchPage(2, 10, new AbortController().signal, { cache: { mode: 'network', loadId: undefined, verify: undefined } });
    advance(600);
    data.publish();
    data.asked.length = 0;
    events.length = 0;
    const result = await loadAll(fetchPage, { perPage: 10 });
    expect(result.total).toBe(31);
    expect(result.records.map((r) => r.id)).toEqual(data.ids());
    expect(data.asked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect(events).toEqual([]);
  });

  it('a changed total stored by another load: page 1 from the cache, a later page not of its load, so the whole load comes from the source', async () => {
    const data = fakeSource(30);
    const { fetchPage } = cached(data.source);
    await loadAll(fetchPage, { perPage: 10 });
    // Another run, after the data changed, stored page 3 again (with the new total).
    data.publish();
    await fetchPage(3, 10, new AbortController().signal, { cache: { mode: 'network', loadId: undefined, verify: undefined } });
    data.asked.length = 0;
    const result = await loadAll(fetchPage, { perPage: 10 });
    expect(result.stats.reloads).toBe(0);
    expect(result.total).toBe(31);
    expect(result.records.map((r) => r.id)).toEqual(data.ids());
    expect(data.asked.sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
  });

  it('a corrupt file is a miss: a broken entry of page 1, and a body that is not JSON under a sound header', async () => {
    const data = fakeSource(30);
    const { fetchPage, events } = cached(data.source);
    await loadAll(fetchPage, { perPage: 10 });
    writeFileSync(fileOfPage(1), '{"key": broken');
    data.asked.length = 0;
    const afterBrokenFirst = await loadAll(fetchPage, { perPage: 10 });
    expect(afterBrokenFirst.records.map((r) => r.id)).toEqual(data.ids());
    expect(data.asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);

    // The load just stored every page again, as one load. Now page 2's body breaks, its header intact.
    const file = fileOfPage(2);
    const [header] = readFileSync(file, 'utf8').split('\n', 1);
    writeFileSync(file, `${header}\n{"records": [truncated`);
    data.asked.length = 0;
    events.length = 0;
    const result = await loadAll(fetchPage, { perPage: 10 });
    expect(result.records.map((r) => r.id)).toEqual(data.ids());
    expect(result.stats.reloads).toBe(1);
    expect(events.filter((e) => e.type === 'cache-error').map((e) => e.page)).toEqual([2]);
    expect(events.find((e) => e.type === 'cache-error')).toMatchObject({ message: expect.stringMatching(/could not be read/) });
    // Page 1 came from the cache, page 2 could not: the reload asked the source for every page.
    expect(data.asked.sort((a, b) => a - b)).toEqual([1, 2, 3]);
  });
});
