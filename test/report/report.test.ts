/**
 * Reports end to end: every shipped template built against the emulator with the CLI, the workbook
 * read back with exceljs and with openpyxl (an independent reader), values equal to what the frames
 * compute from the same data, the HTML opened in headless Chromium, atomic writes, and
 * `--since-last-run`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createClient } from '../../src/client/create-client.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { crossMarket } from '../../src/frames/cross-market.js';
import { loadComparisonInput } from '../../src/load/load-comparison-input.js';
import { toTidy } from '../../src/frames/to-tidy.js';
import type { ReportSpec } from '../../src/report/report-spec.js';
import { writeXlsx } from '../../src/report/write-xlsx.js';
import { VISIBLE_SHEET_PIXELS, VISIBLE_SHEET_ROWS } from '../../src/report/xlsx-chart-layout.js';
import { checkPage, launchChromium } from '../helpers/browser.js';
import { missingTool, readWithOpenpyxl, type OpenpyxlSheet } from '../helpers/independent-reader.js';

const TOKEN = 'report-SeCrEt-token-5a8c1f';
/** xlsxwriter writing rows (a JSON array of arrays, header first) as one sheet: the size baseline. */
const XLSXWRITER_SCRIPT = `
import json, sys, xlsxwriter
rows = json.load(open(sys.argv[1]))
wb = xlsxwriter.Workbook(sys.argv[2])
ws = wb.add_worksheet("Data")
ws.freeze_panes(1, 0)
ws.add_table(0, 0, len(rows) - 1, len(rows[0]) - 1, {"columns": [{"header": h} for h in rows[0]], "data": rows[1:]})
wb.close()
`;
const TEMPLATES = ['cross-market-brand-health', 'cross-year-trends', 'sector-review', 'company-portfolio', 'competitive-archetypes'];
let emulator: Emulator;
let dir: string;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN] });
  dir = await mkdtemp(join(tmpdir(), 'bsk-report-'));
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[], options: { env?: Record<string, string>; signal?: AbortSignal; onStderr?: (text: string) => void } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: {
      write: (chunk: string) => {
        stderr += chunk;
        options.onStderr?.(chunk);
      },
    },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN, ...options.env },
    signal: options.signal ?? new AbortController().signal,
    cwd: dir,
  });
  return { code, stdout, stderr };
}

const filesIn = async (folder: string) => (await readdir(folder)).sort();
const sha = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

type ExcelJS = typeof import('exceljs');
const loadExcel = async (): Promise<ExcelJS> => ((await import('exceljs')) as unknown as { default: ExcelJS }).default;

