/**
 * Output that never clobbers (issue 13): every command that writes checks its output path before
 * any request, writes through symbolic links, streams into FIFOs and devices, replaces regular files
 * atomically, and on a failed write exits non-zero with a message, keeping the previous file and
 * leaving no temporary file.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator();
  dir = await mkdtemp(join(tmpdir(), 'bsk-out-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[]) => runCli(argv, { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token }, dir);

const fetchBrands = (out: string, ...more: string[]) => cli(['fetch', 'brands', '--filter', 'country_codes=GB', '--fields', 'id,name', '--out', out, ...more]);
const hidden = async (folder: string) => (await readdir(folder)).filter((f) => f.endsWith('.partial'));

describe('--out', () => {
  it.each([
    ['a folder that does not exist', () => join(dir, 'nowhere', 'brands.json'), /The folder of --out .*nowhere\/brands\.json .* does not exist/],
    ['a folder', () => dir, /--out .* is a folder/],
    ['an unknown extension', () => join(dir, 'brands.xls'), /--out .*brands\.xls: unknown extension '\.xls'; use one of \.json, \.ndjson, \.jsonl, \.csv, \.parquet/],
    ['no extension', () => join(dir, 'brands'), /no extension/],
  ])('%s: a usage error naming the path as given, before any request', async (_name, path, says) => {
    emulator.clearRequests();
    const r = await fetchBrands(path());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(says);
    expect(r.stderr).not.toMatch(/\.partial|ENOENT|EISDIR/);
    expect(emulator.requests.filter((q) => q.path.startsWith('/api/'))).toEqual([]);
  });

  it('replaces a regular file atomically, and keeps it when the load fails', async () => {
    const out = join(dir, 'kept.json');
    await writeFile(out, 'previous');
    emulator.faults.add({ path: '/brands', kind: 404, times: Infinity });
    try {
      const r = await fetchBrands(out);
      expect(r.code).toBe(3);
    } finally {
      emulator.faults.clear();
    }
    expect(await readFile(out, 'utf8')).toBe('previous');
    expect(await hidden(dir)).toEqual([]);
    expect((await fetchBrands(out)).code).toBe(0);
    expect(JSON.parse(await readFile(out, 'utf8')).length).toBeGreaterThan(10);
  });

  it('writes through a symbolic link to its target; the link stays a link', async () => {
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    await writeFile(real, 'old');
    await symlink(real, link);
    const r = await fetchBrands(link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, 'utf8')).length).toBeGreaterThan(10);
    expect(await hidden(dir)).toEqual([]);
    // A dangling link: its target is created.
    const dangling = join(dir, 'dangling.json');
    await symlink(join(dir, 'made-through-link.json'), dangling);
    expect((await fetchBrands(dangling)).code).toBe(0);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, 'made-through-link.json'))).toBe(true);
  });

  it('streams into a FIFO without replacing it', async () => {
    const fifo = join(dir, 'pipe.ndjson');
    execFileSync('mkfifo', [fifo]);
    const received = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8').on('data', (d) => (text += String(d))).on('end', () => resolve(text)).on('error', reject);
    });
    const r = await fetchBrands(fifo);
    expect(r.code).toBe(0);
    const lines = (await received).trim().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    expect(JSON.parse(lines[0]!)).toHaveProperty('name');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a device that fails the write (/dev/full): a message, exit 1, and the device untouched', async () => {
    if (!existsSync('/dev/full')) return void console.warn('skipped: no /dev/full');
    const r = await cli(['fetch', 'brands', '--filter', 'country_codes=GB', '--format', 'json', '--out', '/dev/full']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not write \/dev\/full: the disk is full \(ENOSPC\)/);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('the report command follows the same rules for its folder', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'x');
    const r = await cli(['report', 'competitive-archetypes', '--out', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a folder/);
    await mkdir(join(dir, 'reports'));
    expect(await hidden(join(dir, 'reports'))).toEqual([]);
  });
});
