/**
 * Where a workbook puts a section's chart (report/xlsx-chart-layout.ts), on charts drawn from the
 * emulator's data: beside its table when the chart can be laid out in the room there with its text
 * at (nearly) full size, else below a short table or above a long one; and the narrow layout
 * (charts/narrow.ts) it uses to get there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { archetypeHeatmap } from '../../src/charts/archetype-heatmap.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { CHART_FONT_SIZES } from '../../src/charts/chart-theme.js';
import { crossMarketHeatmap } from '../../src/charts/cross-market-heatmap.js';
import { crossYearLines } from '../../src/charts/cross-year-lines.js';
import { measureText } from '../../src/charts/measure-text.js';
import { narrowLayout } from '../../src/charts/narrow.js';
import { renderSvg, svgSize } from '../../src/charts/render.js';
import { CHART_GAP_PIXELS, VISIBLE_SHEET_PIXELS, layOutChart } from '../../src/report/xlsx-chart-layout.js';
import { loadEmulatorRows, type EmulatorRows } from '../charts/emulator-rows.js';

let rows: EmulatorRows;
beforeAll(async () => {
  rows = await loadEmulatorRows();
}, 120_000);

/** Every `legend` object of a spec (data left out). */
function legendsOf(node: unknown): Record<string, unknown>[] {
  if (Array.isArray(node)) return node.flatMap(legendsOf);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([key, value]) =>
    key === 'data' ? [] : key === 'legend' && typeof value === 'object' && value !== null ? [value as Record<string, unknown>, ...legendsOf(value)] : legendsOf(value),
  );
}

describe('narrowLayout', () => {
  it('moves legends from the right to above the plot, wraps the title to the width, and leaves data and text sizes alone', () => {
    const spec = crossYearLines(rows.crossYear);
    expect(legendsOf(spec).some((l) => l['orient'] === 'right')).toBe(true);
    const narrow = narrowLayout(spec, 300);
    expect(legendsOf(narrow).every((l) => l['orient'] !== 'right' && l['orient'] !== 'left')).toBe(true);
    expect(legendsOf(narrow).filter((l) => l['orient'] === 'top').length).toBeGreaterThan(0);
    const title = narrow['title'] as { text: string | string[]; subtitle?: string | string[] };
    const lines = [title.text].flat();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(measureText(line, CHART_FONT_SIZES.title, true)).toBeLessThanOrEqual(300);
    // The same words, in lines.
    expect(lines.join(' ')).toBe([(spec['title'] as { text: string | string[] }).text].flat().join(' '));
    expect(narrow['data']).toBe(spec['data']);
    expect(narrow['config']).toMatchObject({ legend: { labelFontSize: CHART_FONT_SIZES.legendLabel } });
  });

  it('with stack, turns a facet\'s columns into rows headed above each panel', () => {
    const spec = archetypeHeatmap(rows.archetypes);
    const stacked = narrowLayout(spec, 500, { stack: true }) as { facet: { row?: { header: Record<string, unknown> }; column?: unknown } };
    expect(stacked.facet.column).toBeUndefined();
    expect(stacked.facet.row?.header).toMatchObject({ labelOrient: 'top', labelAngle: 0 });
  });
});

