import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataset, createEmulator, type Dataset, type Emulator } from '../../src/emulator/index.js';
import { call, list } from '../helpers/http.js';

let dataset: Dataset;
beforeAll(() => {
  dataset = createDataset({ seed: 11, brands: 300 });
});

describe('authentication and scopes (§4)', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await createEmulator({
      port: 0,
      dataset,
      tokens: ['full-access-token', { token: 'brands-only-token', scopes: ['Brands: Read'] }, { token: 'other-user-token', user: 'someone-else' }],
    });
  });
  afterAll(() => emulator.close());

  it('needs a valid bearer token: 401 with the documented body otherwise', async () => {
    for (const token of [null, 'wrong-token']) {
      const answer = await call(emulator, '/api/v2/brands', { token });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ data: { message: 'Unauthenticated.' } });
    }
    expect((await call(emulator, '/api/v2/brands', { token: 'full-access-token' })).status).toBe(200);
  });

  it('answers a missing scope with 401 in v2 and 403 in v1, naming the scope', async () => {
    expect((await call(emulator, '/api/v2/brands', { token: 'brands-only-token' })).status).toBe(200);
    const v2 = await call(emulator, '/api/v2/studies', { token: 'brands-only-token' });
    expect(v2.status).toBe(401);
    expect(v2.json).toEqual({ data: { message: "This token lacks the scope 'Studies: Read'." } });
    const v1 = await call(emulator, '/api/v1/studies', { token: 'brands-only-token' });
    expect(v1.status).toBe(403);
    expect(v1.json).toEqual({ data: { error: "This token lacks the scope 'Studies: Read'." } });
  });

  it('serves /health without a token', async () => {
    const health = await call(emulator, '/health', { token: null });
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ status: 'ok', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect((await call(emulator, '/api/v2/health', { token: null })).status).toBe(200);
  });

  it('shows private audiences only to their owner', async () => {
    const mine = await call(emulator, '/api/v2/audiences?per_page=1000', { token: 'full-access-token' });
    const theirs = await call(emulator, '/api/v2/audiences?per_page=1000', { token: 'other-user-token' });
    const ids = (a: typeof mine) => new Set((a.json as { data: { id: number }[] }).data.map((x) => x.id));
    const owned = dataset.audiences.filter((a) => a.record.is_public === false && a.ownerUser === 'analyst');
    expect(owned.length).toBeGreaterThan(0);
    for (const a of owned) {
      expect(ids(mine).has(a.record.id)).toBe(true);
      expect(ids(theirs).has(a.record.id)).toBe(false);
    }
  });
});

describe('API v1 mechanics (§19)', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, dataset });
  });
  afterAll(() => emulator.close());

  it('takes bare filters, order_by/order, expand, fields and s', async () => {
    const sectors = (await list<{ id: number }>(emulator, '/sectors?per_page=2')).data.map((s) => s.id);
    const v1 = await call(emulator, `/api/v1/brands?sectors=${sectors[0]}&order_by=name&order=desc&expand=sector&fields=name&per_page=100`);
    expect(v1.status).toBe(200);
    const rows = (v1.json as { data: { id: number; name: string; sector: { id: number } }[] }).data;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['id', 'name', 'sector']);
      expect(r.sector.id).toBe(sectors[0]);
    }
    const names = rows.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    const search = await call(emulator, `/api/v1/brands?s=${encodeURIComponent(rows[0]?.name ?? '')}`);
    expect((search.json as { data: { name: string }[] }).data[0]?.name).toBe(rows[0]?.name);
  });

  it('reports errors under data.error', async () => {
    const answer = await call(emulator, '/api/v1/brands/99999999');
    expect(answer.status).toBe(404);
    expect(Object.keys((answer.json as { data: object }).data)).toEqual(['error']);
  });
});