describe('every shipped template', () => {
  const built = new Map<string, { xlsx: string; html: string; stdout: string }>();

  beforeAll(async () => {
    for (const name of TEMPLATES) {
      const out = join(dir, name);
      await mkdir(out);
      const r = await cli(['report', name, '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const files = await filesIn(out);
      const xlsx = files.find((f) => f.endsWith('.xlsx'));
      const html = files.find((f) => f.endsWith('.html'));
      expect(xlsx && html, files.join(', ')).toBeTruthy();
      built.set(name, { xlsx: join(out, xlsx!), html: join(out, html!), stdout: r.stdout });
    }
  }, 240_000);

  it('prints where it wrote and one line per section', () => {
    const { stdout } = built.get('cross-market-brand-health')!;
    expect(stdout).toMatch(/^Wrote .*cross-market-brand-health-\d{4}-\d{4}-\d\d-\d\d\.xlsx\nWrote .*\.html\n/);
    expect(stdout).toMatch(/ {2}1\. The four pillars across markets, \d{4}: 3 brands × 6 markets × 4 metrics/);
    expect(stdout).toMatch(/ {2}2\. Power grid, United Kingdom: 3 brands, United Kingdom \d{4}/);
    expect(stdout).toMatch(/ {2}3\. Pillar profile, United Kingdom/);
  });

  it.each(TEMPLATES)('%s: sheets, tables, images, frozen panes and formats, read with exceljs', async (name) => {
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(built.get(name)!.xlsx);
    const sheets = wb.worksheets.map((w) => w.name);
    expect(sheets[0]).toBe('About');
    expect(sheets[sheets.length - 1]).toBe('Data');
    expect(sheets.length).toBeGreaterThanOrEqual(3);
    for (const ws of wb.worksheets.slice(1, -1)) {
      const tables = Object.values((ws as unknown as { tables: Record<string, { table: { tableRef: string } }> }).tables);
      expect(tables, ws.name).toHaveLength(1);
      // The header is frozen at row 4, except under a chart above the table (which it would freeze).
      const headerRow = Number(/^A(\d+)/.exec(tables[0]!.table.tableRef)?.[1]);
      if (headerRow === 4) expect(ws.views[0], ws.name).toMatchObject({ state: 'frozen', ySplit: 4 });
      else expect((ws.views as typeof ws.views | null)?.filter((v) => v.state === 'frozen') ?? [], ws.name).toEqual([]);
      expect(ws.getRow(headerRow).getCell(1).value, ws.name).toBeTypeOf('string');
    }
    const data = wb.getWorksheet('Data')!;
    expect(data.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = (data.getRow(1).values as unknown[]).slice(1);
    // A report without brandscape sections carries the archetype entries behind it instead.
    const expected =
      name === 'competitive-archetypes'
        ? ['study_id', 'audience_id', 'brand_id', 'brand_name', 'archetype', 'cultural_score', 'cultural_rank', 'competitive_score', 'competitive_rank', 'comparison_name']
        : ['study_id', 'country_code', 'year', 'audience_id', 'brand_id', 'brand_name', 'category_id', 'is_duplicate', 'metric', 'score_type', 'column', 'value'];
    for (const column of expected) expect(header, column).toContain(column);
  });

  // openpyxl reads a 56,000-row Data sheet in about 16 CPU-seconds: on a busy 2-core machine that nears the default 30 s.
  it.each(TEMPLATES)('%s: the same workbook through openpyxl: tables, two-cell images, frozen header, autofilter, text stays text', async (name) => {
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    const sheets = await readWithOpenpyxl(built.get(name)!.xlsx, 60);
    const sections = sheets.slice(1, -1);
    for (const s of sections) {
      expect(s.tables, s.name).toHaveLength(1);
      expect(s.tables[0]).toMatchObject({ style: 'TableStyleMedium2', stripes: true });
      for (const image of s.images) {
        expect(image.anchor).toBe('TwoCellAnchor');
        expect(image.to![0]).toBeGreaterThan(image.from[0]);
        expect(image.to![1]).toBeGreaterThan(image.from[1]);
      }
    }
    // Every section with a chart has its image (competitive-archetypes: both; company-portfolio: two of three).
    expect(sections.filter((s) => s.images.length === 1).length, sections.map((s) => s.name).join(', ')).toBeGreaterThanOrEqual(name === 'company-portfolio' ? 2 : sections.length);
    // Every chart is seen with its table on a 1366 px laptop screen (1280 x 24 rows of sheet):
    // beside it from its first row, under the frozen header; below a short table; or above a
    // long one, under the title, with the table after it and nothing frozen. Its top is in the
    // screen's top half on opening, and it is within the screen's width.
    const layouts: string[] = [];
    for (const s of sections) {
      const [, headerRow, lastRow] = /^A(\d+):[A-Z]+(\d+)$/.exec(s.tables[0]!.ref)!.map(Number) as [number, number, number];
      const image = s.images[0];
      const where = !image ? 'none' : image.from[1] === 4 && image.left_px > 0 ? 'beside' : image.from[1] === 2 ? 'above' : 'below';
      layouts.push(`${s.name}: ${where}`);
      if (where === 'above') expect(s.freeze, s.name).toBeNull();
      else {
        expect(s.freeze, s.name).toMatch(/^[A-Z]+5$/);
        expect(headerRow, s.name).toBe(4);
      }
      if (!image) continue;
      if (where === 'beside') expect(image.from[0], s.name).toBeGreaterThanOrEqual(s.tables[0]!.columns.length);
      else expect(image.from[0], s.name).toBe(0);
      // 0-based anchor rows against 1-based table rows.
      if (where === 'above') {
        expect(headerRow - 1, s.name).toBeGreaterThan(image.to![1]);
        // The table's header and first three rows are on the screen too.
        expect(headerRow + 3, s.name).toBeLessThanOrEqual(VISIBLE_SHEET_ROWS);
      }
      if (where === 'below') expect(image.from[1], s.name).toBeGreaterThan(lastRow - 1);
      expect(image.from[1], s.name).toBeLessThanOrEqual(VISIBLE_SHEET_ROWS / 2);
      expect(image.right_px, s.name).toBeLessThanOrEqual(VISIBLE_SHEET_PIXELS);
      expect(image.width_px, s.name).toBeGreaterThan(300);
    }
    // Notes stay within their table's width: a long one is wrapped in cells merged across the
    // table's columns (under a chart beside the table it would be hidden, or run off the screen).
    for (const s of sections) {
      const lastColumn = /^A\d+:([A-Z]+)\d+$/.exec(s.tables[0]!.ref)![1]!;
      for (const range of s.merged) expect(range, s.name).toMatch(new RegExp(`^A(\\d+):${lastColumn}\\1$`));
      if (name === 'sector-review' && s.name.startsWith('3.')) {
        const noteRow = s.rows.findIndex((row) => typeof row[0] === 'string' && row[0].startsWith('• Each sector'));
        expect(s.merged, s.name).toContain(`A${noteRow + 1}:${lastColumn}${noteRow + 1}`);
      }
    }
    // A header much longer than its values is set on two lines (the row two lines tall), so that
    // the table is as narrow as its numbers; the others stay on one.
    if (name === 'competitive-archetypes') {
      const s = sections[0]!;
      const header = s.rows[3]!;
      const wraps = header.map((_, c) => s.wrapped.some(([r, col]) => r === 4 && col === c + 1));
      expect(Object.fromEntries(header.map((h, c) => [h, wraps[c]]))).toEqual({ Brand: false, Archetype: false, 'Cultural score': true, 'Cultural rank': true, 'Competitive score': true, 'Competitive rank': true });
      expect(s.heights['4']).toBe(30);
    }
    // The long tables of these templates have their chart beside them (they did not fit before the
    // narrow layouts: a 36-row and a 32-row table).
    if (name === 'competitive-archetypes') expect(layouts.every((l) => l.endsWith(': beside')), layouts.join('; ')).toBe(true);
    if (name === 'cross-year-trends') expect(layouts.every((l) => l.endsWith(': beside')), layouts.join('; ')).toBe(true);
    // The Data sheet is an Excel table like every other sheet's, over every row.
    const data = sheets[sheets.length - 1]!;
    expect(data.freeze).toBe('A2');
    const lastColumn = name === 'competitive-archetypes' ? 'L' : 'V';
    expect(data.tables).toHaveLength(1);
    expect(data.tables[0]).toMatchObject({ name: 'Data_rows', ref: `A1:${lastColumn}${data.max_row}`, style: 'TableStyleMedium2', stripes: true });
    expect(data.tables[0]!.columns).toEqual(data.rows[0]);
    expect(data.max_row).toBeGreaterThan(10);
  }, 120_000);

  it('sector-review: the Data sheet holds the template\'s sectors only, and takes no more room than xlsxwriter\'s for the same rows', async () => {
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    const file = built.get('sector-review')!.xlsx;
    const sheets = await readWithOpenpyxl(file, 100_000);
    const data = sheets[sheets.length - 1]!;
    const header = data.rows[0] as string[];
    const sectors = new Set(data.rows.slice(1).map((r) => r[header.indexOf('sector_id')]));
    expect([...sectors].sort((a, b) => Number(a) - Number(b))).toEqual([2, 6, 12, 16, 19]);
    // The same rows through python's xlsxwriter (its smallest file: shared strings, an Excel
    // table): the compressed Data sheet and shared strings of ours take at most 5 % more room.
    const xlsxwriter = await missingTool('xlsxwriter');
    if (xlsxwriter) return void console.warn(`size comparison skipped: ${xlsxwriter}`);
    const rows = join(dir, 'sector-rows.json');
    await writeFile(rows, JSON.stringify(data.rows));
    const theirs = join(dir, 'sector-xlsxwriter.xlsx');
    await promisify(execFile)('/usr/bin/python3', ['-c', XLSXWRITER_SCRIPT, rows, theirs]);
    const ours = await zipEntrySizes(file);
    const xw = await zipEntrySizes(theirs);
    const dataPart = (sizes: Map<string, number>, sheet: string) => (sizes.get(sheet) ?? Number.NaN) + (sizes.get('xl/sharedStrings.xml') ?? 0);
    const dataSheet = [...ours.keys()].filter((k) => /^xl\/worksheets\/sheet\d+\.xml$/.test(k)).sort((a, b) => (ours.get(b) ?? 0) - (ours.get(a) ?? 0))[0]!;
    expect(dataPart(ours, dataSheet)).toBeLessThanOrEqual(1.05 * dataPart(xw, 'xl/worksheets/sheet1.xml'));
  }, 180_000);

  it('cross-market matrix: the values the frames compute from the same data, at full precision, ranks formatted as integers', async () => {
    const client = createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
    const about = await readAbout(built.get('cross-market-brand-health')!.xlsx);
    const year = Number(/^(\d{4})/.exec(about.get('Years') ?? '')?.[1]);
    const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE', 'FR', 'IT', 'ES', 'US'], years: [year], metricGroupKeys: ['pillars'], only: { brands: [305, 23, 6] } });
    const expected = crossMarket(input, { year, metrics: ['differentiation', 'relevance', 'esteem', 'knowledge'], brands: [305, 23, 6], markets: ['GB', 'DE', 'FR', 'IT', 'ES', 'US'], missing: 'note' }).rows();
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(built.get('cross-market-brand-health')!.xlsx);
    const ws = wb.worksheets[1]!;
    // The table's header row: 4, or under the chart when the chart is above the table.
    const top = Number(/^A(\d+)/.exec(Object.values((ws as unknown as { tables: Record<string, { table: { tableRef: string } }> }).tables)[0]!.table.tableRef)?.[1]);
    const header = (ws.getRow(top).values as unknown[]).slice(1) as string[];
    expect(header).toEqual(['Brand', 'Metric', 'United Kingdom', 'Germany', 'France', 'Italy', 'Spain', 'United States', 'Mean']);
    let checked = 0;
    for (let r = top + 1; r < top + 1 + 12; r++) {
      const row = ws.getRow(r);
      const brand = row.getCell(1).value as string;
      const metric = (row.getCell(2).value as string).replace(/ \(rank\)$/, '');
      for (const [c, market] of header.slice(2, 8).entries()) {
        const cell = row.getCell(c + 3);
        const want = expected.find((e) => e.global_name === brand && e.metric_name === metric && e.market === market);
        expect(cell.value ?? null, `${brand} ${metric} ${market}`).toBe(want?.value ?? null);
        if (want?.value !== null && want !== undefined) {
          expect(cell.numFmt).toBe('0');
          checked++;
        }
      }
      const mean = expected.find((e) => e.global_name === brand && e.metric_name === metric)?.cross_market_mean;
      expect(row.getCell(9).value).toBe(mean);
    }
    expect(checked).toBeGreaterThan(60);
    // Three colour scales at least: one per metric block.
    expect(((ws as unknown as { conditionalFormattings: unknown[] }).conditionalFormattings ?? []).length).toBeGreaterThanOrEqual(4);
  });

  it("Data sheet: toTidy's rows of the same data, one per study x audience x brand x category x metric column", async () => {
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    const client = createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
    const about = await readAbout(built.get('cross-market-brand-health')!.xlsx);
    const year = Number(/^(\d{4})/.exec(about.get('Years') ?? '')?.[1]);
    const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE', 'FR', 'IT', 'ES', 'US'], years: [year], metricGroupKeys: ['pillars'], only: { brands: [305, 23, 6] } });
    const tidy = toTidy(input, { dedupe: 'none' });
    const sheets = await readWithOpenpyxl(built.get('cross-market-brand-health')!.xlsx, 100_000);
    const data = sheets[sheets.length - 1]!;
    expect(data.max_row).toBe(tidy.length + 1);
    const header = data.rows[0] as string[];
    const key = (r: Record<string, unknown>) => `${String(r['study_id'])}|${String(r['brand_id'])}|${String(r['category_id'])}|${String(r['column'])}`;
    const sheetRows = new Map(data.rows.slice(1).map((row) => {
      const rec = Object.fromEntries(header.map((h, i) => [h, row[i]]));
      return [key(rec), rec];
    }));
    for (const want of tidy.rows()) {
      const got = sheetRows.get(key(want as unknown as Record<string, unknown>));
      expect(got, key(want as unknown as Record<string, unknown>)).toBeDefined();
      expect(got!['value'] ?? null).toBe(want.value);
      expect(got!['is_duplicate']).toBe(want.is_duplicate);
      expect(got!['brand_name']).toBe(want.brand_name);
    }
    // Types as they should be: numbers are numbers, flags booleans, names text.
    const types = data.types[1]!;
    expect(types[header.indexOf('study_id')]).toBe('n');
    expect(types[header.indexOf('is_duplicate')]).toBe('b');
    expect(types[header.indexOf('market')]).toBe('s');
  });

  it.each(TEMPLATES)('%s: the HTML report opens in headless Chromium with every chart drawn and nothing fetched', async (name) => {
    const why = await missingTool('chromium');
    if (why) return void console.warn(`skipped: ${why}`);
    const browser = await sharedBrowser();
    const check = await checkPage(browser, built.get(name)!.html);
    expect(check.external).toEqual([]);
    expect(check.errors).toEqual([]);
    expect(check.figures.length).toBeGreaterThanOrEqual(name === 'company-portfolio' ? 2 : 2);
    for (const f of check.figures) {
      expect(f.width).toBeGreaterThan(200);
      expect(f.height).toBeGreaterThan(100);
      expect(f.marks).toBeGreaterThan(20);
      // Interactive without a script: every data mark has a hover title with names and a rounded value.
      expect(f.dataMarks).toBeGreaterThan(0);
      expect(f.titles).toBe(f.dataMarks);
      expect(f.titleTexts.every((t) => /: /.test(t) && !/\d\.\d{4,}/.test(t))).toBe(true);
      // As wide as the content column (no empty right margin), text no smaller than the tables' 13 px.
      expect(f.width).toBeGreaterThan(f.columnWidth * 0.7);
      expect(f.width).toBeLessThanOrEqual(f.columnWidth + 1);
      expect(f.minFontPx).toBeGreaterThanOrEqual(12.5);
    }
    // Screen readers are given titled fields, never raw field names (`market_label: France`).
    expect(check.ariaLabels.filter((l) => /\b[a-z]+_[a-z_]+: /.test(l))).toEqual([]);
    // Numbers are rounded for display: in the text and in what screen readers are given.
    expect(check.text).not.toMatch(/chart could not be drawn/);
    expect(check.text).not.toMatch(/\d\.\d{5,}/);
    expect(check.ariaLabels.filter((l) => /\d\.\d{5,}/.test(l))).toEqual([]);
  });

  it('no file holds the token', async () => {
    for (const { xlsx, html } of built.values()) {
      for (const file of [xlsx, html]) expect((await readFile(file)).includes(TOKEN)).toBe(false);
      const folder = join(xlsx, '..');
      for (const f of await filesIn(folder)) expect((await readFile(join(folder, f))).includes(TOKEN), f).toBe(false);
    }
  });
});

let browser: Browser | undefined;
const sharedBrowser = async () => (browser ??= await launchChromium());
afterAll(() => browser?.close());

/** Compressed sizes of a zip's entries, by name. */
async function zipEntrySizes(file: string): Promise<Map<string, number>> {
  const { unzipSync } = await import('fflate');
  const sizes = new Map<string, number>();
  unzipSync(new Uint8Array(await readFile(file)), { filter: (f) => (sizes.set(f.name, f.size), false) });
  return sizes;
}

/** The About sheet's label -> value pairs. */
async function readAbout(file: string): Promise<Map<string, string>> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet('About')!;
  const out = new Map<string, string>();
  ws.eachRow((row) => {
    const label = row.getCell(1).value;
    const value = row.getCell(2).value;
    if (typeof label === 'string' && typeof value === 'string') out.set(label, value);
  });
  return out;
}

describe('text that looks like a formula', () => {
  it('is written as text, never as a formula, on section sheets and the Data sheet', async () => {
    const tricky = ['=1+2', '+SUM(A1:A2)', '-2+3', '@cmd', '\tHYPERLINK("x")', '\r=A1', '=cmd|\' /C calc\'!A0'];
    const table = {
      columns: [
        { key: 'name', header: 'Name', format: 'text' as const },
        { key: 'value', header: 'Value', format: 'rank' as const },
      ],
      rows: tricky.map((t, i) => [t, i]),
      keyColumns: 1,
      colourScales: [],
    };
    const spec: ReportSpec = {
      title: '=HYPERLINK("http://example.com")',
      description: null,
      template: 'test',
      generatedAt: '2026-01-01T00:00:00Z',
      about: { items: [{ label: 'Report', value: '=1+1' }], parameters: { ...table, rows: [] }, queries: { ...table, rows: [] } },
      notes: ['@note'],
      sections: [{ index: 1, kind: 'cross-market', title: '=A1', description: null, table, chart: null, notes: ['=2'], summary: '+x' }],
      data: { columns: table.columns, rows: table.rows, keyColumns: 0, colourScales: [] },
    };
    const file = join(dir, 'formula.xlsx');
    await writeXlsx(spec, file);
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    for (const name of [wb.worksheets[1]!.name, 'Data']) {
      const ws = wb.getWorksheet(name)!;
      const first = name === 'Data' ? 2 : 5;
      tricky.forEach((text, i) => {
        const cell = ws.getRow(first + i).getCell(1);
        expect(cell.type, `${name} ${JSON.stringify(text)}`).toBe(ExcelJS.ValueType.String);
        // XML keeps a carriage return as a line feed; the text is otherwise as given.
        expect(cell.value).toBe(text.replace(/\r/g, '\n'));
      });
    }
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    const sheets: OpenpyxlSheet[] = await readWithOpenpyxl(file);
    for (const sheet of sheets) for (const row of sheet.types) expect(row, sheet.name).not.toContain('f');
    expect(sheets[1]!.rows.slice(4, 4 + tricky.length).map((r) => r[0])).toEqual(tricky.map((t) => t.replace(/\r/g, '\n')));
    expect(sheets[2]!.rows.slice(1, 1 + tricky.length).map((r) => r[0])).toEqual(tricky.map((t) => t.replace(/\r/g, '\n')));
  });
});

describe('writing', () => {
  it('a run that fails keeps the previous report and leaves no temporary file', async () => {
    const out = join(dir, 'atomic');
    await mkdir(out);
    const first = await cli(['report', 'competitive-archetypes', '--out', out]);
    expect(first.code, first.stderr).toBe(0);
    const before = await filesIn(out);
    const hashes = await Promise.all(before.map((f) => sha(join(out, f))));
    // A service failure halfway: the archetypes tool refuses.
    emulator.faults.add({ path: '/tools/archetypes', kind: 404, times: Infinity });
    try {
      const failed = await cli(['report', 'competitive-archetypes', '--out', out]);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toMatch(/answered 404/);
    } finally {
      emulator.faults.clear();
    }
    // Interrupted while writing: the files are staged, none is renamed into place.
    const controller = new AbortController();
    const interrupted = await cli(['report', 'competitive-archetypes', '--out', out], {
      signal: controller.signal,
      onStderr: (text) => {
        if (/Writing .*\.html/.test(text)) controller.abort();
      },
    });
    expect(interrupted.code).not.toBe(0);
    expect(await filesIn(out)).toEqual(before);
    expect(await Promise.all(before.map((f) => sha(join(out, f))))).toEqual(hashes);
  }, 60_000);

  it('writes a workbook of the section sheets alone on request', async () => {
    const table = { columns: [{ key: 'a', header: 'Brand', format: 'text' as const }, { key: 'b', header: 'Esteem', format: 'rank' as const }], rows: [['Veros', 71.25]], keyColumns: 1, colourScales: [] };
    const spec: ReportSpec = {
      title: 'One sheet', description: null, template: 'test', generatedAt: '2026-01-01T00:00:00Z',
      about: { items: [], parameters: { ...table, rows: [] }, queries: { ...table, rows: [] } }, notes: [],
      sections: [{ index: 1, kind: 'cross-market', title: 'Esteem', description: null, table, chart: null, notes: [], summary: '1 brand' }],
      data: { ...table, rows: [] },
    };
    const file = join(dir, 'one-sheet.xlsx');
    await writeXlsx(spec, file, { sheets: { about: false, data: false } });
    const ExcelJS = await loadExcel();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['1. Esteem']);
    expect(wb.worksheets[0]!.getRow(5).getCell(2).value).toBe(71.25);
    expect(wb.worksheets[0]!.getRow(5).getCell(2).numFmt).toBe('0');
  });

  it('refuses an output folder that does not exist, before loading anything', async () => {
    emulator.clearRequests();
    const r = await cli(['report', 'cross-market-brand-health', '--out', join(dir, 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/The output folder .*nowhere does not exist/);
    expect(emulator.requests.filter((q) => q.path.includes('brandscape-data'))).toEqual([]);
  });

  it('--format picks the files written', async () => {
    const out = join(dir, 'xlsx-only');
    await mkdir(out);
    const r = await cli(['report', 'competitive-archetypes', '--out', out, '--format', 'xlsx']);
    expect(r.code).toBe(0);
    expect((await filesIn(out)).filter((f) => !f.startsWith('.'))).toEqual([expect.stringMatching(/\.xlsx$/)]);
    const bad = await cli(['report', 'competitive-archetypes', '--out', out, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format takes xlsx, html or both/);
  });
});

describe('npm start', () => {
  it("builds the flagship report against an in-process emulator with the built CLI, and prints the paths", async () => {
    const out = join(dir, 'start');
    await mkdir(out);
    const env = { ...process.env };
    delete env['BRANDSCAPE_BASE_URL'];
    delete env['BRANDSCAPE_TOKEN'];
    const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, 'report', 'cross-market-brand-health', '--out', out], { env, cwd: dir });
    expect(stderr).toMatch(/BRANDSCAPE_BASE_URL is not set; using an in-process emulator/);
    const written = stdout.split('\n').filter((l) => l.startsWith('Wrote ')).map((l) => l.slice(6));
    expect(written).toHaveLength(2);
    // Paths are shown relative to the working directory.
    expect(written.map((f) => f.startsWith('start/'))).toEqual([true, true]);
    for (const file of written) expect((await stat(join(dir, file))).size).toBeGreaterThan(1000);
    expect(JSON.parse(await readFile(join(process.cwd(), 'package.json'), 'utf8')).scripts.start).toMatch(/report cross-market-brand-health --out reports/);
  }, 60_000);
});

describe('--since-last-run', () => {
  it('skips when no study behind the report changed, and rebuilds after a study is published', async () => {
    // An emulator of its own: publishing changes its data.
    const own = await createEmulator({ port: 0, tokens: [TOKEN] });
    try {
      const out = join(dir, 'since');
      await mkdir(out);
      const env = { BRANDSCAPE_BASE_URL: own.url };
      // Thailand's latest study is not released yet: 'latest' is the year before.
      const args = ['report', 'cross-market-brand-health', '--out', out, '-p', 'markets=GB,TH', '-p', 'focus_market=GB', '--since-last-run'];
      const first = await cli(args, { env });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^Wrote /);
      const state = JSON.parse(await readFile(join(out, '.cross-market-brand-health.last-run.json'), 'utf8')) as { studies: { countryCode: string; year: number }[] };
      const before = Math.max(...state.studies.map((s) => s.year));
      const files = await filesIn(out);
      const mtimes = await Promise.all(files.map(async (f) => (await stat(join(out, f))).mtimeMs));

      const second = await cli(args, { env });
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/^Up to date: no study behind cross-market-brand-health changed since the last run/);
      expect(await Promise.all(files.map(async (f) => (await stat(join(out, f))).mtimeMs))).toEqual(mtimes);

      // Other parameters are another report: built, not skipped.
      const other = await cli([...args.slice(0, -1), '-p', 'audience=1', '--since-last-run', '-p', 'brands=Veros'], { env });
      expect(other.stdout).toMatch(/^Wrote /);

      const published = await fetch(`${own.url}/__emulator/publish`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"kind":"study"}' });
      expect(published.status).toBe(200);
      const third = await cli(args, { env });
      expect(third.code).toBe(0);
      expect(third.stdout).toMatch(/^Wrote /);
      const after = JSON.parse(await readFile(join(out, '.cross-market-brand-health.last-run.json'), 'utf8')) as { studies: { countryCode: string; year: number }[] };
      // The new study moved 'latest' on: Thailand's new year is in the report.
      expect(Math.max(...after.studies.map((s) => s.year))).toBe(before + 1);
      expect(after.studies.some((s) => s.countryCode === 'TH' && s.year === before + 1)).toBe(true);
      const fourth = await cli(args, { env });
      expect(fourth.stdout).toMatch(/^Up to date/);
    } finally {
      await own.close();
    }
  }, 120_000);
});
