/**
 * The built CLI loads only what a command needs: `--version` and `--help` nothing but the CLI's
 * own entry files (and the version); `fetch` against a configured service the client side of the
 * toolkit (`brandscape-kit/client`) and no module of the emulator. Checked on the files a real
 * process loads (a loader hook logs them): the CLI is bundled (scripts/bundle-cli.mjs), so each chunk
 * it loads stands for the modules esbuild put in it (its metafile, dist/cli/bundle-meta.json).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'dist/cli/bin.js');
const hook = join(root, 'test/helpers/module-log.mjs');

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator();
  dir = await mkdtemp(join(tmpdir(), 'bsk-modules-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

interface BundleMeta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** The modules in each file of the bundled CLI, by the file's path from the package root. */
async function bundleContents(): Promise<Map<string, string[]>> {
  const meta = JSON.parse(await readFile(join(root, 'dist/cli/bundle-meta.json'), 'utf8')) as BundleMeta;
  return new Map(Object.entries(meta.outputs).map(([output, { inputs }]) => [output, Object.keys(inputs)]));
}

/**
 * Runs the bin; returns its exit code, the toolkit's modules it loaded (paths under dist/, as tsc
 * wrote them) and every module it loaded (absolute paths; bundled packages as their files).
 */
async function modulesOf(args: string[], env: Record<string, string> = {}) {
  const log = join(dir, `${Math.random().toString(36).slice(2)}.log`);
  const code = await new Promise<number>((resolve) => {
    execFile(process.execPath, ['--import', hook, bin, ...args], { env: { ...process.env, ...env, BSK_MODULE_LOG: log } }, (error) => resolve(error ? Number(error.code ?? 1) : 0));
  });
  const loaded = existsSync(log) ? (await readFile(log, 'utf8')).trim().split('\n') : [];
  const contents = await bundleContents();
  const all = loaded.flatMap((url) => {
    const path = url.startsWith('file:') ? fileURLToPath(url) : url;
    const inside = path.startsWith(root) ? contents.get(relative(root, path).split(sep).join('/')) : undefined;
    return inside ? inside.map((input) => join(root, input)) : [path];
  });
  const dist = all
    .filter((p) => p.startsWith(join(root, 'dist') + sep))
    .map((p) => relative(join(root, 'dist'), p).split(sep).join('/'))
    // tsc's bin.js, which the bundle step keeps as bin.entry.js to bundle from.
    .map((m) => (m === 'cli/bin.entry.js' ? 'cli/bin.js' : m));
  return { code, dist, all };
}

describe.skipIf(!existsSync(bin))('what the built CLI loads', () => {
  it('--version and --help: only the CLI entry files', async () => {
    for (const args of [['--version'], ['--help']]) {
      const { code, dist } = await modulesOf(args);
      expect(code).toBe(0);
      expect(dist.sort()).toEqual(['cli/bin.js', 'cli/io.js', 'cli/main.js', 'package-root.js', 'version.js']);
    }
  });

  it('fetch against a configured service: the client side and the file writer only, no module of the emulator, frames, charts or reports', async () => {
    const { code, dist } = await modulesOf(['fetch', 'regions', '--format', 'ndjson', '--out', join(dir, 'regions.ndjson')], {
      BRANDSCAPE_BASE_URL: emulator.url,
      BRANDSCAPE_TOKEN: emulator.token,
    });
    expect(code).toBe(0);
    expect(dist).toContain('client/index.js');
    expect(dist).toContain('cli/commands/fetch.js');
    expect(dist).not.toContain('index.js');
    // The output file writer and its path checks (io/); nothing else of files or reports.
    expect(dist.filter((m) => /^(emulator|frames|charts|report|io)\//.test(m) && !['io/atomic-file.js', 'io/output-path.js'].includes(m))).toEqual([]);
    expect(dist.filter((m) => m.startsWith('cli/commands/') && m !== 'cli/commands/fetch.js')).toEqual([]);
  });

  it('compare loads its own entry point, and the Parquet libraries only when it writes Parquet', async () => {
    // The default world, where the README's brands are.
    const full = await startEmulator({ seed: 1 });
    const env = { BRANDSCAPE_BASE_URL: full.url, BRANDSCAPE_TOKEN: full.token };
    const table = await modulesOf(['compare', '--brands', 'Veros', '--markets', 'GB,DE'], env);
    expect(table.code).toBe(0);
    expect(table.all.filter((u) => u.includes('/node_modules/hyparquet'))).toEqual([]);
    // A table on stdout needs brandscape-kit/compare, not the whole package (notebook, webhooks, writers).
    expect(table.all.filter((u) => !u.includes('/node_modules/') && u.endsWith('/dist/index.js'))).toEqual([]);
    expect(table.dist).toContain('compare/index.js');
    // Nor the chart builders, the report builder or the template reader (with its YAML parser):
    // those are for files that draw (--out .png/.svg/.html/.xlsx). The chart theme's constants and
    // the heat scale's rules (two leaves) are fine: the terminal table colours its cells as the
    // heatmap does.
    expect(table.dist.filter((m) => (m.startsWith('charts/') && !['charts/chart-theme.js', 'charts/heat-scale.js'].includes(m)) || ['compare/comparison-report.js', 'report/build-report.js', 'report/template/resolve-template.js'].includes(m))).toEqual([]);
    expect(table.all.filter((u) => u.includes('/node_modules/yaml/'))).toEqual([]);
    const drawn = await modulesOf(['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--out', join(dir, 'cmp.svg')], env);
    expect(drawn.code).toBe(0);
    expect(drawn.dist).toContain('compare/comparison-report.js');
    expect(drawn.dist).toContain('charts/cross-market-bars.js');
    const parquet = await modulesOf(['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--out', join(dir, 'cmp.parquet')], env);
    expect(parquet.code).toBe(0);
    expect(parquet.all.some((u) => u.includes('/node_modules/hyparquet-writer/'))).toBe(true);
    await full.close();
  }, 60_000);

  it('fetch without a service: the emulator is loaded, because it is started', async () => {
    const { code, dist } = await modulesOf(['fetch', 'regions', '--format', 'ndjson', '--out', join(dir, 'emulated.ndjson')], { BRANDSCAPE_BASE_URL: '' });
    expect(code).toBe(0);
    expect(dist).toContain('emulator/index.js');
  }, 60_000);
});
