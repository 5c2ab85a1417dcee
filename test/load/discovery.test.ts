/**
 * Discovery in the library against an emulator over HTTP: the latest full year of some markets,
 * a brand's competitors, markets, audiences and sectors by name, and the comparisons taking
 * brands, sectors and markets by name (resolved against their own rows), each checked against the
 * service's records read with raw HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AmbiguousNameError,
  UnknownNameError,
  UsageError,
  crossMarket,
  latestFullYear,
  loadComparisonInput,
  loadCompetitors,
  resolveAudience,
  resolveMarkets,
  resolveSectors,
  sectorSummary,
  type BrandscapeClient,
} from '../../src/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { recordingClient } from '../helpers/client-harness.js';
import { listAll } from '../helpers/http.js';

let emulator: Emulator;
let client: BrandscapeClient;

beforeAll(async () => {
  // The default dataset (every brand), as the notebooks and the README use.
  emulator = await createEmulator({ port: 0, rateLimit: 0 });
  client = recordingClient(emulator).client;
}, 60_000);
afterAll(async () => {
  await emulator.close();
});

/** Every page of a list, read with raw HTTP. */
const all = <T>(path: string) => listAll<T>(emulator, path);

interface ApiStudy {
  id: number;
  name: string;
  period: { name: string } | null;
  country: { code: string };
  year: { year: string };
}
const isWave = (s: ApiStudy) => /\bQ[1-4]\b/.test(`${s.period?.name ?? ''} ${s.name}`);

describe('latestFullYear', () => {
  it('is the latest year with a released full-year study in every market, by code or name', async () => {
    const studies = await all<ApiStudy>('/studies?filter[released]=1&include=country,year');
    const codes = ['GB', 'DE', 'US'];
    const yearsOf = (code: string) => new Set(studies.filter((s) => s.country.code === code && !isWave(s)).map((s) => Number(s.year.year)));
    const common = [...yearsOf('GB')].filter((y) => codes.every((c) => yearsOf(c).has(y)));
    expect(await latestFullYear(client, ['GB', 'germany', 'US'])).toBe(Math.max(...common));
  });

  it('an unknown market is a UsageError naming the nearest', async () => {
    await expect(latestFullYear(client, ['GB', 'Frnace'])).rejects.toThrow(/No market with studies is named 'Frnace'\. The nearest names: France \(FR\)/);
  });
});

describe('names to ids', () => {
  it('markets by code, alpha-3, name (any case, accents ignored) or UK', async () => {
    const markets = await resolveMarkets(client, ['gb', 'DEU', 'united kingdom', 'UK', 'FRANCE']);
    expect(markets.map((m) => m.code)).toEqual(['GB', 'DE', 'GB', 'GB', 'FR']);
  });

  it('an audience by name; a name that fits several lists them', async () => {
    const audiences = await all<{ id: number; name: string }>('/audiences');
    const female = audiences.find((a) => a.name === 'Female')!;
    expect(await resolveAudience(client, 'female')).toEqual({ id: female.id, name: 'Female' });
    expect(await resolveAudience(client, 1)).toEqual({ id: 1, name: 'All Adults' });
    const error = await resolveAudience(client, 'gen').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/The audience 'gen' could be any of:\n {2}\d+ Gen Z\n {2}\d+ Gen X/);
  });

  it('sectors by name', async () => {
    const sectors = await all<{ id: number; name: string }>('/sectors');
    const automotive = sectors.find((s) => s.name === 'Automotive')!;
    expect((await resolveSectors(client, ['AUTOMOTIVE', automotive.id])).map((s) => s.id)).toEqual([automotive.id, automotive.id]);
    await expect(resolveSectors(client, ['Spaceships'])).rejects.toThrow(/No sector is named 'Spaceships'\. Sectors: .*Automotive/);
  });
});

