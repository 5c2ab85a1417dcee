/**
 * `brandscape compare` end to end, against an emulator over HTTP (the default dataset, as the
 * in-process emulator and the README use). Expected values are computed here from the service's own
 * rows (raw HTTP, not the comparison code): every output format, name resolution, the inference of
 * --by, --out files read back (the workbook with openpyxl), notes on what had no data, colour, and
 * the examples of the README and of --help.
 */
import { TREND_THRESHOLDS } from '../../src/frames/trend-rule.js';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareHelp } from '../../src/cli/commands/compare.js';
import { run } from '../../src/cli/main.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { list } from '../helpers/http.js';
import { missingTool, readWithOpenpyxl } from '../helpers/independent-reader.js';

const TOKEN = 'compare-SeCrEt-token-71d2e4';
const MARKETS = ['GB', 'DE', 'FR', 'IT', 'ES', 'US'];
const PILLARS = ['differentiation', 'relevance', 'esteem', 'knowledge'];
let emulator: Emulator;
let dir: string;
const outputs: string[] = [];

beforeAll(async () => {
  // The default dataset (seed 1, every brand): the one `brandscape compare` uses without a service.
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
  dir = await mkdtemp(join(tmpdir(), 'bsk-compare-'));
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: readonly string[], options: { env?: Record<string, string | undefined>; tty?: boolean; cwd?: string } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk), ...(options.tty ? { isTTY: true } : {}) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, ...options.env },
    signal: new AbortController().signal,
    cwd: options.cwd ?? dir,
  });
  outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}

// ---------------------------------------------------------------------------------------------
// The service's own rows, read with raw HTTP, and the comparison computed from them here.

interface ApiStudy {
  id: number;
  name: string;
  period: { name: string } | null;
  country: { code: string; name: string };
  year: { year: string | number };
}
interface ApiRow extends Record<string, unknown> {
  brand_id: number;
  study_id: number;
  brand_name: string;
  is_duplicate: boolean;
  brand: { name: string };
}

const isWave = (s: ApiStudy) => /\bQ[1-4]\b/.test(`${s.period?.name ?? ''} ${s.name}`);

async function allPages<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const body = await list<T>(emulator, `${path}&per_page=1000&page=${page}`);
    out.push(...body.data);
    if (page >= body.meta.last_page) return out;
  }
}

async function apiStudies(codes: readonly string[]): Promise<ApiStudy[]> {
  return allPages<ApiStudy>(`/studies?filter[country_codes]=${codes.join(',')}&filter[released]=1&include=country,year`);
}

/** The latest year with a released full-year study in every market. */
async function apiLatest(codes: readonly string[]): Promise<number> {
  const studies = (await apiStudies(codes)).filter((s) => !isWave(s));
  const yearsOf = (code: string) => new Set(studies.filter((s) => s.country.code === code).map((s) => Number(s.year.year)));
  return Math.max(...[...yearsOf(codes[0]!)].filter((y) => codes.every((c) => yearsOf(c).has(y))));
}

/** Full-year rows of brands in markets and years, with the study of each row. */
async function apiRows(codes: readonly string[], years: readonly number[], brands: readonly number[], metricKeys: readonly string[]) {
  const studies = (await apiStudies(codes)).filter((s) => !isWave(s) && years.includes(Number(s.year.year)));
  const rows = await allPages<ApiRow>(
    `/brandscape-data?filter[country_code]=${codes.join(',')}&filter[year_number]=${years.join(',')}&filter[audiences]=1&filter[brands]=${brands.join(',')}&metric_keys=${metricKeys.join(',')}&include=brand`,
  );
  const byId = new Map(studies.map((s) => [s.id, s]));
  // Waves share country and year with the full-year study: the comparison leaves them out.
  return rows.filter((r) => byId.has(r.study_id)).map((r) => ({ ...r, study: byId.get(r.study_id)! }));
}

interface Expected {
  value: number | null;
  local: string;
  global: string;
  nRows: number;
}

