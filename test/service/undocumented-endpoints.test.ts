/**
 * The three endpoints the published collections list without a response (§11.12, §13.3), through
 * the typed client against the emulator over HTTP: a country's indicators (every year, paged like a
 * list, and one year), and Best Countries raw respondent data, loaded page by page by the loader
 * (filters, `sort=country.name`, a table from `loadTable`). Their records are the emulator's
 * choice, documented in SERVICE.md; the client parses them as objects of `unknown` values.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { UndocumentedRecord } from '../../src/client/undocumented-types.js';
import { ResponseShapeError, UsageError } from '../../src/errors.js';
import type { Emulator } from '../../src/emulator/index.js';
import { loadTable } from '../../src/load/load-table.js';
import { recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';
import { call } from '../helpers/http.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

const client = () => recordingClient(emulator).client;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a country\'s indicators', () => {
  it('lists one record per year of the dataset, paged like any list, and reads one year by its year id', async () => {
    const uk = 48;
    const years = await client().years.all();
    const all = await client().countries.indicators(uk).all({ perPage: 3 });
    expectTypeOf(all).toEqualTypeOf<UndocumentedRecord[]>();
    expect(all.map((r) => r['year_id'])).toEqual(years.map((y) => y.id).sort((a, b) => a - b));
    expect(requestsTo(emulator, `countries/${uk}/indicators`).length).toBe(Math.ceil(years.length / 3));
    for (const r of all) {
      expect(r['country_id']).toBe(uk);
      expect(typeof r['population']).toBe('number');
      expect(r['gdp_usd_bn']).toBeGreaterThan(0);
    }
    const page = await client().countries.indicators(uk).page({ perPage: 2, page: 2 });
    expect(page.total).toBe(years.length);
    expect(page.records).toEqual(all.slice(2, 4));
    const last = all.at(-1)!;
    const one = await client().countries.indicators(uk).get(Number(last['year_id']));
    expect(one).toEqual(last);
  });

  it('answers 404 for an unknown country or year id, refuses other parameters, and checks ids before sending', async () => {
    expect((await call(emulator, '/api/v2/countries/99999/indicators')).status).toBe(404);
    const badYear = await call(emulator, '/api/v2/countries/48/indicators/2024');
    expect(badYear.status).toBe(404);
    expect(badYear.text).toContain('year id');
    expect((await call(emulator, '/api/v2/countries/48/indicators?filter[year]=2024')).status).toBe(400);
    expect(() => client().countries.indicators(1.5)).toThrow(UsageError);
    await expect(client().countries.indicators(48).get(0)).rejects.toThrow(UsageError);
  });
});

describe('Best Countries raw respondent data', () => {
  it('pages through the loader: every record of meta.total, one per respondent and country rated', async () => {
    const first = await client().bestCountries.raw.page({ year: 2024, perPage: 10 });
    expect(first.total).toBeGreaterThan(1000);
    const recorded = recordingClient(emulator);
    const rows = await recorded.client.bestCountries.raw.all({ year: 2024, perPage: 700 });
    expect(rows).toHaveLength(first.total);
    expect(new Set(rows.map((r) => r['id'])).size).toBe(rows.length);
    expect(requestsTo(emulator, 'best-countries/countries/raw/2024').filter((r) => new URLSearchParams(r.query).get('per_page') === '700')).toHaveLength(Math.ceil(first.total / 700));
    const row = rows[0]!;
    expect(String(row['respondent_id'])).toMatch(UUID_V4);
    expect(row['year']).toBe(2024);
    expect(row['country']).toEqual({ id: expect.any(Number), name: expect.any(String), code: expect.stringMatching(/^[A-Z]{2}$/) });
    expect(['Female', 'Male']).toContain(row['gender']);
    // Attribute columns are the calculated data's keys, 0 or 1.
    const scores = await client().bestCountries.countries({ year: 2024, dataType: 'attributes', scoreType: 'scores' });
    const keys = Object.keys(scores[0]!).filter((k) => !['country', 'country_id', 'country_code', 'year_id'].includes(k));
    for (const k of keys) expect([0, 1]).toContain(row[k]);
  });

  it('filters by the plain parameters and sorts by country.name with ties in id order', async () => {
    const us = await client().bestCountries.raw.all({ year: 2024, countryCodes: ['US'] });
    expect(us.length).toBeGreaterThan(0);
    expect(us.every((r) => (r['country'] as { code: string }).code === 'US')).toBe(true);
    const sorted = await client().bestCountries.raw.all({ year: 2024, sort: ['country.name', '-id'], perPage: 500 });
    const names = sorted.map((r) => (r['country'] as { name: string }).name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(new Set(sorted.map((r) => r['id'])).size).toBe(sorted.length);
    const bad = await call(emulator, '/api/v2/best-countries/countries/raw/2024?sort=nope');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('country.name');
    expect((await call(emulator, '/api/v2/best-countries/countries/raw/1999')).status).toBe(404);
  });

  it('loads into a table (loadTable), the same on a second load: deterministic from the seed', async () => {
    const table = await loadTable(client().bestCountries.raw, { year: 2023, countryCodes: 'GB' });
    expect(table.length).toBeGreaterThan(0);
    expect(table.columnNames).toEqual(expect.arrayContaining(['respondent_id', 'country_name', 'gender', 'weight']));
    const again = await loadTable(client().bestCountries.raw, { year: 2023, countryCodes: 'GB' });
    expect(again.rows()).toEqual(table.rows());
  });

  it('refuses a year that is not a calendar year before sending, and a page of another shape', async () => {
    await expect(client().bestCountries.raw.all({ year: 24 })).rejects.toThrow(UsageError);
    // The envelope is checked even though the records are not: a body without meta is a shape error.
    const broken = recordingClient(emulator, {
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const body = (await res.json()) as { data: unknown };
        return new Response(JSON.stringify({ data: body.data }), { status: res.status, headers: res.headers });
      },
    });
    await expect(broken.client.bestCountries.raw.page({ year: 2024 })).rejects.toThrow(ResponseShapeError);
  });
});
