import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { call, fixture, list } from '../helpers/http.js';

interface WindowCase {
  current_page: number;
  last_page: number;
  labels: (string | number)[];
  active_label: number | null;
  prev_url_page: number | null;
  next_url_page: number | null;
}

const pageOf = (url: string | null) => (url === null ? null : Number(new URL(url).searchParams.get('page')));

describe('paging (REFERENCE §6) over HTTP', () => {
  let emulator: Emulator;
  let brandTotal: number;
  let firstBrandId: number;
  beforeAll(async () => {
    // The default dataset: 2,434 brands, as in the documented pager example.
    emulator = await createEmulator({ port: 0, publicUrl: 'https://fount.wppbav.com' });
    const first = await list<{ id: number }>(emulator, '/brands?per_page=1');
    brandTotal = first.meta.total;
    firstBrandId = first.data[0]?.id ?? -1;
  });
  afterAll(() => emulator.close());

  it('has exactly 2,434 brands by default', () => {
    expect(brandTotal).toBe(2434);
  });

  it('reproduces the documented example: page 1 of 163 at 15 per page', async () => {
    const expected = await fixture<{ links: unknown; meta: unknown }>('pagination.brands-page-1-of-163.links-meta.json');
    const body = await list(emulator, '/brands?per_page=15');
    expect(body.links).toEqual(expected.links);
    expect(body.meta).toEqual(expected.meta);
    expect(Object.keys(body.meta)).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    expect(body.data).toHaveLength(15);
  });

  it('reproduces every page-window test vector', async () => {
    const { cases } = await fixture<{ cases: WindowCase[] }>('pagination.window-test-vectors.json');
    expect(cases.length).toBeGreaterThan(10);
    for (const c of cases) {
      // Choose a page size giving the wanted last page over the brands list (a single-record
      // filter for one page).
      let query: string;
      if (c.last_page === 1) {
        query = `/brands?filter[id]=${firstBrandId}`;
      } else {
        let perPage = Math.ceil(brandTotal / c.last_page);
        while (Math.ceil(brandTotal / perPage) > c.last_page) perPage += 1;
        expect(Math.ceil(brandTotal / perPage)).toBe(c.last_page);
        query = `/brands?per_page=${perPage}`;
      }
      const body = await list(emulator, `${query}&page=${c.current_page}`);
      const where = `page ${c.current_page} of ${c.last_page}`;
      expect(body.meta.last_page, where).toBe(c.last_page);
      expect(body.meta.current_page, where).toBe(c.current_page);
      expect(body.meta.links.map((l) => l.label), where).toEqual(c.labels);
      const active = body.meta.links.filter((l) => l.active).map((l) => l.label);
      expect(active, where).toEqual(c.active_label === null ? [] : [c.active_label]);
      expect(pageOf(body.links.prev), where).toBe(c.prev_url_page);
      expect(pageOf(body.links.next), where).toBe(c.next_url_page);
      expect(body.meta.links[0]?.url, where).toBe(body.links.prev);
      expect(body.meta.links.at(-1)?.url, where).toBe(body.links.next);
      for (const l of body.meta.links) {
        if (l.label === '...') expect(l.url).toBeNull();
        if (typeof l.label === 'number') expect(pageOf(l.url)).toBe(l.label);
      }
    }
  });

  it('answers a page past the end with an empty page', async () => {
    const body = await list(emulator, '/brands?per_page=15&page=200');
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ current_page: 200, from: null, to: null, last_page: 163, total: 2434 });
  });

  it('defaults to 25 per page, clamps to 1000 (v2) and 100 (v1), treats bad values as defaults', async () => {
    expect((await list(emulator, '/brands')).meta.per_page).toBe(25);
    expect((await list(emulator, '/brands?per_page=5000')).data).toHaveLength(1000);
    expect((await list(emulator, '/brands?per_page=0')).meta.per_page).toBe(25);
    expect((await list(emulator, '/brands?per_page=abc')).meta.per_page).toBe(25);
    const page0 = await list(emulator, '/brands?page=0&per_page=2');
    expect(page0.meta.current_page).toBe(1);
    const v1 = await call(emulator, '/api/v1/brands?per_page=500');
    expect(v1.status).toBe(200);
    const v1body = v1.json as { data: unknown[]; meta: { per_page: number; path: string } };
    expect(v1body.data).toHaveLength(100);
    expect(v1body.meta.per_page).toBe(100);
    expect(v1body.meta.path).toBe('https://fount.wppbav.com/api/v1/brands');
  });

  it('answers an empty result with one page and null from/to', async () => {
    const body = await list(emulator, '/brands?filter[name]=zzzz-no-such-brand');
    expect(body.meta).toMatchObject({ total: 0, last_page: 1, from: null, to: null, current_page: 1 });
    expect(body.meta.links.map((l) => l.label)).toEqual(['&laquo; Previous', 1, 'Next &raquo;']);
  });

  it('pages partition the records: every id once, in id order', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = await list<{ id: number }>(emulator, `/brands?per_page=1000&page=${page}`);
      seen.push(...body.data.map((b) => b.id));
    }
    expect(seen).toHaveLength(2434);
    expect(new Set(seen).size).toBe(2434);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('emits string labels and carries parameters into page URLs when configured', async () => {
    const other = await createEmulator({ port: 0, dataset: emulator.dataset, pageLabels: 'string', carryQueryInLinks: true });
    try {
      const body = await list(other, '/brands?per_page=15&filter[name]=a&page=2');
      expect(body.meta.links[1]?.label).toBe('1');
      expect(body.links.next).toBe(`${other.url}/api/v2/brands?per_page=15&filter%5Bname%5D=a&page=3`);
    } finally {
      await other.close();
    }
  });
});
