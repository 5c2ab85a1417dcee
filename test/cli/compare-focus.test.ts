/**
 * The focus brand of a comparison: `compareBrands({ focus })` and `brandscape compare --focus`.
 * One of the brands by id or name, highlighted in the chart (outlined in the heatmap, a thick line
 * in the line chart); anything else is a usage error naming `focus` (the library) or `--focus`
 * (the command line), raised before any row is loaded.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createClient } from '../../src/client/create-client.js';
import { compareBrands } from '../../src/compare/compare-brands.js';
import { comparisonChart, comparisonReport } from '../../src/compare/comparison-report.js';
import { crossMarketHeatmapOrder } from '../../src/charts/cross-market-heatmap.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';

const TOKEN = 'compare-focus-token';
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
  dir = await mkdtemp(join(tmpdir(), 'bsk-focus-'));
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
});

const client = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
const rowRequests = () => emulator.requests.filter((r) => r.path.endsWith('/brandscape-data')).length;

const cli = (argv: readonly string[]) => runCli(argv, { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN }, dir);

describe('compareBrands: focus', () => {
  it('a focus by name (case ignored) or id is the resolved brand, and the heatmap outlines its row', async () => {
    const c = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'], focus: 'polora' });
    expect(c.focus?.name).toBe('Polora');
    expect(c.asked.map((a) => a.label).slice(0, 2)).toEqual(['Brands', 'Focus brand']);
    expect(c.asked[1]?.value).toBe(`Polora (${c.focus!.id})`);
    const spec = JSON.stringify(comparisonChart(c));
    expect(spec).toContain('datum.entity === \\"Polora\\"');
    const byId = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'], focus: c.focus!.id });
    expect(byId.focus?.name).toBe('Polora');
    const plain = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'] });
    expect(plain.focus).toBeUndefined();
    expect(JSON.stringify(comparisonChart(plain))).not.toContain('datum.entity ===');
  });

  it('the focus brand\'s rows of the table are its emphasis (bold where the table is shown), by market and by year', async () => {
    const c = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'], focus: 'Polora' });
    const bold = (c.table.emphasis ?? []).map((r) => c.table.rows[r]![0]);
    expect(bold.length).toBe(c.table.rows.filter((row) => row[0] === 'Polora').length);
    expect(new Set(bold)).toEqual(new Set(['Polora']));
    const byYear = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB'], by: 'year', metrics: ['esteem'], focus: 'Veros' });
    expect((byYear.table.emphasis ?? []).map((r) => byYear.table.rows[r]![0])).toEqual(['Veros']);
    const plain = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'] });
    expect(plain.table.emphasis).toBeUndefined();
  });

  it('in a file with a heatmap, the table is in the heatmap\'s row order (the table printed keeps the order given)', async () => {
    const c = await compareBrands(client(), { brands: ['Veros', 'Polora', 'Corvaton Motors'], markets: ['GB', 'DE', 'FR'], focus: 'Polora' });
    if (c.by !== 'market') throw new Error(`expected a comparison by market, got by ${c.by}`);
    const rows = c.result.rows();
    const heatmapOrder = crossMarketHeatmapOrder(rows).map((id) => rows.find((r) => r.entity_id === id)!.global_name);
    const shown = comparisonReport(c).sections[0]!.table;
    const firstBlock = (table: typeof shown) => table.rows.filter((row) => row[1] === table.rows[0]![1]).map((row) => row[0]);
    expect(firstBlock(shown)).toEqual(heatmapOrder);
    expect(firstBlock(c.table)).toEqual(['Veros', 'Polora', 'Corvaton Motors']);
    expect(heatmapOrder).not.toEqual(['Veros', 'Polora', 'Corvaton Motors']);
    // The focus brand's rows stay bold in the reordered table.
    expect(new Set((shown.emphasis ?? []).map((r) => shown.rows[r]![0]))).toEqual(new Set(['Polora']));
  });

  it('by year: the focus line is the thick one', async () => {
    const c = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB'], by: 'year', metrics: ['esteem'], focus: 'Veros' });
    const values = JSON.stringify(comparisonChart(c));
    expect(values).toContain('"strokeWidth":{"condition":{"test":"datum.focus","value":3.5}');
  });

  it('a focus that is not one of the brands is a UsageError naming focus, before any row is loaded', async () => {
    const before = rowRequests();
    const error = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'], focus: 'Lumell' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe("focus: 'Lumell' is not one of the brands compared (Veros and Polora); the focus is one of them. Name one of them, e.g. focus: 'Veros', or add it to brands.");
    expect(rowRequests()).toBe(before);
  });
});

describe('brandscape compare --focus', () => {
  it('an unknown focus exits 2 with a message naming --focus', async () => {
    const r = await cli(['compare', '--brands', 'Veros,Polora', '--markets', 'GB,DE', '--focus', 'Lumell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--focus Lumell is not one of the brands compared (Veros and Polora)');
    expect(r.stderr).toContain('--brands');
    expect(r.stdout).toBe('');
  });

  it('--focus sets the focus brand\'s rows in bold in the coloured terminal table, no other row', async () => {
    const r = await runCli(['compare', '--brands', 'Veros,Polora', '--markets', 'GB,DE', '--metrics', 'esteem', '--focus', 'Polora'], { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, FORCE_COLOR: '1' }, dir);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const row = (name: string) => lines.find((l) => l.replace(/\u001b\[[\d;]*m/g, '').startsWith(name))!;
    expect(row('Polora')).toMatch(/^\u001b\[1mPolora/);
    expect(row('Polora')).toMatch(/\u001b\[1m\s*\d/);
    expect(row('Veros')).not.toContain('\u001b[1m');
  });

  it('--focus draws the focus brand outlined in the chart file', async () => {
    const r = await cli(['compare', '--brands', 'Veros,Polora', '--markets', 'GB,DE', '--focus', 'veros', '--out', 'focus.svg']);
    expect(r.code, r.stderr).toBe(0);
    const svg = await readFile(join(dir, 'focus.svg'), 'utf8');
    expect(svg).toMatch(/stroke="#222222" stroke-width="2"/);
    expect(svg).toMatch(/<text[^>]*font-weight="bold"[^>]*>Veros<\/text>/);
  });
});
