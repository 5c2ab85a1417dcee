/**
 * The bad-input catalogue, `.env` and signals (issue 25).
 *
 * `.env`: every command that talks to the service reads `<cwd>/.env`. One that is a FIFO, a folder,
 * a device, a symbolic-link loop or over 1 MB is refused (exit 2, naming the file) without blocking;
 * a BRANDSCAPE_* value that an unquoted `#` would cut short is refused, and the value never shown.
 *
 * Signals: the built CLI (dist/cli/bin.js) in a child process against an emulator with latency,
 * sent two signals 5 ms apart at several moments (during the load, as the first or the second
 * output's temporary file appears), or one signal while a write is stuck on a FIFO nobody reads.
 * Each must end the process with the documented code, 130 for SIGINT and 143 for SIGTERM (as the
 * shell reports it: an exit code, or death by that signal, which is how a process must leave when a
 * stuck thread would keep `process.exit()` waiting), and leave no `.partial` file and no output.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createDataset, createEmulator, type Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';

const TOKEN = 'LEAKCHECK-env-7c1f-SeCrEt';
/** A token with a `#` inside, accepted by the emulator: quoted in `.env`, it must arrive whole. */
const HASH_TOKEN = 'LEAKCHECK-hash#part-9e3d';
const BIN = resolve('dist/cli/bin.js');
let emulator: Emulator;
/** The same service, slow: a load takes long enough to be interrupted at a chosen moment. */
let slow: Emulator;
const seen: string[] = [];
/** Every child started here: one still running at the end (a failed case) is killed, not left behind. */
const children: ChildProcess[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN, HASH_TOKEN] });
  // The default dataset: the report's default brands are in it.
  slow = await createEmulator({ port: 0, dataset: createDataset({ seed: 1 }), tokens: [TOKEN], latencyMs: 40 });
}, 60_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await emulator?.close();
  await slow?.close();
  for (const text of seen) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('hash#part');
    expect(text).not.toContain('part-9e3d');
  }
});

/** A case folder holding a file every case must leave as it was. */
async function caseDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-env-'));
  await writeFile(join(dir, 'keep.json'), 'previous');
  return dir;
}

async function cliIn(dir: string, argv: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, ...env },
    signal: new AbortController().signal,
    cwd: dir,
  });
  seen.push(stdout, stderr);
  return { code, stdout, stderr };
}

interface EnvCase {
  name: string;
  /** Makes `.env` (and anything beside it) in the case folder. */
  make: (dir: string) => Promise<void>;
  /** The environment besides the base URL (the token, when the case gives it there). */
  env?: Record<string, string>;
  exit: number;
  says: RegExp;
  skip?: boolean;
}

const isRoot = process.getuid?.() === 0;
const ENV_CASES: EnvCase[] = [
  { name: 'a FIFO (it hung every command)', make: async (dir) => void execFileSync('mkfifo', [join(dir, '.env')]), exit: 2, says: /The settings file .*\/\.env is a named pipe \(FIFO\), not a file; it is not read/ },
  { name: 'a folder', make: (dir) => mkdir(join(dir, '.env')), exit: 2, says: /The settings file .*\/\.env is a folder, not a file/ },
  { name: 'a link to a device that never ends (/dev/zero)', make: (dir) => symlink('/dev/zero', join(dir, '.env')), exit: 2, says: /\/\.env is a device, not a file/ },
  { name: 'a link to a FIFO elsewhere', make: async (dir) => (execFileSync('mkfifo', [join(dir, 'pipe')]), symlink(join(dir, 'pipe'), join(dir, '.env'))), exit: 2, says: /\/\.env is a named pipe \(FIFO\)/ },
  { name: 'a loop of symbolic links', make: async (dir) => (await symlink(join(dir, '.env2'), join(dir, '.env')), await symlink(join(dir, '.env'), join(dir, '.env2'))), exit: 2, says: /\/\.env cannot be read: a loop of symbolic links/ },
  { name: 'a file of 2 MB', make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${TOKEN}\n${'#'.repeat(2_000_000)}\n`), exit: 2, says: /\/\.env is 2,000,\d+ bytes; a \.env holds at most 1,048,576 bytes \(1 MB\)/ },
  { name: 'a file nobody may read', make: async (dir) => (await writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${TOKEN}\n`, { mode: 0o000 })), exit: 2, says: /\/\.env cannot be read: permission denied/, skip: isRoot },
  { name: "a token cut by an unquoted '#'", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${HASH_TOKEN}\n`), exit: 2, says: /the value of BRANDSCAPE_TOKEN has a '#' inside it without quotes: .* cut short\. Quote the value: BRANDSCAPE_TOKEN="\.\.\."/ },
  { name: "a base URL cut by an unquoted '#' (export form)", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${TOKEN}\nexport BRANDSCAPE_API_VERSION=v2#beta\n`), exit: 2, says: /the value of BRANDSCAPE_API_VERSION has a '#' inside it/ },
  // What is fine: the same settings written so that nothing is cut
  { name: "a quoted token with a '#' inside: sent whole", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN="${HASH_TOKEN}"\n`), exit: 0, says: /Fetched/ },
  { name: "a comment after a space: the token before it", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${TOKEN} # my token\n# BRANDSCAPE_TOKEN=old#one\n`), exit: 0, says: /Fetched/ },
  { name: "a cut value the environment overrides: not read, not refused", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${HASH_TOKEN}\n`), env: { BRANDSCAPE_TOKEN: TOKEN }, exit: 0, says: /Fetched/ },
  { name: "another program's setting with a '#' (not ours)", make: (dir) => writeFile(join(dir, '.env'), `BRANDSCAPE_TOKEN=${TOKEN}\nCOLOUR=#ff0000\n`), exit: 0, says: /Fetched/ },
];

