import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/catalogue/endpoints.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { brand as brandSchema } from '../../src/schemas/brands.js';
import { call, getJson, list, type ListBody } from '../helpers/http.js';

type Rec = Record<string, unknown> & { id: number };

async function all<T = Rec>(emulator: Emulator, path: string): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const body: ListBody<T> = await list<T>(emulator, `${path}${sep}per_page=1000&page=${page}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('resources over HTTP', () => {
  let emulator: Emulator;
  let brands: Rec[];
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, brands: 400, seed: 3 });
    brands = await all(emulator, '/brands');
  });
  afterAll(() => emulator.close());

  it('serves every resource of the catalogue as a list and as single records that parse with the schemas', async () => {
    for (const [name, spec] of Object.entries(RESOURCES)) {
      if (name === 'brandscape-data' || name === 'study-brands' || name === 'study-categories') continue;
      const body = await list<Rec>(emulator, `/${spec.path}?per_page=3`);
      expect(body.data.length, name).toBeGreaterThan(0);
      for (const record of body.data) {
        expect(Object.keys(record).sort(), name).toEqual(Object.keys(spec.record.shape).sort());
        expect(() => spec.record.parse(record), name).not.toThrow();
      }
      const first = body.data[0];
      if (!first) continue;
      const single = await getJson<{ data: Rec }>(emulator, `/${spec.path}/${first.id}`);
      expect(single.data, name).toEqual(first);
    }
  });

  it('answers 404 for an unknown id or route, with a JSON message', async () => {
    const missing = await call(emulator, '/api/v2/brands/99999999');
    expect(missing.status).toBe(404);
    expect((missing.json as { data: { message: string } }).data.message).toMatch(/99999999/);
    expect((await call(emulator, '/api/v2/no-such-thing')).status).toBe(404);
    expect((await call(emulator, '/api/v2/brands/abc')).status).toBe(404);
  });

  it('filters ids exactly, comma-separated values meaning any of', async () => {
    const some = brands.slice(5, 9).map((b) => b.id);
    const body = await list<Rec>(emulator, `/brands?filter[id]=${some.join(',')}`);
    expect(ids(body.data)).toEqual(some);
  });

  it('like-filters text case-insensitively, any of several values', async () => {
    const needle = String(brands[10]?.['name']).slice(1, 4).toUpperCase();
    const expected = brands.filter((b) => String(b['name']).toLowerCase().includes(needle.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await all(emulator, `/brands?filter[name]=${encodeURIComponent(needle)}`))).toEqual(ids(expected));
    const second = String(brands[20]?.['name']).slice(0, 3);
    const either = brands.filter((b) => [needle, second].some((n) => String(b['name']).toLowerCase().includes(n.toLowerCase())));
    expect(ids(await all(emulator, `/brands?filter[name]=${encodeURIComponent(`${needle},${second}`)}`))).toEqual(ids(either));
  });

  it('filters booleans with 1 and 0', async () => {
    const core = await all(emulator, '/brands?filter[is_core]=1');
    const notCore = await all(emulator, '/brands?filter[is_core]=0');
    expect(core.length + notCore.length).toBe(brands.length);
    expect(core.every((b) => b['is_core'] === true)).toBe(true);
    expect(notCore.every((b) => b['is_core'] === false)).toBe(true);
    expect((await call(emulator, '/api/v2/brands?filter[is_core]=maybe')).status).toBe(400);
  });

  it('applies helper filters: brands by sector, and by country code through the studies', async () => {
    const withSector = await all(emulator, '/brands?include=sector');
    const sectorId = (withSector[0]?.['sector'] as { id: number }).id;
    const expected = withSector.filter((b) => (b['sector'] as { id: number } | null)?.id === sectorId);
    expect(ids(await all(emulator, `/brands?filter[sectors]=${sectorId}`))).toEqual(ids(expected));

    const gb = await all(emulator, '/brands?filter[country_codes]=GB&include=countries,studies');
    expect(gb.length).toBeGreaterThan(0);
    for (const b of gb) {
      const studies = b['studies'] as { country: { code: string } | null }[];
      expect(studies.some((s) => s.country?.code === 'GB')).toBe(true);
    }
  });

  it('filters by updated_since strictly after the moment', async () => {
    const stamps = brands.map((b) => String(b['updated_at'])).sort();
    const middle = stamps[Math.floor(stamps.length / 2)] ?? '';
    const since = middle.slice(0, 19).replace('T', ' ');
    const expected = brands.filter((b) => Date.parse(String(b['updated_at'])) > Date.parse(`${since.replace(' ', 'T')}Z`));
    expect(ids(await all(emulator, `/brands?filter[updated_since]=${encodeURIComponent(since)}`))).toEqual(ids(expected));
    expect((await call(emulator, '/api/v2/brands?filter[updated_since]=yesterday')).status).toBe(400);
  });

  it('refuses unknown filter, sort, include and fields keys with 400 naming them', async () => {
    const cases: [string, RegExp][] = [
      ['/brands?filter[colour]=red', /colour/],
      ['/brands?sort=colour', /colour/],
      ['/brands?include=colour', /colour/],
      ['/brands?fields[brands]=id,colour', /colour/],
      ['/brands?fields[sectors]=id', /fields\[sectors\]/],
      ['/cities?search=paris', /search is not supported/],
    ];
    for (const [path, message] of cases) {
      const answer = await call(emulator, `/api/v2${path}`);
      expect(answer.status, path).toBe(400);
      expect((answer.json as { data: { message: string } }).data.message, path).toMatch(message);
    }
  });

  it('sorts by several keys, descending with a minus, nulls first', async () => {
    const sorted = await all(emulator, '/brands?sort=-is_core,name');
    const expected = [...brands].sort(
      (a, b) =>
        Number(b['is_core']) - Number(a['is_core']) ||
        String(a['name']).toLowerCase().localeCompare(String(b['name']).toLowerCase(), 'en') ||
        a.id - b.id,
    );
    expect(sorted.map((b) => b['is_core'])).toEqual(expected.map((b) => b['is_core']));
    const names = sorted.filter((b) => b['is_core'] === true).map((b) => String(b['name']).toLowerCase());
    expect(names).toEqual([...names].sort());
    const shares = (await all(emulator, '/brands?sort=share_of_company')).map((b) => b['share_of_company'] as number | null);
    const firstNumber = shares.findIndex((s) => s !== null);
    expect(shares.slice(0, firstNumber).every((s) => s === null)).toBe(true);
    const numbers = shares.slice(firstNumber) as number[];
    expect(numbers.every((s) => s !== null)).toBe(true);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('returns only the requested fields, in record order', async () => {
    const body = await list(emulator, '/brands?fields[brands]=name,id&per_page=2');
    for (const b of body.data) expect(Object.keys(b)).toEqual(['id', 'name']);
    const noId = await list(emulator, '/brands?fields[brands]=name&per_page=2');
    expect(Object.keys(noId.data[0] ?? {})).toEqual(['name']);
  });

  it('includes relationships in their slim shapes, before the timestamps', async () => {
    const body = await list<Rec>(emulator, '/brands?include=sector,company&per_page=5');
    for (const b of body.data) {
      const keys = Object.keys(b);
      expect(keys.indexOf('sector')).toBeLessThan(keys.indexOf('created_at'));
      expect(Object.keys(b['sector'] as object)).toEqual(['id', 'name']);
      expect(Object.keys(b['company'] as object)).toEqual(['id', 'name']);
      expect(() => brandSchema.parse(b)).not.toThrow();
    }
    // The sector is only there when asked for (§20).
    expect(Object.keys((await list(emulator, '/brands?per_page=1')).data[0] ?? {})).not.toContain('sector');
    const study = (await list<Rec>(emulator, '/studies?include=country,year&per_page=1')).data[0] ?? { id: 0 };
    expect(Object.keys(study['country'] as object)).toEqual(['id', 'name', 'region', 'code', 'code_alpha3', 'code_numeric']);
    expect(typeof (study['year'] as { year: unknown }).year).toBe('string');
    const groups = await list<Rec>(emulator, '/brand-metric-groups?include=metric&per_page=50');
    const pillars = groups.data.find((g) => g['key'] === 'pillars');
    expect(pillars).toBeDefined();
    expect((pillars?.['metrics'] as unknown[]).length).toBeGreaterThanOrEqual(4);
    const relation = (await list<Rec>(emulator, `/studies/${study.id}/brands?include=category.sector,brand&per_page=1`)).data[0];
    expect(relation?.['category']).toMatchObject({ sector: { id: expect.any(Number), name: expect.any(String) } });
  });

  it('ranks search results by relevance', async () => {
    const target = brands[42] ?? brands[0];
    const name = String(target?.['name']);
    const body = await list<Rec>(emulator, `/brands?search=${encodeURIComponent(name)}`);
    expect(body.data[0]?.['name']).toBe(name);
    const word = name.split(/\s+/)[0] ?? name;
    const partial = await list<Rec>(emulator, `/brands?search=${encodeURIComponent(word.toLowerCase())}&per_page=100`);
    expect(partial.data.every((b) => String(b['name']).toLowerCase().includes(word.toLowerCase()))).toBe(true);
    // Exact and prefix matches come before matches further inside the name.
    const starts = partial.data.map((b) => String(b['name']).toLowerCase().startsWith(word.toLowerCase()));
    expect(starts.indexOf(false) === -1 || starts.lastIndexOf(true) < starts.indexOf(false)).toBe(true);
    const countries = await list<Rec>(emulator, '/countries?search=united');
    expect(countries.data.length).toBeGreaterThanOrEqual(2);
    expect(countries.data.every((c) => String(c['name']).toLowerCase().includes('united'))).toBe(true);
  });

  it('folds accents and case in search, as a search index does', async () => {
    const accented = brands.find((b) => /[^\x00-\x7f]/.test(String(b['name'])));
    expect(accented, 'the dataset has a brand name with an accent').toBeDefined();
    const name = String(accented?.['name']);
    const plain = name.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    expect(plain).not.toBe(name.toUpperCase());
    const body = await list<Rec>(emulator, `/brands?search=${encodeURIComponent(plain)}`);
    expect(body.data[0]?.['name']).toBe(name);
  });

  it('serves real cities: by country, by region, capitals only', async () => {
    const gb = (await list<Rec>(emulator, '/countries?filter[code]=GB')).data[0];
    expect(gb?.['name']).toBe('United Kingdom');
    const capitals = await all(emulator, `/cities?filter[capitals]=1&filter[countries]=${gb?.id}`);
    expect(capitals.map((c) => c['name'])).toEqual(['London']);
    const cities = await list<Rec>(emulator, `/cities?filter[countries]=${gb?.id}&sort=-population&per_page=5`);
    expect(cities.data[0]?.['name']).toBe('London');
    expect(cities.meta.total).toBeGreaterThan(100);
    const withCountry = await list<Rec>(emulator, `/cities?filter[countries]=${gb?.id}&include=country&per_page=1`);
    expect((withCountry.data[0]?.['country'] as { code: string }).code).toBe('GB');
    const withRegion = (await getJson<{ data: Rec }>(emulator, `/countries/${gb?.id}?include=region`)).data;
    const regionId = (withRegion['region'] as { id: number }).id;
    const inRegion = await all(emulator, `/cities?filter[regions]=${regionId}&filter[capitals]=1&include=country`);
    expect(inRegion.length).toBeGreaterThan(3);
    expect(inRegion.every((c) => c['geonames_feature_code'] === 'PPLC')).toBe(true);
  });

  it('keeps private collections to their owner (403 for others) and lists only visible ones', async () => {
    const visible = await all(emulator, '/collections');
    const hidden = emulator.dataset.collections.filter((c) => !c.isPublic && c.ownerUser !== 'analyst' && !c.sharedWith.includes('analyst'));
    expect(hidden.length).toBeGreaterThan(0);
    const hiddenIds = new Set(hidden.map((c) => c.record.id));
    expect(visible.some((c) => hiddenIds.has(c.id))).toBe(false);
    const forbidden = await call(emulator, `/api/v2/collections/${hidden[0]?.record.id}`);
    expect(forbidden.status).toBe(403);
    const mine = await all(emulator, '/collections?filter[mine]=1');
    expect(mine.length).toBeGreaterThan(0);
  });

  it('serves a study\'s brands as brand-in-study relations', async () => {
    const study = (await list<Rec>(emulator, '/studies?filter[released]=1&per_page=1')).data[0];
    const relations = await all(emulator, `/studies/${study?.id}/brands?include=brand,category`);
    expect(relations.length).toBeGreaterThan(20);
    for (const r of relations.slice(0, 20)) {
      expect(Object.keys(r)).toEqual(['id', 'brand_name', 'brand', 'category', 'created_at', 'updated_at']);
    }
    expect((await call(emulator, '/api/v2/studies/99999999/brands')).status).toBe(404);
  });
});
