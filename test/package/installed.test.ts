/**
 * The package as a user installs it: `npm pack` of this checkout, installed into fresh projects
 * outside the repository, with nothing of the repository's (no overrides, no node_modules link).
 *
 * 1. A plain project (`npm install brandscape-kit`): installs from the npm registry alone, quietly,
 *    with no install script, within the 120 MB budget; a strict TypeScript program with the
 *    compiler's defaults (`skipLibCheck: false`) compiles under NodeNext, Bundler and the old node
 *    resolution tslab uses, and runs against the embedded emulator (brandscape data, a cross-market
 *    comparison, a chart to PNG, a report workbook read back by openpyxl); `toDanfo()` without
 *    danfojs-node fails with the install step; stack frames name files the package ships.
 * 2. A project made by `brandscape init` (danfojs-node and tslab with their overrides): installs,
 *    compiles, gives DataFrames, registers its kernel as its README says, executes its notebook
 *    with nbconvert (a chart with the Vega-Lite 5 spec and a PNG), and `npm run report` writes a
 *    workbook and an HTML file.
 *
 * Both projects install through the same npm cache (the one `npm ci` filled), offline first.
 * Without Jupyter or openpyxl those steps skip and say why; with CI=true they fail instead.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingTool, readWithOpenpyxl } from '../helpers/independent-reader.js';
// @ts-expect-error: a plain .mjs helper without declarations
import { findJupyter } from '../helpers/notebooks.mjs';
// @ts-expect-error: a plain .mjs helper (also used by the install benchmark), without declarations
import { CORE_BUDGET_BYTES as BUDGET, installedSize as measure } from '../helpers/installed-size.mjs';

const CORE_BUDGET_BYTES = BUDGET as number;
const installedSize = measure as (nodeModules: string) => { bytes: number; packages: number; largest: [string, number][] };

const ROOT = join(import.meta.dirname, '..', '..');
const MINUTES = 60_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user's shell: none of the `npm test` run's own npm settings. */
const userEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && !key.startsWith('BRANDSCAPE_') && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS'),
);

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv, timeout = 10 * MINUTES): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error && typeof error.code !== 'number' ? `${error.name}: ${error.message}` : '') });
    });
  });
}

/** A TCP port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

const npm = (args: string[], cwd: string, env?: NodeJS.ProcessEnv) => sh('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], cwd, env);

/** Every `resolved` address in a lockfile that is not under the registry (a local tarball is the package itself). */
function offRegistry(lockfile: string, registry: string): string[] {
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, { resolved?: string; link?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.resolved !== undefined && !p.resolved.startsWith(registry) && !p.resolved.startsWith('file:'))
    .map(([path, p]) => `${path}: ${p.resolved}`);
}

/** Packages of a lockfile that have an install script (npm records `hasInstallScript`). */
function withInstallScripts(lockfile: string): string[] {
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript === true)
    .map(([path]) => path);
}

/** The program a user writes: everything the toolkit is for, against the embedded emulator. */
const PROGRAM = `
import { writeFile } from 'node:fs/promises';
import { brandscapeTable, createClient, crossMarket, crossMarketHeatmap, loadComparisonInput, loadTemplate, renderPng, runReport } from 'brandscape-kit';
import { createEmulator } from 'brandscape-kit/emulator';
import { TOOLKIT_MCP_TOOLS } from 'brandscape-kit/mcp';

const emulator = await createEmulator({ port: 0 });
try {
  const client = createClient({ baseUrl: emulator.url, token: emulator.token });
  const uk = await brandscapeTable(client, { filter: { country_code: 'GB', year_number: 2024, audiences: 1 }, metricGroupKeys: ['pillars'], include: ['brand'] });
  const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE', 'FR'], years: [2024], metricKeys: ['esteem'] });
  const markets = crossMarket(input, { year: 2024, metrics: ['esteem'] });
  const png = await renderPng(crossMarketHeatmap(markets.head(30).rows()), { scale: 1 });
  await writeFile('heatmap.png', png);
  const report = await runReport(client, await loadTemplate('cross-market-brand-health'), { outDir: 'out', parameters: { markets: 'GB,DE', year: '2024' }, formats: ['xlsx'] });
  const distinctMarkets: number = new Set(markets.rows().map((r) => r.country_code)).size;
  console.log(JSON.stringify({ ukRows: uk.length, ukColumns: uk.columnNames, comparisonRows: markets.length, markets: distinctMarkets, pngBytes: png.length, files: report.files, mcpTools: TOOLKIT_MCP_TOOLS.length }));
} finally {
  await emulator.close();
}
`;

