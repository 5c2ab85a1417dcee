/**
 * The focus brand: in the heatmap, the line chart and the slope chart the brand a deck is about
 * gets an encoding of its own (bold and outlined, a thick opaque line), the others do not, and
 * without a focus nothing changes.
 */
import { describe, expect, it } from 'vitest';
import { crossMarketHeatmap, crossYearLines, renderSvg, slopeChart } from '../../src/index.js';
import type { CrossMarketRow, CrossYearRow } from '../../src/frames/types.js';
import { dataRows } from './helpers.js';

const METRIC = { metric: 'esteem', metric_name: 'Esteem', metric_group: 'pillars', score_type: 'rank', column: 'esteem_rank' } as const;
const GB = { country_id: 1, market: 'United Kingdom', country_code: 'GB' };
const BRANDS = [
  { entity_kind: 'brand', entity_id: 11, entity_name: 'Veros', global_name: 'Veros' },
  { entity_kind: 'brand', entity_id: 12, entity_name: 'Polora', global_name: 'Polora' },
  { entity_kind: 'brand', entity_id: 13, entity_name: 'Lumell', global_name: 'Lumell' },
] as const;
const VALUES: Record<number, number[]> = { 11: [40, 48, 55], 12: [70, 66, 61], 13: [52, 50, 53] };

const yearRows: CrossYearRow[] = BRANDS.flatMap((b) =>
  [2022, 2023, 2024].map((year, i) => ({
    ...b,
    ...GB,
    ...METRIC,
    year,
    period: String(year),
    period_order: year,
    value: VALUES[b.entity_id]![i]!,
    change: i === 0 ? null : VALUES[b.entity_id]![i]! - VALUES[b.entity_id]![i - 1]!,
    change_over_span: VALUES[b.entity_id]![2]! - VALUES[b.entity_id]![0]!,
    trend: null,
    n_rows: 1,
  })),
);

const marketRows: CrossMarketRow[] = BRANDS.flatMap((b, i) =>
  [GB, { country_id: 2, market: 'Germany', country_code: 'DE' }].map((m, j) => ({
    ...b,
    ...m,
    ...METRIC,
    year: 2024,
    value: 30 + 10 * i + 5 * j,
    cross_market_mean: 32.5 + 10 * i,
    diff_from_mean: j === 0 ? -2.5 : 2.5,
    market_rank: 2 - j,
    markets_compared: 2,
    n_rows: 1,
  })),
);

/** Every layer's mark and encoding, flattened. */
function layers(spec: unknown): { mark: unknown; encoding: Record<string, unknown> }[] {
  const out: { mark: unknown; encoding: Record<string, unknown> }[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if ('mark' in o) out.push({ mark: o.mark, encoding: (o.encoding ?? {}) as Record<string, unknown> });
    for (const v of Object.values(o)) walk(v);
  };
  walk(spec);
  return out;
}
const markType = (m: unknown) => (typeof m === 'string' ? m : (m as { type: string }).type);

describe('crossYearLines with a focus', () => {
  it("flags the focus brand's rows only, and draws its line thicker and opaque", () => {
    const spec = crossYearLines(yearRows, { focus: 11 });
    const rows = dataRows(spec);
    expect(rows.filter((r) => r.focus === true).map((r) => r.name)).toEqual(['Veros', 'Veros', 'Veros']);
    expect(rows.filter((r) => r.focus === false)).toHaveLength(6);
    const line = layers(spec).find((l) => markType(l.mark) === 'line')!;
    const width = line.encoding.strokeWidth as { condition: { test: string; value: number }; value: number };
    expect(width.condition).toEqual({ test: 'datum.focus', value: 3.5 });
    expect(width.value).toBeLessThan(2);
    expect((line.encoding.opacity as { value: number }).value).toBeLessThan(1);
  });

  it('without a focus (or with one not in the rows) every line is alike', () => {
    for (const spec of [crossYearLines(yearRows), crossYearLines(yearRows, { focus: 99 })]) {
      expect(dataRows(spec).some((r) => 'focus' in r)).toBe(false);
      expect(layers(spec).some((l) => 'strokeWidth' in l.encoding || 'opacity' in l.encoding)).toBe(false);
    }
  });

  it('renders: the focus line is the one thick stroke', async () => {
    const svg = await renderSvg(crossYearLines(yearRows, { focus: 11 }));
    expect(svg.match(/stroke-width="3.5"/g)).toHaveLength(1);
    expect((svg.match(/stroke-width="1.5"/g) ?? []).length).toBeGreaterThanOrEqual(2);
  });
});

describe('slopeChart with a focus', () => {
  it('the focus line is thick, opaque and labelled in bold; the others thin and faded', async () => {
    const spec = slopeChart(yearRows, { focus: 12, from: '2022', to: '2024' });
    expect(dataRows(spec).filter((r) => r.focus === true).map((r) => r.name)).toEqual(['Polora', 'Polora']);
    const svg = await renderSvg(spec);
    expect(svg.match(/stroke-width="3.5"/g)).toHaveLength(1);
    const bold = [...svg.matchAll(/<text[^>]*font-weight="bold"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    expect(bold.filter((t) => t.includes('Polora'))).toHaveLength(2);
    expect(bold.some((t) => t.includes('Veros') || t.includes('Lumell'))).toBe(false);
    expect(dataRows(slopeChart(yearRows, { from: '2022', to: '2024' })).some((r) => 'focus' in r)).toBe(false);
  });
});

describe('crossMarketHeatmap with a focus', () => {
  it('outlines the focus row only', () => {
    const outline = (spec: unknown) => layers(spec).filter((l) => markType(l.mark) === 'rect' && (l.mark as { fill?: unknown }).fill === null);
    const spec = crossMarketHeatmap(marketRows, { focus: 13 });
    const layer = JSON.stringify(spec);
    expect(outline(spec)).toHaveLength(1);
    expect(layer).toContain('datum.entity === \\"Lumell\\"');
    expect(outline(crossMarketHeatmap(marketRows))).toHaveLength(0);
  });
});
