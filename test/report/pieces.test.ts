/**
 * The report layer's pure pieces: display rounding (the same as the workbook's number formats), the
 * `latest` rule, output file names, and comparison matrices.
 */
import { crossMarketHeatmap } from '../../src/charts/cross-market-heatmap.js';
import { describe, expect, it } from 'vitest';
import { crossMarket } from '../../src/frames/cross-market.js';
import { crossMarketTable, crossYearTable } from '../../src/report/comparison-tables.js';
import { crossYear } from '../../src/frames/cross-year.js';
import { excelNumberFormat, formatCell } from '../../src/report/format-cell.js';
import { latestYear, toCalendarYear } from '../../src/report/template/latest-year.js';
import { defineTemplate, resolveTemplate, yearsText } from '../../src/report/template/resolve-template.js';
import { missingDataNotes } from '../../src/report/missing-data-notes.js';
import { outputName } from '../../src/report/run-report.js';
import { input, rows as fixtureRows } from '../frames/fixtures.js';
import type { BrandscapeInput } from '../../src/frames/brandscape-input.js';

describe('formatCell and excelNumberFormat', () => {
  it('rounds as the workbook shows: ranks whole, percentages and indexes one decimal, construct scores two', () => {
    expect(formatCell(3.0999999999999996, 'pct')).toBe('3.1');
    expect(formatCell(71.5, 'rank')).toBe('72');
    expect(formatCell(-71.5, 'rank')).toBe('-72');
    expect(formatCell(1.005, 'c')).toBe('1.01');
    expect(formatCell(104.25, 'brandscape_index')).toBe('104.3');
    expect(formatCell(1234567.4, 'money')).toBe('1,234,567');
    expect(formatCell(2.25, 'change-pct')).toBe('+2.3');
    expect(formatCell(-2.25, 'change-pct', { minus: '−' })).toBe('−2.3');
    expect(formatCell(0, 'change-rank')).toBe('0');
    expect(formatCell(null, 'rank')).toBe('–');
    expect(formatCell(Number.NaN, 'rank', { missing: '-' })).toBe('-');
    expect(formatCell(0.1 + 0.2, 'general')).toBe('0.3');
    expect(formatCell('Veros', 'text')).toBe('Veros');
    expect(formatCell(true, 'bool')).toBe('yes');
  });

  it('gives Excel the matching number formats', () => {
    expect(excelNumberFormat('rank')).toBe('0');
    expect(excelNumberFormat('pct')).toBe('0.0');
    expect(excelNumberFormat('c')).toBe('0.00');
    expect(excelNumberFormat('category_index')).toBe('0.0');
    expect(excelNumberFormat('value')).toBe('#,##0');
    expect(excelNumberFormat('change-c')).toBe('+0.00;-0.00;0.00');
    expect(excelNumberFormat('integer')).toBe('0');
    expect(excelNumberFormat('general')).toBe('General');
    expect(excelNumberFormat('text')).toBeUndefined();
  });
});

describe('latest', () => {
  const s = (countryCode: string, year: number, fullYear = true) => ({ countryCode, year, fullYear });

  it('is the most recent year released in every market', () => {
    const result = latestYear([s('GB', 2024), s('GB', 2025), s('TH', 2024), s('US', 2025, false), s('US', 2024)], ['GB', 'TH', 'US']);
    expect(result.year).toBe(2024);
    expect(result.notes.join(' ')).toMatch(/'latest' is 2024, the most recent year released in every market; GB has newer data/);
  });

  it('leaves out markets without any study, and takes the newest year when markets share none', () => {
    expect(latestYear([s('GB', 2025)], ['GB', 'XX'])).toMatchObject({ year: 2025, notes: [expect.stringMatching(/No released full-year study for XX/)] });
    expect(latestYear([s('GB', 2021), s('DE', 2023)], ['GB', 'DE']).year).toBe(2023);
    expect(latestYear([], ['GB']).year).toBeUndefined();
  });

  it('turns template years into calendar years', () => {
    expect([2020, 'latest', 'latest-2'].map((v) => toCalendarYear(v as 2020, 2025))).toEqual([2020, 2025, 2023]);
  });
});

describe('outputName', () => {
  it('fills {template}, {date}, {time} and parameters; latest years as calendar years; no unsafe characters', () => {
    const t = resolveTemplate(
      defineTemplate({
        title: 'x',
        parameters: { year: { type: 'year', default: 'latest' }, markets: { type: 'markets', default: ['GB', 'DE'] }, label: { type: 'string', default: 'a:b c' } },
        data: { markets: '$markets', years: ['$year'] },
        sections: [{ kind: 'cross-market' }],
        output: { name: '{template}-{label}-{markets}-{year}-{date}T{time}' },
      }, 'my-report'),
    );
    expect(outputName(t, new Date('2026-11-24T09:30:05Z'), 2025)).toBe('my-report-a-b-c-GB-DE-2025-2026-11-24T093005');
  });
});

