import { describe, expect, it } from 'vitest';
import { toTidy } from '../../src/frames/to-tidy.js';
import { input } from './fixtures.js';

describe('toTidy (hand-computed on fixtures.ts)', () => {
  it('has one row per row x metric column, duplicates dropped for category-agnostic columns only', () => {
    const tidy = toTidy(input);
    // Audience-1 rows: 15, two of them duplicates. Agnostic columns (differentiation_rank,
    // differentiation_c, esteem_rank): 13 rows each; category-specific (usage_pct, usage_rank): 15 each.
    expect(tidy.length).toBe(3 * 13 + 2 * 15);
    expect(tidy.meta.dedupe).toEqual({ mode: 'auto', basis: 'is_duplicate', categorySpecificColumns: ['usage_pct', 'usage_rank'], rowsDropped: 2 });
    expect(toTidy(input, { dedupe: 'none' }).length).toBe(5 * 15);
    expect(toTidy(input, { audience: 'all' }).length).toBe(3 * 14 + 2 * 16);
  });

  it('carries market, year, names and metric catalogue fields', () => {
    const rows = toTidy(input, { metrics: ['usage'], scoreTypes: ['pct'] }).rows().filter((r) => r.brand_id === 1 && r.study_id === 11);
    const base = {
      study_id: 11, country_id: 1, market: 'United Kingdom', country_code: 'GB', year: 2024, audience_id: 1, brand_id: 1,
      brand_name: 'Alpha UK', global_name: 'Alpha', sector_id: 100, sector_name: 'Tech', company_id: 500, company_name: 'Acme',
      metric: 'usage', metric_name: 'Usage', metric_group: 'commitment', score_type: 'pct', column: 'usage_pct',
    };
    expect(rows).toEqual([
      { ...base, category_id: 7, category_name: 'Category 7', is_duplicate: false, value: 10 },
      { ...base, category_id: 8, category_name: 'Category 8', is_duplicate: true, value: 30 },
    ]);
  });

  it('keeps missing values as null, or drops them on request', () => {
    const kept = toTidy(input, { metrics: ['differentiation_rank'] });
    // 13 de-duplicated rows, Beta DE missing.
    expect(kept.length).toBe(13);
    expect(kept.rows().filter((r) => r.value === null).map((r) => [r.brand_id, r.country_code])).toEqual([[2, 'DE']]);
    expect(toTidy(input, { metrics: ['differentiation_rank'], dropMissing: true }).length).toBe(12);
  });
});
