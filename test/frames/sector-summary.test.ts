import { describe, expect, it } from 'vitest';
import { sectorSummary, sectorValues } from '../../src/frames/sector-summary.js';
import type { SectorSummaryRow } from '../../src/frames/types.js';
import { input } from './fixtures.js';

const find = (rows: SectorSummaryRow[], sector: number, code: string, column = 'differentiation_rank') =>
  rows.find((r) => r.sector_id === sector && r.country_code === code && r.column === column);

describe('sectorSummary (hand-computed on fixtures.ts)', () => {
  const result = sectorSummary(input, { years: [2024], metrics: ['differentiation'] });
  const rows = result.rows();

  it('summarises brand values per sector, market and year', () => {
    // Tech GB 2024: Alpha 60 (once, not per category), Beta 80.
    expect(find(rows, 100, 'GB')).toEqual({
      sector_id: 100, sector_name: 'Tech', country_id: 1, market: 'United Kingdom', country_code: 'GB', year: 2024,
      metric: 'differentiation', metric_name: 'Differentiation', metric_group: 'pillars', score_type: 'rank', column: 'differentiation_rank',
      count: 2, mean: 70, median: 70, std: Math.sqrt(200), min: 60, q1: 65, q3: 75, max: 80, // std sqrt((10^2 + 10^2) / 1)
    });
    // Food DE: Gamma 50, Delta 20, Epsilon 40 -> sorted 20 40 50; quartiles at positions 0.5 and 1.5.
    const food = find(rows, 200, 'DE')!;
    expect(food).toMatchObject({ count: 3, median: 40, min: 20, q1: 30, q3: 45, max: 50 });
    expect(food.mean).toBeCloseTo(110 / 3, 12);
    // deviations from 110/3: -50/3, 10/3, 40/3 -> std sqrt((2500 + 100 + 1600) / 9 / 2)
    expect(food.std).toBeCloseTo(Math.sqrt(4200 / 9 / 2), 12);
  });

  it('counts brands with a value; a single value has no standard deviation', () => {
    // Tech DE: Alpha 40, Beta missing.
    expect(find(rows, 100, 'DE')).toMatchObject({ count: 1, mean: 40, median: 40, std: null, q1: 40, q3: 40 });
    // Tech US: Alpha's two waves 70 and 90 make one brand value, 80.
    expect(find(rows, 100, 'US')).toMatchObject({ count: 1, mean: 80 });
    expect(rows).toHaveLength(5); // Tech GB, DE, US; Food GB, DE
  });

  it('counts a brand once per category for usage scores, and every row with dedupe none', () => {
    const usage = sectorSummary(input, { years: [2024], metrics: ['usage_pct'] });
    // Tech GB usage: Alpha in category 7 (10) and 8 (30), Beta 20 -> 10 20 30.
    expect(find(usage.rows(), 100, 'GB', 'usage_pct')).toMatchObject({ count: 3, mean: 20, median: 20, std: 10, q1: 15, q3: 25 });
    // Tech US usage: Alpha category 7: waves 20 and 60 -> 40; category 8: 40 (Q1 only).
    expect(find(usage.rows(), 100, 'US', 'usage_pct')).toMatchObject({ count: 2, mean: 40 });
    expect(usage.meta.dedupe.categorySpecificColumns).toEqual(['usage_pct']);
    const none = sectorSummary(input, { years: [2024], metrics: ['differentiation'], dedupe: 'none' });
    // Every row: Alpha 60 twice, Beta 80.
    expect(find(none.rows(), 100, 'GB')!.count).toBe(3);
    expect(find(none.rows(), 100, 'GB')!.mean).toBeCloseTo(200 / 3, 12);
  });

  it('lists the values behind the summary', () => {
    const values = sectorValues(input, { years: [2024], metrics: ['differentiation'], markets: ['DE'], sectors: [200] }).rows();
    expect(values.map((v) => [v.brand_name, v.value]).sort()).toEqual([['Delta', 20], ['Epsilon', 40], ['Gamma', 50]]);
  });

  it('rejects columns of different score types in one summary unless asked for', () => {
    expect(() => sectorSummary(input, { metrics: ['differentiation_rank', 'usage_pct'] })).toThrow(/mix score types/);
    const both = sectorSummary(input, { years: [2024], metrics: ['differentiation_rank', 'usage_pct'], scoreTypes: ['rank', 'pct'] });
    expect(new Set(both.rows().map((r) => r.column))).toEqual(new Set(['differentiation_rank', 'usage_pct']));
  });
});
