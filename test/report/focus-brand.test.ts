/**
 * The focus brand of a report: the `focus_brand` parameter of cross-market-brand-health and
 * cross-year-trends (default `first`, the first of `brands`) reaches the heatmap, the line and the
 * slope charts; `none` turns it off; a brand not in the report is a UsageError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { UsageError } from '../../src/errors.js';
import { buildReport } from '../../src/report/build-report.js';
import { loadReportData, type ReportData } from '../../src/report/load-report-data.js';
import { loadTemplate } from '../../src/report/template/load-template.js';
import { resolveTemplate } from '../../src/report/template/resolve-template.js';

const TOKEN = 'focus-brand-token';
let emulator: Emulator;

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN], rateLimit: 0 });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
});

const client = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });

/** The report's sections' charts as JSON, for focus_brand given as `-p` would give it. */
async function charts(name: string, parameters: Record<string, string>, data?: ReportData): Promise<{ charts: string[]; data: ReportData }> {
  const resolved = resolveTemplate(await loadTemplate(name), parameters);
  const loaded = data ?? (await loadReportData(client(), resolved));
  return { charts: buildReport(resolved, loaded).sections.map((s) => JSON.stringify(s.chart)), data: loaded };
}

describe('focus_brand in cross-market-brand-health', () => {
  it('the heatmap outlines the focus brand: by default the first of brands, else the one named; none for none', async () => {
    const byDefault = await charts('cross-market-brand-health', {});
    expect(byDefault.charts[0]).toContain('datum.entity === \\"Veros\\"');
    const named = await charts('cross-market-brand-health', { focus_brand: 'polora' }, byDefault.data);
    expect(named.charts[0]).toContain('datum.entity === \\"Polora\\"');
    expect(named.charts[0]).not.toContain('datum.entity === \\"Veros\\"');
    const none = await charts('cross-market-brand-health', { focus_brand: 'none' }, byDefault.data);
    expect(none.charts[0]).not.toContain('datum.entity ===');
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
