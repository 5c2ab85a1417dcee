/**
 * The plan of a comparison on literal data: no client, no emulator. The axis inferred from what is
 * given, the metrics chosen from a small catalogue, and the years, markets and studies chosen from
 * a list of released studies; every mistake a UsageError in the library's words (option names).
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { chooseMetrics, chooseScope, fromStudyRows, inferBy, periodsOf, planRequest, studiedBy, unknownMarkets, type CatalogueView, type StudyInfo } from '../../src/compare/plan.js';

const thrown = (run: () => unknown): UsageError => {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
};

describe('inferBy', () => {
  it.each([
    ['several markets, no years', 3, 0, false, 'market'],
    ['nothing named', 0, 0, false, 'market'],
    ['one year', 0, 1, false, 'market'],
    ['one market', 1, 0, false, 'year'],
    ['several years', 0, 3, false, 'year'],
    ['waves', 2, 0, true, 'year'],
  ] as const)('%s: %s', (_, markets, years, waves, by) => {
    expect(inferBy(undefined, markets, years, waves)).toBe(by);
  });

  it('says what to add when the axis cannot be inferred, naming options as a call does', () => {
    const one = thrown(() => inferBy(undefined, 1, 1, false));
    expect(one.message).toBe("One market and one year leave nothing to compare across. Add markets (markets: ['GB', 'DE', 'FR']) to compare across markets, or years (years: [2021, 2022, 2023, 2024]) to follow the market over time.");
    expect(thrown(() => inferBy(undefined, 2, 2, false)).message).toMatch(/Both several markets \(2\) and several years \(2\).*Add by: 'year'/);
    expect(thrown(() => inferBy('market', 2, 2, false)).message).toMatch(/^by: 'market' compares markets in one year, but 2 years were given\. Give one year \(years: \[2024\]\)/);
    expect(thrown(() => inferBy('market', 2, 0, true)).message).toMatch(/^waves: true applies to comparisons across years \(by: 'year'\)/);
    expect(thrown(() => inferBy('year', 1, 1, false)).message).toMatch(/leave years out for the last five years/);
    for (const error of [one, thrown(() => inferBy('market', 1, 0, false))]) expect(error.message).not.toContain('--');
  });
});

describe('planRequest', () => {
  it('trims and folds what is given; the default metrics need no catalogue check', () => {
    const plan = planRequest({ brands: [' Veros ', 'Veros', 6], markets: ['gb', ' DE', 'GB'] });
    expect(plan).toEqual({ refs: ['Veros', 6], marketsGiven: ['GB', 'DE'], yearsGiven: undefined, by: 'market', waves: false, audienceId: 1, byDefault: true });
    expect(planRequest({ brands: [6], metrics: ['esteem'], years: [2022, 'latest'] })).toMatchObject({ by: 'year', byDefault: false, yearsGiven: [2022, 'latest'] });
  });

  it('refuses no brands, an empty list of markets and an audience that is not an id', () => {
    expect(thrown(() => planRequest({ brands: [] })).message).toBe("No brand to compare. Give brands by id or name, e.g. brands: ['Veros', 'Polora'].");
    expect(thrown(() => planRequest({ brands: [6], markets: [] })).message).toMatch(/^The list of markets is empty\. Give market codes, e\.g\. markets: \['GB', 'DE', 'FR'\]/);
    expect(thrown(() => planRequest({ brands: [6], audience: 1.5 })).message).toMatch(/The audience is an id \(a positive whole number\), not 1\.5/);
  });
});

/** Two groups, four metrics; `brand_base` has only a value column. */
const catalogue: CatalogueView = {
  metrics: [
    { name: 'Differentiation', brandscape_data_columns: ['differentiation_rank', 'differentiation_c'] },
    { name: 'Esteem', brandscape_data_columns: ['esteem_rank', 'esteem_c'] },
    { name: 'Brand Stature', brandscape_data_columns: ['brand_stature_rank', 'brand_stature_c'] },
    { name: 'Brand Base', brandscape_data_columns: ['brand_base'] },
  ],
  columns: {
    allColumns: ['differentiation_rank', 'differentiation_c', 'esteem_rank', 'esteem_c', 'brand_stature_rank', 'brand_stature_c', 'brand_base'],
    byMetric: new Map([
      ['differentiation', ['differentiation_rank', 'differentiation_c']],
      ['esteem', ['esteem_rank', 'esteem_c']],
      ['brand_stature', ['brand_stature_rank', 'brand_stature_c']],
      ['brand_base', ['brand_base']],
    ]),
    byGroup: new Map([
      ['pillars', ['differentiation', 'esteem']],
      ['stature', ['brand_stature']],
    ]),
  },
};

describe('chooseMetrics', () => {
  it('takes keys, exact columns and names; the pillars by default, as ranks', () => {
    expect(chooseMetrics(catalogue, {})).toEqual({ columns: ['differentiation_rank', 'esteem_rank'], scoreType: 'rank', metricKeys: [], groupKeys: ['pillars'] });
    expect(chooseMetrics(catalogue, { metrics: ['Brand Stature', 'ESTEEM'], scoreType: 'c' })).toEqual({ columns: ['brand_stature_c', 'esteem_c'], scoreType: 'c', metricKeys: ['brand_stature', 'esteem'], groupKeys: [] });
    expect(chooseMetrics(catalogue, { metrics: ['esteem_c'] })).toMatchObject({ columns: ['esteem_c'], scoreType: 'c', metricKeys: ['esteem'] });
    expect(chooseMetrics(catalogue, { metricGroups: ['Stature'] }).columns).toEqual(['brand_stature_rank']);
  });

  it('names the mistake and the way out', () => {
    expect(thrown(() => chooseMetrics(catalogue, { metrics: ['esteme'] })).message).toMatch(/'esteme' is not a metric: .* Did you mean esteem\?/);
    expect(thrown(() => chooseMetrics(catalogue, { metricGroups: ['imagery'] })).message).toMatch(/'imagery' is not a metric group\. Groups: /);
    expect(thrown(() => chooseMetrics(catalogue, { metrics: ['esteem_c', 'differentiation_rank'] })).message).toMatch(/different score types \(c, rank\)/);
    expect(thrown(() => chooseMetrics(catalogue, { metrics: ['esteem_rank'], scoreType: 'c' })).message).toBe(
      "scoreType: 'c' does not fit the column esteem_rank (rank). Name the c column instead (esteem_c), or leave scoreType out.",
    );
    expect(thrown(() => chooseMetrics(catalogue, { metrics: ['brand_base'] })).message).toMatch(/Metric 'brand_base' has no percentile rank score.*Choose one of those with scoreType, or name the column in metrics\./);
  });
});

