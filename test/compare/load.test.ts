/**
 * The comparison's client calls against the emulator (port 0, real HTTP): the first round at once
 * (brands, released studies, catalogue, audience), the studies the brands are in, and only the
 * brands' rows of the chosen studies. And the same usage error in each reader's words: the library
 * names the option (`scoreType`), the CLI its flag (`--score-type`), the MCP tools their parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { compareBrands } from '../../src/compare/compare-brands.js';
import { checkMarkets, loadBasics, loadRows, loadStudiesOfBrands } from '../../src/compare/load.js';
import { chooseScope, planRequest } from '../../src/compare/plan.js';
import { FLAG_NAMES } from '../../src/cli/flags.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';
import { PARAMETER_NAMES } from '../../src/mcp/tool-result.js';

const TOKEN = 'compare-load-token';
let emulator: Emulator;

beforeAll(async () => {
  // The default dataset (seed 1): the one with the README's brands (Veros, Polora).
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const client = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
const rowRequests = () => emulator.requests.filter((r) => r.path.endsWith('/brandscape-data'));

describe('the loads of a comparison', () => {
  it('the first round resolves the brands, reads the released studies and the audience, and leaves the catalogue loading for the default metrics', async () => {
    const c = client();
    const request = planRequest({ brands: ['veros', 'Polora'], markets: ['GB', 'DE'], audience: 1 });
    const basics = await loadBasics(c, request, { brands: request.refs });
    expect(basics.brands.map((b) => b.name)).toEqual(['Veros', 'Polora']);
    expect(basics.named).toBeUndefined();
    expect(basics.audienceName).toBe('All Adults');
    expect(new Set(basics.studies.map((s) => s.code))).toEqual(new Set(['GB', 'DE']));
    expect(basics.queries).toEqual([expect.objectContaining({ resource: 'studies', records: basics.studyRecords.length })]);
    await expect(basics.catalogue).resolves.toMatchObject({ columns: expect.any(Object) });

    await expect(checkMarkets(c, ['GB', 'DE'], basics.studies, undefined)).resolves.toBeUndefined();
    await expect(checkMarkets(c, ['GB', 'UK'], basics.studies, undefined)).rejects.toThrow(/No released study for market UK\. Did you mean GB\?/);

    const before = rowRequests().length;
    const scope = chooseScope(request, basics.studies, { brandNames: basics.brands.map((b) => b.name), studiedByBrands: [] });
    const brandIds = basics.brands.map((b) => b.id);
    const { input, metrics } = await loadRows(c, basics, { markets: ['GB', 'DE'], years: scope.years, audienceId: 1, brandIds, studies: scope.chosen, named: undefined }, { brands: request.refs });
    expect(metrics.groupKeys).toEqual(['pillars']);
    expect(rowRequests().length - before).toBeGreaterThan(0);
    // Only the two brands' rows, of the chosen studies.
    const rows = ('rows' in input.rows ? input.rows.rows() : input.rows) as readonly { brand_id: number; study_id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => brandIds.includes(r.brand_id))).toBe(true);
    expect(new Set(rows.map((r) => r.study_id))).toEqual(new Set(scope.chosen.map((s) => s.id)));
  });

  it('metrics named are checked against the catalogue in the first round; an unknown audience is a usage error', async () => {
    const c = client();
    const named = planRequest({ brands: ['Veros'], markets: ['GB', 'DE'], metrics: ['esteem'], scoreType: 'c' });
    await expect(loadBasics(c, named, { brands: ['Veros'], metrics: ['esteem'], scoreType: 'c' })).resolves.toMatchObject({ named: { columns: ['esteem_c'] } });
    await expect(loadBasics(c, named, { brands: ['Veros'], metrics: ['esteme'] })).rejects.toThrow(/'esteme' is not a metric/);
    const audience = planRequest({ brands: ['Veros'], markets: ['GB', 'DE'], audience: 9999 });
    await expect(loadBasics(c, audience, { brands: ['Veros'], audience: 9999 })).rejects.toThrow(/There is no audience 9999/);
  });

  it('without markets named, the studies the brands are in', async () => {
    const c = client();
    const request = planRequest({ brands: ['Veros'] });
    const basics = await loadBasics(c, request, { brands: ['Veros'] });
    const found = await loadStudiesOfBrands(c, basics.brands, basics.studies, undefined);
    expect(found.studied.length).toBeGreaterThan(0);
    expect(found.query).toMatchObject({ resource: 'brands', records: 1 });
    expect(found.studied.every((s) => basics.studies.some((r) => r.id === s.id))).toBe(true);
  });
});

describe('a usage error in each reader\'s words', () => {
  const caught = async (run: () => Promise<unknown>): Promise<UsageError> => {
    try {
      await run();
    } catch (error) {
      if (error instanceof UsageError) return error;
      throw error;
    }
    throw new Error('nothing was thrown');
  };

  it('a score type that does not fit a column: scoreType for a call, --score-type on the command line, score_type for a tool', async () => {
    const error = await caught(() => compareBrands(client(), { brands: ['Veros'], markets: ['GB', 'DE'], metrics: ['esteem_rank'], scoreType: 'c' }));
    expect(error.message).toBe("scoreType: 'c' does not fit the column esteem_rank (rank). Name the c column instead (esteem_c), or leave scoreType out.");
    expect(error.wordedFor(FLAG_NAMES)).toBe('--score-type c does not fit the column esteem_rank (rank). Name the c column instead (esteem_c), or leave --score-type out.');
    expect(error.wordedFor(PARAMETER_NAMES)).toBe('score_type c does not fit the column esteem_rank (rank). Name the c column instead (esteem_c), or leave score_type out.');
  });

  it('no brands, and an axis that cannot be inferred: brands and markets, never a flag, in a call', async () => {
    const none = await caught(() => compareBrands(client(), { brands: [] }));
    expect(none.message).toBe("No brand to compare. Give brands by id or name, e.g. brands: ['Veros', 'Polora'].");
    expect(none.wordedFor(FLAG_NAMES)).toBe('No brand to compare. Give brands by id or name, e.g. --brands Veros,Polora.');
    const axis = await caught(() => compareBrands(client(), { brands: ['Veros'], markets: ['GB'], years: [2024] }));
    expect(axis.message).not.toContain('--');
    expect(axis.message).toMatch(/Add markets \(markets: \['GB', 'DE', 'FR'\]\) .* or years \(years: \[2021, 2022, 2023, 2024\]\)/);
    expect(axis.wordedFor(FLAG_NAMES)).toMatch(/Add markets \(--markets GB,DE,FR\) .* or years \(--years 2021\.\.2024\)/);
  });
});