describe('.env', () => {
  it.each(ENV_CASES)('$name: exit $exit, a clear message, nothing written or leaked', async (c) => {
    if (c.skip) return; // root reads any file: permissions cannot be tested as root
    const dir = await caseDir();
    await c.make(dir);
    const r = await cliIn(dir, ['fetch', 'regions', '--format', 'csv', '--out', 'regions.csv'], c.env ?? {});
    expect(r.code, r.stderr).toBe(c.exit);
    expect(r.stderr).toMatch(c.says);
    expect(r.stdout + r.stderr).not.toMatch(/hash#part|part-9e3d|LEAKCHECK/);
    expect(r.stderr).not.toMatch(/\n\s+at |node:internal|EISDIR|ELOOP|EACCES/);
    const files = (await readdir(dir)).filter((f) => !['.env', '.env2', 'pipe'].includes(f)).sort();
    expect(files).toEqual(c.exit === 0 ? ['keep.json', 'regions.csv'] : ['keep.json']);
    expect(await readFile(join(dir, 'keep.json'), 'utf8')).toBe('previous');
    await rm(dir, { recursive: true, force: true });
  });

  it('a FIFO as .env: the built CLI exits 2 on its own, at once, instead of hanging', async () => {
    const dir = await caseDir();
    execFileSync('mkfifo', [join(dir, '.env')]);
    const child = spawnCli(dir, ['fetch', 'regions'], emulator.url);
    const ended = await child.ended;
    expect(ended.code, ended.stderr).toBe(2);
    expect(ended.stderr).toMatch(/\.env is a named pipe \(FIFO\)/);
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});

/** The exit status as a shell reports it: the code, or 128 + the signal's number. */
const shellStatus = (code: number | null, signal: NodeJS.Signals | null) => code ?? 128 + constants.signals[signal!];

function spawnCli(cwd: string, argv: string[], baseUrl: string) {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd, env: { PATH: process.env['PATH'] ?? '', BRANDSCAPE_BASE_URL: baseUrl, BRANDSCAPE_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; status: number; stderr: string; stdout: string }>((done) =>
    child.on('exit', (code, signal) => setImmediate(() => done({ code, signal, status: shellStatus(code, signal), stderr, stdout }))),
  );
  return { child, ended, stderr: () => stderr };
}

/** Resolves when a file whose name matches appears in `dir` (fs.watch, so at once). */
function whenFile(dir: string, name: RegExp): Promise<string> {
  return new Promise((done) => {
    const watcher = watch(dir, (_event, file) => {
      if (file && name.test(String(file))) {
        watcher.close();
        done(String(file));
      }
    });
  });
}

/** Resolves when the child's stderr matches. */
async function whenSaid(stderr: () => string, says: RegExp): Promise<void> {
  while (!says.test(stderr())) await new Promise((r) => setTimeout(r, 5));
}

interface SignalCase {
  name: string;
  argv: string[];
  /** When to signal: when a file appears, or when stderr says something. */
  at: { file: RegExp } | { says: RegExp };
  signals: NodeJS.Signals[];
  status: number;
}

const REPORT = ['report', 'cross-market-brand-health', '--out', '.', '-p', 'markets=GB,DE'];
const SIGNAL_CASES: SignalCase[] = [
  { name: 'fetch --out: one SIGINT while the file is written (the clean case)', argv: ['fetch', 'brands', '--per-page', '100', '--concurrency', '1', '--out', 'brands.json'], at: { file: /\.partial$/ }, signals: ['SIGINT'], status: 130 },
  { name: 'fetch --out: two SIGINTs 5 ms apart while the file is written', argv: ['fetch', 'brands', '--per-page', '100', '--concurrency', '1', '--out', 'brands.json'], at: { file: /\.partial$/ }, signals: ['SIGINT', 'SIGINT'], status: 130 },
  { name: 'fetch --out: two SIGTERMs 5 ms apart while the file is written', argv: ['fetch', 'brands', '--per-page', '100', '--concurrency', '1', '--out', 'brands.csv'], at: { file: /\.partial$/ }, signals: ['SIGTERM', 'SIGTERM'], status: 143 },
  { name: 'report: two SIGINTs 5 ms apart during the load', argv: REPORT, at: { says: /loading data/i }, signals: ['SIGINT', 'SIGINT'], status: 130 },
  { name: 'report: two SIGINTs 5 ms apart as the workbook is begun', argv: REPORT, at: { file: /\.xlsx\..*\.partial$/ }, signals: ['SIGINT', 'SIGINT'], status: 130 },
  { name: 'report: two SIGINTs 5 ms apart as the HTML file is begun (the workbook written, not yet renamed)', argv: REPORT, at: { says: /Writing .*\.html/ }, signals: ['SIGINT', 'SIGINT'], status: 130 },
  { name: 'report: SIGINT then SIGTERM 5 ms apart as the workbook is begun', argv: REPORT, at: { file: /\.xlsx\..*\.partial$/ }, signals: ['SIGINT', 'SIGTERM'], status: 143 },
  { name: 'report: one SIGTERM as the workbook is begun', argv: REPORT, at: { file: /\.xlsx\..*\.partial$/ }, signals: ['SIGTERM'], status: 143 },
];

describe('signals', () => {
  it.skipIf(!existsSync(BIN)).each(SIGNAL_CASES)('$name: exit $status, no temporary file, nothing written', async (c) => {
    const dir = await caseDir();
    const appeared = 'file' in c.at ? whenFile(dir, c.at.file) : undefined;
    const cli = spawnCli(dir, c.argv, slow.url);
    if (appeared) await Promise.race([appeared, cli.ended]);
    else await Promise.race([whenSaid(cli.stderr, (c.at as { says: RegExp }).says), cli.ended]);
    for (const [k, signal] of c.signals.entries()) {
      if (k > 0) await new Promise((r) => setTimeout(r, 5));
      cli.child.kill(signal);
    }
    const ended = await cli.ended;
    seen.push(ended.stdout, ended.stderr);
    expect(ended.status, ended.stderr).toBe(c.status);
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith('.partial')), 'temporary files left').toEqual([]);
    // Interrupted before anything was renamed into place: no output at all (the HTML moment may
    // race the renames, so there only the temporary files are checked).
    if (!/HTML/.test(c.name)) expect(files).toEqual(['keep.json']);
    expect(await readFile(join(dir, 'keep.json'), 'utf8')).toBe('previous');
    expect(ended.stderr).not.toMatch(/\n\s+at |node:internal/);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it.skipIf(!existsSync(BIN))('one SIGTERM while a write waits on a FIFO nobody reads: the process still ends (143) and says why', async () => {
    const dir = await caseDir();
    execFileSync('mkfifo', [join(dir, 'out.csv')]);
    const cli = spawnCli(dir, ['fetch', 'regions', '--out', 'out.csv'], emulator.url);
    // The open of a FIFO without a reader blocks a thread of the pool, and then the command.
    await new Promise((r) => setTimeout(r, 1500));
    cli.child.kill('SIGTERM');
    const ended = await cli.ended;
    seen.push(ended.stdout, ended.stderr);
    expect(ended.status, ended.stderr).toBe(143);
    expect(ended.stderr).toMatch(/cleanup did not finish within 5 s of SIGTERM; stopped/);
    expect((await readdir(dir)).sort()).toEqual(['keep.json', 'out.csv']);
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it.skipIf(!existsSync(BIN))('webhooks listen: SIGINT ends it (130) and its port closes', async () => {
    const dir = await caseDir();
    const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', '--secret-env', 'HOOK_SECRET', '--on-event', 'cross-market-brand-health', '--out', '.'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, HOOK_SECRET: 'LEAKCHECK-hook-secret-31' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const ended = new Promise<number>((done) => child.on('exit', (code, signal) => done(shellStatus(code, signal))));
    while (!/listening on (http:\/\/\S+)/.test(stdout)) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    child.kill('SIGINT');
    expect(await ended).toBe(130);
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(stdout).not.toContain('LEAKCHECK-hook-secret-31');
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});