const study = (id: number, code: string, year: number, quarter: number | null = null): StudyInfo => ({ id, code, market: { GB: 'United Kingdom', DE: 'Germany', US: 'United States' }[code] ?? code, year, quarter });
/** GB and DE 2022-2024 full years (DE 2024 not yet); the US 2024 in waves only, 2023 full. */
const released: StudyInfo[] = [
  study(1, 'GB', 2022), study(2, 'GB', 2023), study(3, 'GB', 2024),
  study(4, 'DE', 2022), study(5, 'DE', 2023),
  study(6, 'US', 2023), study(7, 'US', 2024, 1), study(8, 'US', 2024, 2),
];

describe('the studies', () => {
  it('come from study records with their country and year; periods in time order', () => {
    const rows = [
      { id: 1, name: 'UK 2024', country: { code: 'GB', name: 'United Kingdom' }, year: { year: '2024' }, period: { name: 'Full Year' } },
      { id: 2, name: 'US 2024 Q2', country: { code: 'US', name: 'United States' }, year: { year: 2024 }, period: { name: 'Q2' } },
      { id: 3, name: 'no country', country: null, year: { year: 2024 } },
    ];
    expect(fromStudyRows(rows)).toEqual([
      { id: 1, code: 'GB', market: 'United Kingdom', year: 2024, quarter: null },
      { id: 2, code: 'US', market: 'United States', year: 2024, quarter: 2 },
    ]);
    expect(periodsOf([study(8, 'US', 2024, 2), study(6, 'US', 2023), study(7, 'US', 2024, 1)])).toEqual(['2023', '2024 Q1', '2024 Q2']);
    expect(unknownMarkets(['GB', 'UK', 'FR'], released)).toEqual(['UK', 'FR']);
    expect(studiedBy([{ studies: [{ id: 3 }, { id: 99 }] }, { studies: null }], released).map((s) => s.id)).toEqual([3]);
  });
});

describe('chooseScope', () => {
  const request = (options: Parameters<typeof planRequest>[0]) => planRequest(options);
  const noBrands = { brandNames: ['Veros'], studiedByBrands: [] };

  it("'latest' is the most recent year released in every market named, with a note", () => {
    const scope = chooseScope(request({ brands: [6], markets: ['GB', 'DE'] }), released, noBrands);
    expect(scope.latestYear).toBe(2023);
    expect(scope.years).toEqual([2023]);
    expect(scope.markets).toEqual([{ code: 'GB', name: 'United Kingdom' }, { code: 'DE', name: 'Germany' }]);
    expect(scope.chosen.map((s) => s.id)).toEqual([2, 5]);
    expect(scope.notes.join(' ')).toMatch(/'latest' is 2023/);
  });

  it('by year: the five years up to the latest; waves only where asked, else a note', () => {
    const full = chooseScope(request({ brands: [6], markets: ['US'], years: [2023, 2024] }), released, noBrands);
    expect(full.chosen.map((s) => s.id)).toEqual([6]);
    expect(full.notes).toEqual(['United States 2024 has only quarterly waves so far, left out: compare by year with waves to see them (--by year --waves on the command line; by: \'year\', waves: true from code or MCP).']);
    const waves = chooseScope(request({ brands: [6], markets: ['US'], waves: true }), released, noBrands);
    expect(waves.years).toEqual([2019, 2020, 2021, 2022, 2023]);
    const withWaves = chooseScope(request({ brands: [6], markets: ['US'], years: [2023, 2024], waves: true }), released, noBrands);
    expect(withWaves.chosen.map((s) => s.id)).toEqual([6, 7, 8]);
  });

  it('without markets named: where the brands are studied, by name, in their latest full year', () => {
    const scope = chooseScope(request({ brands: [6] }), released, { brandNames: ['Veros'], studiedByBrands: [study(3, 'GB', 2024), study(5, 'DE', 2023), study(2, 'GB', 2023)] });
    expect(scope.latestYear).toBe(2024);
    expect(scope.markets).toEqual([{ code: 'GB', name: 'United Kingdom' }]);
    expect(chooseScope(request({ brands: [6], years: [2023] }), released, { brandNames: ['Veros'], studiedByBrands: [study(3, 'GB', 2024), study(5, 'DE', 2023), study(2, 'GB', 2023)] }).markets.map((m) => m.name)).toEqual(['Germany', 'United Kingdom']);
  });

  it('says when there is nothing to read', () => {
    expect(thrown(() => chooseScope(request({ brands: [6] }), released, noBrands)).message).toBe('Veros is in no released study.');
    expect(thrown(() => chooseScope(request({ brands: [6], markets: ['GB', 'DE'], years: [2031] }), released, noBrands)).message).toBe('No released full-year study of GB and DE in 2031. Years with studies: 2022–2024.');
  });
});
