/**
 * Tool results as tables and charts: `toolRecords` flattens each tool's answer into rows that
 * `toDanfo` reads, and the commitment funnel and the worth map render to PNG.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandscapeClient } from '../../src/client/brandscape-client.js';
import { commitmentFunnelChart, renderPng, toolRecords, worthMapChart } from '../../src/index.js';
import { toDanfo } from '../../src/danfo/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
let client: BrandscapeClient;
let studyId: number;
let brands: number[];
let categoryId: number;

beforeAll(async () => {
  emulator = await startEmulator();
  client = recordingClient(emulator).client;
  const study = (await client.studies.page({ filter: { released: true, full_year: true, country_codes: 'GB' }, perPage: 1 })).records[0];
  studyId = study?.id ?? 0;
  const rows = await client.brandscape.all({ filter: { studies: studyId, audiences: 1 }, metricKeys: ['esteem'] });
  const first = rows.find((r) => r.is_duplicate === false);
  categoryId = first?.category_id ?? 0;
  brands = rows.filter((r) => r.category_id === categoryId && r.is_duplicate === false).slice(0, 8).map((r) => r.brand_id ?? 0);
});
afterAll(() => emulator.close());

describe('tool results as tables', () => {
  it('widens the funnel, Love+ and worth maps; passes other tables through; toDanfo reads them', async () => {
    const funnel = await client.turboPitch.commitmentFunnel({ brands, studies: studyId });
    const funnelRows = toolRecords('commitment-funnel', funnel);
    expect(funnelRows[0]).toMatchObject({ brand_id: funnel[0]?.brand_id, usage: funnel[0]?.metrics[0]?.value, recommendation: funnel[0]?.metrics[2]?.value });
    const worth = await client.turboPitch.brandWorthMap({ brands, studies: studyId });
    const worthRows = toolRecords('brand-worth-map', worth);
    expect(worthRows).toHaveLength(brands.length);
    expect(Object.keys(worthRows[0] ?? {})).toEqual(['brand_id', 'brand_name', 'study_id', 'audience_id', 'brand_stature_rank', 'brand_strength_rank']);
    const love = toolRecords('love-plus', await client.turboPitch.lovePlus({ brands, studies: studyId }));
    expect(Object.keys(love[0] ?? {})).toContain('love_plus');
    const swot = await client.turboPitch.swot({ brands: brands[0] ?? 0, studies: studyId, categories: categoryId });
    expect(toolRecords('swot', swot)).toEqual(swot.data);
    const df = await toDanfo(funnelRows);
    expect(df.shape).toEqual([funnelRows.length, Object.keys(funnelRows[0] ?? {}).length]);
  });
});

describe('tool charts', () => {
  it('renders the commitment funnel and the worth map to PNG', async () => {
    const funnel = await client.turboPitch.commitmentFunnel({ brands: brands.slice(0, 5), studies: studyId });
    const funnelPng = await renderPng(commitmentFunnelChart(funnel));
    expect(funnelPng.subarray(1, 4).toString()).toBe('PNG');
    const worth = await client.turboPitch.brandWorthMap({ brands, studies: studyId });
    const spec = worthMapChart(worth);
    const layers = JSON.stringify(spec);
    for (const b of worth.data) expect(layers).toContain(JSON.stringify(b.brand_name).slice(1, -1).slice(0, 10));
    const worthPng = await renderPng(spec);
    expect(worthPng.length).toBeGreaterThan(5000);
    if (process.env['BSK_KEEP_CHARTS']) {
      await writeFile(`${process.env['BSK_KEEP_CHARTS']}/funnel.png`, funnelPng);
      await writeFile(`${process.env['BSK_KEEP_CHARTS']}/worth.png`, worthPng);
    }
    expect(() => commitmentFunnelChart([])).toThrow(/no entries/);
  });
});
