/**
 * The command line end to end: `run(argv, io)` against an emulator over HTTP (and once the built
 * bin in a child process). Exit codes, output formats, files written whole or not at all, usage
 * errors, and no token in any output.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { countText } from '../../src/cli/progress.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';

const TOKEN = 'cli-SeCrEt-token-93ab17';
let emulator: Emulator;
let dir: string;
const outputs: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN] });
  dir = await mkdtemp(join(tmpdir(), 'bsk-cli-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
  // Whatever the CLI printed, in every test: never the token.
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, ...env },
    signal: new AbortController().signal,
    cwd: dir,
  });
  outputs.push(stdout, stderr);
  return { code, stdout, stderr };
}

async function statusServer(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end('{"message":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('brandscape health', () => {
  it('exit 0 when up, with --json on stdout', async () => {
    const plain = await cli(['health']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^up: /);
    const json = await cli(['health', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'up', httpStatus: 200 });
  });

  it('exit 3 when down, exit 4 on a permission problem', async () => {
    const down = await statusServer(503);
    const refusing = await statusServer(401);
    try {
      const d = await cli(['health', '--json'], { BRANDSCAPE_BASE_URL: down.url });
      expect(d.code).toBe(3);
      expect(JSON.parse(d.stdout)).toMatchObject({ status: 'down', httpStatus: 503 });
      const p = await cli(['health'], { BRANDSCAPE_BASE_URL: refusing.url });
      expect(p.code).toBe(4);
      expect(p.stdout).toMatch(/credentials are refused/);
    } finally {
      await down.close();
      await refusing.close();
    }
  });

  it('uses an in-process emulator without BRANDSCAPE_BASE_URL, and says so', async () => {
    const r = await cli(['health'], { BRANDSCAPE_BASE_URL: undefined, BRANDSCAPE_TOKEN: undefined });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/BRANDSCAPE_BASE_URL is not set; using an in-process emulator/);
  }, 60_000);
});

describe('brandscape fetch', () => {
  it('json (default) on stdout: every record, progress and a summary on stderr', async () => {
    const r = await cli(['fetch', 'brands', '--per-page', '50', '--include', 'sector']);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as { id: number; sector: { id: number } }[];
    expect(records).toHaveLength(300);
    expect(records[0]?.sector.id).toEqual(expect.any(Number));
    expect(r.stderr).toMatch(/Fetched 300 records of brands in 6 pages/);
  });

  it('ndjson, filters and sort', async () => {
    const r = await cli(['fetch', 'brands', '--format', 'ndjson', '--filter', 'is_core=1', '--sort=-name', '--fields', 'id,name,is_core']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; is_core: boolean });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.is_core)).toBe(true);
    expect(Object.keys(lines[0] ?? {}).sort()).toEqual(['id', 'is_core', 'name']);
  });

  it('csv into a file (format from the extension), brandscape data with metric groups and includes', async () => {
    const out = join(dir, 'uk.csv');
    const r = await cli(['fetch', 'brandscape-data', '--filter', 'country_code=GB', '--filter', 'year_number=2024', '--filter', 'audiences=1', '--metric-group-keys', 'pillars', '--include', 'brand,sector', '--out', out]);
    expect(r.code).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    const header = lines[0]?.split(',') ?? [];
    // toTable's names (docs/columns.md): the same columns as the Parquet file and the frames.
    expect(header).toEqual(expect.arrayContaining(['id', 'brand_name', 'global_name', 'sector_name', 'differentiation_rank']));
    expect(header.some((h) => h.includes('.'))).toBe(false);
    // The market and year beside their ids: country code and calendar year on every row.
    expect(header.indexOf('country_code')).toBe(header.indexOf('country_id') + 1);
    expect(header.indexOf('year')).toBe(header.indexOf('year_id') + 1);
    const code = header.indexOf('country_code');
    const year = header.indexOf('year');
    // (Lines with quoted text, which may hold commas, are left to the other checks.)
    for (const line of lines.slice(1).filter((l) => !l.includes('"'))) {
      const cells = line.split(',');
      expect(cells[code]).toBe('GB');
      expect(cells[year]).toBe('2024');
    }
    expect(lines.length - 1).toBe(Number(/Fetched (\d+)/.exec(r.stderr)?.[1]));
    expect(r.stderr).toMatch(/into .*uk\.csv/);
  });

  it('one page is "1 page", one record "1 record"', async () => {
    const r = await cli(['fetch', 'brands', '--per-page', '1', '--max-pages', '1', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Fetched 1 record of brands in 1 page \(/);
    expect(r.stderr).not.toMatch(/\b1 (pages|records)\b/);
  });

  it("a study's brands by path, and --max-pages says the output is incomplete", async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const r = await cli(['fetch', `studies/${study}/brands`, '--per-page', '5', '--max-pages', '2', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(10);
    expect(r.stderr).toMatch(/stopped at --max-pages: 10 of \d+; the output is incomplete/);
  });

  it('a failed load exits 3 and leaves no file, not even a partial one', async () => {
    const out = join(dir, 'failed.json');
    emulator.faults.add({ path: '/brands', nth: 3, kind: 404 });
    const r = await cli(['fetch', 'brands', '--per-page', '20', '--concurrency', '1', '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/brandscape fetch: Loading stopped: page 3 of 15 failed/);
    expect(existsSync(out)).toBe(false);
    expect((await readdir(dir)).filter((f) => f.includes('failed'))).toEqual([]);
  });

  it('a file is loaded again when the data changes during the load; stdout cannot be, and fails', async () => {
    const { createDataset } = await import('../../src/emulator/index.js');
    const changing = await startEmulator({ dataset: createDataset({ seed: 14, brands: 300 }), latencyMs: 40, tokens: [TOKEN] });
    try {
      const released = changing.dataset.studies.filter((s) => s.released).length;
      const out = join(dir, 'studies.ndjson');
      const args = ['fetch', 'studies', '--filter', 'released=1', '--per-page', '10', '--concurrency', '1'];
      setTimeout(() => void changing.publish({ kind: 'study' }), 300);
      const toFile = await cli([...args, '--out', out], { BRANDSCAPE_BASE_URL: changing.url });
      expect(toFile.code).toBe(0);
      expect(toFile.stderr).toMatch(/data changed while loading.*Loading again/);
      expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(released + 1);
      setTimeout(() => void changing.publish({ kind: 'study' }), 300);
      const toStdout = await cli(args, { BRANDSCAPE_BASE_URL: changing.url });
      expect(toStdout.code).toBe(3);
      expect(toStdout.stderr).toMatch(/The data changed while loading/);
    } finally {
      await changing.close();
    }
  });

  it('service errors exit 3: a wrong token', async () => {
    const r = await cli(['fetch', 'years'], { BRANDSCAPE_TOKEN: 'not-the-token-xyz' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/answered 401/);
    expect(r.stderr).not.toContain('not-the-token-xyz');
  });
});

describe('countText', () => {
  it('writes counts as toLocaleString("en") does, without loading ICU', () => {
    for (const n of [0, 7, 999, 1000, 32402, 1234567, -1234567, Number.MAX_SAFE_INTEGER, 12.5, -0.25]) expect(countText(n), String(n)).toBe(n.toLocaleString('en'));
  });
});

describe('usage errors exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['no command', [], /Usage: brandscape <command>/],
    ['unknown command', ['fetchh'], /unknown command 'fetchh'/],
    ['unknown resource', ['fetch', 'brandz'], /Unknown resource 'brandz'/],
    ['no resource', ['fetch'], /fetch takes one resource name/],
    ['unknown filter', ['fetch', 'brands', '--filter', 'colour=red'], /'colour' is not a filter of brands/],
    ['malformed filter', ['fetch', 'brands', '--filter', 'colour'], /--filter takes KEY=VALUE/],
    ['search where unsupported', ['fetch', 'cities', '--search', 'paris'], /does not support --search/],
    ['not a number', ['fetch', 'brands', '--per-page', 'many'], /--per-page expects an integer >= 1/],
    ['unknown option', ['fetch', 'brands', '--colour'], /Unknown option '--colour'/],
    ['unknown include', ['fetch', 'brands', '--include', 'colour'], /'colour' is not an include of brands/],
    ['bad format', ['fetch', 'brands', '--format', 'xml'], /--format is json, ndjson, csv or parquet, not 'xml'/],
    ['brandscape without a qualifying filter', ['fetch', 'brandscape-data', '--filter', 'audiences=1'], /qualifying filter combination/],
    ['unknown health option', ['health', '--verbos'], /Unknown option '--verbos'/],
    ['a dash value without =', ['fetch', 'brands', '--sort', '-name'], /Use '--sort=-XYZ'|--sort=-XYZ/],
  ];
  for (const [name, argv, message] of cases) {
    it(name, async () => {
      const r = await cli(argv);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(message);
    });
  }
});

describe('the built bin', () => {
  const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
  it.skipIf(!existsSync(bin))('runs as a process: health --json and fetch, with exit codes', async () => {
    const exec = (args: string[], env: Record<string, string>) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [bin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
          outputs.push(stdout, stderr);
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
        });
      });
    const env = { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN };
    const health = await exec(['health', '--json'], env);
    expect(health.code).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({ status: 'up' });
    const fetched = await exec(['fetch', 'regions', '--format', 'ndjson'], env);
    expect(fetched.code).toBe(0);
    expect(fetched.stdout.trim().split('\n').length).toBe(emulator.dataset.regions.length);
    const usage = await exec(['fetch', 'nothing'], env);
    expect(usage.code).toBe(2);
  });

  it.skipIf(!existsSync(bin) || !existsSync('/dev/full'))('standard output that cannot be written (a full device): exit 1 and a message, no stack trace', async () => {
    const { spawn } = await import('node:child_process');
    const { openSync, closeSync } = await import('node:fs');
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [bin, 'fetch', 'regions', '--format', 'csv'], { env: { ...process.env, BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN }, stdio: ['ignore', full, 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(/brandscape: the output could not be written to standard output \(ENOSPC: no space left on device/);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      closeSync(full);
    }
  });

  it.skipIf(!existsSync(bin))('a setting the client refuses, with no service configured: exit 2 at once (the embedded emulator does not keep the process alive)', async () => {
    const started = Date.now();
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'health'], { env: { ...process.env, BRANDSCAPE_BASE_URL: '', BRANDSCAPE_API_VERSION: 'v9' }, timeout: 20_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/BRANDSCAPE_API_VERSION must be 'v1' or 'v2', not 'v9'/);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
