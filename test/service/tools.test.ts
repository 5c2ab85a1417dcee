/**
 * The ten TurboPitch tools against the emulator over HTTP: each tool's numbers agree with the
 * brandscape rows they summarise (fetched through the ordinary brandscape endpoint), required
 * parameters are enforced by the emulator (400 naming the missing one) and by the client before any
 * request (UsageError).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS, TOOL_SLUGS } from '../../src/catalogue/tools.js';
import type { BrandscapeClient } from '../../src/client/brandscape-client.js';
import { UsageError } from '../../src/errors.js';
import type { Emulator } from '../../src/emulator/index.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';
import { call } from '../helpers/http.js';

let emulator: Emulator;
let client: BrandscapeClient;
type Row = Record<string, unknown> & { brand_id: number; category_id: number; is_duplicate: boolean | null; brand_name: string | null };
let rows: Row[];
let studyId: number;
let brands: number[];
let categoryId: number;

const mean1 = (values: number[]) => Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10;
const num = (row: Row | undefined, column: string) => row?.[column] as number;
const own = (brandId: number) => rows.find((r) => r.brand_id === brandId && r.is_duplicate === false);

beforeAll(async () => {
  emulator = await startEmulator();
  client = recordingClient(emulator).client;
  const study = (await client.studies.page({ filter: { released: true, full_year: true, country_codes: 'GB' }, perPage: 1 })).records[0];
  studyId = study?.id ?? 0;
  rows = (await client.brandscape.all({ filter: { studies: studyId, audiences: 1 } })) as unknown as Row[];
  // A category with several brands, and three brands of it.
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.category_id, (counts.get(r.category_id) ?? 0) + 1);
  categoryId = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  brands = rows.filter((r) => r.category_id === categoryId && r.is_duplicate === false).slice(0, 3).map((r) => r.brand_id);
});
afterAll(() => emulator.close());

describe('the emulated tools', () => {
  it('answer 400 naming the missing required parameter, for every tool', async () => {
    for (const slug of TOOL_SLUGS) {
      const spec = TOOLS[slug];
      const required = spec.required[spec.required.length - 1] ?? '';
      const params = new URLSearchParams();
      for (const name of spec.required) if (name !== required) params.set(name, '1');
      const answer = await call(emulator, `/api/v2/${spec.path}?${params.toString()}`);
      expect(answer.status, slug).toBe(400);
      expect((answer.json as { data: { message: string } }).data.message, slug).toContain(`'${required}'`);
    }
  });

  it('answer with the documented envelopes: {data: [...]} or {data: {..., data: [...]}}, never paged', async () => {
    const funnel = await call(emulator, `/api/v2/tools/commitment-funnel?brands=${brands[0]}&studies=${studyId}`);
    expect(funnel.status).toBe(200);
    expect(Object.keys(funnel.json as object)).toEqual(['data']);
    expect(Array.isArray((funnel.json as { data: unknown }).data)).toBe(true);
    const worth = await call(emulator, `/api/v2/tools/brand-worth-map?brands=${brands.join(',')}&studies=${studyId}`);
    const body = (worth.json as { data: { data: unknown[] } }).data;
    expect(Array.isArray(body.data)).toBe(true);
    expect((await call(emulator, `/api/v2/tools/swot?brands=${brands[0]}&studies=${studyId}&categories=${categoryId}&collections=1`)).status).toBe(400);
  });
});

describe('each tool agrees with the brandscape rows it summarises', () => {
  it('commitment funnel: the stages are the rows\' usage, preference and recommendation percentages', async () => {
    const entries = await client.turboPitch.commitmentFunnel({ brands, studies: studyId });
    expect(entries.length).toBeGreaterThanOrEqual(brands.length);
    for (const e of entries) {
      const row = rows.find((r) => r.brand_id === e.brand_id && r.category_id === e.category_id);
      expect(e.metrics.map((m) => m.value)).toEqual(['usage_pct', 'preference_pct', 'recommendation_pct'].map((c) => num(row, c)));
    }
  });

  it('brand worth map: stature and strength ranks of each brand', async () => {
    const map = await client.turboPitch.brandWorthMap({ brands, studies: [studyId] });
    expect(map.x_key).toBe('brand_stature_rank');
    for (const p of map.data) expect(p.value, `${p.brand_id} ${p.key}`).toBe(num(own(p.brand_id), p.key ?? ''));
    expect(map.data).toHaveLength(brands.length * 2);
  });

  it('category worth map: the means of the category\'s rows', async () => {
    const map = await client.turboPitch.categoryWorthMap({ categories: categoryId, studies: studyId });
    const inCategory = rows.filter((r) => r.category_id === categoryId);
    for (const p of map.data) {
      expect(p.brand_count).toBe(inCategory.length);
      expect(p.value).toBe(mean1(inCategory.map((r) => num(r, p.key ?? ''))));
    }
  });

  it('love+: the mean of esteem and relevance ranks, with both parts', async () => {
    const [entry] = await client.turboPitch.lovePlus({ brands: brands[0] ?? 0, studies: studyId });
    const row = own(brands[0] ?? 0);
    expect(entry?.data['esteem']?.value).toBe(num(row, 'esteem_rank'));
    expect(entry?.data['love_plus']?.value).toBe(mean1([num(row, 'esteem_rank'), num(row, 'relevance_rank')]));
  });

  it('cost of entry and SWOT: the brand against the average of the category\'s rows', async () => {
    const brand = brands[0] ?? 0;
    const set = rows.filter((r) => r.category_id === categoryId);
    const cost = await client.turboPitch.costOfEntry({ brand, study: studyId, categories: categoryId });
    expect(cost.comparison_size).toBe(set.length);
    for (const d of cost.data) {
      const average = mean1(set.map((r) => num(r, `${d.key}_pct`)));
      expect(d.comparison_average).toBe(average);
      expect(d.brand_value).toBe(num(own(brand), `${d.key}_pct`));
      expect(d.cost_of_entry).toBe(Math.round(Math.max(0, average - (d.brand_value ?? 0)) * 10) / 10);
    }
    const swot = await client.turboPitch.swot({ brands: brand, studies: studyId, categories: categoryId, comparisonName: 'Rivals' });
    expect(swot.comparison_name).toBe('Rivals');
    for (const d of swot.data) {
      expect(d.comparison_average).toBe(cost.data.find((c) => c.key === d.key)?.comparison_average);
      expect(['strength', 'opportunity'].includes(d.quadrant)).toBe((d.brand_value ?? 0) >= (d.comparison_average ?? 0));
    }
    expect(new Set(swot.data.map((d) => d.quadrant)).size).toBeGreaterThan(1);
  });

  it('partnership exchange: the partner\'s imagery minus the brand\'s', async () => {
    const [a = 0, b = 0] = brands;
    const map = await client.turboPitch.partnershipExchangeMap({ brands: a, comparisonBrands: b, studies: studyId });
    for (const d of map.data) {
      expect(d.brand_value).toBe(num(own(a), `${d.key}_pct`));
      expect(d.partner_value).toBe(num(own(b), `${d.key}_pct`));
      expect(d.exchange).toBeCloseTo((d.partner_value ?? 0) - (d.brand_value ?? 0), 6);
    }
  });

  it('market toplist: the ten highest ranks of the study\'s brands, in order', async () => {
    const table = await client.turboPitch.toplistMarket({ brands: brands[0] ?? 0, studies: studyId, metricKeys: ['esteem'] });
    const expected = rows.filter((r) => r.is_duplicate === false).map((r) => num(r, 'esteem_rank')).sort((x, y) => y - x).slice(0, 10);
    expect(table.filter((t) => t.position !== null && t.position <= 10).map((t) => t.value)).toEqual(expected);
    expect(table.some((t) => t.brand_id === brands[0] && t.is_selected)).toBe(true);
  });

  it('personality match: similarity is the correlation of the imagery percentages', async () => {
    const brand = brands[0] ?? 0;
    const matches = await client.turboPitch.personalityMatch({ brand, study: studyId });
    expect(matches).toHaveLength(10);
    const imagery = (await client.brandMetrics.all({ include: ['group'] })).filter((m) => m.group?.name === 'Imagery').map((m) => m.name);
    const keys = Object.keys(own(brand) ?? {}).filter((k) => k.endsWith('_pct') && !['usage_pct', 'preference_pct', 'recommendation_pct'].includes(k));
    expect(keys.length).toBe(imagery.length);
    const r = (x: number[], y: number[]) => {
      const mx = x.reduce((s, v) => s + v, 0) / x.length;
      const my = y.reduce((s, v) => s + v, 0) / y.length;
      const sxy = x.reduce((s, v, i) => s + (v - mx) * ((y[i] ?? 0) - my), 0);
      return sxy / Math.sqrt(x.reduce((s, v) => s + (v - mx) ** 2, 0) * y.reduce((s, v) => s + (v - my) ** 2, 0));
    };
    const top = matches[0];
    const similarity = r(keys.map((k) => num(own(brand), k)), keys.map((k) => num(own(top?.match_brand_id ?? 0), k)));
    expect(top?.similarity).toBe(Math.round(similarity * 1000) / 10);
    expect(matches.map((m) => m.similarity)).toEqual([...matches.map((m) => m.similarity ?? 0)].sort((x, y) => y - x));
  });

  it('vulnerability map: the brand\'s pillar ranks against its category\'s average, per market', async () => {
    const brand = brands[0] ?? 0;
    const points = await client.turboPitch.vulnerabilityMap({ brand });
    const first = points[0];
    const theirs = (await client.brandscape.all({ filter: { studies: first?.study_id ?? 0, audiences: 1 } })) as unknown as Row[];
    const here = points.filter((p) => p.study_id === first?.study_id);
    const set = theirs.filter((r) => r.category_id === first?.category_id);
    const mine = theirs.find((r) => r.brand_id === brand && r.is_duplicate === false);
    expect(here).toHaveLength(4);
    for (const p of here) {
      expect(p.brand_value).toBe(num(mine, `${p.metric_key}_rank`));
      expect(p.category_average).toBe(mean1(set.map((r) => num(r, `${p.metric_key}_rank`))));
      expect(p.is_vulnerable).toBe((p.gap ?? 0) < 0);
    }
    expect(points.length % 4).toBe(0);
    expect(points.length).toBeGreaterThan(0);
  });
});

describe('the client checks tool parameters before any request', () => {
  it('throws UsageErrors naming the problem and sends nothing', async () => {
    const { client: c } = recordingClient(emulator);
    emulator.clearRequests();
    await expect(c.turboPitch.swot({ brands: 1, studies: 1 } as never)).rejects.toThrow(/exactly one of 'categories' or 'collections'/);
    await expect(c.turboPitch.costOfEntry({ brand: 1, study: 1, categories: 1, collections: 2 } as never)).rejects.toBeInstanceOf(UsageError);
    await expect(c.turboPitch.commitmentFunnel({ brands: [], studies: 1 })).rejects.toThrow(/'brands'/);
    await expect(c.turboPitch.personalityMatch({ brand: 1.5, study: 1 })).rejects.toThrow(/integer/);
    await expect(c.turboPitch.toplistMarket({ brands: 1, studies: 1, metrics: 1, metricKeys: ['x'] } as never)).rejects.toThrow(/not both/);
    expect(emulator.requests.filter((r) => r.path.includes('/tools/'))).toHaveLength(0);
  });
});
