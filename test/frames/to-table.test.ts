import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { FrameTable, INT_NULL } from '../../src/frames/frame-table.js';
import { toDanfo } from '../../src/danfo/index.js';
import { toTable } from '../../src/frames/to-table.js';

/** Two brandscape rows with every include, as the service sends them (written by hand). */
const region = { id: 3, name: 'Europe' };
const study = (id: number) => ({
  id,
  name: 'UK - Adults 2024',
  period: { id: 1, name: 'Full Year' },
  country: { id: 48, name: 'United Kingdom', region, code: 'GB', code_alpha3: 'GBR', code_numeric: '826' },
  year: { id: 32, year: '2024' },
});
const records = [
  {
    id: 865156, study_id: 381, brand_id: 368, category_id: 88, audience_id: 1, country_id: 48, year_id: 32,
    brand_name: 'Facebook UK', category_name: 'Social Media', is_duplicate: false,
    differentiation_rank: 71.3, esteem_brandscape_index: 104, esteem_rank: null,
    study: study(381),
    brand: { id: 368, name: 'Facebook', sector: { id: 22, name: 'Telecommunications' } },
    category: { id: 88, name: 'Social Networks' },
    company: { id: 1520, name: 'Meta Platforms' },
    created_at: '2024-03-01T10:05:01.000000Z',
  },
  {
    id: 865157, study_id: 381, brand_id: 369, category_id: 88, audience_id: 1, country_id: 48, year_id: 32,
    brand_name: 'Instagram', category_name: 'Social Media', is_duplicate: true,
    differentiation_rank: 0, esteem_brandscape_index: 98, esteem_rank: null,
    study: study(381),
    brand: { id: 369, name: 'Instagram', sector: { id: 22, name: 'Telecommunications' } },
    category: { id: 88, name: 'Social Networks' },
    company: null,
    created_at: null,
  },
];

