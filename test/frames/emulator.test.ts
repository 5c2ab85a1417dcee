/**
 * Frames against the emulator's data, loaded over HTTP with the client: the comparisons must agree
 * with means computed directly from the loaded rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { archetypeMatrix } from '../../src/frames/archetype-matrix.js';
import type { BrandscapeInput } from '../../src/frames/brandscape-input.js';
import type { FrameMeta, FrameTable } from '../../src/frames/frame-table.js';
import { companyRollup, type CompanyInput } from '../../src/frames/company-rollup.js';
import { crossMarket } from '../../src/frames/cross-market.js';
import { loadComparisonInput } from '../../src/load/load-comparison-input.js';
import { sectorSummary } from '../../src/frames/sector-summary.js';
import { toTidy } from '../../src/frames/to-tidy.js';

type Raw = Record<string, unknown>;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('frames on emulator data', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof createClient>;
  let input: BrandscapeInput;
  let codes: string[];
  /** The same rows as input.rows, loaded again as plain records for the direct computations. */
  let raw: Raw[];
  /** Study id -> country code, for the full-year studies of 2024 (the US waves are left out). */
  let fullYear: Map<number, string>;

  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, brands: 400 });
    client = createClient({ baseUrl: emulator.url, token: emulator.token });
    const studies = await client.studies.all({ filter: { year_numbers: [2024], released: true }, include: ['country', 'year'] });
    const available = [...new Set(studies.map((s) => s.country?.code ?? ''))].filter(Boolean).sort();
    codes = [...available.filter((c) => c !== 'US').slice(0, 3), 'US'];
    input = await loadComparisonInput(client, { countryCodes: codes, years: [2024], metricKeys: ['differentiation', 'usage'] });
    raw = await client.brandscape.all({ filter: { country_code: codes, year_number: [2024], audiences: 1 }, metricKeys: ['differentiation', 'usage'], include: ['company'] });
    fullYear = new Map(studies.filter((s) => s.period?.name === 'Full Year').map((s) => [s.id, s.country?.code ?? '']));
  }, 120_000);
  afterAll(() => emulator?.close());

  /** Per brand and market: the mean of the loaded rows directly (audience 1, not duplicates, full-year studies). */
  function directBrandMeans(column: string): Map<number, Map<string, number>> {
    const values = new Map<number, Map<string, number[]>>();
    for (const row of raw) {
      const code = fullYear.get(row['study_id'] as number);
      const v = row[column];
      if (code === undefined || row['is_duplicate'] === true || typeof v !== 'number') continue;
      const brand = row['brand_id'] as number;
      const markets = values.get(brand) ?? new Map<string, number[]>();
      values.set(brand, markets);
      markets.set(code, [...(markets.get(code) ?? []), v]);
    }
    return new Map([...values].map(([brand, markets]) => [brand, new Map([...markets].map(([code, vs]) => [code, mean(vs)]))]));
  }

  it('loads the rows as a table that holds every loaded row', () => {
    expect(input.rows).not.toBeInstanceOf(Array);
    expect((input.rows as { length: number }).length).toBe(raw.length);
    expect(raw.length).toBeGreaterThan(500);
  });

  it('crossMarket: each cell and the cross-market mean equal the means computed directly from the rows', () => {
    const result = crossMarket(input, { year: 2024, metrics: ['differentiation'] });
    const direct = directBrandMeans('differentiation_rank');
    const rows = result.rows();
    expect(rows.length).toBeGreaterThan(100);
    let checked = 0;
    for (const row of rows) {
      const markets = direct.get(row.entity_id);
      const expected = markets?.get(row.country_code);
      if (expected === undefined) {
        expect(row.value).toBeNull();
        continue;
      }
      expect(row.value).toBeCloseTo(expected, 9);
      expect(row.cross_market_mean).toBeCloseTo(mean([...markets!.values()]), 9);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    // The US has a full-year study and quarterly waves in 2024: the full-year study is the year's figure.
    expect(result.meta.notes.join(' ')).toMatch(/full-year study/);
    expect(new Set(rows.map((r) => r.country_code))).toEqual(new Set(codes));
  });

  it('sectorSummary: the mean per sector and market equals the mean of the brand means', () => {
    const summary = sectorSummary(input, { years: [2024], metrics: ['differentiation'] }).rows();
    const direct = directBrandMeans('differentiation_rank');
    const sectorOf = new Map((input.brands ?? []).map((b) => [b.id, b.sector?.id]));
    for (const row of summary) {
      const values = [...direct]
        .filter(([brand, markets]) => sectorOf.get(brand) === row.sector_id && markets.has(row.country_code))
        .map(([, markets]) => markets.get(row.country_code)!);
      expect(row.count).toBe(values.length);
      expect(row.mean).toBeCloseTo(mean(values), 9);
    }
    expect(summary.length).toBeGreaterThan(10);
  });

  it('toTidy keeps every per-category usage row and one row per brand for the rest', () => {
    const audience1 = raw.filter((r) => r['audience_id'] === 1);
    const tidy = toTidy(input, { metrics: ['usage_pct', 'differentiation_rank'] });
    expect(tidy.length).toBe(audience1.length + audience1.filter((r) => r['is_duplicate'] !== true).length);
    expect(audience1.some((r) => r['is_duplicate'] === true)).toBe(true);
  });

  it('companyRollup: share-weighted brand means joined with the company results', async () => {
    // A listed company with at least two brands in the first market.
    const rows = raw;
    const brandsOf = new Map<number, Set<number>>();
    for (const r of rows) {
      const company = (r['company'] as { id: number } | null)?.id;
      if (company !== undefined && fullYear.get(r['study_id'] as number) === codes[0]) brandsOf.set(company, (brandsOf.get(company) ?? new Set()).add(r['brand_id'] as number));
    }
    const candidates = [...brandsOf].filter(([, b]) => b.size >= 2).map(([c]) => c);
    const companies = await client.companies.all({ filter: { id: candidates }, include: ['financials'] });
    const listed = companies.find((c) => (c.financials ?? []).some((f) => f.fiscal_year === 2024));
    expect(listed).toBeDefined();
    const withCompany: CompanyInput = await loadComparisonInput(client, { countryCodes: [codes[0]!], years: [2024], metricKeys: ['differentiation'], companies: [listed!.id] });
    const rollup = companyRollup(withCompany, { companies: [listed!.id], metrics: ['differentiation'] }).rows();
    expect(rollup).toHaveLength(1);
    const direct = directBrandMeans('differentiation_rank');
    const brands = [...brandsOf.get(listed!.id)!].filter((b) => direct.get(b)?.has(codes[0]!));
    const share = new Map((withCompany.brands ?? []).map((b) => [b.id, b.share_of_company ?? NaN]));
    const byShare = brands.every((b) => (share.get(b) ?? NaN) > 0);
    const weights = brands.map((b) => (byShare ? share.get(b)! : 1));
    const expected = brands.reduce((sum, b, i) => sum + weights[i]! * direct.get(b)!.get(codes[0]!)!, 0) / weights.reduce((a, b) => a + b, 0);
    const result = listed!.financials.find((f) => f.fiscal_year === 2024)!;
    expect(rollup[0]).toMatchObject({ company_id: listed!.id, n_brands: brands.length, weighting: byShare ? 'share_of_company' : 'equal', revenue: result.revenue, market_cap: result.market_cap });
    expect(rollup[0]!.value).toBeCloseTo(expected, 9);
    expect(rollup[0]!.avg_close_price).toEqual(expect.any(Number));
  }, 60_000);

  it('archetypeMatrix joins the archetypes tool answers', async () => {
    const studyId = [...fullYear].find(([, code]) => code === codes[0])![0];
    const rows = raw.filter((r) => r['study_id'] === studyId);
    const category = rows[0]!['category_id'] as number;
    const [cultural, competitive] = await Promise.all([
      client.archetypes({ studies: studyId, comparison: 'cultural' }),
      client.archetypes({ studies: studyId, comparison: 'competitive', categories: category }),
    ]);
    const matrix = archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: category } });
    const keys = Object.keys(competitive[0]!.data).filter((k) => !k.endsWith('_rank'));
    expect(matrix.length).toBe(competitive.length * keys.length);
    const first = matrix.rows()[0]!;
    const culturalEntry = cultural.find((e) => e.brand_id === first.brand_id)!;
    expect(first.cultural_score).toBe(culturalEntry.data[first.archetype]);
    expect(first.comparison_type).toBe('category');
  }, 60_000);

  it('loadComparisonInput loads only the rows of the brands asked for, and says which queries it ran', async () => {
    const brands = [...new Set(raw.map((r) => r['brand_id'] as number))].slice(0, 3);
    emulator.clearRequests();
    const narrow = await loadComparisonInput(client, { countryCodes: codes, years: [2024], metricKeys: ['differentiation'], only: { brands } });
    const expected = raw.filter((r) => brands.includes(r['brand_id'] as number));
    expect((narrow.rows as { length: number }).length).toBe(expected.length);
    // The service filtered the rows: the brandscape request carried the brands.
    const request = emulator.requests.find((r) => r.path === '/api/v2/brandscape-data');
    expect(new URLSearchParams(request?.query ?? '').get('filter[brands]')).toBe(brands.join(','));
    expect(narrow.brands?.map((b) => b.id).sort((a, b) => a - b)).toEqual([...brands].sort((a, b) => a - b));
    expect(narrow.queries.map((q) => q.resource).sort()).toEqual(['brands', 'brandscape-data', 'studies']);
    expect(narrow.queries.find((q) => q.resource === 'brandscape-data')).toMatchObject({ records: expected.length, params: { filter: { brands } } });
  }, 60_000);

  it('loadComparisonInput loads only the rows of the studies asked for (the US full year without its waves)', async () => {
    const studies = await client.studies.all({ filter: { country_codes: ['US'], year_numbers: [2024] } });
    const fullYear = studies.filter((s) => !/\bQ[1-4]\b/.test(`${s.period?.name ?? ''} ${s.name ?? ''}`));
    expect(fullYear).toHaveLength(1);
    expect(studies.length).toBeGreaterThan(1);
    const brands = [...new Set(raw.map((r) => r['brand_id'] as number))].slice(0, 20);
    emulator.clearRequests();
    const input = await loadComparisonInput(client, { countryCodes: ['US'], years: [2024], metricKeys: ['differentiation'], only: { brands, studies: [fullYear[0]!.id] } });
    const request = emulator.requests.find((r) => r.path === '/api/v2/brandscape-data');
    const query = new URLSearchParams(request?.query ?? '');
    expect(query.get('filter[studies]')).toBe(String(fullYear[0]!.id));
    expect(query.get('filter[country_code]')).toBeNull();
    const expected = raw.filter((r) => r['study_id'] === fullYear[0]!.id && brands.includes(r['brand_id'] as number));
    expect(expected.length).toBeGreaterThan(0);
    expect(input.rows.length).toBe(expected.length);
    expect(new Set((input.rows as FrameTable<object, FrameMeta>).values('study_id'))).toEqual(new Set([fullYear[0]!.id]));
  }, 60_000);

  it('loadComparisonInput reuses studies it is given and skips the brand records when told, with the same comparison', async () => {
    const studies = await client.studies.all({ filter: { country_codes: codes, released: true }, include: ['country', 'year'] });
    const brands = [...new Set(raw.map((r) => r['brand_id'] as number))].slice(0, 5);
    const asked = { countryCodes: codes, years: [2024], metricKeys: ['differentiation'], only: { brands } };
    const loaded = await loadComparisonInput(client, asked);
    emulator.clearRequests();
    const lean = await loadComparisonInput(client, { ...asked, studies, brandRecords: false });
    // Only the rows (and the metric catalogue, which this client has cached) were asked for.
    expect(emulator.requests.map((r) => r.path).filter((p) => p !== '/api/v2/brand-metrics' && p !== '/api/v2/brand-metric-groups')).toEqual(['/api/v2/brandscape-data']);
    expect(lean.queries.map((q) => q.resource)).toEqual(['brandscape-data']);
    expect(lean.brands).toBeUndefined();
    // The rows' own includes name the brands, so the comparison is the same.
    const selection = { year: 2024, metrics: ['differentiation'], brands, missing: 'note' as const };
    expect(crossMarket(lean, selection).rows()).toEqual(crossMarket(loaded, selection).rows());
    // With companies the brand records are loaded all the same: companyRollup weights by their share.
    emulator.clearRequests();
    const company = raw.find((r) => r['company_id'] !== null)?.['company_id'] as number;
    const withCompanies = await loadComparisonInput(client, { ...asked, studies, brandRecords: false, companies: [company] });
    expect(withCompanies.queries.map((q) => q.resource)).toContain('brands');
  }, 60_000);
});