describe('rate limiting (§10)', () => {
  it('allows the limit per window per user across tokens, then answers 429 with Retry-After and X-RateLimit-Reset', async () => {
    const emulator = await createEmulator({ port: 0, dataset, rateLimit: 5, rateWindowS: 2, tokens: ['token-one-aaaa', 'token-two-bbbb'] });
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await call(emulator, '/api/v2/years', { token: i % 2 === 0 ? 'token-one-aaaa' : 'token-two-bbbb' });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
        remaining.push(answer.headers.get('x-ratelimit-remaining') ?? '');
        expect(answer.headers.get('x-ratelimit-reset')).toBeNull();
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const refused = await call(emulator, '/api/v2/years', { token: 'token-one-aaaa' });
      expect(refused.status).toBe(429);
      expect(refused.json).toEqual({ data: { message: 'Too Many Requests' } });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(2);
      const reset = Number(refused.headers.get('x-ratelimit-reset'));
      expect(reset * 1000).toBeGreaterThan(Date.now() - 1000);
      // The window (2 s) started at the first request; Unix seconds round its end up by < 1 s.
      expect(reset * 1000).toBeLessThan(Date.now() + 3000);
      await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
      expect((await call(emulator, '/api/v2/years', { token: 'token-two-bbbb' })).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });
});

describe('faults (§20; DESIGN rule 7)', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, dataset });
  });
  afterAll(() => emulator.close());

  it('answers the scripted statuses on the n-th matching request only', async () => {
    for (const status of [500, 502, 503, 504]) {
      emulator.faults.clear();
      emulator.faults.add({ path: '/sectors', nth: 2, kind: status });
      expect((await call(emulator, '/api/v2/sectors')).status).toBe(200);
      expect((await call(emulator, '/api/v2/brands?per_page=1')).status).toBe(200);
      const failed = await call(emulator, '/api/v2/sectors');
      expect(failed.status).toBe(status);
      expect((failed.json as { data: { message: string } }).data.message).toEqual(expect.any(String));
      expect((await call(emulator, '/api/v2/sectors')).status).toBe(200);
    }
    emulator.faults.clear();
    emulator.faults.add({ path: '/sectors', kind: 429, retryAfterS: 7 });
    const limited = await call(emulator, '/api/v2/sectors');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
  });

  it('resets the connection, truncates the body, or hangs', async () => {
    emulator.faults.clear();
    emulator.faults.add({ path: '/sectors', kind: 'reset' });
    await expect(fetch(`${emulator.url}/api/v2/sectors`, { headers: { Authorization: `Bearer ${emulator.token}` } })).rejects.toThrow();

    emulator.faults.add({ path: '/regions', kind: 'truncate' });
    const res = await fetch(`${emulator.url}/api/v2/regions`, { headers: { Authorization: `Bearer ${emulator.token}` } });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();

    emulator.faults.add({ path: '/years', kind: 'hang' });
    await expect(
      fetch(`${emulator.url}/api/v2/years`, { headers: { Authorization: `Bearer ${emulator.token}` }, signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow();
    const recorded = emulator.requests.filter((r) => r.fault !== undefined).map((r) => r.fault);
    expect(recorded).toEqual(expect.arrayContaining(['reset', 'truncate', 'hang']));
  });

  it('injects random faults at the configured rate, the same ones for the same seed', async () => {
    const run = async () => {
      const faulty = await createEmulator({ port: 0, dataset, faultRate: 0.3, seed: 99 });
      try {
        const outcomes: string[] = [];
        for (let i = 0; i < 60; i++) {
          try {
            const res = await fetch(`${faulty.url}/api/v2/years`, { headers: { Authorization: `Bearer ${faulty.token}` } });
            await res.text();
            outcomes.push(String(res.status));
          } catch {
            outcomes.push('broken');
          }
        }
        return outcomes;
      } finally {
        await faulty.close();
      }
    };
    const first = await run();
    const failures = first.filter((o) => o !== '200').length;
    expect(failures).toBeGreaterThan(6);
    expect(failures).toBeLessThan(35);
    expect(new Set(first)).toContain('broken');
    expect(await run()).toEqual(first);
  });
});

describe('latency', () => {
  it('is the time a request takes, its work included: concurrent requests work while they wait, and none answers sooner', async () => {
    // The first page of a study computes the study's values (~100 ms here); the next page reuses
    // them. Emulators of one seed share their computed values, so the two below read two studies.
    const headers = { authorization: 'Bearer bsk-emulator-token' };
    const pageOf = (base: string, study: number, page: number) => fetch(`${base}/api/v2/brandscape-data?filter%5Bstudies%5D=${study}&metric_group_keys=pillars,imagery&per_page=10&page=${page}`, { headers }).then((r) => r.arrayBuffer());
    const plain = await createEmulator({ port: 0, rateLimit: 0 });
    const studies = (await (await fetch(`${plain.url}/api/v2/studies?filter%5Breleased%5D=1&fields%5Bstudies%5D=id&sort=id&per_page=3`, { headers })).json()) as { data: { id: number }[] };
    const [study, ...others] = studies.data.map((s) => s.id);
    plain.clearRequests();
    await pageOf(plain.url, study!, 1);
    const work = plain.requests[0]!.durationMs;
    await plain.close();
    expect(work).toBeGreaterThanOrEqual(30);

    const latencyMs = 800;
    const slow = await createEmulator({ port: 0, rateLimit: 0, latencyMs });
    try {
      await Promise.all(others.flatMap((id) => [pageOf(slow.url, id, 1), pageOf(slow.url, id, 2)]));
      const durations = slow.requests.map((r) => r.durationMs);
      expect(durations).toHaveLength(4);
      expect(Math.min(...durations)).toBeGreaterThanOrEqual(latencyMs - 1);
      // Sleeping first and working after made the requests wait, after the latency, for the two
      // studies' values to be computed one after the other (tens of ms each).
      expect(Math.max(...durations)).toBeLessThan(latencyMs + 30);
    } finally {
      await slow.close();
    }
  }, 30_000);
});

describe('determinism (DESIGN rule 7)', () => {
  it('gives identical bytes for one seed and different data for another', async () => {
    const paths = [
      '/api/v2/brands?per_page=50&include=sector,company',
      '/api/v2/studies?include=country,year&per_page=100',
      '/api/v2/companies?include=latest_financials,stock_exchanges&per_page=20',
      '/api/v2/brand-metrics?per_page=1000',
    ];
    const fetchAll = async (emulator: Emulator) => {
      const studies = (await list<{ id: number }>(emulator, '/studies?filter[released]=1&per_page=3')).data.map((s) => s.id);
      const texts: string[] = [];
      for (const p of [...paths, `/api/v2/brandscape-data?filter[studies]=${studies.join(',')}&per_page=1000&page=2&include=brand`, `/api/v2/tools/archetypes?studies=${studies[0]}`]) {
        texts.push((await call(emulator, p)).text.replaceAll(emulator.url, 'URL'));
      }
      return texts;
    };
    const [a, b, c] = await Promise.all([
      createEmulator({ port: 0, seed: 21, brands: 300 }),
      createEmulator({ port: 0, seed: 21, brands: 300 }),
      createEmulator({ port: 0, seed: 22, brands: 300 }),
    ]);
    try {
      const [ta, tb, tc] = await Promise.all([fetchAll(a), fetchAll(b), fetchAll(c)]);
      expect(ta.every((t) => t.length > 100)).toBe(true);
      expect(tb).toEqual(ta);
      expect(tc).not.toEqual(ta);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('archetypes tool (§14)', () => {
  let emulator: Emulator;
  let studyId: number;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, dataset });
    studyId = (await list<{ id: number }>(emulator, '/studies?filter[released]=1&filter[full_year]=1&per_page=1')).data[0]?.id ?? 0;
  });
  afterAll(() => emulator.close());

  type Entry = { brand_id: number; comparison_type: string; comparison_size: number; data: Record<string, number | null> };
  const tool = async (query: string) => {
    const answer = await call(emulator, `/api/v2/tools/archetypes?${query}`);
    return { status: answer.status, json: answer.json as { data: Entry[] } & { data: { message?: string } } };
  };

  it('requires studies and at most one competitive set', async () => {
    expect((await tool('brands=1')).status).toBe(400);
    const both = await tool(`studies=${studyId}&collections=1&categories=1`);
    expect(both.status).toBe(400);
  });

  it('scores cultural archetypes like the brandscape columns, and competitive ones against the set', async () => {
    const cultural = (await tool(`studies=${studyId}`)).json.data;
    expect(cultural.length).toBeGreaterThan(20);
    expect(cultural.every((e) => e.comparison_type === 'cultural')).toBe(true);
    const keys = Object.keys(cultural[0]?.data ?? {}).filter((k) => !k.endsWith('_rank'));
    expect(keys.length).toBe(12);
    const rows = (await list<Record<string, unknown>>(emulator, `/brandscape-data?filter[studies]=${studyId}&filter[audiences]=1&filter[is_duplicate]=0&metric_group_keys=archetypes&per_page=1000`)).data;
    for (const entry of cultural.slice(0, 10)) {
      const row = rows.find((r) => r['brand_id'] === entry.brand_id);
      for (const key of keys) {
        expect(row?.[`archetype_${key}_c`], key).toBe(entry.data[key]);
        expect(row?.[`archetype_${key}_rank`], key).toBe(entry.data[`${key}_rank`]);
      }
    }

    const studyBrands = new Set(cultural.map((e) => e.brand_id));
    const collections = emulator.dataset.collections.filter((c) => c.isPublic && c.brandIds.filter((b) => studyBrands.has(b)).length >= 4);
    expect(collections.length).toBeGreaterThanOrEqual(2);
    const [c1, c2] = collections;
    const shared = (c1?.brandIds ?? []).filter((b) => studyBrands.has(b));
    const inSet1 = (await tool(`studies=${studyId}&brands=${shared.join(',')}&collections=${c1?.record.id}`)).json.data;
    expect(inSet1.every((e) => e.comparison_type === 'competitive')).toBe(true);
    expect(inSet1[0]?.comparison_size).toBe(shared.length);
    const culturalOfShared = cultural.filter((e) => shared.includes(e.brand_id));
    const differs = inSet1.some((e) => keys.some((k) => e.data[k] !== culturalOfShared.find((c) => c.brand_id === e.brand_id)?.data[k]));
    expect(differs).toBe(true);
    // Against another set, the same brands score and rank differently.
    const inSet2 = (await tool(`studies=${studyId}&brands=${shared.join(',')}&collections=${c2?.record.id}`)).json.data;
    expect(inSet2.map((e) => e.data)).not.toEqual(inSet1.map((e) => e.data));
  });
});
