/**
 * The focus brand of a report: the `focus_brand` parameter of cross-market-brand-health and
 * cross-year-trends (default `first`, the first of `brands`) reaches the heatmap, the line and the
 * slope charts, sets its rows in bold in the tables (workbook, HTML, and compare's terminal and
 * MCP tables) and is named on the About sheet; `none` turns it off; a brand not in the report is a
 * UsageError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';
import { buildReport } from '../../src/report/build-report.js';
import { loadReportData, type ReportData } from '../../src/report/load-report-data.js';
import { loadTemplate } from '../../src/report/template/load-template.js';
import { resolveTemplate } from '../../src/report/template/resolve-template.js';
import type { ReportSpec, ReportTable } from '../../src/report/report-spec.js';
import { writeXlsx } from '../../src/report/write-xlsx.js';
import { writeHtml } from '../../src/report/write-html.js';
import { readWithOpenpyxl, missingTool } from '../helpers/independent-reader.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOKEN = 'focus-brand-token';
let emulator: Emulator;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const client = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });

/** The report's sections' charts as JSON, for focus_brand given as `-p` would give it, and the report. */
async function charts(name: string, parameters: Record<string, string>, data?: ReportData): Promise<{ charts: string[]; data: ReportData; spec: ReportSpec }> {
  const resolved = resolveTemplate(await loadTemplate(name), parameters);
  const loaded = data ?? (await loadReportData(client(), resolved));
  const spec = buildReport(resolved, loaded);
  return { charts: spec.sections.map((s) => JSON.stringify(s.chart)), data: loaded, spec };
}

/** The names in the first column of a table's bold rows. */
const boldNames = (table: ReportTable) => [...new Set((table.emphasis ?? []).map((r) => table.rows[r]![0]))];

describe('focus_brand in cross-market-brand-health', () => {
  it('the heatmap outlines the focus brand: by default the first of brands, else the one named; none for none', async () => {
    const byDefault = await charts('cross-market-brand-health', {});
    expect(byDefault.charts[0]).toContain('datum.entity === \\"Veros\\"');
    const named = await charts('cross-market-brand-health', { focus_brand: 'polora' }, byDefault.data);
    expect(named.charts[0]).toContain('datum.entity === \\"Polora\\"');
    expect(named.charts[0]).not.toContain('datum.entity === \\"Veros\\"');
    const none = await charts('cross-market-brand-health', { focus_brand: 'none' }, byDefault.data);
    expect(none.charts[0]).not.toContain('datum.entity ===');
    // The table beside the heatmap: the focus brand's rows (one per metric) in bold, no others.
    const table = byDefault.spec.sections[0]!.table;
    expect(boldNames(table)).toEqual(['Veros']);
    expect(table.emphasis).toHaveLength(table.rows.filter((row) => row[0] === 'Veros').length);
    expect(boldNames(named.spec.sections[0]!.table)).toEqual(['Polora']);
    expect(none.spec.sections[0]!.table.emphasis).toBeUndefined();
    // The About sheet names the brand `first` stood for.
    expect(byDefault.spec.about.items.find((i) => i.label === 'Focus brand')?.value).toMatch(/^Veros \(\d+\): /);
    expect(none.spec.about.items.find((i) => i.label === 'Focus brand')).toBeUndefined();
    const error = await charts('cross-market-brand-health', { focus_brand: 'Lumell' }, byDefault.data).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain("The focus brand 'Lumell' is not one of the brands of section 1 (Veros, Polora and Corvaton Motors).");
  }, 60_000);
});

describe('focus_brand in cross-year-trends', () => {
  it('the line chart and the slope chart draw the focus line thick', async () => {
    const { charts: specs } = await charts('cross-year-trends', { focus_brand: 'Polora' });
    const thick = '"strokeWidth":{"condition":{"test":"datum.focus","value":3.5}';
    expect(specs[0]).toContain(thick);
    expect(specs[1]).toContain(thick);
  }, 60_000);
});

describe('the focus rows in what readers open', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'focus-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('bold in the workbook (read back with openpyxl) and in the HTML table', async () => {
    const { spec } = await charts('cross-year-trends', { focus_brand: 'Polora' });
    const table = spec.sections[0]!.table;
    expect(boldNames(table)).toEqual(['Polora']);
    await writeHtml(spec, join(dir, 'r.html'));
    const html = await readFile(join(dir, 'r.html'), 'utf8');
    const focusRows = [...html.matchAll(/<tr class="(?:block-start )?focus">(.*?)<\/tr>/g)].map((m) => m[1]!);
    expect(focusRows.length).toBe(spec.sections.reduce((n, s) => n + (s.table.emphasis?.length ?? 0), 0));
    expect(focusRows.length).toBeGreaterThan(table.emphasis!.length);
    for (const row of focusRows) expect(row).toMatch(/^<th scope="row"[^>]*>Polora</);
    const why = await missingTool('openpyxl');
    if (why) return void console.warn(`skipped: ${why}`);
    await writeXlsx(spec, join(dir, 'r.xlsx'), { sheets: { data: false } });
    const [, sheet] = await readWithOpenpyxl(join(dir, 'r.xlsx'));
    const [, top, last] = /^A(\d+):[A-Z]+(\d+)$/.exec(sheet!.tables[0]!.ref)!.map(Number) as [number, number, number];
    const inBody = sheet!.bold.filter(([r]) => r > top && r <= last);
    expect([...new Set(inBody.map(([r]) => r))]).toEqual(table.emphasis!.map((r) => top + 1 + r));
    // The whole row, every column of the table.
    expect(inBody).toHaveLength(table.emphasis!.length * table.columns.length);
  }, 60_000);
});
