/**
 * The discovery commands end to end (`brandscape markets`, `years`, `studies`, `audiences`,
 * `metrics`) against an emulator over HTTP: each table checked against the service's own records
 * read with raw HTTP, in every format; usage errors exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';
import { listAll } from '../helpers/http.js';

const TOKEN = 'discover-SeCrEt-token-51c9';
let emulator: Emulator;
const outputs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN] });
});
afterAll(async () => {
  await emulator.close();
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

async function cli(argv: string[]) {
  const result = await runCli(argv, { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN });
  outputs.push(result.stdout, result.stderr);
  return result;
}

interface ApiStudy {
  id: number;
  name: string;
  period: { name: string } | null;
  country: { code: string; name: string; region: { name: string } | null };
  year: { year: string };
}

/** Every page of a list, read with raw HTTP. */
const all = <T>(path: string) => listAll<T>(emulator, path);

/** The released studies. */
const released = () => all<ApiStudy>('/studies?filter[released]=1&include=country,year');
const isWave = (s: ApiStudy) => /\bQ[1-4]\b/.test(s.period?.name ?? '') || /\bQ[1-4]\b/.test(s.name);

describe('brandscape markets', () => {
  it('lists every market with released studies, with its region and full-year years', async () => {
    const studies = await released();
    const r = await cli(['markets', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { code: string; name: string; region: string; years: string; latest_year: number; studies: number; waves: number }[];
    expect(rows.map((m) => m.code).sort()).toEqual([...new Set(studies.map((s) => s.country.code))].sort());
    for (const m of rows) {
      const own = studies.filter((s) => s.country.code === m.code);
      const years = [...new Set(own.filter((s) => !isWave(s)).map((s) => Number(s.year.year)))].sort((a, b) => a - b);
      expect(m.name).toBe(own[0]!.country.name);
      expect(m.region).toBe(own[0]!.country.region?.name);
      expect(m.years).toBe(years.join(', '));
      expect(m.latest_year).toBe(years.at(-1));
      expect(m.studies).toBe(own.filter((s) => !isWave(s)).length);
      expect(m.waves).toBe(own.filter(isWave).length);
    }
    expect(rows.find((m) => m.code === 'US')!.waves).toBeGreaterThan(0);
  });

  it('prints an aligned table with every row by default, and CSV with a header', async () => {
    const table = await cli(['markets']);
    const csv = await cli(['markets', '--format', 'csv']);
    const count = csv.stdout.trim().split('\n').length - 1;
    expect(table.stdout).toMatch(new RegExp(`^loadMarkets: ${count} rows × 8 columns\\ncode +name +region +years`));
    expect(table.stdout).not.toMatch(/more rows/);
    expect(table.stdout).toMatch(/\nGB +United Kingdom +Europe +2019, /);
    expect(csv.stdout.split('\n')[0]).toBe('code,name,region,years,first_year,latest_year,studies,waves');
  });
});

describe('brandscape years and studies', () => {
  it('years --markets: per year, the markets with a full-year study and whether all have one', async () => {
    const studies = await released();
    const r = await cli(['years', '--markets', 'GB,Germany,US', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { year: number; markets: number; codes: string; missing: string; in_every_market: boolean; waves: number }[];
    const years = [...new Set(studies.filter((s) => ['GB', 'DE', 'US'].includes(s.country.code)).map((s) => Number(s.year.year)))].sort((a, b) => b - a);
    expect(rows.map((y) => y.year)).toEqual(years);
    for (const y of rows) {
      const codes = [...new Set(studies.filter((s) => Number(s.year.year) === y.year && !isWave(s) && ['GB', 'DE', 'US'].includes(s.country.code)).map((s) => s.country.code))].sort();
      expect(y.codes).toBe(codes.join(', '));
      expect(y.in_every_market).toBe(codes.length === 3);
      expect(y.waves).toBe(studies.filter((s) => Number(s.year.year) === y.year && isWave(s) && s.country.code === 'US').length);
    }
  });

  it('studies --markets --years: the released studies, waves with their quarter; --full-year leaves them out', async () => {
    const studies = await released();
    const r = await cli(['studies', '--markets', 'GB,US', '--years', '2023..2024', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { id: number; code: string; year: number; period: string; full_year: boolean }[];
    const expected = studies.filter((s) => ['GB', 'US'].includes(s.country.code) && [2023, 2024].includes(Number(s.year.year)));
    expect(rows.map((s) => s.id).sort((a, b) => a - b)).toEqual(expected.map((s) => s.id).sort((a, b) => a - b));
    expect(rows.filter((s) => !s.full_year).every((s) => s.code === 'US' && /^\d{4} Q[1-4]$/.test(s.period))).toBe(true);
    const full = await cli(['studies', '--markets', 'GB,US', '--years', '2023..2024', '--full-year', '--format', 'csv']);
    expect(full.stdout.trim().split('\n')).toHaveLength(1 + expected.filter((s) => !isWave(s)).length);
  });
});

describe('brandscape audiences and metrics', () => {
  it('audiences: id and name of the active BAV audiences, All Adults first', async () => {
    const audiences = await all<{ id: number; name: string; is_active: boolean; available_for_bav: boolean }>('/audiences');
    const r = await cli(['audiences', '--format', 'json']);
    const rows = JSON.parse(r.stdout) as { id: number; name: string }[];
    expect(rows.map((a) => a.id)).toEqual(audiences.filter((a) => a.is_active && a.available_for_bav).map((a) => a.id).sort((a, b) => a - b));
    expect(rows[0]).toMatchObject({ id: 1, name: 'All Adults' });
    const table = await cli(['audiences']);
    expect(table.stdout).toMatch(/\n +1 +All Adults +Everyone surveyed/);
  });

  it('metrics: each key with its name, groups, score types and columns, as the catalogue says', async () => {
    const metrics = await all<{ id: number; name: string; brandscape_data_columns: string[] }>('/brand-metrics');
    const r = await cli(['metrics', '--groups', 'pillars', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { key: string; name: string; groups: string; score_types: string; columns: string }[];
    expect(rows.map((m) => m.key)).toEqual(['differentiation', 'relevance', 'esteem', 'knowledge']);
    const esteem = rows.find((m) => m.key === 'esteem')!;
    const record = metrics.find((m) => m.name === 'Esteem')!;
    expect(esteem).toMatchObject({ name: 'Esteem', groups: 'pillars', columns: record.brandscape_data_columns.join(', ') });
    expect(esteem.score_types.split(', ')).toEqual(expect.arrayContaining(['c', 'rank']));
    const table = await cli(['metrics']);
    expect(table.stdout).toMatch(/\nesteem +Esteem +pillars +c, rank, .*esteem_c, esteem_rank/);
    expect(table.stdout).toMatch(/\nbrand_stature +Brand Stature +power_grid/);
  });
});

describe('help and usage errors', () => {
  it.each(['markets', 'years', 'studies', 'audiences', 'metrics'])('%s --help shows the usage and examples', async (name) => {
    const r = await cli([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: brandscape ${name}`));
    expect(r.stdout).toMatch(/\nExamples:\n {2}brandscape /);
  });

  it.each([
    [['markets', '--format', 'xml'], /--format is table, csv or json, not 'xml'/],
    [['years', '--markets', 'Narnia'], /No market with studies is named 'Narnia'/],
    [['studies', '--years', 'last'], /--years takes calendar years/],
    [['metrics', '--groups', 'pilars'], /'pilars' is not a metric group\. Groups: pillars/],
    [['audiences', '--bogus'], /Unknown option '--bogus'/],
  ])('%j exits 2', async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
