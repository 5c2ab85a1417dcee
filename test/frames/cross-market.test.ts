import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { companyRollup } from '../../src/frames/company-rollup.js';
import { crossMarket } from '../../src/frames/cross-market.js';
import type { CrossMarketRow } from '../../src/frames/types.js';
import { input, rows as fixtureRows, twoCategoryInput } from './fixtures.js';

const cell = (rows: CrossMarketRow[], entity: number, code: string, column = 'differentiation_rank') =>
  rows.find((r) => r.entity_id === entity && r.country_code === code && r.column === column);

describe('crossMarket (hand-computed on fixtures.ts)', () => {
  const result = crossMarket(input, { year: 2024, metrics: ['differentiation'] });
  const rows = result.rows();

  it('gives each market value, the difference from the cross-market mean, the rank and the rows behind the cell', () => {
    // Alpha: GB 60 (its duplicate row left out: 1 row), DE 40, US waves Q1 70 and Q2 90 -> 80 (2 rows).
    // Mean (60 + 40 + 80) / 3 = 60. Ranks: US 1, GB 2, DE 3.
    expect(cell(rows, 1, 'GB')).toMatchObject({ entity_kind: 'brand', entity_name: 'Alpha UK', global_name: 'Alpha', market: 'United Kingdom', year: 2024,
      value: 60, cross_market_mean: 60, diff_from_mean: 0, market_rank: 2, markets_compared: 3, n_rows: 1,
      metric: 'differentiation', metric_name: 'Differentiation', metric_group: 'pillars', score_type: 'rank' });
    expect(cell(rows, 1, 'DE')).toMatchObject({ entity_name: 'Alpha', value: 40, diff_from_mean: -20, market_rank: 3, n_rows: 1 });
    expect(cell(rows, 1, 'US')).toMatchObject({ value: 80, diff_from_mean: 20, market_rank: 1, n_rows: 2 });
    // Gamma: GB 30, DE 50 -> mean 40.
    expect(cell(rows, 3, 'GB')).toMatchObject({ value: 30, cross_market_mean: 40, diff_from_mean: -10, market_rank: 2, markets_compared: 2 });
    expect(cell(rows, 3, 'DE')).toMatchObject({ value: 50, diff_from_mean: 10, market_rank: 1 });
  });

  it('keeps a missing value missing: null value, null rank, no rows, and the mean over the markets with a value', () => {
    // Beta: GB 80; DE differentiation missing.
    expect(cell(rows, 2, 'DE')).toMatchObject({ value: null, diff_from_mean: null, market_rank: null, n_rows: 0, cross_market_mean: 80, markets_compared: 1 });
    expect(cell(rows, 2, 'GB')).toMatchObject({ value: 80, diff_from_mean: 0, market_rank: 1, markets_compared: 1 });
  });

  it('has one row per brand x market with rows, and states its choices in the metadata', () => {
    // Alpha 3 markets, Beta 2, Gamma 2, Delta 1, Epsilon 1.
    expect(rows).toHaveLength(9);
    expect(result.meta).toMatchObject({ source: 'crossMarket', year: 2024, audience: 1, by: 'brand', columns: ['differentiation_rank'],
      markets: ['Germany', 'United Kingdom', 'United States'] });
    // Audience-1 rows of 2024: 12, of which 2 duplicates (Alpha's second category in GB and in US Q1).
    expect(result.meta.dedupe).toEqual({ mode: 'auto', basis: 'is_duplicate', categorySpecificColumns: [], rowsDropped: 2 });
    expect(result.meta.notes.join(' ')).toMatch(/waves/);
    expect(result.meta.notes.join(' ')).toMatch(/Audience 1/);
    expect(result.kindOf('market_rank')).toBe('int');
  });

  it('lists the markets where a brand has no rows, and what was asked for without data', () => {
    // Markets of 2024: Germany, United Kingdom, United States. Beta and Gamma lack the US;
    // Delta and Epsilon are in Germany only.
    expect(result.meta.missing.cells.map((c) => `${c.entity_name}:${c.country_code}:${c.period}`)).toEqual([
      'Beta:US:2024', 'Gamma:US:2024', 'Delta:GB:2024', 'Delta:US:2024', 'Epsilon:GB:2024', 'Epsilon:US:2024',
    ]);
    expect(result.meta.missing).toMatchObject({ years: [], markets: [], brands: [] });
    expect(result.meta.notes.join(' ')).toMatch(/No data for Beta in United States 2024, Gamma in United States 2024, .*, Epsilon in United States 2024\./);
    // Asked for a market and a brand without rows: an error naming them, or a note on request.
    expect(() => crossMarket(input, { year: 2024, metrics: ['differentiation'], markets: ['GB', 'FR'] })).toThrow(/No rows for market FR in 2024/);
    const noted = crossMarket(input, { year: 2024, metrics: ['differentiation'], markets: ['GB', 'FR'], brands: [1, 9], missing: 'note' });
    expect(noted.meta.missing).toMatchObject({ markets: ['FR'], brands: [9] });
    expect(noted.rows().map((r) => `${r.entity_id}:${r.country_code}`)).toEqual(['1:GB']);
  });

  it('aggregates a sector, de-duplicated by default and not with dedupe none', () => {
    const auto = crossMarket(input, { year: 2024, metrics: ['differentiation'], by: 'sector' }).rows();
    // Tech GB: Alpha 60 + Beta 80 (Alpha's duplicate left out) = 70, 2 rows; DE: 40 (Beta missing); US: 80.
    // Mean (70 + 40 + 80) / 3 = 63.333...
    expect(cell(auto, 100, 'GB')).toMatchObject({ entity_kind: 'sector', entity_name: 'Tech', value: 70, n_rows: 2, market_rank: 2 });
    expect(cell(auto, 100, 'GB')!.cross_market_mean).toBeCloseTo(190 / 3, 12);
    // Food DE: Gamma 50, Delta 20, Epsilon 40 -> 36.666...; GB: Gamma 30. Mean (30 + 110/3) / 2.
    expect(cell(auto, 200, 'DE')!.value).toBeCloseTo(110 / 3, 12);
    expect(cell(auto, 200, 'DE')!.cross_market_mean).toBeCloseTo((30 + 110 / 3) / 2, 12);
    const none = crossMarket(input, { year: 2024, metrics: ['differentiation'], by: 'sector', dedupe: 'none' }).rows();
    // Without de-duplication Alpha's two GB rows (60, 60) are both read, but they make one brand
    // value, 60: Tech GB (60 + 80) / 2 = 70, from 3 rows.
    expect(cell(none, 100, 'GB')).toMatchObject({ value: 70, n_rows: 3 });
  });

  it('keeps per-category rows of usage scores under auto de-duplication, and drops them with dedupe all', () => {
    const auto = crossMarket(input, { year: 2024, metrics: ['usage_pct'], brands: [1] });
    // Alpha usage: GB (10 + 30) / 2 = 20, 2 rows; DE 50; US Q1 (20 + 40) / 2 = 30, Q2 60 -> 45, 3 rows.
    expect(cell(auto.rows(), 1, 'GB', 'usage_pct')).toMatchObject({ value: 20, n_rows: 2 });
    expect(cell(auto.rows(), 1, 'US', 'usage_pct')).toMatchObject({ value: 45, n_rows: 3 });
    expect(cell(auto.rows(), 1, 'GB', 'usage_pct')!.cross_market_mean).toBeCloseTo(115 / 3, 12);
    expect(auto.meta.dedupe.categorySpecificColumns).toEqual(['usage_pct']);
    const all = crossMarket(input, { year: 2024, metrics: ['usage_pct'], brands: [1], dedupe: 'all' }).rows();
    // GB 10; US Q1 20, Q2 60 -> 40; DE 50. Mean 100 / 3.
    expect(cell(all, 1, 'GB', 'usage_pct')).toMatchObject({ value: 10, n_rows: 1 });
    expect(cell(all, 1, 'US', 'usage_pct')).toMatchObject({ value: 40, n_rows: 2 });
  });

  it('filters markets (codes, names or ids) and companies', () => {
    const two = crossMarket(input, { year: 2024, metrics: ['differentiation'], markets: ['gb', 'Germany'], companies: [500] }).rows();
    // Acme's brands Alpha and Beta in GB and DE only: Alpha GB 60, DE 40 -> mean 50.
    expect(two.map((r) => `${r.entity_id}:${r.country_code}`).sort()).toEqual(['1:DE', '1:GB', '2:DE', '2:GB']);
    expect(cell(two, 1, 'GB')).toMatchObject({ cross_market_mean: 50, diff_from_mean: 10, market_rank: 1 });
  });

  it('names what is missing and what is available', () => {
    const error = (f: () => unknown): DataError => {
      try {
        f();
      } catch (e) {
        return e as DataError;
      }
      throw new Error('expected a DataError');
    };
    const noMetric = error(() => crossMarket(input, { year: 2024, metrics: ['awareness'] }));
    expect(noMetric).toBeInstanceOf(DataError);
    expect(noMetric.missing).toEqual(['awareness']);
    expect(noMetric.available).toEqual(['differentiation', 'esteem', 'usage']);
    const noMarket = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation'], markets: ['GB', 'FR'] }));
    expect(noMarket.message).toMatch(/No rows for market FR in 2024/);
    expect(noMarket.available).toEqual(['Germany (DE)', 'United Kingdom (GB)', 'United States (US)']);
    const noYear = error(() => crossMarket(input, { year: 2021, metrics: ['differentiation'] }));
    expect(noYear.missing).toEqual(['2021']);
    expect(noYear.available).toEqual(['2023', '2024']);
    const empty = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation'], brands: [] }));
    expect(empty.message).toMatch(/selection of brands is empty/);
    const unknownBrand = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation'], brands: [1, 42] }));
    expect(unknownBrand.missing).toEqual(['42']);
    expect(unknownBrand.available).toEqual(['1', '2', '3', '4', '5']);
    const noMetrics = error(() => crossMarket(input, { year: 2024, metrics: [] }));
    expect(noMetrics.missing).toEqual(['metrics']);
    const noScoreType = error(() => crossMarket(input, { year: 2024, metrics: ['esteem'], scoreTypes: ['c'] }));
    expect(noScoreType.missing).toEqual(['esteem_c']);
    expect(noScoreType.available).toEqual(['esteem_rank']);
    // Incompatible score types: a percentile rank and a construct score on one comparison.
    const mixed = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation_rank', 'differentiation_c'] }));
    expect(mixed.message).toMatch(/mix score types \(rank, c\)/);
    expect(mixed.missing).toEqual(['differentiation_c']);
    expect(mixed.available).toEqual(['differentiation_rank']);
    const notRequested = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation_c'], scoreTypes: ['rank'] }));
    expect(notRequested.missing).toEqual(['differentiation_rank']);
    const noAudience = error(() => crossMarket(input, { year: 2024, metrics: ['differentiation'], audience: 7 }));
    expect(noAudience.available).toEqual(['audience 1', 'audience 2']);
  });

  it('compares several score types side by side when asked to, with a caveat on construct scores', () => {
    const both = crossMarket(input, { year: 2024, metrics: ['differentiation'], scoreTypes: ['rank', 'c'], brands: [3] });
    // Gamma construct scores: GB -1, DE 0 -> mean -0.5.
    expect(cell(both.rows(), 3, 'GB', 'differentiation_c')).toMatchObject({ value: -1, cross_market_mean: -0.5, market_rank: 2 });
    expect(both.meta.notes.join(' ')).toMatch(/Construct scores/);
  });

  it('needs the market of each study: from studies, or from the rows\' includes', () => {
    const { studies: _studies, ...withoutStudies } = input;
    expect(() => crossMarket(withoutStudies, { year: 2024, metrics: ['differentiation'] })).toThrow(/market or year of some studies/);
  });

  it('counts a brand with rows in several categories once in a company or sector, like companyRollup', () => {
    // Acme GB 2024 usage: Alpha (10 + 90) / 2 = 50, Beta 20 -> (50 + 20) / 2 = 35 from 3 rows
    // (averaging the rows would give (10 + 90 + 20) / 3 = 40).
    const company = crossMarket(twoCategoryInput, { year: 2024, metrics: ['usage_pct'], by: 'company' });
    expect(cell(company.rows(), 500, 'GB', 'usage_pct')).toMatchObject({ entity_name: 'Acme', value: 35, n_rows: 3, cross_market_mean: 35, markets_compared: 1 });
    expect(company.meta.notes.join(' ')).toMatch(/mean of its brands' values .*\(equal weights\)/);
    const rollup = companyRollup({ ...twoCategoryInput, companies: [] }, { years: [2024], metrics: ['usage_pct'] }).rows();
    expect(rollup).toHaveLength(1);
    expect(rollup[0]).toMatchObject({ company_id: 500, country_code: 'GB', value: 35, weighting: 'equal', n_brands: 2 });
    // Tech (the sector of both brands): the same 35.
    expect(cell(crossMarket(twoCategoryInput, { year: 2024, metrics: ['usage_pct'], by: 'sector' }).rows(), 100, 'GB', 'usage_pct')).toMatchObject({ value: 35, n_rows: 3 });
    // With dedupe all, Alpha's duplicate row is left out: Alpha 10, Beta 20 -> 15 from 2 rows.
    expect(cell(crossMarket(twoCategoryInput, { year: 2024, metrics: ['usage_pct'], by: 'company', dedupe: 'all' }).rows(), 500, 'GB', 'usage_pct')).toMatchObject({ value: 15, n_rows: 2 });
  });

  it('reads the records afresh on every call, edits in place included', () => {
    const rows = fixtureRows.map((r) => ({ ...r }));
    const mine = { ...input, rows };
    const delta = () => crossMarket(mine, { year: 2024, metrics: ['differentiation'], brands: [4] }).rows()[0];
    // Delta DE (rows[8], in the middle of the array): 20.
    expect(delta()).toMatchObject({ value: 20, n_rows: 1 });
    // The same record edited: same array, same length, same first and last record.
    rows[8]!.differentiation_rank = 40;
    expect(delta()).toMatchObject({ value: 40, n_rows: 1 });
    // The record replaced by another.
    rows[8] = { ...rows[8]!, differentiation_rank: 10 };
    expect(delta()).toMatchObject({ value: 10, n_rows: 1 });
  });

  it('reads rows added to the array since the last call', () => {
    const rows = [...fixtureRows];
    const mine = { ...input, rows };
    // Delta DE: 20.
    expect(crossMarket(mine, { year: 2024, metrics: ['differentiation'], brands: [4] }).rows()[0]).toMatchObject({ value: 20, n_rows: 1 });
    rows.push({ ...fixtureRows[8]!, id: 1000, category_id: 10, differentiation_rank: 40 });
    // A second, non-duplicate Delta DE row: (20 + 40) / 2.
    expect(crossMarket(mine, { year: 2024, metrics: ['differentiation'], brands: [4] }).rows()[0]).toMatchObject({ value: 30, n_rows: 2 });
  });
});