describe('toTable flattening', () => {
  const table = toTable(records);

  it('names included fields <include>_<field>, never repeating an id and never confusing the global brand name with the local one', () => {
    expect(table.columnNames).toEqual([
      'id', 'study_id', 'brand_id', 'category_id', 'audience_id', 'country_id', 'year_id', 'brand_name', 'category_name', 'is_duplicate',
      'differentiation_rank', 'esteem_brandscape_index', 'esteem_rank', 'created_at',
      // study include: its own name, then nested period / country / year flattened under their own keys
      'study_name',
      // brand include: the global name; the brand's nested sector
      'global_name',
      // category include: its name is the service's global category name (the row has the local one)
      'global_category_name',
      'company_id', 'company_name',
      'period_id', 'period_name', 'country_name', 'country_code', 'country_code_alpha3', 'country_code_numeric', 'year',
      'sector_id', 'sector_name',
      'region_id', 'region_name',
    ]);
    expect(table.get('brand_name', 0)).toBe('Facebook UK');
    expect(table.get('global_name', 0)).toBe('Facebook');
    expect(table.get('global_category_name', 0)).toBe('Social Networks');
    expect(table.get('category_name', 0)).toBe('Social Media');
    expect(table.get('sector_name', 1)).toBe('Telecommunications');
    expect(table.get('company_name', 1)).toBeNull();
    expect(table.get('country_code', 0)).toBe('GB');
    expect(table.get('period_name', 0)).toBe('Full Year');
  });

  it('types ids and years as integers, metrics as floats with NaN for missing (never 0), flags as booleans, timestamps as dates', () => {
    expect(table.kindOf('id')).toBe('int');
    expect(table.kindOf('company_id')).toBe('int');
    expect(table.kindOf('year')).toBe('int'); // the slim year's "2024" string
    expect(table.get('year', 0)).toBe(2024);
    expect(table.kindOf('differentiation_rank')).toBe('float');
    expect(table.kindOf('esteem_brandscape_index')).toBe('float'); // whole numbers, still a metric
    expect(table.kindOf('esteem_rank')).toBe('float'); // null in every row: still a column
    expect(Array.from(table.numbers('esteem_rank'))).toEqual([NaN, NaN]);
    expect(Array.from(table.numbers('differentiation_rank'))).toEqual([71.3, 0]);
    expect(table.kindOf('is_duplicate')).toBe('bool');
    expect(table.values('is_duplicate')).toEqual([false, true]);
    expect(table.kindOf('created_at')).toBe('date');
    expect(table.get('created_at', 0)).toEqual(new Date('2024-03-01T10:05:01.000Z'));
    expect(table.get('created_at', 1)).toBeNull();
    const company = table.column('company_id');
    expect(company.kind === 'int' && company.values[1]).toBe(INT_NULL);
  });

  it('gives plain rows with null for missing values', () => {
    const [first, second] = table.rows();
    expect(first).toMatchObject({ id: 865156, brand_name: 'Facebook UK', global_name: 'Facebook', company_id: 1520, esteem_rank: null });
    expect(second).toMatchObject({ company_id: null, company_name: null, differentiation_rank: 0, is_duplicate: true });
  });

  it('reads records whose fields come in another order or are absent', () => {
    const t = toTable([
      { a_id: 1, x: 1.5, name: 'one' },
      { name: 'two', x: 2.5 },
      { x: null, a_id: 3, extra: true },
    ]);
    expect(t.rows()).toEqual([
      { a_id: 1, x: 1.5, name: 'one', extra: null },
      { a_id: null, x: 2.5, name: 'two', extra: null },
      { a_id: 3, x: null, name: null, extra: true },
    ]);
  });

  it('keeps arrays as JSON text and text of mixed types as text', () => {
    const t = toTable([{ officers: [{ name: 'A' }], code: 1 }, { officers: [], code: 'X' }]);
    expect(t.values('officers')).toEqual(['[{"name":"A"}]', '[]']);
    expect(t.values('code')).toEqual(['1', 'X']);
  });

  it('names the available columns when a column is missing', () => {
    expect(() => table.column('awareness_rank')).toThrow(DataError);
    try {
      table.column('awareness_rank');
    } catch (error) {
      expect((error as DataError).missing).toEqual(['awareness_rank']);
      expect((error as DataError).available).toContain('differentiation_rank');
    }
  });

  it('takes, filters and selects without changing values', () => {
    const t = table.take([1, 0]).select(['brand_id', 'differentiation_rank']);
    expect(t.rows()).toEqual([
      { brand_id: 369, differentiation_rank: 0 },
      { brand_id: 368, differentiation_rank: 71.3 },
    ]);
    expect(table.filter((r) => r['is_duplicate'] === false).length).toBe(1);
    expect(t).toBeInstanceOf(FrameTable);
  });
});

describe('toDanfo', () => {
  it('builds a danfojs DataFrame with the columns, dtypes and missing values of the table', async () => {
    const df = await toDanfo(records);
    expect(df.shape).toEqual([2, 30]); // the 30 columns listed in the flattening test
    expect(df.columns.slice(0, 3)).toEqual(['id', 'study_id', 'brand_id']);
    const dtypes = Object.fromEntries(df.columns.map((c, i) => [c, df.dtypes[i]]));
    expect(dtypes['brand_id']).toBe('int32');
    expect(dtypes['differentiation_rank']).toBe('float32');
    expect(dtypes['brand_name']).toBe('string');
    expect(dtypes['is_duplicate']).toBe('boolean');
    // company_id has a missing value: danfojs has no nullable integers, so it is a float with NaN.
    expect(dtypes['company_id']).toBe('float32');
    expect(df.column('company_id').values).toEqual([1520, NaN]);
    expect(df.column('differentiation_rank').values).toEqual([71.3, 0]);
    expect(df.column('global_name').values).toEqual(['Facebook', 'Instagram']);
  }, 60_000);

  it('builds an empty DataFrame from an empty table', async () => {
    const df = await toDanfo(toTable([], { columns: ['a', 'b'] }));
    expect(df.columns).toEqual(['a', 'b']);
  }, 60_000);
});
