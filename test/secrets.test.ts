/**
 * The token never leaks (issue 13): every command that succeeds — fetch in each format, health,
 * templates, report (workbook and HTML), compare (table, csv, workbook, HTML, chart) — run with a
 * distinctive token from the environment, from `.env` and with `--verbose`, and the library with an
 * on-disk cache and an event log. Everything printed, and every file written (workbooks unzipped),
 * is searched for the token. The failing paths are searched by the bad-input catalogue.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { createClient } from '../src/client/create-client.js';
import { createEmulator, type Emulator } from '../src/emulator/index.js';

const TOKEN = 'LEAKSCAN-4d2b-SeCrEt-e81f';
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
  dir = await mkdtemp(join(tmpdir(), 'bsk-secrets-'));
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every file under `root`, as text; a zip (xlsx) contributes each of its entries. */
async function textsUnder(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true })) {
    const path = join(root, entry);
    if (!(await stat(path)).isFile()) continue;
    const bytes = await readFile(path);
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
      for (const [name, data] of Object.entries(unzipSync(bytes))) out.set(`${entry}!${name}`, strFromU8(data, true));
    } else {
      out.set(entry, bytes.toString('utf8'));
    }
  }
  return out;
}

async function cli(argv: string[], options: { env?: Record<string, string | undefined>; cwd: string }) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, ...options.env },
    signal: new AbortController().signal,
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}

const COMMANDS: { name: string; argv: string[] }[] = [
  { name: 'health', argv: ['health', '--verbose'] },
  { name: 'fetch to stdout, verbose', argv: ['fetch', 'years', '--verbose'] },
  { name: 'fetch json', argv: ['fetch', 'brands', '--filter', 'country_codes=GB', '--include', 'sector', '--out', 'gb.json'] },
  { name: 'fetch csv', argv: ['fetch', 'studies', '--format', 'csv', '--out', 'studies.csv'] },
  { name: 'fetch ndjson of brandscape data', argv: ['fetch', 'brandscape-data', '--filter', 'studies=381', '--filter', 'audiences=1', '--metric-group-keys', 'pillars', '--out', 'bd.ndjson'] },
  { name: 'templates list', argv: ['templates', 'list'] },
  { name: 'report (workbook and HTML)', argv: ['report', 'cross-market-brand-health', '--out', 'reports', '--verbose'] },
  { name: 'compare table', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE,FR'] },
  { name: 'compare csv', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE,FR', '--format', 'csv', '--out', 'cmp.csv'] },
  { name: 'compare workbook', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE,FR', '--out', 'cmp.xlsx'] },
  { name: 'compare HTML', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE,FR', '--out', 'cmp.html'] },
  { name: 'compare by year, SVG chart', argv: ['compare', '--brands', 'Veros', '--markets', 'US', '--by', 'year', '--out', 'cmp.svg'] },
];

describe('the token appears in nothing a command prints or writes', () => {
  it.each([
    { how: 'from the environment', env: {}, dotEnv: false },
    { how: 'from .env, with spaces around it', env: { BRANDSCAPE_TOKEN: undefined }, dotEnv: true },
  ])('every command, token $how', async ({ env, dotEnv }) => {
    const cwd = await mkdtemp(join(dir, 'run-'));
    await mkdir(join(cwd, 'reports'));
    if (dotEnv) await writeFile(join(cwd, '.env'), `BRANDSCAPE_TOKEN="  ${TOKEN}  "\n`);
    const printed: string[] = [];
    for (const command of COMMANDS) {
      const r = await cli(command.argv, { env, cwd });
      expect(r.code, `${command.name}: ${r.stderr}`).toBe(0);
      printed.push(r.stdout, r.stderr);
    }
    // The commands did their work: data and reports were written, and verbose traces were printed.
    const files = await textsUnder(cwd);
    const names = [...files.keys()];
    for (const wanted of ['gb.json', 'studies.csv', 'bd.ndjson', 'cmp.csv', 'cmp.html', 'cmp.svg']) expect(names).toContain(wanted);
    expect(names.some((n) => /^reports\/.*\.xlsx!xl\/worksheets\/sheet\d+\.xml$/.test(n))).toBe(true);
    expect(names.some((n) => /^reports\/.*\.html$/.test(n))).toBe(true);
    expect(names.some((n) => n.startsWith('cmp.xlsx!xl/'))).toBe(true);
    expect(printed.join('\n')).toMatch(/GET .*\/years/);
    // The masked form is what a trace shows of the credentials, if anything.
    for (const text of printed) expect(text).not.toContain(TOKEN);
    for (const [name, text] of files) {
      if (name === '.env') continue;
      expect(text, name).not.toContain(TOKEN);
    }
  }, 180_000);

  it('the library: an event log, an on-disk cache and errors', async () => {
    const cacheDir = await mkdtemp(join(dir, 'cache-'));
    const events: string[] = [];
    const client = createClient({
      baseUrl: emulator.url,
      token: ` ${TOKEN}\n`,
      cache: { dir: cacheDir, ttlMs: 60_000 },
      onEvent: (event) => events.push(JSON.stringify(event)),
      env: {},
    });
    const brands = await client.brands.all({ perPage: 500 });
    const again = await client.brands.all({ perPage: 500 });
    expect(again).toEqual(brands);
    const problems: string[] = [];
    await client.brands.get(999_999).catch((error: Error) => problems.push(`${error.message}\n${error.stack}`));
    await client.brandscape.page({ filter: { studies: 999_999 } }).catch((error: Error) => problems.push(String(error)));
    expect(problems).toHaveLength(1);
    const cached = await textsUnder(cacheDir);
    expect(cached.size).toBeGreaterThan(0);
    expect(events.length).toBeGreaterThan(0);
    for (const text of [...events, ...problems, ...cached.values(), ...cached.keys()]) expect(text).not.toContain(TOKEN);
  }, 60_000);
});
