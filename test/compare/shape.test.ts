/**
 * The shape of a comparison on literal rows: the long form has a record for every cell (null where
 * the brand has no data there), the notes say which dashes mean "studied, but not this brand", and
 * no rows at all is a UsageError naming the option to leave out.
 */
import { describe, expect, it } from 'vitest';
import type { BrandscapeInput } from '../../src/frames/brandscape-input.js';
import { toTable } from '../../src/frames/to-table.js';
import type { CrossMarketRow, CrossYearRow } from '../../src/frames/types.js';
import { planRequest, type StudyInfo } from '../../src/compare/plan.js';
import { absentNotes, catalogueName, crossMarketRecords, crossYearRecords, gapNotes, shapeComparison } from '../../src/compare/shape.js';
import { UsageError } from '../../src/errors.js';

const GB = { code: 'GB', name: 'United Kingdom' };
const DE = { code: 'DE', name: 'Germany' };
const FR = { code: 'FR', name: 'France' };

const key = { entity_kind: 'brand' as const, entity_id: 305, entity_name: 'Veros UK', global_name: 'Veros', metric: 'esteem', metric_name: 'Esteem', metric_group: 'pillars', score_type: 'rank' as const, column: 'esteem_rank' };
const marketRow = (country_code: string, market: string, value: number): CrossMarketRow => ({
  ...key,
  country_id: country_code === 'GB' ? 1 : 2,
  country_code,
  market,
  year: 2024,
  value,
  cross_market_mean: 60,
  diff_from_mean: value - 60,
  market_rank: value > 60 ? 1 : 2,
  markets_compared: 2,
  n_rows: 1,
});

describe('crossMarketRecords', () => {
  it('a record per brand x metric x market, null where the brand has no data; brands without data left out', () => {
    const rows = [marketRow('GB', 'United Kingdom', 70), marketRow('DE', 'Germany', 50)];
    const records = crossMarketRecords(rows, [GB, DE, FR], [305, 6], ['esteem_rank'], 2024, 1);
    expect(records.map((r) => [r.country_code, r.value, r.market_rank, r.n_rows])).toEqual([
      ['GB', 70, 1, 1],
      ['DE', 50, 2, 1],
      ['FR', null, null, 0],
    ]);
    expect(records[2]).toMatchObject({ brand_id: 305, brand_name: 'Veros', global_name: 'Veros', market: 'France', year: 2024, audience_id: 1, column: 'esteem_rank', cross_market_mean: 60 });
  });

  it('gap notes name the brand and the markets where a study had no data for it', () => {
    const records = crossMarketRecords([marketRow('GB', 'United Kingdom', 70)], [GB, DE, FR], [305], ['esteem_rank'], 2024, 1);
    // France had a study (a gap of this brand); Germany none (said elsewhere, as a market without a study).
    expect(gapNotes(records, (code) => code === 'FR', 'market')).toEqual(['No 2024 data for Veros in France.']);
    expect(gapNotes(records, () => false, 'market')).toEqual([]);
  });
});

const yearRow = (period: string, value: number | null): CrossYearRow => ({
  ...key,
  country_id: 1,
  country_code: 'GB',
  market: 'United Kingdom',
  year: Number(period.slice(0, 4)),
  period,
  period_order: Number(period.slice(0, 4)),
  value,
  change: null,
  change_over_span: 4,
  trend: 'up',
  n_rows: value === null ? 0 : 1,
});

describe('crossYearRecords', () => {
  it('every year asked for, in each market with data; waves as the market\'s own periods', () => {
    const rows = [yearRow('2022', 60), yearRow('2024', 64)];
    const records = crossYearRecords(rows, [GB, DE], [305], ['esteem_rank'], undefined, [2022, 2023, 2024], 1);
    expect(records.map((r) => [r.period, r.value, r.change_over_span, r.trend])).toEqual([
      ['2022', 60, 4, 'up'],
      ['2023', null, 4, 'up'],
      ['2024', 64, 4, 'up'],
    ]);
    const waves: StudyInfo[] = [
      { id: 1, code: 'GB', market: 'United Kingdom', year: 2024, quarter: 2 },
      { id: 2, code: 'GB', market: 'United Kingdom', year: 2024, quarter: 1 },
    ];
    expect(crossYearRecords([yearRow('2024 Q1', 61)], [GB], [305], ['esteem_rank'], waves, [2024], 1).map((r) => [r.period, r.year, r.value])).toEqual([
      ['2024 Q1', 2024, 61],
      ['2024 Q2', 2024, null],
    ]);
    expect(gapNotes(records, () => true, 'year')).toEqual(['No data for Veros in United Kingdom (2023).']);
  });
});

describe('absentNotes', () => {
  it('a market or year without a chosen study is said as such; a brand without data by its name', () => {
    const chosen: StudyInfo[] = [{ id: 1, code: 'GB', market: 'United Kingdom', year: 2024, quarter: null }];
    const missing = { years: [2023], markets: ['FR'], brands: [9], companies: [], sectors: [], cells: [] };
    const notes = absentNotes(missing, { markets: [GB, FR], chosen, waves: false, span: '2023–2024', brandName: (id) => (id === 9 ? 'Reyos Café' : `brand ${id}`) });
    expect(notes[0]).toBe('No released full-year study for France in 2023–2024: not released yet, or not studied then.');
    expect(notes[1]).toBe('No released full-year study in 2023 for United Kingdom and France.');
    expect(notes.slice(2).join(' ')).toMatch(/Reyos Café/);
    // A market with a chosen study but no rows is not "unreleased": its gaps are said cell by cell.
    expect(absentNotes({ ...missing, markets: ['GB'], years: [], brands: [] }, { markets: [GB], chosen, waves: true, span: '2024', brandName: String })).toEqual([]);
  });
});

describe('catalogueName', () => {
  it("is the catalogue's name of the column's metric, or the key", () => {
    const catalogue = { metrics: [{ name: 'Esteem', brandscape_data_columns: ['esteem_rank'] }] };
    expect(catalogueName(catalogue, 'esteem_rank')).toBe('Esteem');
    expect(catalogueName(catalogue, 'relevance_c')).toBe('relevance');
  });
});

describe('shapeComparison', () => {
  it('no rows at all: a UsageError that names the option to leave out', () => {
    const input = { rows: toTable([]), catalogue: { metrics: [], columns: { allColumns: [] } }, studies: [] } as unknown as BrandscapeInput;
    const shape = {
      request: planRequest({ brands: ['Reyos Café'], markets: ['GB', 'DE'] }),
      scope: { latestYear: 2024, years: [2024], markets: [GB, DE], chosen: [], notes: [] },
      brands: [{ ref: 'Reyos Café', id: 9, name: 'Reyos Café' }],
      metrics: { columns: ['esteem_rank'], scoreType: 'rank' as const, metricKeys: ['esteem'], groupKeys: [] },
      catalogue: { metrics: [] },
      audienceName: 'All Adults',
      input,
      queries: [],
      source: { kind: 'emulator', baseUrl: 'http://127.0.0.1:1', apiVersion: 'v2' } as never,
    };
    let error: unknown;
    try {
      shapeComparison(shape);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('Reyos Café has no data in GB and DE in 2024 (audience 1). Leave markets out to compare every market where the brands are studied.');
    expect((error as UsageError).wordedFor(({ option }) => `--${option}`)).toBe('Reyos Café has no data in GB and DE in 2024 (audience 1). Leave --markets out to compare every market where the brands are studied.');
  });
});