/** Compiler settings a user would have: the defaults (skipLibCheck false) plus strict. */
const TSCONFIGS: Record<string, object> = {
  // A Node.js project: no DOM library (vega-lite's own types need it: the package's types must not reach them).
  nodenext: { compilerOptions: { strict: true, target: 'es2022', lib: ['es2022'], module: 'nodenext', outDir: 'out', types: ['node'] }, files: ['program.ts'] },
  bundler: { compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', noEmit: true, types: ['node'] }, files: ['program.ts'] },
  // tslab's own settings (its converter): the old node resolution (which ignores `exports`:
  // typesVersions maps the subpaths), esModuleInterop, lib es2022; here without its skipLibCheck.
  tslab: { compilerOptions: { strict: true, target: 'es2022', lib: ['es2022'], module: 'esnext', moduleResolution: 'node10', esModuleInterop: true, noEmit: true, types: ['node'] }, files: ['cell.ts'] },
};

const CELL = `
import { connect, crossMarket, display, loadComparisonInput, powerGrid, toTable } from 'brandscape-kit';
import { createEmulator } from 'brandscape-kit/emulator';
import { createClient } from 'brandscape-kit/client';
import { serveMcpHttp, serveMcpStdio, type ServeMcpHttpOptions } from 'brandscape-kit/mcp';
export const used = [connect, crossMarket, display, loadComparisonInput, powerGrid, toTable, createEmulator, createClient, serveMcpHttp, serveMcpStdio];
export const port: ServeMcpHttpOptions['port'] = 0;
`;

const DANFO_PROGRAM = `
import { toTable } from 'brandscape-kit';
import { toDanfo, type DataFrame } from 'brandscape-kit/danfo';
const df: DataFrame = await toDanfo(toTable([{ brand: 'Veros', esteem: 88.5, year: 2024 }, { brand: 'Polora', esteem: null, year: 2024 }]));
console.log(JSON.stringify({ shape: df.shape, columns: df.columns }));
`;

const NO_DANFO_SCRIPT = `
import { toTable } from 'brandscape-kit';
import { toDanfo } from 'brandscape-kit/danfo';
try {
  await toDanfo(toTable([{ a: 1 }]));
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message }));
}
`;

let work: string;
let tarball: string;
let registry: string;
const core = () => join(work, 'core');
const made = () => join(work, 'analysis');

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'bsk-installed-'));
  const pack = await sh('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  tarball = join(work, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
  registry = (await sh('npm', ['config', 'get', 'registry'], work)).stdout.trim();
}, 5 * MINUTES);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('brandscape-kit installed into a plain project', () => {
  let install: Run;

  beforeAll(async () => {
    await sh('mkdir', ['-p', core()], work);
    writeFileSync(join(core(), 'package.json'), `${JSON.stringify({ name: 'core-user', private: true, type: 'module' }, null, 2)}\n`);
    install = await npm(['install', tarball], core());
  }, 10 * MINUTES);

  it('installs from the registry alone, quietly, with no install script, within the budget', () => {
    expect(install.code, install.stderr).toBe(0);
    // No warning to decipher (npm 11 lists skipped install scripts; danfojs-node's would fail).
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/warn|ERR/i);
    const pkg = JSON.parse(readFileSync(join(core(), 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['overrides']).toBeUndefined();
    expect(offRegistry(join(core(), 'package-lock.json'), registry)).toEqual([]);
    expect(withInstallScripts(join(core(), 'package-lock.json'))).toEqual([]);
    // The optional integrations are not installed.
    expect(existsSync(join(core(), 'node_modules', 'danfojs-node'))).toBe(false);
    expect(existsSync(join(core(), 'node_modules', 'tslab'))).toBe(false);
    const size = installedSize(join(core(), 'node_modules'));
    expect(size.bytes, `largest: ${size.largest.map(([n, b]) => `${n} ${(b / 1e6).toFixed(1)} MB`).join(', ')}`).toBeLessThanOrEqual(CORE_BUDGET_BYTES);
    expect(size.packages).toBeGreaterThan(50);
  });

  it('compiles a strict program with the compiler defaults under NodeNext, Bundler and tslab resolution', async () => {
    const typescript = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version;
    const types = (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string }).version;
    const dev = await npm(['install', '--save-dev', `typescript@${typescript}`, `@types/node@${types}`], core());
    expect(dev.code, dev.stderr).toBe(0);
    writeFileSync(join(core(), 'program.ts'), PROGRAM);
    writeFileSync(join(core(), 'cell.ts'), CELL);
    for (const [name, config] of Object.entries(TSCONFIGS)) writeFileSync(join(core(), `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
    const results = await Promise.all(Object.keys(TSCONFIGS).map((name) => sh(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `tsconfig.${name}.json`], core())));
    for (const [i, name] of Object.keys(TSCONFIGS).entries()) expect(`${name}: ${results[i]!.stdout}${results[i]!.stderr}`).toBe(`${name}: `);
  }, 10 * MINUTES);

  it('runs against the embedded emulator: brandscape data, a comparison, a PNG, a workbook another reader opens', async () => {
    const ran = await sh(process.execPath, ['out/program.js'], core());
    expect(ran.code, ran.stderr).toBe(0);
    const result = JSON.parse(ran.stdout.trim().split('\n').pop()!) as { ukRows: number; ukColumns: string[]; comparisonRows: number; markets: number; pngBytes: number; files: string[]; mcpTools: number };
    expect(result.mcpTools).toBe(9);
    expect(result.ukRows).toBeGreaterThan(100);
    expect(result.ukColumns).toEqual(expect.arrayContaining(['brand_name', 'esteem_rank', 'global_name']));
    expect(result.markets).toBe(3);
    const png = readFileSync(join(core(), 'heatmap.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBeGreaterThan(200); // width
    const workbook = result.files.find((f) => f.endsWith('.xlsx'));
    expect(workbook).toBeDefined();
    const skip = await missingTool('openpyxl');
    if (skip) return void console.warn(`Workbook read-back skipped: ${skip}`);
    const sheets = await readWithOpenpyxl(resolve(core(), workbook!), 20);
    expect(sheets.map((s) => s.name)).toEqual(expect.arrayContaining(['About', 'Data']));
    expect(sheets.find((s) => s.name === 'Data')!.max_row).toBeGreaterThan(10);
  }, 5 * MINUTES);

  it('serves MCP over stdio as an assistant starts it (npx brandscape mcp): initialize, then tools/list', async () => {
    const child = spawn(join(core(), 'node_modules', '.bin', 'brandscape'), ['mcp'], { cwd: core(), env: userEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const answer = (id: number) =>
      new Promise<{ id: number; result: Record<string, unknown> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer ${id}: ${err}`)), 60_000);
        const look = (d?: Buffer) => {
          if (d) out += d.toString();
          const line = out.split('\n').find((l) => l.includes(`"id":${id}`));
          if (line) {
            clearTimeout(timer);
            child.stdout.off('data', look);
            resolve(JSON.parse(line) as { id: number; result: Record<string, unknown> });
          }
        };
        child.stdout.on('data', look);
        look();
      });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'installed-test', version: '1' } } });
      const init = await answer(1);
      expect(String(init.result['instructions'])).toContain('EMBEDDED EMULATOR');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
      const list = await answer(2);
      expect((list.result['tools'] as { name: string }[]).map((t) => t.name)).toContain('compare_brands');
      // Nothing but protocol messages on stdout.
      for (const line of out.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      child.stdin.end();
      child.kill('SIGTERM');
    }
  }, 2 * MINUTES);

  it('fails toDanfo() without danfojs-node with the install step, overrides included', async () => {
    writeFileSync(join(core(), 'no-danfo.mjs'), NO_DANFO_SCRIPT);
    const ran = await sh(process.execPath, ['no-danfo.mjs'], core());
    const result = JSON.parse(ran.stdout) as { name: string; code: string; message: string };
    expect(result.name).toBe('UsageError');
    expect(result.code).toBe('usage');
    expect(result.message).toContain('npm install danfojs-node@^1.2.0');
    expect(result.message).toContain('"@tensorflow/tfjs-node": "npm:@tensorflow/tfjs@3.21.0"');
    expect(result.message).toContain('"xlsx": "0.18.5"');
  }, MINUTES);

  it('names files the package ships in stack frames (source maps on)', async () => {
    const script = "import { toTable } from 'brandscape-kit'; try { toTable([{ a: 1 }]).column('nope'); } catch (e) { console.log(e.stack); }";
    const ran = await sh(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], core());
    const frames = [...ran.stdout.matchAll(/\((\/[^):]+):\d+:\d+\)/g)].map((m) => m[1]!).filter((f) => f.includes('brandscape-kit'));
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.some((f) => f.endsWith('.ts'))).toBe(true); // mapped to the TypeScript sources
    expect(frames.filter((f) => !existsSync(f))).toEqual([]);
  }, MINUTES);
});

