/**
 * The notebooks in notebooks/: committed without outputs, each opening with its question and
 * importing the package by name (public entry points only); executed top to bottom with Jupyter's
 * nbconvert and the tslab kernel against the embedded emulator, every chart cell showing a chart
 * (one output with the Vega-Lite 5 spec, SVG and PNG, no HTML) and every table display an HTML
 * table with its text; the HTML copies, opened in
 * headless Chromium, show every chart (its PNG: see HTML_PRIORITY in test/helpers/notebooks.mjs).
 *
 * Without Jupyter the execution tests skip and say why; with CI=true a missing Jupyter fails
 * them (.ci/run installs Debian's Jupyter packages).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/browser.js';
import { CHROMIUM } from '../helpers/independent-reader.js';
// @ts-expect-error: a plain .mjs helper (also run by `npm run notebooks:html`), without declarations
import { ROOT, executeNotebook, findJupyter, listNotebooks, notebookToHtml, registerKernel } from '../helpers/notebooks.mjs';

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
interface Cell {
  cell_type: 'code' | 'markdown' | 'raw';
  source: string | string[];
  outputs?: Output[];
  execution_count?: number | null;
}
interface Notebook {
  cells: Cell[];
  metadata: { kernelspec?: { name?: string } };
}

const EXPECTED = ['01-getting-started', '02-cross-market', '03-cross-year', '04-sectors-and-companies', '05-archetypes', '06-build-a-report'];
const notebooks = (listNotebooks as () => string[])();
const read = (file: string): Notebook => JSON.parse(readFileSync(file, 'utf8')) as Notebook;
const text = (source: string | string[]): string => (Array.isArray(source) ? source.join('') : source);
const codeOf = (nb: Notebook): string => nb.cells.filter((c) => c.cell_type === 'code').map((c) => text(c.source)).join('\n');

/** The module specifiers a notebook imports. */
const importsOf = (code: string): string[] => [...code.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|\brequire\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');

describe('the notebooks as committed', () => {
  it('are the six of the guide', () => {
    expect(notebooks.map((f) => basename(f, '.ipynb'))).toEqual(EXPECTED);
  });

  it.each(EXPECTED)('%s has no outputs (clear them before committing)', (name) => {
    const nb = read(join(ROOT, 'notebooks', `${name}.ipynb`));
    const withOutputs = nb.cells.filter((c) => c.cell_type === 'code' && ((c.outputs?.length ?? 0) > 0 || (c.execution_count ?? null) !== null));
    expect(withOutputs.map((c) => text(c.source).split('\n')[0])).toEqual([]);
    expect(nb.metadata.kernelspec?.name).toBe('tslab-brandscape-kit'); // the kernel `brandscape notebook` registers for this package
  });

  it.each(EXPECTED)('%s opens with its question and imports only the package by name', (name) => {
    const nb = read(join(ROOT, 'notebooks', `${name}.ipynb`));
    const first = nb.cells[0];
    expect(first?.cell_type).toBe('markdown');
    expect(text(first?.source ?? '')).toMatch(/^# .+\n[\s\S]*\*\*The questions?:\*\* [^?]+\?/);
    const imports = importsOf(codeOf(nb));
    expect(imports).toContain('brandscape-kit');
    // The public entry points and Node's own modules; never src/, dist/ or a relative path.
    expect(imports.filter((m) => !/^(brandscape-kit(\/(client|danfo|emulator|files|version))?|node:[a-z/]+)$/.test(m))).toEqual([]);
  });
});

const jupyter = (findJupyter as () => { ok: true; jupyter: string; python: string } | { ok: false; reason: string })();
const workDir = join(ROOT, 'test', '.tmp', 'notebooks');

describe('the notebooks executed with Jupyter (tslab kernel, embedded emulator)', () => {
  let env: NodeJS.ProcessEnv = {};
  let browser: Browser | undefined;
  const executed = new Map<string, string>();

  beforeAll(() => {
    if (!jupyter.ok) return;
    rmSync(workDir, { recursive: true, force: true });
    if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('The notebooks import the built package: run npm run build first (npm test does).');
    env = (registerKernel as (dir: string) => NodeJS.ProcessEnv)(join(workDir, 'jupyter'));
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Skips with the reason outside CI; fails in CI, where Jupyter must be installed. */
  const needJupyter = (skip: (note: string) => void): void => {
    if (jupyter.ok) return;
    if (process.env['CI'] === 'true') throw new Error(`CI=true and the notebooks cannot be executed: ${jupyter.reason}`);
    skip(`skipped: ${jupyter.reason}`);
  };

  it.for(EXPECTED)('%s runs top to bottom; every display() shows a chart or a table', { timeout: 400_000 }, (name, ctx) => {
    needJupyter((note) => ctx.skip(note));
    if (!jupyter.ok) return;
    const result = (executeNotebook as (j: string, e: NodeJS.ProcessEnv, nb: string, out: string) => { status: number; output: string; file: string })(
      jupyter.jupyter,
      env,
      join(ROOT, 'notebooks', `${name}.ipynb`),
      join(workDir, 'executed'),
    );
    expect(result.status, result.output.split('\n').slice(-40).join('\n')).toBe(0);
    executed.set(name, result.file);
    const nb = read(result.file);
    const code = nb.cells.filter((c) => c.cell_type === 'code');
    const outputs = code.flatMap((c) => c.outputs ?? []);
    expect(outputs.filter((o) => o.output_type === 'error').map((o) => `${o.ename}: ${o.evalue}`)).toEqual([]);
    expect(outputs.filter((o) => o.output_type === 'stream' && o.name === 'stderr').map((o) => text(o.text ?? ''))).toEqual([]);
    // connect() said which service it used.
    expect(outputs.some((o) => /Using an embedded emulator of the Brand Data Service at http:\/\/127\.0\.0\.1:\d+/.test(text(o.text ?? '')))).toBe(true);
    // Every display() shows a chart (the Vega-Lite 5 spec, SVG and PNG, no HTML) or a table (an
    // HTML table and its text: for a table, HTML is the right output).
    const isChart = (o: Output) => o.data?.['image/png'] !== undefined || o.data?.['image/svg+xml'] !== undefined;
    const isTable = (o: Output) => o.data?.['text/html'] !== undefined;
    const displayCells = code.filter((c) => /\bdisplay\(/.test(text(c.source)));
    expect(displayCells.filter((c) => (c.outputs ?? []).some(isChart)).length).toBeGreaterThan(0);
    for (const cell of displayCells) {
      const shown = (cell.outputs ?? []).filter((o) => isChart(o) || isTable(o));
      expect(shown.length, `nothing shown by:\n${text(cell.source)}`).toBeGreaterThan(0);
    }
    for (const chart of outputs.filter(isChart)) {
      expect(Object.keys(chart.data ?? {}).sort()).toEqual(['application/vnd.vegalite.v5+json', 'image/png', 'image/svg+xml', 'text/plain']);
    }
    for (const table of outputs.filter(isTable)) {
      expect(Object.keys(table.data ?? {}).sort()).toEqual(['text/html', 'text/plain']);
      expect(text(table.data?.['text/html'] as string | string[])).toMatch(/^<div class="bk-table"><style>[^<]*<\/style><table>/);
    }
  });

  it('their HTML copies show every chart in Chromium', { timeout: 300_000 }, async (ctx) => {
    needJupyter((note) => ctx.skip(note));
    if (!jupyter.ok) return;
    if (!existsSync(CHROMIUM)) {
      if (process.env['CI'] === 'true') throw new Error(`CI=true and ${CHROMIUM} is missing (apt-get install chromium).`);
      ctx.skip(`skipped: ${CHROMIUM} is not installed`);
    }
    expect([...executed.keys()]).toEqual(EXPECTED);
    browser = await launchChromium();
    for (const [name, file] of executed) {
      const html = (notebookToHtml as (j: string, e: NodeJS.ProcessEnv, nb: string, out: string) => { status: number; output: string; file: string })(jupyter.jupyter, env, file, join(workDir, 'html'));
      expect(html.status, html.output).toBe(0);
      const charts = read(file).cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.['image/svg+xml'] !== undefined).length;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${html.file}`);
      // Each chart's PNG (see HTML_PRIORITY in the helper), decoded and drawn at the chart's size.
      // (A script in the page's own JavaScript: this project's types have no DOM.)
      const drawn = await page.evaluate<{ complete: boolean; width: number; height: number; natural: number; colours: number }[]>(`[...document.querySelectorAll('.jp-OutputArea-output img, .output_png img')].map((image) => {
        const box = image.getBoundingClientRect();
        // Distinct colours in a sample of the image: a blank or one-colour image is no chart.
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        const colours = new Set();
        for (let i = 0; i < pixels.length; i += 4 * 97) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
        return { complete: image.complete, width: box.width, height: box.height, natural: image.naturalWidth, colours: colours.size };
      })`);
      await page.close();
      expect(drawn.length, name).toBe(charts);
      for (const figure of drawn) {
        expect(figure.complete, name).toBe(true);
        expect(figure.natural, name).toBeGreaterThan(400);
        expect(figure.width, name).toBeGreaterThan(200);
        expect(figure.height, name).toBeGreaterThan(150);
        expect(figure.colours, name).toBeGreaterThan(8);
      }
      expect(errors, name).toEqual([]);
    }
  });
});
