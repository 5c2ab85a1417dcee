import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { BRANDSCAPE_META_FIELDS } from '../../src/schemas/brandscape.js';
import { call, getJson, list, type ListBody } from '../helpers/http.js';

type Row = Record<string, unknown> & { id: number };

async function all(emulator: Emulator, query: string): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const body: ListBody<Row> = await list<Row>(emulator, `/brandscape-data?${query}&per_page=1000&page=${page}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

describe('brandscape data over HTTP (REFERENCE §12)', () => {
  let emulator: Emulator;
  let study: { id: number; country: { id: number; code: string }; year: { id: number; year: string } };
  let columnsOf: Map<string, string[]>;
  let groupMetrics: Map<string, string[]>;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, brands: 400, seed: 5 });
    study = (await list<typeof study>(emulator, '/studies?filter[released]=1&filter[full_year]=1&include=country,year&per_page=1&sort=-id')).data[0] as typeof study;
    const metrics = (await list<{ id: number; brandscape_data_columns: string[] }>(emulator, '/brand-metrics?per_page=1000')).data;
    columnsOf = new Map();
    const keyOfId = new Map<number, string>();
    for (const m of metrics) {
      const shortest = [...m.brandscape_data_columns].sort((a, b) => a.length - b.length)[0] ?? '';
      const key = shortest.replace(/_(rank|pct|c|brandscape_index|category_index)$/, '');
      columnsOf.set(key, m.brandscape_data_columns);
      keyOfId.set(m.id, key);
    }
    const groups = (await list<{ key: string; metrics: { id: number }[] }>(emulator, '/brand-metric-groups?include=metrics&per_page=100')).data;
    groupMetrics = new Map(groups.map((g) => [g.key, g.metrics.map((m) => keyOfId.get(m.id) ?? '?')]));
  });
  afterAll(() => emulator.close());

  it('refuses a query without a qualifying filter combination, naming the combinations', async () => {
    for (const query of ['', 'filter[audiences]=1', 'filter[categories]=1&filter[audiences]=1', `filter[country_code]=${study.country.code}`, 'filter[year_number]=2024']) {
      const answer = await call(emulator, `/api/v2/brandscape-data?${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.json as { data: { message: string } }).data.message, query).toMatch(/studies.*country.*year.*brands/s);
    }
    for (const query of [`filter[studies]=${study.id}`, `filter[country_code]=${study.country.code}&filter[year_number]=${study.year.year}`, 'filter[brand_name]=a&filter[audiences]=1']) {
      expect((await call(emulator, `/api/v2/brandscape-data?${query}&per_page=1`)).status, query).toBe(200);
    }
  });

  it('has one row per study x audience x brand x category, every audience without an audience filter', async () => {
    const relations = (await list<{ id: number }>(emulator, `/studies/${study.id}/brands?per_page=1`)).meta.total;
    const allAdults = await all(emulator, `filter[studies]=${study.id}&filter[audiences]=1&metric_keys=differentiation`);
    expect(allAdults).toHaveLength(relations);
    const pairs = new Set(allAdults.map((r) => `${Number(r['brand_id'])}/${Number(r['category_id'])}`));
    expect(pairs.size).toBe(relations);
    const everyAudience = (await list(emulator, `/brandscape-data?filter[studies]=${study.id}&per_page=1`)).meta.total;
    const audiences = new Set((await all(emulator, `filter[studies]=${study.id}&fields[brandscape_data]=audience_id`)).map((r) => r['audience_id']));
    expect(audiences.has(1)).toBe(true);
    expect(everyAudience).toBe(relations * audiences.size);
    for (const r of allAdults) {
      expect(r).toMatchObject({ study_id: study.id, audience_id: 1, country_id: study.country.id, year_id: study.year.id });
    }
  });

  it('selects metric columns by metric keys and by metric group keys, as the catalogue lists them', async () => {
    const rows = await list<Row>(emulator, `/brandscape-data?filter[studies]=${study.id}&filter[audiences]=1&metric_keys=differentiation,relevance&per_page=3`);
    const expected = [...BRANDSCAPE_META_FIELDS, ...(columnsOf.get('differentiation') ?? []), ...(columnsOf.get('relevance') ?? [])];
    expect(Object.keys(rows.data[0] ?? {}).sort()).toEqual([...expected].sort());
    expect(columnsOf.get('differentiation')).toEqual(expect.arrayContaining(['differentiation_c', 'differentiation_rank']));

    for (const group of ['pillars', 'imagery']) {
      const members = groupMetrics.get(group) ?? [];
      expect(members.length, group).toBeGreaterThanOrEqual(group === 'pillars' ? 4 : 20);
      const body = await list<Row>(emulator, `/brandscape-data?filter[studies]=${study.id}&filter[audiences]=1&metric_group_keys=${group}&per_page=2`);
      const metricColumns = Object.keys(body.data[0] ?? {}).filter((k) => !(BRANDSCAPE_META_FIELDS as readonly string[]).includes(k));
      expect(metricColumns.sort(), group).toEqual(members.flatMap((m) => columnsOf.get(m) ?? []).sort());
    }
    const unknown = await call(emulator, `/api/v2/brandscape-data?filter[studies]=${study.id}&metric_keys=charisma`);
    expect(unknown.status).toBe(400);
    expect((unknown.json as { data: { message: string } }).data.message).toMatch(/charisma/);
  });

  it('combines the sectors and companies helper filters, and includes company and sector', async () => {
    const base = `filter[studies]=${study.id}&filter[audiences]=1&metric_keys=esteem&include=company,sector,brand`;
    const rows = await all(emulator, base);
    const sectorId = (rows[0]?.['sector'] as { id: number }).id;
    const bySector = await all(emulator, `${base}&filter[sectors]=${sectorId}`);
    expect(bySector.map((r) => r.id)).toEqual(rows.filter((r) => (r['sector'] as { id: number }).id === sectorId).map((r) => r.id));
    const companyId = (bySector[0]?.['company'] as { id: number }).id;
    const both = await all(emulator, `${base}&filter[sectors]=${sectorId}&filter[companies]=${companyId}`);
    expect(both.length).toBeGreaterThan(0);
    expect(both.map((r) => r.id)).toEqual(
      rows.filter((r) => (r['sector'] as { id: number }).id === sectorId && (r['company'] as { id: number }).id === companyId).map((r) => r.id),
    );
    // The included brand carries the global name; brand_name is the local one (they differ somewhere).
    const everywhere = await all(emulator, `filter[country_code]=${study.country.code}&filter[year_number]=${study.year.year}&filter[audiences]=1&metric_keys=esteem&include=brand`);
    expect(everywhere.every((r) => typeof (r['brand'] as { name: string }).name === 'string')).toBe(true);
    const localStudies = await list<{ id: number }>(emulator, '/studies?filter[released]=1&per_page=1000');
    let differs = 0;
    for (const s of localStudies.data.slice(0, 40)) {
      const sample = await list<Row>(emulator, `/brandscape-data?filter[studies]=${s.id}&filter[audiences]=1&metric_keys=esteem&include=brand&per_page=1000`);
      differs += sample.data.filter((r) => r['brand_name'] !== (r['brand'] as { name: string }).name).length;
    }
    expect(differs).toBeGreaterThan(0);
  });

  it('flags all but one of a brand\'s rows as duplicates; only usage-type scores differ between them', async () => {
    const rows = await all(emulator, `filter[studies]=${study.id}&filter[audiences]=1`);
    const byBrand = new Map<unknown, Row[]>();
    for (const r of rows) byBrand.set(r['brand_id'], [...(byBrand.get(r['brand_id']) ?? []), r]);
    const multi = [...byBrand.values()].filter((g) => g.length > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const group of byBrand.values()) expect(group.filter((r) => r['is_duplicate'] === false)).toHaveLength(1);
    const usageColumns = new Set(['usage', 'preference', 'recommendation'].flatMap((k) => columnsOf.get(k) ?? []));
    expect(usageColumns.size).toBeGreaterThan(0);
    let usageDiffers = 0;
    for (const group of multi) {
      const [first, ...others] = group;
      for (const other of others) {
        for (const [column, value] of Object.entries(first ?? {})) {
          if ((BRANDSCAPE_META_FIELDS as readonly string[]).includes(column)) continue;
          if (usageColumns.has(column)) {
            if (other[column] !== value) usageDiffers += 1;
          } else if (!column.endsWith('_category_index')) {
            expect(other[column], column).toEqual(value);
          }
        }
      }
    }
    expect(usageDiffers).toBeGreaterThan(0);
  });

  it('gives percentile ranks in 0..100 within a study and audience', async () => {
    const rows = (await all(emulator, `filter[studies]=${study.id}&filter[audiences]=1&metric_keys=knowledge&filter[is_duplicate]=0`)).map((r) => r['knowledge_rank'] as number);
    expect(Math.min(...rows)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...rows)).toBeLessThanOrEqual(100);
    expect(Math.max(...rows) - Math.min(...rows)).toBeGreaterThan(90);
  });

  it('sorts by a metric column and narrows with fields', async () => {
    const body = await list<Row>(emulator, `/brandscape-data?filter[studies]=${study.id}&filter[audiences]=1&sort=-differentiation_rank&fields[brandscape_data]=id,brand_name,differentiation_rank&per_page=50`);
    expect(Object.keys(body.data[0] ?? {})).toEqual(['id', 'brand_name', 'differentiation_rank']);
    const values = body.data.map((r) => r['differentiation_rank'] as number);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    const top = (await all(emulator, `filter[studies]=${study.id}&filter[audiences]=1&metric_keys=differentiation`)).map((r) => r['differentiation_rank'] as number);
    expect(values[0]).toBe(Math.max(...top.filter((v) => v !== null)));
  });

  it('serves one row by id, and the list with a trailing slash', async () => {
    const page = await list<Row>(emulator, `/brandscape-data/?filter[studies]=${study.id}&filter[audiences]=1&metric_keys=esteem&include=brand&per_page=5&page=2`);
    const row = page.data[3] as Row;
    const single = await getJson<{ data: Row }>(emulator, `/brandscape-data/${row.id}?metric_keys=esteem&include=brand`);
    expect(single.data).toEqual(row);
    expect((await call(emulator, '/api/v2/brandscape-data/999999999')).status).toBe(404);
  });

  it('filters by local brand name and by brands across markets', async () => {
    const sample = (await list<Row>(emulator, `/brandscape-data?filter[studies]=${study.id}&filter[audiences]=1&metric_keys=esteem&per_page=1`)).data[0] as Row;
    const brandId = sample['brand_id'] as number;
    const acrossMarkets = await all(emulator, `filter[brands]=${brandId}&filter[audiences]=1&metric_keys=esteem&include=country`);
    expect(acrossMarkets.length).toBeGreaterThan(0);
    expect(acrossMarkets.every((r) => r['brand_id'] === brandId && r['audience_id'] === 1)).toBe(true);
    const named = await all(emulator, `filter[brand_name]=${encodeURIComponent(String(sample['brand_name']))}&filter[studies]=${study.id}&filter[audiences]=1&metric_keys=esteem`);
    expect(named.map((r) => r['brand_name'])).toContain(sample['brand_name']);
  });
});