describe('a project made by brandscape init', () => {
  beforeAll(async () => {
    // The plain project's installed command makes it, as `npx brandscape init` would.
    const bin = join(core(), 'node_modules', '.bin', 'brandscape');
    if (!existsSync(bin)) await npm(['install', tarball], core());
    const init = await sh(bin, ['init', made(), '--kit', tarball], work);
    expect(init.code, init.stderr).toBe(0);
  }, 10 * MINUTES);

  it('refuses a folder that is not empty (exit 2, nothing written) unless --force', async () => {
    const bin = join(core(), 'node_modules', '.bin', 'brandscape');
    const busy = join(work, 'busy');
    await sh('mkdir', ['-p', busy], work);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    const refused = await sh(bin, ['init', busy], work);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is not empty.*--force/s);
    expect(readdirSync(busy)).toEqual(['notes.txt']);
    expect(readdirSync(work).filter((f) => f.includes('brandscape-init'))).toEqual([]);
    const forced = await sh(bin, ['init', busy, '--force'], work);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(busy, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(busy).sort()).toEqual(['.env.example', '.gitignore', 'README.md', 'notebooks', 'notes.txt', 'package.json', 'reports', 'templates', 'tsconfig.json']);
  }, MINUTES);

  it('installs with danfojs-node and tslab, quietly, and gives DataFrames; the root still compiles with skipLibCheck false', async () => {
    const install = await npm(['install'], made());
    expect(install.code, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/warn|ERR/i);
    expect(offRegistry(join(made(), 'package-lock.json'), registry)).toEqual([]);
    writeFileSync(join(made(), 'danfo.ts'), DANFO_PROGRAM);
    writeFileSync(join(made(), 'cell.ts'), CELL);
    const typescript = join(core(), 'node_modules', 'typescript', 'bin', 'tsc');
    // The root entry with the compiler's defaults; the danfo entry with the project's tsconfig
    // (skipLibCheck: danfojs-node's own declarations name type packages it does not install).
    const root = await sh(process.execPath, [typescript, '--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(core(), 'node_modules', '@types'), 'cell.ts'], made());
    expect(`${root.stdout}${root.stderr}`).toBe('');
    const danfo = await sh(process.execPath, [typescript, '-p', 'tsconfig.json', '--noEmit', 'false', '--outDir', 'out', '--types', 'node', '--typeRoots', join(core(), 'node_modules', '@types')], made());
    expect(`${danfo.stdout}${danfo.stderr}`).toBe('');
    const ran = await sh(process.execPath, ['out/danfo.js'], made());
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout.trim().split('\n').pop()!)).toEqual({ shape: [2, 3], columns: ['brand', 'esteem', 'year'] });
  }, 10 * MINUTES);

  it('registers its kernel as its README says and executes its notebook: a chart with the Vega-Lite 5 spec and a PNG', async () => {
    const jupyter = (findJupyter as () => { ok: true; jupyter: string } | { ok: false; reason: string })();
    if (!jupyter.ok) {
      if (process.env['CI'] === 'true') throw new Error(`CI must have Jupyter: ${jupyter.reason}`);
      return void console.warn(`Notebook skipped: ${jupyter.reason}`);
    }
    const readme = readFileSync(join(made(), 'README.md'), 'utf8');
    expect(readme).toContain('npm run kernel');
    const env = { ...userEnv, JUPYTER_DATA_DIR: join(work, 'jupyter-data') };
    const kernel = await sh('npm', ['run', 'kernel'], made(), env);
    expect(kernel.code, kernel.stderr).toBe(0);
    const spec = JSON.parse(readFileSync(join(work, 'jupyter-data', 'kernels', 'tslab-analysis', 'kernel.json'), 'utf8')) as { argv: string[] };
    expect(spec.argv.slice(0, 2).every((p) => p.startsWith('/') && existsSync(p))).toBe(true);
    const out = join(work, 'executed');
    const ran = await sh(jupyter.jupyter, ['nbconvert', '--to=notebook', '--execute', '--ExecutePreprocessor.timeout=300', `--output-dir=${out}`, '01-start.ipynb'], join(made(), 'notebooks'), env);
    expect(ran.code, ran.stderr).toBe(0);
    const nb = JSON.parse(readFileSync(join(out, '01-start.ipynb'), 'utf8')) as { cells: { outputs?: { output_type: string; data?: Record<string, unknown>; text?: string | string[] }[] }[] };
    const outputs = nb.cells.flatMap((c) => c.outputs ?? []);
    expect(outputs.filter((o) => o.output_type === 'error')).toEqual([]);
    const text = outputs.map((o) => (Array.isArray(o.text) ? o.text.join('') : (o.text ?? ''))).join('');
    expect(text).toContain('embedded emulator');
    expect(text).toMatch(/\d+ brands/);
    const chart = outputs.find((o) => o.data?.['application/vnd.vegalite.v5+json'] !== undefined);
    expect(chart?.data?.['image/png']).toEqual(expect.stringMatching(/^iVBORw0KGgo/));
  }, 10 * MINUTES);

  it('opens Jupyter with npm run notebook: the server lists the project kernel and its notebooks', async () => {
    const notebookApp = spawnSync('jupyter', ['notebook', '--version'], { encoding: 'utf8' });
    if (notebookApp.status !== 0) {
      if (process.env['CI'] === 'true') throw new Error('CI must have the Jupyter Notebook (apt-get install jupyter-notebook); .ci/run installs it.');
      return void console.warn('npm run notebook skipped: jupyter notebook is not installed (apt-get install jupyter-notebook)');
    }
    const port = await freePort();
    const rootFlag = process.getuid?.() === 0 ? ['--allow-root'] : [];
    const env = { ...userEnv, JUPYTER_DATA_DIR: join(work, 'jupyter-open') };
    // As a user types it: npm passes what follows its own `--` on, and brandscape passes what follows its `--` to Jupyter.
    const child = spawn('npm', ['run', 'notebook', '--', '--', '--no-browser', `--port=${port}`, ...rootFlag], { cwd: made(), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      let token: string | undefined;
      for (let i = 0; i < 120 && token === undefined; i++) {
        await new Promise((r) => setTimeout(r, 250));
        token = new RegExp(`127\\.0\\.0\\.1:${port}/\\?token=([0-9a-f]+)`).exec(output)?.[1];
      }
      expect(token, output).toBeDefined();
      const api = async (path: string) => (await fetch(`http://127.0.0.1:${port}/api/${path}?token=${token}`)).json() as Promise<Record<string, unknown>>;
      const specs = (await api('kernelspecs'))['kernelspecs'] as Record<string, { spec: { argv: string[] } }>;
      expect(specs['tslab-analysis']?.spec.argv[1]).toBe(join(made(), 'node_modules', 'tslab', 'bin', 'tslab'));
      const contents = (await api('contents'))['content'] as { name: string }[];
      expect(contents.map((c) => c.name)).toContain('01-start.ipynb');
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    }
  }, 2 * MINUTES);

  it('compares from the terminal as its README shows (npm run compare)', async () => {
    const readme = readFileSync(join(made(), 'README.md'), 'utf8');
    const line = /`(npm run compare -- [^`]+)`/.exec(readme)?.[1];
    expect(line).toBeDefined();
    const compare = await sh('bash', ['-c', line!], made());
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/GB +DE +FR/);
    expect(compare.stdout).toContain('Polora');
  }, 2 * MINUTES);

  it('builds its report template with npm run report: a workbook and an HTML file', async () => {
    const report = await sh('npm', ['run', 'report'], made());
    expect(report.code, report.stderr).toBe(0);
    const files = readdirSync(join(made(), 'reports'));
    expect(files.filter((f) => f.endsWith('.xlsx'))).toHaveLength(1);
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(1);
    const html = readFileSync(join(made(), 'reports', files.find((f) => f.endsWith('.html'))!), 'utf8');
    expect(html).toContain('<svg');
  }, 5 * MINUTES);
});