/** A brand's value in a study: the mean of its rows that are not marked duplicate (pillars do not vary by category). */
function cellsOf(rows: Awaited<ReturnType<typeof apiRows>>, column: string): Map<string, Expected> {
  const cells = new Map<string, Expected>();
  for (const r of rows) {
    if (r.is_duplicate) continue;
    const key = `${r.brand_id}:${r.study.country.code}:${Number(r.study.year.year)}`;
    const v = (r as Record<string, unknown>)[column];
    const values = typeof v === 'number' ? [v] : [];
    const had = cells.get(key);
    if (had) throw new Error(`two non-duplicate rows for ${key}`);
    cells.set(key, { value: values[0] ?? null, local: r.brand_name, global: r.brand.name, nRows: values.length });
  }
  return cells;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Rank of each value among the others, highest first, ties sharing the better rank. */
const rankOf = (v: number, all: readonly number[]) => 1 + all.filter((x) => x > v).length;
/** A value as the table shows it: half away from zero, to `decimals`. */
const shown = (v: number | null, decimals: number, sign = false) => {
  if (v === null) return '-';
  const r = (Math.sign(v) * Math.round(Math.abs(v) * 10 ** decimals + 1e-9)) / 10 ** decimals;
  const text = Math.abs(r).toFixed(decimals);
  return r < 0 ? `-${text}` : sign && r > 0 ? `+${text}` : text;
};

// ---------------------------------------------------------------------------------------------
// Reading the outputs back.

function parseCsv(text: string): Record<string, string>[] {
  const lines: string[][] = [];
  let field = '';
  let line: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      line.push(field);
      field = '';
    } else if (ch === '\n') {
      line.push(field);
      lines.push(line);
      line = [];
      field = '';
    }
    else field += ch;
  }
  const [header, ...rows] = lines;
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

/** CSV text as JSON values: numbers, null for empty cells, text. */
const typed = (row: Record<string, string>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === '' ? null : /^-?\d+(\.\d+)?(e-?\d+)?$/.test(v) ? Number(v) : v]));

/** The table printed on stdout: header cells and body rows (blank lines between blocks skipped). */
function parseTable(stdout: string): { header: string[]; rows: string[][]; notes: string[] } {
  const lines = stdout.split('\n');
  const dashes = lines.findIndex((l) => /^-+( {2}-+)+$/.test(l));
  const header = lines[dashes - 1]!.trim().split(/ {2,}/);
  const end = lines.findIndex((l, i) => i > dashes && l.startsWith('Notes:'));
  const body = lines.slice(dashes + 1, end < 0 ? undefined : end).filter((l) => l.trim() !== '');
  const notes = end < 0 ? [] : lines.slice(end + 1).filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  return { header, rows: body.map((l) => l.split(/ {2,}/)), notes };
}

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

// ---------------------------------------------------------------------------------------------

