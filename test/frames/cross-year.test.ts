import { describe, expect, it } from 'vitest';
import { crossYear } from '../../src/frames/cross-year.js';
import type { CrossYearRow } from '../../src/frames/types.js';
import { input, rows, studies, twoCategoryInput } from './fixtures.js';

const series = (result: CrossYearRow[], brand: number, column: string) =>
  result.filter((r) => r.entity_id === brand && r.column === column).map((r) => ({ period: r.period, value: r.value, change: r.change, span: r.change_over_span, trend: r.trend, n: r.n_rows }));

describe('crossYear (hand-computed on fixtures.ts)', () => {
  it('gives values per year, year-on-year change, change over the span and a trend', () => {
    const result = crossYear(input, { markets: ['GB'], metrics: ['differentiation', 'esteem'], brands: [1, 2] });
    const out = result.rows();
    // Alpha GB differentiation: 2023 50, 2024 60 (its 2024 duplicate left out).
    expect(series(out, 1, 'differentiation_rank')).toEqual([
      { period: '2023', value: 50, change: null, span: 10, trend: 'up', n: 1 },
      { period: '2024', value: 60, change: 10, span: 10, trend: 'up', n: 1 },
    ]);
    // Beta GB esteem: 2023 20, 2024 missing: no change, no span with one value, no trend.
    expect(series(out, 2, 'esteem_rank')).toEqual([
      { period: '2023', value: 20, change: null, span: null, trend: null, n: 1 },
      { period: '2024', value: null, change: null, span: null, trend: null, n: 0 },
    ]);
    expect(out[0]).toMatchObject({ entity_name: 'Alpha UK', global_name: 'Alpha', market: 'United Kingdom', year: 2023, period_order: 2023 });
    expect(result.meta).toMatchObject({ periods: 'year', years: [2023, 2024], flatTolerance: { differentiation_rank: 5, esteem_rank: 5 } });
  });

  it('calls a change within the tolerance flat', () => {
    const out = crossYear(input, { markets: ['GB'], metrics: ['differentiation'], brands: [1], flatTolerance: 10 }).rows();
    // Alpha's +10 is within a tolerance of 10.
    expect(out.map((r) => r.trend)).toEqual(['flat', 'flat']);
  });

  it('aggregates US quarterly waves to their year (mean of the wave values) by default', () => {
    const out = crossYear(input, { markets: ['US'], metrics: ['differentiation'], brands: [1] }).rows();
    // 2023 full year 75; 2024 waves Q1 70 (duplicate left out) and Q2 90 -> 80 from 2 rows. +5 is within the rank trend threshold (5): flat.
    expect(series(out, 1, 'differentiation_rank')).toEqual([
      { period: '2023', value: 75, change: null, span: 5, trend: 'flat', n: 1 },
      { period: '2024', value: 80, change: 5, span: 5, trend: 'flat', n: 2 },
    ]);
  });

  it('keeps the waves on request', () => {
    const result = crossYear(input, { markets: ['US'], metrics: ['differentiation'], brands: [1], waves: true });
    // 75 -> 70 (-5) -> 90 (+20); span 90 - 75 = 15.
    expect(series(result.rows(), 1, 'differentiation_rank')).toEqual([
      { period: '2023', value: 75, change: null, span: 15, trend: 'up', n: 1 },
      { period: '2024 Q1', value: 70, change: -5, span: 15, trend: 'up', n: 1 },
      { period: '2024 Q2', value: 90, change: 20, span: 15, trend: 'up', n: 1 },
    ]);
    expect(result.rows().map((r) => r.period_order)).toEqual([2023, 2024, 2024.25]);
    expect(result.meta.periods).toBe('wave');
  });

  it('prefers a full-year study to the waves of the same market and year', () => {
    const fullYear = { id: 28, name: 'US - Adults 2024', period: { id: 1, name: 'Full Year' }, country: { id: 3, name: 'United States', code: 'US' }, year: { id: 32, year: 2024 } };
    const extra = { ...rows[0]!, id: 999, study_id: 28, country_id: 3, brand_name: 'Alpha', differentiation_rank: 85 };
    const result = crossYear({ ...input, rows: [...rows, extra], studies: [...studies, fullYear] }, { markets: ['US'], metrics: ['differentiation'], brands: [1] });
    // 2024 is the full-year study's 85, not the waves' 80.
    expect(series(result.rows(), 1, 'differentiation_rank').map((r) => r.value)).toEqual([75, 85]);
    expect(result.meta.notes.join(' ')).toMatch(/full-year study/);
  });

  it('keeps the waves, not the full-year study of the same market and year, on request', () => {
    const fullYear = { id: 28, name: 'US - Adults 2024', period: { id: 1, name: 'Full Year' }, country: { id: 3, name: 'United States', code: 'US' }, year: { id: 32, year: 2024 } };
    const extra = { ...rows[0]!, id: 999, study_id: 28, country_id: 3, brand_name: 'Alpha', differentiation_rank: 85 };
    const result = crossYear({ ...input, rows: [...rows, extra], studies: [...studies, fullYear] }, { markets: ['US'], metrics: ['differentiation'], brands: [1], waves: true });
    // The full-year 2024 study (85) is left out: 2023 75 -> Q1 70 (-5) -> Q2 90 (+20); span 15.
    // Kept, it would share Q1's period order (2024) and Q1's change would be against it.
    expect(series(result.rows(), 1, 'differentiation_rank')).toEqual([
      { period: '2023', value: 75, change: null, span: 15, trend: 'up', n: 1 },
      { period: '2024 Q1', value: 70, change: -5, span: 15, trend: 'up', n: 1 },
      { period: '2024 Q2', value: 90, change: 20, span: 15, trend: 'up', n: 1 },
    ]);
    expect(result.rows().map((r) => r.period_order)).toEqual([2023, 2024, 2024.25]);
    expect(result.meta.notes.join(' ')).toMatch(/Full-year studies were left out where the same market and year has quarterly waves \(1 market-year\)/);
    // The year's figure without waves is still the full-year study's (year mode, unchanged).
    expect(crossYear({ ...input, rows: [...rows, extra], studies: [...studies, fullYear] }, { markets: ['US'], metrics: ['differentiation'], brands: [1] }).rows().map((r) => r.value)).toEqual([75, 85]);
  });

  it('counts a brand with rows in several categories once in a company', () => {
    const out = crossYear(twoCategoryInput, { markets: ['GB'], metrics: ['usage_pct'], by: 'company' }).rows();
    // Acme GB usage: 2023 (Alpha 30 + Beta 50) / 2 = 40; 2024 (Alpha (10 + 90) / 2 = 50 + Beta 20) / 2 = 35.
    // Averaging the rows would give 2024 (10 + 90 + 20) / 3 = 40 and no change.
    expect(series(out, 500, 'usage_pct')).toEqual([
      { period: '2023', value: 40, change: null, span: -5, trend: 'down', n: 2 },
      { period: '2024', value: 35, change: -5, span: -5, trend: 'down', n: 3 },
    ]);
  });

  it('names the years that have no rows', () => {
    expect(() => crossYear(input, { markets: ['GB'], metrics: ['differentiation'], years: [2022, 2023] })).toThrow(/No rows for year 2022/);
  });

  it("lists years asked for without rows with missing: 'note', and the periods a brand lacks in its markets", () => {
    const result = crossYear(input, { markets: ['GB', 'FR'], metrics: ['differentiation'], years: [2022, 2023, 2024], missing: 'note' });
    // GB has 2023 and 2024; FR has no rows at all; 2022 has none in any market.
    expect(result.meta.missing).toMatchObject({ years: [2022], markets: ['FR'], brands: [] });
    expect(result.meta.years).toEqual([2023, 2024]);
    // Gamma is in GB 2024 only: its 2023 is a missing cell. Alpha and Beta have both years.
    expect(result.meta.missing.cells).toEqual([{ entity_id: 3, entity_name: 'Gamma', market: 'United Kingdom', country_code: 'GB', period: '2023' }]);
    const notes = result.meta.notes.join(' ');
    expect(notes).toMatch(/No data for the year 2022: left out/);
    expect(notes).toMatch(/No data for the market FR: left out/);
    expect(notes).toMatch(/No data for Gamma in United Kingdom 2023/);
    // Nothing selected at all is still an error.
    expect(() => crossYear(input, { markets: ['FR'], metrics: ['differentiation'], missing: 'note' })).toThrow(/selection has no rows/);
  });
});
