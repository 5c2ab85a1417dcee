/**
 * The endpoints beyond the core resources, against the emulator over HTTP: operating companies,
 * CEE opinions, study categories, tools metadata, Best Countries metadata and calculated country
 * data (ranks agree with scores), through the typed client and the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { UsageError } from '../../src/errors.js';
import type { Emulator } from '../../src/emulator/index.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';
import { call, list } from '../helpers/http.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

const client = () => recordingClient(emulator).client;

describe('operating companies', () => {
  it('lists agencies with their parents and filters children of a parent', async () => {
    const all = await client().operatingCompanies.all({ include: ['parent'] });
    const wpp = all.find((o) => o.name === 'WPP');
    expect(wpp?.parent).toBeNull();
    const children = await client().operatingCompanies.all({ filter: { parents: wpp?.id ?? 0 } });
    expect(children.length).toBeGreaterThan(3);
    expect(children.map((c) => c.id).sort()).toEqual(all.filter((o) => o.parent?.id === wpp?.id).map((o) => o.id).sort());
    const one = await client().operatingCompanies.get(children[0]?.id ?? 0, { include: ['parent', 'brand'] });
    expect(one.parent?.name).toBe('WPP');
    expect(one.brand).toBeNull();
  });

  it('pages like every list (meta.total, per_page) and refuses an unknown filter with 400', async () => {
    const body = await list(emulator, '/operating-companies?per_page=4&page=2');
    expect(body.meta.per_page).toBe(4);
    expect(body.meta.current_page).toBe(2);
    expect(body.data).toHaveLength(4);
    expect((await call(emulator, '/api/v2/operating-companies?filter[nope]=1')).status).toBe(400);
  });
});

describe('CEE opinions', () => {
  it('serves percentages per study, ethnic group and opinion, with the documented includes', async () => {
    const rows = await client().ceeOpinions.all({ include: ['study', 'country', 'year', 'audience'] });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.value).toBeGreaterThanOrEqual(0);
      expect(r.value).toBeLessThanOrEqual(100);
      expect(r.country?.code).toBe('GB');
      expect(r.study?.id).toBe(r.study_id);
      expect(r.audience?.id).toBe(r.audience_id);
    }
    const audiences = new Set(rows.map((r) => r.audience_id));
    expect(audiences.size).toBeGreaterThan(1);
    const year = rows[0]?.year?.year;
    const filtered = await client().ceeOpinions.all({ filter: { year_numbers: Number(year), audiences: 1 } });
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((r) => r.audience_id === 1 && r.year_id === rows[0]?.year_id)).toBe(true);
  });
});

describe('study categories', () => {
  it('lists the categories of a study, agreeing with its brand relations', async () => {
    const study = (await client().studies.page({ filter: { released: true, country_codes: 'GB' }, perPage: 1 })).records[0];
    const id = study?.id ?? 0;
    const relations = await client().studies.brands(id).all({ include: ['category'] });
    const categories = await client().studies.categories(id).all({ include: ['study'] });
    const expected = [...new Set(relations.map((r) => r.category?.id))].sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(categories.map((c) => c.category?.id)).toEqual(expected);
    expect(categories.every((c) => c.study?.id === id)).toBe(true);
    const withBrands = await client().studies.brands(id).all({ include: ['brand', 'category'] });
    const brandId = withBrands[0]?.brand?.id ?? 0;
    const ofBrand = await client().studies.categories(id).all({ filter: { brands: brandId } });
    expect(ofBrand.map((c) => c.category?.id).sort()).toEqual(withBrands.filter((r) => r.brand?.id === brandId).map((r) => r.category?.id).sort());
  });
});

describe('tools metadata', () => {
  it('describes every TurboPitch tool with its required parameters, routed apart from the tools themselves', async () => {
    const tools = await client().tools.all({ include: ['group', 'use_cases'] });
    const swot = tools.find((t) => t.slug === 'swot');
    expect(swot?.required_parameters).toMatchObject({ brands: true, studies: true, audiences: false });
    expect(swot?.group?.name).toBe('TurboPitch');
    const byId = await client().tools.get(swot?.id ?? 0);
    expect(byId.slug).toBe('swot');
    expect(tools.map((t) => t.slug)).toEqual(expect.arrayContaining(['archetypes', 'commitment-funnel', 'toplist-market', 'brand360']));
  });
});

describe('Best Countries', () => {
  it('serves metrics, metric groups and factors with include=metrics', async () => {
    const metrics = await client().bestCountriesMetrics.all();
    expect(metrics).toHaveLength(74);
    const factors = await client().bestCountriesFactors.all({ include: ['metrics'] });
    expect(factors).toHaveLength(10);
    expect(factors.reduce((s, f) => s + (f.weight ?? 0), 0)).toBeCloseTo(1, 6);
    expect(factors.flatMap((f) => f.metrics.map((m) => m.id)).sort((a, b) => a - b)).toEqual(metrics.filter((m) => m.factor_id !== null).map((m) => m.id));
    const groups = await client().bestCountriesMetricGroups.all({ include: ['metrics'] });
    expect(groups.flatMap((g) => g.metrics).length).toBe(74);
  });

  it('serves flat country records whose ranks agree with their scores', async () => {
    const scores = await client().bestCountries.countries({ year: 2024, dataType: 'factors', scoreType: 'scores' });
    const ranks = await client().bestCountries.countries({ year: 2024, dataType: 'factors', scoreType: 'ranks' });
    expect(scores.length).toBeGreaterThan(10);
    expect(ranks.map((r) => r.country)).toEqual(scores.map((s) => s.country));
    // Sorted by country name by default.
    expect(scores.map((s) => s.country)).toEqual([...scores.map((s) => s.country)].sort((a, b) => String(a).localeCompare(String(b))));
    for (const key of ['overall', 'adventure', 'quality_of_life']) {
      for (const a of scores) {
        const better = scores.filter((b) => (b[key] ?? 0) > (a[key] ?? 0)).length;
        expect(ranks.find((r) => r.country_id === a.country_id)?.[key], `${key} of ${a.country}`).toBe(better + 1);
      }
    }
    const attributes = await client().bestCountries.countries({ year: 2024, dataType: 'attributes', scoreType: 'scores', countryCodes: ['US', 'GB'], sort: 'country_code' });
    expect(attributes.map((a) => a.country_code)).toEqual(['GB', 'US']);
    expect(Object.keys(attributes[0] ?? {}).length).toBe(4 + 74);
  });

  it('checks the path parts before any request, and the emulator answers 404 for a year without data', async () => {
    await expect(client().bestCountries.countries({ year: 2024, dataType: 'factors', scoreType: 'percent' })).rejects.toBeInstanceOf(UsageError);
    await expect(client().bestCountries.countries({ year: 2024, dataType: 'nope' as 'factors', scoreType: 'ranks' })).rejects.toBeInstanceOf(UsageError);
    expect((await call(emulator, '/api/v2/best-countries/countries/2031/factors/ranks')).status).toBe(404);
    expect((await call(emulator, '/api/v2/best-countries/countries/2024/factors/ranks?filter[x]=1')).status).toBe(400);
    const sorted = await client().bestCountries.countries({ year: 2024, dataType: 'factors', scoreType: 'scores', sort: '-overall' });
    expect(sorted.map((s) => s.overall)).toEqual([...sorted.map((s) => s.overall ?? 0)].sort((a, b) => b - a));
  });
});

describe('brandscape fetch of the new endpoints', () => {
  async function cli(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      stdout: { write: (c: string) => (stdout += c) },
      stderr: { write: (c: string) => (stderr += c) },
      env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token },
      cwd: process.cwd(),
      signal: new AbortController().signal,
    });
    return { code, stdout, stderr };
  }

  it('fetches operating companies, study categories and Best Countries data', async () => {
    const oc = await cli(['fetch', 'operating-companies', '--include', 'parent', '--format', 'ndjson']);
    expect(oc.code, oc.stderr).toBe(0);
    expect(oc.stdout.trim().split('\n').length).toBe(15);
    const bc = await cli(['fetch', 'best-countries/countries/2024/factors/ranks', '--filter', 'country_codes=US,GB', '--format', 'csv']);
    expect(bc.code, bc.stderr).toBe(0);
    const [header, ...lines] = bc.stdout.trim().split('\n');
    expect(header?.split(',').slice(0, 4)).toEqual(['country', 'country_id', 'country_code', 'year_id']);
    expect(lines).toHaveLength(2);
    const bad = await cli(['fetch', 'best-countries/countries/2024/factors/ranks', '--filter', 'nope=1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/country_codes/);
  });
});