describe('loadCompetitors', () => {
  it("the other brands of the brand's sector studied in most of the markets, most widely studied first", async () => {
    const markets = ['GB', 'DE', 'FR'];
    const year = await latestFullYear(client, markets);
    const veros = (await all<{ id: number; name: string; sector: { id: number } }>('/brands?search=Veros&include=sector')).find((b) => b.name === 'Veros')!;
    const rivals = await loadCompetitors(client, 'veros', { markets, year });
    // Expected from the studies' brand lists, read with raw HTTP.
    const studies = (await all<ApiStudy>(`/studies?filter[released]=1&filter[country_codes]=${markets.join(',')}&filter[year_numbers]=${year}&include=country,year`)).filter((s) => !isWave(s));
    const reach = new Map<number, Set<string>>();
    for (const s of studies) {
      const rows = await all<{ brand: { id: number; sector: { id: number } | null } }>(`/studies/${s.id}/brands?include=brand`);
      for (const r of rows) if (r.brand.sector?.id === veros.sector.id && r.brand.id !== veros.id) reach.set(r.brand.id, (reach.get(r.brand.id) ?? new Set()).add(s.country.code));
    }
    const expected = [...reach].filter(([, codes]) => codes.size >= 2);
    expect(rivals.length).toBe(expected.length);
    expect(rivals.length).toBeGreaterThan(0);
    const rows = rivals.rows();
    for (const r of rows) expect(r.markets).toBe(reach.get(r.brand_id)!.size);
    expect(rows.every((r) => r.sector_id === veros.sector.id)).toBe(true);
    expect(rows.map((r) => r.markets)).toEqual([...rows.map((r) => r.markets)].sort((a, b) => b - a));
    expect(rows.some((r) => r.brand_id === veros.id)).toBe(false);
    // by category: every competitor shares a category with the brand in some market.
    const byCategory = await loadCompetitors(client, veros.id, { markets, year, by: 'category', minMarkets: 1 });
    expect(byCategory.rows().every((r) => r.categories !== '')).toBe(true);
  });
});

describe('comparisons take names', () => {
  it('crossMarket with brands and markets by name gives what ids give', async () => {
    const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE'], years: [2024], metricKeys: ['esteem'] });
    const veros = (await all<{ id: number; name: string }>('/brands?search=Veros')).find((b) => b.name === 'Veros')!;
    const byName = crossMarket(input, { year: 2024, metrics: ['esteem'], brands: ['VEROS'], markets: ['united kingdom', 'Germany'] });
    const byId = crossMarket(input, { year: 2024, metrics: ['esteem'], brands: [veros.id], markets: ['GB', 'DE'] });
    expect(byName.rows()).toEqual(byId.rows());
    expect(byName.length).toBe(2);
  });

  it('sectors by name in sectorSummary; an ambiguous or unknown name lists the candidates', async () => {
    const input = await loadComparisonInput(client, { countryCodes: ['GB'], years: [2024], metricKeys: ['esteem'] });
    const sectors = await all<{ id: number; name: string }>('/sectors');
    const automotive = sectors.find((s) => s.name === 'Automotive')!;
    expect(sectorSummary(input, { metrics: ['esteem'], sectors: ['automotive'] }).rows()).toEqual(sectorSummary(input, { metrics: ['esteem'], sectors: [automotive.id] }).rows());
    const partial = crossMarketError(() => crossMarket(input, { year: 2024, metrics: ['esteem'], sectors: ['e'] }));
    expect(partial).toBeInstanceOf(AmbiguousNameError);
    const typo = crossMarketError(() => crossMarket(input, { year: 2024, metrics: ['esteem'], brands: ['Verso'] }));
    expect(typo).toBeInstanceOf(UnknownNameError);
    expect((typo as UnknownNameError).suggestions.map((s) => s.name)).toContain('Veros');
    const ambiguous = crossMarketError(() => crossMarket(input, { year: 2024, metrics: ['esteem'], brands: ['a'] }));
    expect(ambiguous).toBeInstanceOf(AmbiguousNameError);
    expect((ambiguous as AmbiguousNameError).candidates.every((c) => c.markets.includes('GB'))).toBe(true);
  });
});

function crossMarketError(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  return undefined;
}
