import { describe, expect, it } from 'vitest';
import { companyRollup } from '../../src/frames/company-rollup.js';
import type { CompanyRollupRow } from '../../src/frames/types.js';
import { companies, input, stockPrices } from './fixtures.js';

const find = (rows: CompanyRollupRow[], company: number, code: string, year = 2024) => rows.find((r) => r.company_id === company && r.country_code === code && r.year === year);

describe('companyRollup (hand-computed on fixtures.ts)', () => {
  const result = companyRollup({ ...input, companies, stockPrices }, { metrics: ['differentiation'] });
  const rows = result.rows();

  it('weights brands by share_of_company and joins annual results and stock prices by year', () => {
    // Acme GB 2024: Alpha 60 x 0.75 + Beta 80 x 0.25 = 65.
    expect(find(rows, 500, 'GB')).toEqual({
      company_id: 500, company_name: 'Acme', country_id: 1, market: 'United Kingdom', country_code: 'GB', year: 2024,
      metric: 'differentiation', metric_name: 'Differentiation', metric_group: 'pillars', score_type: 'rank', column: 'differentiation_rank',
      value: 65, weighting: 'share_of_company', n_brands: 2,
      currency: 'GBP', revenue: 120, operating_income: 12, net_income: 8, market_cap: 1000,
      // London listing (the results' ticker ACME.L): closes 10, 14, 12 -> mean 12, year-end 12; the NYSE listing is left out.
      avg_close_price: 12, year_end_close_price: 12,
    });
    // Acme GB 2023: 50 x 0.75 + 70 x 0.25 = 55; 2023 results; one close of 9.
    expect(find(rows, 500, 'GB', 2023)).toMatchObject({ value: 55, revenue: 100, avg_close_price: 9, year_end_close_price: 9 });
  });

  it('leaves a brand without a value out of the weights', () => {
    // Acme DE 2024: Beta's differentiation is missing -> Alpha alone.
    expect(find(rows, 500, 'DE')).toMatchObject({ value: 40, weighting: 'share_of_company', n_brands: 1 });
    // Acme US 2024: Alpha's waves 70 and 90 -> 80.
    expect(find(rows, 500, 'US')).toMatchObject({ value: 80, n_brands: 1 });
  });

  it('weights equally when a share is missing, and says so', () => {
    // Deltaco DE: Delta 20 (share 0.5), Epsilon 40 (share unknown) -> (20 + 40) / 2.
    expect(find(rows, 700, 'DE')).toMatchObject({ company_name: 'Deltaco', value: 30, weighting: 'equal', n_brands: 2, revenue: null, currency: null });
    // Foodco (private): no results, no prices.
    expect(find(rows, 600, 'GB')).toMatchObject({ value: 30, weighting: 'equal', currency: 'EUR', revenue: null, avg_close_price: null });
    expect(result.meta.weighting).toMatch(/share_of_company/);
    expect(result.meta.notes.join(' ')).toMatch(/No company record was given for 700/);
    expect(result.meta.notes.join(' ')).toMatch(/primary listing \(\.L\)/);
  });

  it('rolls up only the selected companies and years', () => {
    const only = companyRollup({ ...input, companies, stockPrices }, { metrics: ['differentiation'], companies: [500], years: [2023] }).rows();
    // Acme in 2023: GB (55) and US (Alpha 75).
    expect(only.map((r) => [r.country_code, r.value])).toEqual([['GB', 55], ['US', 75]]);
  });

  it('names the missing company include when neither the rows nor brands carry it', () => {
    const { brands: _brands, ...noBrands } = input;
    expect(() => companyRollup({ ...noBrands, companies }, { metrics: ['differentiation'] })).toThrow(/company of the brands is not known/);
  });
});
