/**
 * The HTML report as a reader meets it, for a report of one brand in one market (built by the CLI
 * against its in-process emulator, over HTTP on a free port): titles that name ranges, notes true
 * for this report, words where a chart has nothing to draw, hover titles on every chart mark.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';

let dir: string;
let html = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-html-'));
  let stderr = '';
  const code = await run(['report', 'cross-year-trends', '-p', 'markets=FR', '-p', 'brands=Veros', '-p', 'years=2021,2022,2023,2024,2025', '--format', 'html', '--out', dir], {
    stdout: { write: () => undefined },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    signal: new AbortController().signal,
    cwd: dir,
  });
  expect(code, stderr).toBe(0);
  const file = (await readdir(dir)).find((f) => f.endsWith('.html'))!;
  html = await readFile(join(dir, file), 'utf8');
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const texts = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!);

describe('cross-year-trends for Veros in France', () => {
  it('names the years as a range in its title', () => {
    expect(texts(/<h1>([^<]*)<\/h1>/g)).toEqual(['Brand trends, 2021–2025']);
  });

  it('says which brand was not in which study, and nothing about US waves', () => {
    const notes = texts(/<li>([^<]*)<\/li>/g);
    expect(notes).toContain('Veros was not in the France 2021 study.');
    expect(notes.some((n) => /No data for 2021 in these markets/.test(n))).toBe(false);
    expect(html).not.toMatch(/quarterly waves/i);
  });

  it('puts words where the one-line slope chart would have been, not an empty frame', () => {
    expect(texts(/<p class="no-chart">([^<]*)<\/p>/g)).toEqual(['No slope chart: only Veros has values in both 2022 and 2025 in France; the table shows its change.']);
    expect(html.match(/<figure /g)).toHaveLength(1);
  });

  it('states the trend rule', () => {
    expect(html).toContain('larger than 5 percentile-rank points, else &quot;flat&quot;');
  });

  it('gives every data mark a hover title with the brand and a rounded value, and no raw field names', () => {
    // Data marks: what Vega gives a screen-reader role, less the guides (axes, legends, titles).
    const marks = texts(/role="graphics-symbol" aria-roledescription="([^"]*)"/g).filter((d) => !/^(axis|legend|title|subtitle)$|container$/.test(d));
    const titles = texts(/<title>([^<]*)<\/title>/g).filter((t) => t.includes('\n'));
    expect(marks.length).toBeGreaterThan(10);
    expect(titles).toHaveLength(marks.length);
    for (const t of titles) {
      expect(t).toMatch(/Veros/);
      expect(t).not.toMatch(/\d\.\d{3,}/);
    }
    expect(texts(/aria-label="([^"]*)"/g).filter((l) => /\b[a-z]+_[a-z_]+: /.test(l))).toEqual([]);
    // Nothing fetched: the policy forbids it, and there is no script.
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script/);
  });
});