describe('brandscape compare across markets: every format holds the service\'s values', () => {
  const BRANDS = ['Veros', 'Polora', 'Corvaton Motors'];
  const IDS = [305, 23, 6];
  const YEAR = 2024;
  const argv = ['compare', '--brands', BRANDS.join(','), '--markets', MARKETS.join(','), '--years', String(YEAR)];
  let rows: Awaited<ReturnType<typeof apiRows>>;
  beforeAll(async () => {
    rows = await apiRows(MARKETS, [YEAR], IDS, PILLARS);
  });

  /** What a long-form record must say for a brand, market and pillar. */
  function expected(id: number, code: string, metric: string) {
    const cells = cellsOf(rows, `${metric}_rank`);
    const present = MARKETS.map((m) => cells.get(`${id}:${m}:${YEAR}`)?.value).filter((v): v is number => v !== null && v !== undefined);
    const cell = cells.get(`${id}:${code}:${YEAR}`);
    const value = cell?.value ?? null;
    const m = present.length > 0 ? mean(present) : null;
    return { cell, value, mean: m, diff: value === null || m === null ? null : value - m, rank: value === null ? null : rankOf(value, present), compared: present.length };
  }

  function checkRecords(records: Record<string, unknown>[]) {
    // Every brand with data x market x pillar: 3 x 6 x 4 (a market without the brand is a null row).
    expect(records).toHaveLength(IDS.length * MARKETS.length * PILLARS.length);
    let values = 0;
    for (const r of records) {
      const e = expected(r['brand_id'] as number, r['country_code'] as string, r['metric'] as string);
      const where = `${String(r['brand_id'])} ${String(r['country_code'])} ${String(r['metric'])}`;
      expect(r['value'], where).toBe(e.value);
      expect(r['column']).toBe(`${String(r['metric'])}_rank`);
      expect(r['year']).toBe(YEAR);
      expect(r['audience_id']).toBe(1);
      expect(r['score_type']).toBe('rank');
      expect(r['global_name']).toBe(rows.find((x) => x.brand_id === r['brand_id'])!.brand.name);
      expect(r['brand_name']).toBe(e.cell?.local ?? r['global_name']);
      expect(r['market_rank']).toBe(e.rank);
      expect(r['markets_compared']).toBe(e.compared);
      expect(r['n_rows']).toBe(e.cell?.nRows ?? 0);
      if (e.mean === null) expect(r['cross_market_mean']).toBeNull();
      else expect(r['cross_market_mean'] as number).toBeCloseTo(e.mean, 10);
      if (e.diff === null) expect(r['diff_from_mean']).toBeNull();
      else expect(r['diff_from_mean'] as number).toBeCloseTo(e.diff, 10);
      if (e.value !== null) values++;
    }
    expect(values).toBeGreaterThan(60);
  }

  it('csv, json and ndjson: the long form at full precision, the same records in each', async () => {
    const [csv, json, ndjson] = await Promise.all([cli([...argv, '--format', 'csv']), cli([...argv, '--format', 'json']), cli([...argv, '--format', 'ndjson'])]);
    for (const r of [csv, json, ndjson]) expect(r.code, r.stderr).toBe(0);
    const fromJson = JSON.parse(json.stdout) as Record<string, unknown>[];
    const fromNdjson = ndjson.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const fromCsv = parseCsv(csv.stdout).map(typed);
    checkRecords(fromJson);
    expect(fromNdjson).toEqual(fromJson);
    expect(fromCsv).toEqual(fromJson);
    // At least the columns the issue names, then the comparison's own.
    expect(csv.stdout.split('\n')[0]!.split(',')).toEqual(
      expect.arrayContaining(['brand_id', 'brand_name', 'country_code', 'market', 'year', 'audience_id', 'metric', 'column', 'value', 'cross_market_mean', 'diff_from_mean', 'market_rank']),
    );
    // Notes go to stderr when stdout carries data.
    expect(csv.stderr).toMatch(/^Note: /m);
  });

  it('table: a row per brand x metric, a column per market as given, then the mean; values rounded, - where missing', async () => {
    const r = await cli(argv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\u001b[');
    const table = parseTable(r.stdout);
    expect(table.header).toEqual(['Brand', 'Metric', ...MARKETS, 'Mean']);
    expect(table.rows).toHaveLength(IDS.length * PILLARS.length);
    for (const row of table.rows) {
      const id = IDS[BRANDS.indexOf(row[0]!)]!;
      const metric = row[1]!.replace(/ \(rank\)$/, '').toLowerCase();
      MARKETS.forEach((code, i) => expect(row[2 + i], `${row[0]} ${metric} ${code}`).toBe(shown(expected(id, code, metric).value, 0)));
      expect(row[2 + MARKETS.length]).toBe(shown(expected(id, MARKETS[0]!, metric).mean, 0));
    }
    // Brands in the order given within each metric.
    expect(table.rows.slice(0, 3).map((x) => x[0])).toEqual(BRANDS);
  });

  it('loads only the brands\' rows of the chosen full-year studies', async () => {
    const before = emulator.requests.length;
    const r = await cli([...argv, '--format', 'json']);
    expect(r.code).toBe(0);
    const requests = emulator.requests.slice(before).filter((q) => q.path === '/api/v2/brandscape-data');
    expect(requests).toHaveLength(1);
    const query = new URLSearchParams(requests[0]!.query);
    const fullYear = (await apiStudies(MARKETS)).filter((s) => !isWave(s) && Number(s.year.year) === YEAR).map((s) => s.id);
    expect(query.get('filter[studies]')!.split(',').map(Number).sort()).toEqual(fullYear.sort());
    expect(query.get('filter[brands]')!.split(',').map(Number).sort()).toEqual([...IDS].sort());
    expect(query.get('filter[audiences]')).toBe('1');
    expect(query.get('metric_group_keys')).toBe('pillars');
  });
});

describe('brandscape compare across years', () => {
  it('csv and table equal the service\'s rows: value, change from the previous year, change over the span, trend', async () => {
    const latest = await apiLatest(['GB', 'US']);
    const years = [latest - 4, latest - 3, latest - 2, latest - 1, latest];
    const csv = await cli(['compare', '--brands', 'veros', '--markets', 'GB,US', '--by', 'year', '--metrics', 'esteem_c', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const records = parseCsv(csv.stdout).map(typed);
    const rows = await apiRows(['GB', 'US'], years, [305], ['esteem']);
    const cells = cellsOf(rows, 'esteem_c');
    expect(records).toHaveLength(2 * years.length);
    for (const code of ['GB', 'US']) {
      const series = years.map((y) => cells.get(`305:${code}:${y}`)?.value ?? null);
      const present = series.filter((v): v is number => v !== null);
      const span = present[present.length - 1]! - present[0]!;
      let previous: number | null = null;
      years.forEach((y, i) => {
        const r = records.find((x) => x['country_code'] === code && x['year'] === y)!;
        const v = series[i]!;
        expect(r['value'], `${code} ${y}`).toBe(v);
        expect(String(r['period'])).toBe(String(y));
        expect(r['column']).toBe('esteem_c');
        if (v === null || previous === null) expect(r['change']).toBeNull();
        else expect(r['change'] as number).toBeCloseTo(v - previous, 10);
        expect(r['change_over_span'] as number).toBeCloseTo(span, 10);
        expect(r['trend']).toBe(span > TREND_THRESHOLDS.c ? 'up' : span < -TREND_THRESHOLDS.c ? 'down' : 'flat');
        if (v !== null) previous = v;
      });
    }

    const table = await cli(['compare', '--brands', 'veros', '--markets', 'GB,US', '--by', 'year', '--metrics', 'esteem_c']);
    const parsed = parseTable(table.stdout);
    expect(parsed.header.slice(0, 3 + years.length)).toEqual(['Brand', 'Market', 'Metric', ...years.map(String)]);
    // The Market column shows names (its rows are in name order); the columns of markets, codes.
    const codeOf: Record<string, string> = { 'United Kingdom': 'GB', 'United States': 'US' };
    expect(parsed.rows.map((row) => row[1])).toEqual(expect.arrayContaining(['United Kingdom', 'United States']));
    for (const row of parsed.rows) {
      const code = codeOf[row[1]!]!;
      years.forEach((y, i) => expect(row[3 + i]).toBe(shown(cells.get(`305:${code}:${y}`)?.value ?? null, 2)));
    }
    // Veros has no GB row in the first of these years: a dash, and a note naming the market and year.
    const gaps = years.filter((y) => !cells.has(`305:GB:${y}`));
    expect(gaps.length).toBeGreaterThan(0);
    expect(parsed.notes.join('\n')).toContain(`No data for Veros in United Kingdom (${gaps.join(', ').replace(/, (\d+)$/, ' and $1')})`);
  });

  it('compares full years only, unless --waves asks for the US quarterly waves', async () => {
    const before = emulator.requests.length;
    const full = await cli(['compare', '--brands', 'Aurica', '--markets', 'US', '--years', '2023,2024', '--metrics', 'esteem', '--format', 'json']);
    expect(full.code, full.stderr).toBe(0);
    expect((JSON.parse(full.stdout) as { period: string }[]).map((r) => r.period)).toEqual(['2023', '2024']);
    const us = (await apiStudies(['US'])).filter((s) => [2023, 2024].includes(Number(s.year.year)));
    const request = emulator.requests.slice(before).find((q) => q.path === '/api/v2/brandscape-data')!;
    expect(new URLSearchParams(request.query).get('filter[studies]')!.split(',').map(Number).sort()).toEqual(us.filter((s) => !isWave(s)).map((s) => s.id).sort());

    const waves = await cli(['compare', '--brands', 'Aurica', '--markets', 'US', '--years', '2023,2024', '--metrics', 'esteem', '--waves', '--format', 'json']);
    expect(waves.code, waves.stderr).toBe(0);
    const records = JSON.parse(waves.stdout) as { period: string; value: number | null }[];
    expect(records.map((r) => r.period)).toEqual(['2023 Q1', '2023 Q2', '2023 Q3', '2023 Q4', '2024 Q1', '2024 Q2', '2024 Q3', '2024 Q4']);
    const waveRows = await allPages<ApiRow>(`/brandscape-data?filter[studies]=${us.filter(isWave).map((s) => s.id).join(',')}&filter[audiences]=1&filter[brands]=10&metric_keys=esteem`);
    for (const r of records) {
      const study = us.find((s) => `${String(s.year.year)} ${s.period?.name ?? ''}` === r.period)!;
      const row = waveRows.find((x) => x.study_id === study.id && !x.is_duplicate);
      expect(r.value, r.period).toBe((row?.['esteem_rank'] as number | undefined) ?? null);
    }
  });
});

describe('defaults', () => {
  it('the latest full year released in every market, the pillars as percentile ranks, All Adults', async () => {
    const r = await cli(['compare', '--brands', 'Veros', '--markets', 'GB,DE,TH', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as { year: number; column: string; audience_id: number; country_code: string }[];
    const latest = await apiLatest(['GB', 'DE', 'TH']);
    expect(new Set(records.map((x) => x.year))).toEqual(new Set([latest]));
    expect([...new Set(records.map((x) => x.column))]).toEqual(PILLARS.map((p) => `${p}_rank`));
    expect(new Set(records.map((x) => x.audience_id))).toEqual(new Set([1]));
    // Thailand's newest study is not released yet: the year is one every market has, and a note says why.
    expect(latest).toBeLessThan(await apiLatest(['GB', 'DE']));
    expect(r.stderr).toMatch(/'latest' is \d{4}, the most recent year released in every market/);
  });

  it('without markets: every market where the brand is studied in the year', async () => {
    const r = await cli(['compare', '--brands', 'Polora', '--years', '2023', '--metrics', 'esteem', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const codes = new Set((JSON.parse(r.stdout) as { country_code: string }[]).map((x) => x.country_code));
    const rows = await allPages<ApiRow & { study: { country: { code: string } } }>(`/brandscape-data?filter[brands]=23&filter[audiences]=1&filter[year_number]=2023&metric_keys=esteem&include=study`);
    const full = rows.filter((x) => !/\bQ[1-4]\b/.test(String((x.study as unknown as { name: string }).name)));
    expect(codes).toEqual(new Set(full.map((x) => x.study.country.code)));
    expect(codes.size).toBeGreaterThan(10);
  });
});

describe('brands by name', () => {
  it('exact, any case, without accents: the same brand', async () => {
    const search = await list<{ id: number; name: string }>(emulator, '/brands?search=Emmo&per_page=50');
    const emmo = search.data.find((b) => b.name === 'Emmo Café')!;
    for (const given of ['Emmo Café', 'emmo café', 'EMMO CAFE', 'emmo cafe', emmo.id.toString()]) {
      const r = await cli(['compare', '--brands', given, '--markets', 'DE,FR', '--metrics', 'esteem', '--format', 'json']);
      expect(r.code, `${given}: ${r.stderr}`).toBe(0);
      expect(new Set((JSON.parse(r.stdout) as { brand_id: number; global_name: string }[]).map((x) => `${x.brand_id} ${x.global_name}`)), given).toEqual(new Set([`${emmo.id} Emmo Café`]));
    }
  });

  it('a name that fits several brands exits 2 and lists them with ids and markets', async () => {
    const r = await cli(['compare', '--brands', 'cafe', '--markets', 'GB,DE']);
    expect(r.code).toBe(2);
    const cafes = (await list<{ id: number; name: string }>(emulator, '/brands?search=cafe&per_page=50')).data;
    expect(cafes.length).toBeGreaterThan(1);
    for (const b of cafes) expect(r.stderr).toContain(`${b.id} ${b.name} (studied in `);
    expect(r.stderr).toMatch(/Give the brand by id, or by its full name/);
    expect(r.stdout).toBe('');
  });

  it('an unknown name exits 2 and suggests the nearest names; an unknown id exits 2', async () => {
    const typo = await cli(['compare', '--brands', 'Verso', '--markets', 'GB,DE']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/No brand is named 'Verso'\. The nearest names: Veros \(305\)/);
    const id = await cli(['compare', '--brands', '999999', '--markets', 'GB,DE']);
    expect(id.code).toBe(2);
    expect(id.stderr).toMatch(/There is no brand with id 999999/);
  });
});

describe('--by: inferred, or a usage error saying what to add', () => {
  const kind = (r: CliResult) => (r.stdout.includes('"period"') ? 'year' : r.stdout.includes('"cross_market_mean"') ? 'market' : `exit ${r.code}: ${r.stderr}`);
  const cases: [string, string[], 'market' | 'year'][] = [
    ['several markets, no year: markets in the latest year', ['--markets', 'GB,DE'], 'market'],
    ['several markets, one year', ['--markets', 'GB,DE', '--years', '2023'], 'market'],
    ['one year, no markets', ['--years', '2023'], 'market'],
    ['no markets, no years', [], 'market'],
    ['one market, no year: the last five years', ['--markets', 'GB'], 'year'],
    ['one market, several years', ['--markets', 'GB', '--years', '2022..2024'], 'year'],
    ['several years, no markets', ['--years', '2023,2024'], 'year'],
    ['several of each with --by year', ['--markets', 'GB,DE', '--years', '2023,2024', '--by', 'year'], 'year'],
    ['--waves means years', ['--markets', 'US,GB', '--waves'], 'year'],
  ];
  for (const [name, extra, by] of cases) {
    it(name, async () => {
      const r = await cli(['compare', '--brands', 'Veros', '--metrics', 'esteem', '--format', 'json', ...extra]);
      expect(kind(r)).toBe(by);
    });
  }

  const errors: [string, string[], RegExp][] = [
    ['one market and one year', ['--markets', 'GB', '--years', '2024'], /One market and one year leave nothing to compare across\. Add markets \(--markets GB,DE,FR\) .* or years \(--years 2021\.\.2024\)/],
    ['several markets and several years', ['--markets', 'GB,DE', '--years', '2023,2024'], /Both several markets \(2\) and several years \(2\).*Add --by year/],
    ['--by market with several years', ['--markets', 'GB,DE', '--years', '2023,2024', '--by', 'market'], /--by market compares markets in one year, but 2 years were given/],
    ['--by market with one market', ['--markets', 'GB', '--by', 'market'], /--by market compares several markets, but one was given/],
    ['--by year with one year', ['--markets', 'GB', '--years', '2024', '--by', 'year'], /--by year compares several years, but one was given/],
    ['--waves across markets', ['--markets', 'US,GB', '--by', 'market', '--waves'], /--waves applies to comparisons across years/],
    ['an unknown --by', ['--markets', 'GB,DE', '--by', 'country'], /--by is market or year, not 'country'/],
  ];
  for (const [name, extra, message] of errors) {
    it(`${name}: exit 2, nothing loaded`, async () => {
      const before = emulator.requests.length;
      const r = await cli(['compare', '--brands', 'Veros', ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(emulator.requests.slice(before).filter((q) => q.path.endsWith('/brandscape-data'))).toHaveLength(0);
    });
  }
});

describe('other usage errors exit 2 before any row is loaded', () => {
  const cases: [string, string[], RegExp][] = [
    ['no --brands', ['--markets', 'GB,DE'], /compare needs --brands/],
    ['a brand as a positional argument', ['Veros'], /compare takes options only, not 'Veros'/],
    ['a market that has no study', ['--markets', 'UK,DE'], /No released study for market UK\. Did you mean GB\?/],
    ['a market name that fits none', ['--markets', 'GB,Germny'], /No market with studies is named 'Germny'\. The nearest names: Germany \(DE\)/],
    ['an audience name that fits several', ['--markets', 'GB,DE', '--audience', 'gen'], /The audience 'gen' could be any of:\n {2}7 Gen Z\n {2}9 Gen X/],
    ['an audience name that fits none', ['--markets', 'GB,DE', '--audience', 'martians'], /No audience is named 'martians'/],
    ['a mistyped metric', ['--markets', 'GB,DE', '--metrics', 'esteme'], /'esteme' is not a metric.*Did you mean esteem\?/],
    ['an unknown group', ['--markets', 'GB,DE', '--metric-groups', 'brand'], /'brand' is not a metric group\. Groups: pillars/],
    ['columns of two score types', ['--markets', 'GB,DE', '--metrics', 'esteem_c,relevance_rank'], /different score types \(c, rank\)/],
    ['a score type a metric lacks', ['--markets', 'GB,DE', '--metrics', 'brand_base'], /Metric 'brand_base' has no percentile rank score.*it has value \(brand_base\).*Choose one of those with --score-type, or name the column in --metrics\./],
    ['a score type against an exact column', ['--markets', 'GB,DE', '--score-type', 'c', '--metrics', 'esteem_rank'], /--score-type c does not fit the column esteem_rank .*or leave --score-type out\./],
    ['an audience that does not exist', ['--markets', 'GB,DE', '--audience', '9999'], /There is no audience 9999/],
    ['a year with no study', ['--markets', 'GB,DE', '--years', '2031'], /No released full-year study of GB and DE in 2031\. Years with studies: 2019–/],
    ['a year range the wrong way round', ['--markets', 'GB', '--years', '2021..latest'], /A range runs between two years/],
    ['an --out extension that says no format', ['--markets', 'GB,DE', '--out', 'pillars.txt'], /the format comes from the extension, and '\.txt' is not one/],
    ['an --out folder that does not exist', ['--markets', 'GB,DE', '--out', 'nowhere/pillars.csv'], /The folder of --out .*nowhere\/pillars\.csv .* does not exist/],
    ['a bad --format', ['--markets', 'GB,DE', '--format', 'xml'], /--format is table, csv, json or ndjson/],
  ];
  for (const [name, extra, message] of cases) {
    it(name, async () => {
      const before = emulator.requests.length;
      const r = await cli(['compare', ...(name === 'no --brands' || extra.includes('Veros') ? [] : ['--brands', 'Veros']), ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(emulator.requests.slice(before).filter((q) => q.path.endsWith('/brandscape-data'))).toHaveLength(0);
    });
  }

  it('a service error exits 3 without the token', async () => {
    const r = await cli(['compare', '--brands', 'Veros', '--markets', 'GB,DE'], { env: { BRANDSCAPE_TOKEN: 'not-the-token-3f9' } });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('not-the-token-3f9');
  });
});

describe('what had no data is noted', () => {
  it('a market whose study is not released yet: an empty column and a note', async () => {
    const r = await cli(['compare', '--brands', 'Veros,Polora', '--markets', 'GB,TH', '--years', '2025', '--metrics', 'esteem']);
    expect(r.code, r.stderr).toBe(0);
    const table = parseTable(r.stdout);
    expect(table.header).toEqual(['Brand', 'Metric', 'GB', 'TH', 'Mean']);
    expect(table.rows.map((row) => row[3])).toEqual(['-', '-']);
    expect(table.notes).toContain('No released full-year study for Thailand in 2025: not released yet, or not studied then.');
  });

  it('a brand not studied in a market: a dash in its row and a note with the brand and the market', async () => {
    const r = await cli(['compare', '--brands', 'Veros,Polora,Corvaton Motors', '--markets', MARKETS.join(','), '--years', '2025', '--metrics', 'esteem']);
    expect(r.code, r.stderr).toBe(0);
    const rows = await apiRows(MARKETS, [2025], [6], ['esteem']);
    const absent = MARKETS.filter((m) => !rows.some((x) => x.study.country.code === m));
    expect(absent).toEqual(['US']);
    const table = parseTable(r.stdout);
    expect(table.rows.find((row) => row[0] === 'Corvaton Motors')![2 + MARKETS.indexOf('US')]).toBe('-');
    expect(table.notes).toContain('No 2025 data for Corvaton Motors in United States.');
  });

  it('a year without any study across years: an empty column and a note', async () => {
    const latest = await apiLatest(['GB']);
    const r = await cli(['compare', '--brands', 'Veros', '--markets', 'GB', '--years', `${latest - 1},${latest},${latest + 1}`, '--metrics', 'esteem']);
    expect(r.code, r.stderr).toBe(0);
    const table = parseTable(r.stdout);
    expect(table.header.slice(3, 6)).toEqual([String(latest - 1), String(latest), String(latest + 1)]);
    expect(table.rows[0]![5]).toBe('-');
    expect(table.notes).toContain(`No released full-year study in ${latest + 1} for United Kingdom.`);
  });

  it('brands none of which has data where asked: exit 2, saying so', async () => {
    const r = await cli(['compare', '--brands', 'Reyos Café', '--markets', 'GB,DE']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Reyos Café has no data in GB and DE in \d{4}/);
  });
});

describe('--out: files by extension, read back', () => {
  const argv = ['compare', '--brands', 'Veros,Polora,Corvaton Motors', '--markets', MARKETS.join(','), '--years', '2024'];
  let folder: string;
  let json: Record<string, unknown>[];
  beforeAll(async () => {
    folder = join(dir, 'out');
    await mkdir(folder);
    const names = ['p.csv', 'p.json', 'p.ndjson', 'p.xlsx', 'p.png', 'p.svg', 'p.html'];
    const r = await cli([...argv, ...names.flatMap((n) => ['--out', join('out', n)]), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    for (const n of names) expect(r.stderr).toContain(`Wrote ${join('out', n)}`);
    json = JSON.parse(r.stdout) as Record<string, unknown>[];
  }, 60_000);

  it('.csv, .json and .ndjson hold the long form printed by --format', async () => {
    expect(JSON.parse(await readFile(join(folder, 'p.json'), 'utf8'))).toEqual(json);
    expect((await readFile(join(folder, 'p.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(json);
    expect(parseCsv(await readFile(join(folder, 'p.csv'), 'utf8')).map(typed)).toEqual(json);
    expect(await readdir(folder)).not.toContainEqual(expect.stringMatching(/partial/));
  });

  it('.xlsx: one sheet with the table at full precision, number formats, colour scales and the chart (openpyxl)', async () => {
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    const sheets = await readWithOpenpyxl(join(folder, 'p.xlsx'));
    expect(sheets).toHaveLength(1);
    const [sheet] = sheets;
    // The table starts at row 4, or under the chart when the chart goes above it (too wide beside).
    const top = Number(/^A(\d+):/.exec(sheet!.tables[0]!.ref)![1]) - 1;
    const header = sheet!.rows[top]!;
    const names = ['United Kingdom', 'Germany', 'France', 'Italy', 'Spain', 'United States'];
    expect(header).toEqual(['Brand', 'Metric', ...names, 'Mean']);
    let checked = 0;
    for (let r = top + 1; r < top + 1 + 12; r++) {
      const row = sheet!.rows[r]!;
      const metric = String(row[1]).replace(/ \(rank\)$/, '').toLowerCase();
      names.forEach((market, i) => {
        const want = json.find((x) => x['global_name'] === row[0] && x['metric'] === metric && x['market'] === market)!;
        expect(row[2 + i] ?? null, `${String(row[0])} ${metric} ${market}`).toBe(want['value']);
        if (want['value'] !== null) {
          expect(sheet!.formats[r]![2 + i]).toBe('0');
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(60);
    expect(sheet!.tables).toHaveLength(1);
    expect(sheet!.conditional_formats.filter((f) => f.type === 'colorScale')).toHaveLength(4);
    expect(sheet!.images).toHaveLength(1);
    const notes = sheet!.rows.flat().filter((c): c is string => typeof c === 'string' && c.startsWith('• '));
    expect(notes.join('\n')).toMatch(/^• No 2024 data for .*Corvaton Motors in United States/m);
  });

  it('.png and .svg: the chart, the PNG at twice the SVG\'s size', async () => {
    const svg = await readFile(join(folder, 'p.svg'), 'utf8');
    expect(svg).toMatch(/^<svg/);
    for (const market of ['United Kingdom', 'Germany', 'Polora', 'Corvaton Motors']) expect(svg.replace(/<[^>]+>/g, ' ')).toContain(market.split(' ')[0]);
    const width = Number(/<svg[^>]*\bwidth="([\d.]+)"/.exec(svg)![1]);
    const height = Number(/<svg[^>]*\bheight="([\d.]+)"/.exec(svg)![1]);
    const png = await readFile(join(folder, 'p.png'));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(pngSize(png)).toEqual({ width: Math.round(width * 2), height: Math.round(height * 2) });
  });

  it('.html: the table and the chart inline, nothing fetched', async () => {
    const html = await readFile(join(folder, 'p.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('Generated');
    expect(html).toContain('by brandscape compare');
    expect(html).toContain('<th scope="col" class="num">United Kingdom</th>');
    expect(html).not.toMatch(/(src|href)="https?:/);
    const veros = json.find((x) => x['global_name'] === 'Veros' && x['metric'] === 'esteem' && x['country_code'] === 'GB')!;
    expect(html).toContain(`title="${String(veros['value'])}"`);
  });

  it('a target that cannot be written stops the command before anything is loaded or written', async () => {
    const folder2 = join(dir, 'out2');
    await mkdir(folder2);
    await mkdir(join(folder2, 'taken.csv'));
    const before = emulator.requests.length;
    const r = await cli([...argv, '--out', join('out2', 'a.xlsx'), '--out', join('out2', 'taken.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*taken\.csv is a folder/);
    expect((await readdir(folder2)).sort()).toEqual(['taken.csv']);
    expect(emulator.requests.slice(before).filter((q) => q.path.endsWith('/brandscape-data'))).toHaveLength(0);
  });
});

describe('colour', () => {
  const argv = ['compare', '--brands', 'Veros,Polora', '--markets', 'GB,DE', '--metrics', 'esteem'];
  it('on a terminal: colour scales as backgrounds, bold header', async () => {
    const r = await cli(argv, { tty: true, env: { NO_COLOR: undefined, COLORTERM: 'truecolor' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\u001b\[48;2;\d+;\d+;\d+m/);
    expect(r.stdout).toContain('\u001b[1m');
  });
  it('NO_COLOR turns it off, as does a pipe; FORCE_COLOR turns it on', async () => {
    const plain = await cli(argv, { tty: true, env: { NO_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\u001b[');
    const piped = await cli(argv, { env: { NO_COLOR: undefined } });
    expect(piped.stdout).not.toContain('\u001b[');
    expect(piped.stdout).toBe(plain.stdout);
    const forced = await cli(argv, { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[48;5;\d+m/);
    // Without the escapes the coloured table is the plain one.
     
    expect(forced.stdout.replace(/\u001b\[[\d;]*m/g, '')).toBe(plain.stdout);
  });
});

/** A command line as a shell splits it: words, with double- or single-quoted parts joined to their word. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('documented examples', () => {
  it('the compare examples of docs/cli.md print what the page shows', async () => {
    const page = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Comparisons from the terminal'), page.indexOf('## Every command'));
    const blocks = [...section.matchAll(/```console\n\$ (.*)\n([\s\S]*?)```/g)];
    expect(blocks).toHaveLength(3);
    const cwd = join(dir, 'readme');
    await mkdir(cwd);
    for (const [, command, output] of blocks) {
      const words = shellWords(command!);
      expect(words.slice(0, 2)).toEqual(['npx', 'brandscape']);
      const r = await cli(words.slice(2), { cwd });
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout, command).toBe(output);
    }
  }, 60_000);

  it('every example of --help runs', async () => {
    const examples = compareHelp
      .slice(compareHelp.indexOf('Examples:'))
      .replace(/\\\n\s+/g, '')
      .split('\n')
      .filter((l) => l.trim().startsWith('brandscape compare'));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const cwd = join(dir, 'help');
    await mkdir(cwd);
    for (const example of examples) {
      const words = shellWords(example.trim().replace(/\s+>\s+\S+$/, ''));
      const r = await cli(words.slice(1), { cwd });
      expect(r.code, `${example}: ${r.stderr}`).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('markets and the audience by name', () => {
  it('--markets by name and --audience by name give what codes and ids give', async () => {
    const byName = await cli(['compare', '--brands', 'Veros', '--markets', 'United Kingdom,germany', '--audience', 'FEMALE', '--metrics', 'esteem', '--format', 'json']);
    const byId = await cli(['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--audience', '2', '--metrics', 'esteem', '--format', 'json']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byId.code).toBe(0);
    expect(byName.stdout).toBe(byId.stdout);
    const records = JSON.parse(byName.stdout) as { country_code: string; audience_id: number }[];
    expect(records.map((r) => r.country_code)).toEqual(['GB', 'DE']);
    expect(new Set(records.map((r) => r.audience_id))).toEqual(new Set([2]));
    const table = await cli(['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--audience', 'female', '--metrics', 'esteem']);
    expect(table.stdout).toMatch(/percentile ranks, Female \(audience 2\)/);
  });
});