describe('comparison matrices', () => {
  it('crossMarketTable: a block per metric, a column per market in the order asked, the mean, a colour scale per block', () => {
    const result = crossMarket(input, { year: 2024, metrics: ['differentiation', 'esteem'], markets: ['GB', 'DE'] });
    const table = crossMarketTable(result, { markets: [{ code: 'DE', name: 'Germany' }, { code: 'GB', name: 'United Kingdom' }, { code: 'FR', name: 'France' }] });
    expect(table.columns.map((c) => c.header)).toEqual(['Brand', 'Metric', 'Germany', 'United Kingdom', 'France', 'Mean']);
    // Differentiation 2024 (fixtures): Beta GB 80 (DE missing) mean 80; Alpha GB 60, DE 40 mean 50; Gamma GB 30, DE 50 mean 40;
    // Delta DE 20; Epsilon DE 40. Ordered by mean, highest first.
    expect(table.rows.slice(0, 5)).toEqual([
      ['Beta', 'Differentiation (rank)', null, 80, null, 80],
      ['Alpha', 'Differentiation (rank)', 40, 60, null, 50],
      ['Epsilon', 'Differentiation (rank)', 40, null, null, 40],
      ['Gamma', 'Differentiation (rank)', 50, 30, null, 40],
      ['Delta', 'Differentiation (rank)', 20, null, null, 20],
    ]);
    expect(table.rows[5]?.[1]).toBe('Esteem (rank)');
    expect(table.colourScales).toEqual([
      { fromRow: 0, toRow: 4, fromColumn: 2, toColumn: 4, min: 0, mid: 50, max: 100 },
      { fromRow: 5, toRow: table.rows.length - 1, fromColumn: 2, toColumn: 4, min: 0, mid: 50, max: 100 },
    ]);
    expect(table.columns[2]?.format).toBe('rank');
  });

  it('crossMarketTable: metric blocks of one score type share the heatmap\'s colour points (construct scores pooled, as the chart pools them)', () => {
    // The fixtures with construct scores of esteem too (from its ranks), on another range than differentiation's.
    const withEsteemC: BrandscapeInput = {
      ...input,
      catalogue: { ...input.catalogue, metrics: input.catalogue.metrics.map((m) => (m.id === 2 ? { ...m, brandscape_data_columns: [...(m.brandscape_data_columns ?? []), 'esteem_c'] } : m)) },
      rows: fixtureRows.map((r) => ({ ...r, esteem_c: typeof r.esteem_rank === 'number' ? (r.esteem_rank - 50) / 10 : null })),
    };
    const result = crossMarket(withEsteemC, { year: 2024, metrics: ['differentiation', 'esteem'], markets: ['GB', 'DE'], scoreTypes: ['c'] });
    const rows = result.rows();
    const values = rows.map((r) => r.value).filter((v): v is number => v !== null);
    expect(new Set(rows.map((r) => r.score_type))).toEqual(new Set(['c']));
    const table = crossMarketTable(result);
    expect(table.colourScales).toHaveLength(2);
    const [a, b] = table.colourScales;
    // One scale over both metrics: their points are the pooled values', not each block's own.
    expect({ min: a!.min, mid: a!.mid, max: a!.max }).toEqual({ min: b!.min, mid: b!.mid, max: b!.max });
    expect(a!.min).toBe(Math.min(...values));
    expect(a!.max).toBe(Math.max(...values));
    expect(a!.mid).toBe(0);
    // The heatmap of the same rows colours by the same points.
    const heatmap = JSON.stringify(crossMarketHeatmap(rows));
    expect(heatmap).toContain(`"domain":[${a!.min},0,${a!.max}]`);
  });

  it('crossYearTable: a column per period, then the change over the span and the trend', () => {
    const result = crossYear(input, { markets: ['GB'], metrics: ['differentiation'], brands: [1, 2] });
    const table = crossYearTable(result, { periods: ['2022', '2023', '2024'] });
    // Neither brand has a 2022 value: the change runs 2023-2024 on both rows, and the header says so.
    expect(table.columns.map((c) => c.header)).toEqual(['Brand', 'Market', 'Metric', '2022', '2023', '2024', 'Change 2023–2024', 'Trend']);
    // GB differentiation: Alpha 2023 50 -> 2024 60 (+10, up); Beta 70 -> 80 (+10, up). By last value: Beta first.
    expect(table.rows).toEqual([
      ['Beta', 'United Kingdom', 'Differentiation (rank)', null, 70, 80, 10, 'up'],
      ['Alpha', 'United Kingdom', 'Differentiation (rank)', null, 50, 60, 10, 'up'],
    ]);
    expect(table.columns[6]?.format).toBe('change-rank');
  });
});

describe('notes true for their report', () => {
  const missing = { years: [2021, 2022], markets: [], brands: [], companies: [], sectors: [], cells: [] };
  const names = { market: (c: string) => ({ FR: 'France', ES: 'Spain' })[c] ?? c, brand: (id: number) => `brand ${id}` };

  it('a year without data names the brands not in a study that exists, and the markets without a study', () => {
    const studies = { markets: ['FR', 'ES'], brands: ['Veros'], has: (code: string, y: number) => code === 'FR' || y === 2022 };
    expect(missingDataNotes(missing, { ...names, studies })).toEqual([
      'Veros was not in the France 2021 study.',
      'No study of Spain in 2021 (not studied, or not released yet).',
      'Veros was not in the France and Spain 2022 studies.',
    ]);
  });

  it('without knowledge of the studies, says only that the years had no data', () => {
    expect(missingDataNotes(missing, names)).toEqual(['No data for 2021 and 2022 in these markets.']);
  });

  it('titles name runs of years as ranges, other sets as lists', () => {
    expect(yearsText([2021, 2022, 2023, 2024, 2025])).toBe('2021–2025');
    expect(yearsText([2021, 2023, 2025])).toBe('2021, 2023, 2025');
  });
});