describe('layOutChart', () => {
  /** The room beside a table this wide. */
  const room = (tableWidth: number) => VISIBLE_SHEET_PIXELS - tableWidth - CHART_GAP_PIXELS;

  it('puts a chart that fits beside a narrow table there as drawn', async () => {
    const spec = crossYearLines(rows.crossYear.filter((r) => r.country_code === rows.markets[0] && r.metric_name === 'Esteem'));
    const natural = svgSize(await renderSvg(spec));
    const chart = await layOutChart(spec, { width: 300, endRow: 40 });
    expect(chart.where).toBe('beside');
    expect(chart.drawn.width).toBeCloseTo(natural.width, 0);
    expect(chart.shown).toEqual({ width: Math.round(chart.drawn.width), height: Math.round(chart.drawn.height) });
  });

  it('lays a wide chart out again for the room beside a table, its text at 0.85 of its size or more, rather than shrinking it', async () => {
    const spec = crossYearLines(rows.crossYear);
    const natural = svgSize(await renderSvg(spec));
    const tableWidth = 790;
    expect(natural.width).toBeGreaterThan(room(tableWidth));
    const chart = await layOutChart(spec, { width: tableWidth, endRow: 37 });
    expect(chart.where).toBe('beside');
    expect(chart.shown.width).toBeLessThanOrEqual(room(tableWidth));
    expect(chart.shown.width / chart.drawn.width).toBeGreaterThanOrEqual(0.85);
    // The drawing itself is narrower (its panels), not a picture of the wide one made small.
    expect(chart.drawn.width).toBeLessThan(natural.width * 0.6);
    expect(svgSize(await renderSvg(chart.spec)).width).toBeCloseTo(chart.drawn.width, 0);
  });

  it('stacks a faceted heatmap whose cells cannot narrow enough, beside a long narrow table', async () => {
    const spec = archetypeHeatmap(rows.archetypes);
    const tableWidth = 620;
    const chart = await layOutChart(spec, { width: tableWidth, endRow: 41 });
    expect(chart.where).toBe('beside');
    expect((chart.spec as { facet: { row?: unknown } }).facet.row).toBeDefined();
    expect(chart.shown.width).toBeLessThanOrEqual(room(tableWidth));
    expect(chart.shown.width / chart.drawn.width).toBeGreaterThanOrEqual(0.85);
  });

  it('does not narrow heatmap columns whose labels are level or in lines: they would run into each other', async () => {
    const spec: ChartSpec = crossMarketHeatmap(rows.crossMarket, { columns: 2 });
    const natural = svgSize(await renderSvg(spec));
    // Room for about 60 % of it: too little without narrowing the cells.
    const tableWidth = VISIBLE_SHEET_PIXELS - CHART_GAP_PIXELS - Math.round(natural.width * 0.6);
    const chart = await layOutChart(spec, { width: tableWidth, endRow: 30 });
    expect(chart.where).toBe('above');
    // Its columns as drawn (it may be made shorter above the table, not narrower).
    expect(svgSize(await renderSvg(chart.spec)).width).toBeCloseTo(natural.width, 0);
  });

  it('above a table, makes a tall chart shorter (its rows, not its text) so that the table\'s header and first rows stay on the screen', async () => {
    const spec: ChartSpec = crossMarketHeatmap(rows.crossMarket, { columns: 2 });
    const natural = svgSize(await renderSvg(spec));
    expect(natural.height).toBeGreaterThan(340);
    const chart = await layOutChart(spec, { width: 1300, endRow: 30 });
    expect(chart.where).toBe('above');
    // 24 rows of 20 px: the title's two, the chart, a blank row, the header and three rows.
    expect(chart.shown.height).toBeLessThanOrEqual((24 - 2 - 1 - 4) * 20);
    expect(chart.drawn.height).toBeLessThan(natural.height);
    expect(chart.shown.width / chart.drawn.width).toBeGreaterThanOrEqual(0.85);
  });

  it('goes below a short table and above a long one when there is no room beside, never wider than the screen', async () => {
    const spec = crossMarketHeatmap(rows.crossMarket, { columns: 4 });
    const below = await layOutChart(spec, { width: 1300, endRow: 9 });
    expect(below.where).toBe('below');
    const above = await layOutChart(spec, { width: 1300, endRow: 30 });
    expect(above.where).toBe('above');
    for (const chart of [below, above]) {
      expect(chart.shown.width).toBeLessThanOrEqual(VISIBLE_SHEET_PIXELS);
      expect(chart.drawn.width).toBeGreaterThanOrEqual(800);
    }
  });
});
