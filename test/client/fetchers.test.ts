/**
 * Every fetcher and every kind of parameter, against the emulator over HTTP: what the client
 * sends (read back from the emulator's request log) and what it hands back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandscapeClient } from '../../src/client/brandscape-client.js';
import type { Emulator } from '../../src/emulator/index.js';
import { DataError, UsageError } from '../../src/errors.js';
import { paramsOf, recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
let client: BrandscapeClient;
beforeAll(async () => {
  emulator = await startEmulator();
  client = recordingClient(emulator).client;
});
afterAll(() => emulator.close());

const last = (path: string) => paramsOf(requestsTo(emulator, path).at(-1));

describe('generic fetchers', () => {
  it('page(): one page, 25 records by default, with paging facts', async () => {
    const page = await client.brands.page();
    expect(page.records).toHaveLength(25);
    expect(page).toMatchObject({ currentPage: 1, perPage: 25, total: 300, lastPage: 12 });
    const third = await client.brands.page({ page: 3, perPage: 7 });
    expect(third.records.map((b) => b.id)).toEqual(emulator.dataset.brands.slice(14, 21).map((b) => b.record.id));
    expect(last('brands').get('page')).toBe('3');
    expect(last('brands').get('per_page')).toBe('7');
  });

  it('all(): every record, page 1 at the largest page size, records equal to what get(id) returns', async () => {
    emulator.clearRequests();
    const brands = await client.brands.all();
    expect(brands).toHaveLength(300);
    expect(new Set(brands.map((b) => b.id)).size).toBe(300);
    expect(paramsOf(requestsTo(emulator, 'brands')[0]).get('per_page')).toBe('1000');
    const one = await client.brands.get(brands[17]?.id ?? 0);
    expect(one).toEqual(brands[17]);
  });

  it('filter: exact ids, helper filters with lists, booleans as 1/0, like filters on text', async () => {
    const gb = emulator.dataset.countries.find((c) => c.record.code === 'GB');
    const brands = await client.brands.all({ filter: { country_codes: ['GB', 'FR'], is_core: true, name: 'a' } });
    const q = last('brands');
    expect(q.get('filter[country_codes]')).toBe('GB,FR');
    expect(q.get('filter[is_core]')).toBe('1');
    expect(q.get('filter[name]')).toBe('a');
    expect(brands.length).toBeGreaterThan(0);
    for (const b of brands) {
      expect(b.is_core).toBe(true);
      expect(b.name?.toLowerCase()).toContain('a');
    }
    const notCore = await client.brands.all({ filter: { is_core: false } });
    expect(last('brands').get('filter[is_core]')).toBe('0');
    expect(notCore.every((b) => b.is_core === false)).toBe(true);
    const studies = await client.studies.all({ filter: { countries: [gb?.record.id ?? 0], full_year: true } });
    expect(last('studies').get('filter[countries]')).toBe(String(gb?.record.id));
    expect(studies.length).toBeGreaterThan(0);
    expect(studies.map((s) => s.id).sort()).toEqual(emulator.dataset.studies.filter((s) => s.countryId === gb?.record.id && s.quarter === null).map((s) => s.record.id).sort());
  });

  it('include: adds the related objects, typed', async () => {
    const brands = await client.brands.all({ include: ['sector', 'company'], perPage: 100 });
    expect(last('brands').get('include')).toBe('sector,company');
    for (const b of brands) {
      expect(b.sector?.id).toEqual(expect.any(Number));
      expect(b.company?.id).toEqual(expect.any(Number));
    }
    const groups = await client.brandMetricGroups.all({ include: ['metric'] });
    expect(groups.some((g) => g.metrics.length > 0)).toBe(true);
  });

  it('fields: only the selected fields come back (fields[<snake_resource>])', async () => {
    const brands = await client.brands.all({ fields: ['id', 'name'] });
    expect(last('brands').get('fields[brands]')).toBe('id,name');
    expect(Object.keys(brands[0] ?? {}).sort()).toEqual(['id', 'name']);
    const groups = await client.audienceGroups.page({ fields: ['id', 'description'] });
    expect(last('audience-groups').get('fields[audience_groups]')).toBe('id,description');
    expect(Object.keys(groups.records[0] ?? {}).sort()).toEqual(['description', 'id']);
  });

  it('sort: several keys, descending with a leading minus', async () => {
    const brands = await client.brands.all({ sort: ['-is_core', 'name'] });
    expect(last('brands').get('sort')).toBe('-is_core,name');
    const firstNotCore = brands.findIndex((b) => b.is_core === false);
    expect(brands.slice(firstNotCore).every((b) => b.is_core === false)).toBe(true);
    const core = brands.slice(0, firstNotCore).map((b) => b.name ?? '');
    expect(core).toEqual([...core].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('search: only where the service supports it', async () => {
    const countries = await client.countries.all({ search: 'united' });
    expect(last('countries').get('search')).toBe('united');
    expect(countries.map((c) => c.code).sort()).toEqual(expect.arrayContaining(['GB', 'US']));
    const before = emulator.requests.length;
    // A caller without types (JavaScript, the CLI) gets a UsageError before any request.
    await expect(client.cities.all({ search: 'paris' } as never)).rejects.toBeInstanceOf(UsageError);
    expect(emulator.requests.length).toBe(before);
  });

  it('covers every resource: page, all (or a bounded load), get by id', async () => {
    const probes: [string, () => Promise<{ id: number }[]>, (id: number) => Promise<{ id: number }>][] = [
      ['audiences', () => client.audiences.all({ include: ['group'] }), (id) => client.audiences.get(id, { include: ['group'] })],
      ['audience-groups', () => client.audienceGroups.all({ include: ['audiences'] }), (id) => client.audienceGroups.get(id, { include: ['audiences'] })],
      ['brand-metrics', () => client.brandMetrics.all({ include: ['group'] }), (id) => client.brandMetrics.get(id, { include: ['group'] })],
      ['brand-metric-groups', () => client.brandMetricGroups.all({ include: ['metrics'] }), (id) => client.brandMetricGroups.get(id, { include: ['metrics'] })],
      ['categories', () => client.categories.all({ include: ['sector'] }), (id) => client.categories.get(id, { include: ['sector'] })],
      ['cities', async () => (await client.cities.load({ filter: { capitals: true }, include: ['country'] })).records, (id) => client.cities.get(id, { include: ['country'] })],
      ['collections', () => client.collections.all({ include: ['brands'] }), (id) => client.collections.get(id, { include: ['brands'] })],
      ['companies', () => client.companies.all({ include: ['gics_sector', 'stock_exchanges', 'country', 'brands'] }), (id) => client.companies.get(id, { include: ['gics_sector', 'stock_exchanges', 'country', 'brands'] })],
      ['countries', () => client.countries.all({ include: ['region'] }), (id) => client.countries.get(id, { include: ['region'] })],
      ['gics-sectors', () => client.gicsSectors.all(), (id) => client.gicsSectors.get(id)],
      ['regions', () => client.regions.all({ include: ['countries'] }), (id) => client.regions.get(id, { include: ['countries'] })],
      ['sectors', () => client.sectors.all({ include: ['categories'] }), (id) => client.sectors.get(id, { include: ['categories'] })],
      ['stock-exchanges', () => client.stockExchanges.all({ include: ['country'] }), (id) => client.stockExchanges.get(id, { include: ['country'] })],
      ['stock-prices', async () => (await client.stockPrices.load({ include: ['company'] }, { maxPages: 2 })).records, (id) => client.stockPrices.get(id, { include: ['company'] })],
      ['studies', () => client.studies.all({ include: ['country', 'year'] }), (id) => client.studies.get(id, { include: ['country', 'year'] })],
      ['years', () => client.years.all(), (id) => client.years.get(id)],
    ];
    for (const [name, list, get] of probes) {
      const records = await list();
      expect(records.length, name).toBeGreaterThan(0);
      const pick = records[Math.floor(records.length / 2)];
      expect(await get(pick?.id ?? 0), name).toEqual(pick);
      const page = await client.resource(name as Parameters<BrandscapeClient['resource']>[0]).page({ perPage: 2 });
      expect(page.records.length, name).toBeLessThanOrEqual(2);
    }
  });

  it('studies.brands(id): the brand-in-study relations of one study, with nested includes', async () => {
    const study = emulator.dataset.studies.find((s) => s.released);
    const studyId = study?.record.id ?? 0;
    const relations = await client.studies.brands(studyId).all({ include: ['brand', 'category.sector'] });
    expect(requestsTo(emulator, `studies/${studyId}/brands`).length).toBeGreaterThan(0);
    expect(relations.length).toBe(emulator.dataset.studyBrands(studyId).length);
    expect(relations[0]?.brand?.id).toEqual(expect.any(Number));
    expect(relations[0]?.category?.sector?.id).toEqual(expect.any(Number));
    const one = await client.studies.brands(studyId).page({ perPage: 3, filter: { brand_name: relations[0]?.brand_name ?? '' } });
    expect(one.records.length).toBeGreaterThan(0);
  });

  it('resource(path): a fetcher named at run time, with text parameters (the CLI), study brands included', async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const byPath = await client.resource(`studies/${study}/brands`).all({ include: ['brand'] });
    expect(byPath).toEqual(await client.studies.brands(study).all({ include: ['brand'] }));
    const filter: Record<string, string> = { name: 'a' };
    const sort: string[] = ['-name', 'id'];
    expect(await client.resource('brands').all({ filter, sort, include: ['sector'] })).toEqual(await client.brands.all({ filter: { name: 'a' }, sort: ['-name', 'id'], include: ['sector'] }));
    // The path is text at run time: checked whatever the compiler was told.
    expect(() => client.resource('brandscape-data' as never)).toThrow(UsageError);
    expect(() => client.resource('studies/x/brands' as never)).toThrow(/^Unknown resource 'studies\/x\/brands'\. Resources: .*audience-groups.*, studies\/<id>\/brands, studies\/<id>\/categories; brandscape data has its own fetcher/);
  });

  it('refuses ids that are not integers before sending anything', async () => {
    await expect(client.brands.get(1.5)).rejects.toBeInstanceOf(UsageError);
    expect(() => client.studies.brands(Number.NaN)).toThrow(UsageError);
  });
});

describe('brandscape data', () => {
  const ukStudy = () => {
    const gb = emulator.dataset.countries.find((c) => c.record.code === 'GB')?.record.id;
    const study = emulator.dataset.studies.find((s) => s.countryId === gb && s.released);
    return study?.record.id ?? 0;
  };

  it('helper filters, metricGroupKeys and includes', async () => {
    const rows = await client.brandscape.all({
      filter: { country_code: 'GB', year_number: 2024, audiences: 1 },
      metricGroupKeys: ['pillars'],
      include: ['brand', 'sector'],
    });
    const q = last('brandscape-data');
    expect(q.get('filter[country_code]')).toBe('GB');
    expect(q.get('filter[year_number]')).toBe('2024');
    expect(q.get('metric_group_keys')).toBe('pillars');
    expect(q.get('include')).toBe('brand,sector');
    expect(rows.length).toBeGreaterThan(0);
    const row = rows[0];
    expect(row?.audience_id).toBe(1);
    expect(typeof row?.differentiation_rank === 'number' || row?.differentiation_rank === null).toBe(true);
    expect(row?.brand?.id).toBe(row?.brand_id);
    expect(row?.sector?.id).toEqual(expect.any(Number));
    // Only the pillars' columns: no imagery column.
    expect(Object.keys(row ?? {}).some((k) => k.startsWith('innovative'))).toBe(false);
  });

  it('metricKeys, fields, sort and a study filter; get by id', async () => {
    const studyId = ukStudy();
    const rows = await client.brandscape.all({
      filter: { studies: studyId, audiences: 1 },
      metricKeys: ['esteem'],
      sort: '-esteem_rank',
      fields: ['id', 'brand_name', 'esteem_rank'],
    });
    const q = last('brandscape-data');
    expect(q.get('metric_keys')).toBe('esteem');
    expect(q.get('sort')).toBe('-esteem_rank');
    expect(q.get('fields[brandscape_data]')).toBe('id,brand_name,esteem_rank');
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['brand_name', 'esteem_rank', 'id']);
    const ranks = rows.map((r) => r.esteem_rank ?? -1);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const full = await client.brandscape.get(rows[0]?.id ?? 0, { metricKeys: ['esteem'], include: ['study'] });
    expect(full.id).toBe(rows[0]?.id);
    expect(full.esteem_rank).toBe(rows[0]?.esteem_rank);
    expect(full.study?.id).toBe(studyId);
  });

  it('refuses a query without a qualifying filter combination before any request, listing the combinations', async () => {
    await client.metricCatalogue();
    const before = emulator.requests.length;
    const error = await client.brandscape.all({ filter: { audiences: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/filter\[studies\]/);
    expect(emulator.requests.length).toBe(before);
    await expect(client.brandscape.all({ filter: { studies: ukStudy() }, metricKeys: ['no_such_metric'] })).rejects.toThrow(/Unknown metric key/);
  });

  it('pages(): an async iterator of pages in order', async () => {
    const pages: number[] = [];
    let count = 0;
    for await (const page of client.brandscape.pages({ filter: { studies: ukStudy() }, metricKeys: ['esteem'], perPage: 40 }, { concurrency: 3 })) {
      pages.push(page.currentPage);
      count += page.records.length;
      expect(page.total).toBeGreaterThan(0);
    }
    expect(pages).toEqual(pages.map((_, i) => i + 1));
    expect(count).toBe(emulator.dataset.brandscape.rowsOf(ukStudy()).length * emulator.dataset.brandscape.rowsOf(ukStudy()).audienceIds.length);
  });
});

describe('archetypes tool', () => {
  it('cultural: against the whole study', async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const entries = await client.archetypes({ studies: study, comparison: 'cultural' });
    const q = last('tools/archetypes');
    expect(q.get('studies')).toBe(String(study));
    expect(q.has('collections') || q.has('categories')).toBe(false);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]?.comparison_type).toBe('cultural');
  });

  it('competitive: against exactly one collection or category', async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const rows = emulator.dataset.brandscape.rowsOf(study);
    const brands = [rows.brandIds[0] ?? 0, rows.brandIds[1] ?? 0];
    const byCategory = await client.archetypes({ studies: [study], brands, comparison: 'competitive', categories: rows.categoryIds[0] ?? 0 });
    expect(last('tools/archetypes').get('categories')).toBe(String(rows.categoryIds[0]));
    expect(last('tools/archetypes').get('brands')).toBe(brands.join(','));
    expect(byCategory.every((e) => e.comparison_type === 'competitive')).toBe(true);
    const collection = emulator.dataset.collections.find((c) => c.isPublic)?.record.id ?? 0;
    const byCollection = await client.archetypes({ studies: study, comparison: 'competitive', collections: collection });
    expect(last('tools/archetypes').get('collections')).toBe(String(collection));
    expect(byCollection.length).toBeGreaterThanOrEqual(0);
    await expect(client.archetypes({ studies: study, comparison: 'competitive' } as never)).rejects.toBeInstanceOf(UsageError);
  });
});

describe('archetypes of brands without data', () => {
  const setup = () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const studied = new Set(emulator.dataset.brandscape.rowsOf(study).brandIds);
    const present = [...studied][0] ?? 0;
    const absent = emulator.dataset.brands.map((b) => b.record.id).find((id) => !studied.has(id)) ?? 0;
    return { study, present, absent };
  };

  it('is a DataError naming the brands, never a shorter answer', async () => {
    const { study, present, absent } = setup();
    expect(await client.archetypes({ studies: study, brands: [present], comparison: 'cultural' })).toHaveLength(1);
    const error = await client.archetypes({ studies: study, brands: [present, absent], comparison: 'cultural' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).missing).toEqual([`brand ${absent}`]);
    expect((error as DataError).message).toContain(`No cultural archetypes for brand ${absent} in study ${study} (against every brand of the study): not studied there`);
    expect((error as DataError).hint).toMatch(/missing: 'note'/);
  });

  it("with { missing: 'note' }: the entries there are, the missing brands and a note naming them", async () => {
    const { study, present, absent } = setup();
    const answer = await client.archetypes({ studies: study, brands: [present, absent], comparison: 'cultural' }, { missing: 'note' });
    expect(answer.entries.map((e) => e.brand_id)).toEqual([present]);
    expect(answer.missing).toEqual([{ brand_id: absent, study_id: study }]);
    expect(answer.notes).toEqual([`No cultural archetypes for brand ${absent} in study ${study} (against every brand of the study).`]);
    const complete = await client.archetypes({ studies: study, brands: [present], comparison: 'cultural' }, { missing: 'note' });
    expect(complete.notes).toEqual([]);
  });
});

describe('brandscape row parsing', () => {
  it('the listed schema strips nothing silently: a row wider than the list is caught by its width', async () => {
    const { brandscapeRowSchema, hasRowWidth } = await import('../../src/schemas/brandscape.js');
    const row = brandscapeRowSchema({ metricColumns: ['esteem_rank'], fields: ['id', 'esteem_rank'], unknownColumns: 'strip' });
    expect(row.safeParse({ id: 1, esteem_rank: null }).success).toBe(true);
    // An absent listed column fails the listed schema (the caller falls back to the catch-all).
    expect(row.safeParse({ id: 1 }).success).toBe(false);
    expect(row.safeParse({ id: 1, esteem_rank: 'high' }).success).toBe(false);
    expect(hasRowWidth([{ id: 1, esteem_rank: 2 }], 2)).toBe(true);
    expect(hasRowWidth([{ id: 1, esteem_rank: 2, new_metric_rank: 3 }], 2)).toBe(false);
    expect(hasRowWidth('rows', 2)).toBe(false);
  });

  it('without the metric catalogue (a token lacking its scope), rows are checked by the catch-all', async () => {
    const scoped = await startEmulator({ tokens: [{ token: 'brandscape-only-token', scopes: ['Brandscape Data: Read'] }] });
    try {
      const { client: limited } = recordingClient(scoped, { token: 'brandscape-only-token' });
      const study = scoped.dataset.studies.find((s) => s.released)?.record.id ?? 0;
      const rows = await limited.brandscape.all({ filter: { studies: study, audiences: 1 }, metricKeys: ['esteem'], include: ['brand'] });
      expect(rows.length).toBeGreaterThan(0);
      expect(typeof rows[0]?.esteem_rank === 'number' || rows[0]?.esteem_rank === null).toBe(true);
      expect(rows[0]?.brand?.id).toBe(rows[0]?.brand_id);
      expect(requestsTo(scoped, 'brand-metrics')[0]?.status).toBe(401);
    } finally {
      await scoped.close();
    }
  });

  it('one rule for pages and single rows: a column the catalogue does not know (a metric added since) is kept', async () => {
    // The emulator's answers, with a column the metric catalogue has never heard of on every row.
    const widening: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.includes('/brandscape-data') || res.status !== 200) return res;
      const body = (await res.json()) as { data: Record<string, unknown>[] | Record<string, unknown> };
      for (const row of Array.isArray(body.data) ? body.data : [body.data]) row['new_metric_rank'] = 42;
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify(body), { status: res.status, headers });
    };
    const { client: wide } = recordingClient(emulator, { fetch: widening });
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const query = { filter: { studies: study, audiences: 1 }, metricKeys: ['esteem'] } as const;
    const page = await wide.brandscape.page({ ...query, perPage: 5 });
    const first = page.records[0];
    expect(first).toMatchObject({ new_metric_rank: 42 });
    expect(typeof first?.esteem_rank === 'number' || first?.esteem_rank === null).toBe(true);
    const one = await wide.brandscape.get(first?.id ?? 0, { metricKeys: ['esteem'] });
    expect(one).toMatchObject({ id: first?.id, esteem_rank: first?.esteem_rank, new_metric_rank: 42 });
    // Rows exactly as the catalogue lists them go through the listed schema, unchanged.
    const plain = await recordingClient(emulator).client.brandscape.get(first?.id ?? 0, { metricKeys: ['esteem'] });
    expect(plain).not.toHaveProperty('new_metric_rank');
    expect(plain.esteem_rank).toBe(first?.esteem_rank);
  });
});
