/**
 * DESIGN.md rule 5 and the tslab constraint: chart builders return data; only render.ts touches
 * vega, vega-lite and resvg, and only with a lazy `import()`, so loading the toolkit (in a
 * notebook, in the CLI) never loads them. Chart code never fetches, reads environment variables
 * or writes files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sourceFiles = (dir: string): string[] =>
  readdirSync(`${root}${dir}`, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
const RENDERERS = /(?:from|import\()\s*['"](vega|vega-lite|@resvg\/resvg-js)['"]/g;

describe('chart module boundaries', () => {
  it('only render.ts loads vega, vega-lite and resvg, lazily; elsewhere they are types only', () => {
    for (const file of sourceFiles('src')) {
      const text = readFileSync(`${root}${file}`, 'utf8');
      for (const line of text.split('\n')) {
        if (!RENDERERS.test(line)) continue;
        RENDERERS.lastIndex = 0;
        const typeOnly = /^\s*import type\b/.test(line);
        const lazy = /await import\(|Promise\.all\(\[import\(|import\(['"]/.test(line) && !/^\s*import\s/.test(line);
        expect(typeOnly || (lazy && file === 'src/charts/render.ts'), `${file}: ${line.trim()}`).toBe(true);
      }
    }
  });

  it('chart code does not fetch, read the environment or write files', () => {
    for (const file of sourceFiles('src/charts')) {
      const text = readFileSync(`${root}${file}`, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(text, file).not.toMatch(/process\.env|\bfetch\(|writeFile|createWriteStream|from 'node:http/);
    }
  });

  it.runIf(existsSync(`${root}dist/index.js`))('loading the built package and building a spec loads no renderer (rendering does)', () => {
    const hook = `export async function resolve(s, c, next) { if (/^(vega|vega-lite|@resvg\\/resvg-js)$/.test(s)) process.stdout.write('LOADED ' + s + '\\n'); return next(s, c); }`;
    const script = (render: boolean) => `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const m = await import(${JSON.stringify(`${root}dist/index.js`)});
      const rows = [{ entity_kind: 'brand', entity_id: 1, entity_name: 'A', global_name: 'A', country_id: 1, market: 'X', country_code: 'X', metric: 'd', metric_name: 'D', metric_group: 'p', score_type: 'rank', column: 'd_rank', year: 2024, value: 5, cross_market_mean: 5, diff_from_mean: 0, market_rank: 1, markets_compared: 1, n_rows: 1 }];
      const spec = m.crossMarketBars(rows);
      ${render ? 'await m.renderSvg(spec);' : ''}
      await new Promise((r) => setTimeout(r, 100));`;
    const run = (render: boolean) => spawnSync(process.execPath, ['--input-type=module', '-e', script(render)], { encoding: 'utf8' });
    const quiet = run(false);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toContain('LOADED');
    const rendering = run(true);
    expect(rendering.status, rendering.stderr).toBe(0);
    expect(rendering.stdout).toContain('LOADED vega');
  });
});
