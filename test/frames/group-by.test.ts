import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { groupBy } from '../../src/frames/group-by.js';
import { pivot } from '../../src/frames/pivot.js';
import { toTable } from '../../src/frames/to-table.js';

// market, year, brand, value (null = missing)
const table = toTable([
  { market: 'GB', year: 2024, brand_id: 1, v: 10 },
  { market: 'GB', year: 2024, brand_id: 2, v: 20 },
  { market: 'GB', year: 2023, brand_id: 1, v: 40 },
  { market: 'DE', year: 2024, brand_id: 1, v: null },
  { market: 'DE', year: 2024, brand_id: 2, v: 5 },
  { market: 'DE', year: 2023, brand_id: 1, v: 1 },
  { market: 'DE', year: 2023, brand_id: 2, v: 2 },
  { market: 'DE', year: 2023, brand_id: 3, v: 6 },
]);

describe('groupBy', () => {
  it('means per two keys, sorted by key, skipping missing values', () => {
    const means = groupBy(table, ['market', 'year'], { columns: ['v'] });
    expect(means.rows()).toEqual([
      { market: 'DE', year: 2023, v: 3 }, // (1 + 2 + 6) / 3
      { market: 'DE', year: 2024, v: 5 }, // null skipped: 5 / 1
      { market: 'GB', year: 2023, v: 40 },
      { market: 'GB', year: 2024, v: 15 }, // (10 + 20) / 2
    ]);
    expect(means.kindOf('year')).toBe('int');
  });

  it('computes several statistics, named <column>_<stat>', () => {
    const stats = groupBy(table, 'market', { columns: ['v'], stats: ['count', 'sum', 'min', 'max', 'median', 'std'], size: true });
    expect(stats.rows()).toEqual([
      // DE values 5, 1, 2, 6 (one missing): sorted 1 2 5 6, median 3.5, mean 3.5,
      // std sqrt(((1-3.5)^2 + (2-3.5)^2 + (5-3.5)^2 + (6-3.5)^2) / 3) = sqrt(17 / 3)
      { market: 'DE', rows: 5, v_count: 4, v_sum: 14, v_min: 1, v_max: 6, v_median: 3.5, v_std: Math.sqrt(17 / 3) },
      // GB values 10, 20, 40: median 20, mean 70/3, deviations -40/3, -10/3, 50/3:
      // std sqrt((1600/9 + 100/9 + 2500/9) / 2)
      { market: 'GB', rows: 3, v_count: 3, v_sum: 70, v_min: 10, v_max: 40, v_median: 20, v_std: Math.sqrt((1600 / 9 + 100 / 9 + 2500 / 9) / 2) },
    ]);
  });

  it('sums, counts and means long runs of one group (rows in study order) as row by row does', () => {
    // 3 markets x 2 years in runs of 50 rows, one market-year split into two runs, values with
    // missing ones; five columns (pairs and a lone last one).
    const rows: Record<string, number | null | string>[] = [];
    const runs: [string, number][] = [['GB', 2023], ['GB', 2024], ['DE', 2023], ['FR', 2024], ['DE', 2024], ['GB', 2023], ['FR', 2023]];
    for (const [r, [market, year]] of runs.entries()) {
      for (let i = 0; i < 50; i++) {
        const row: Record<string, number | null | string> = { market, year };
        for (let c = 0; c < 5; c++) row[`m${c}`] = (i + c + r) % 7 === 0 ? null : ((i * 37 + c * 11 + r * 5) % 101) / 10;
        rows.push(row);
      }
    }
    const long = toTable(rows);
    const columns = ['m0', 'm1', 'm2', 'm3', 'm4'];
    const result = groupBy(long, ['market', 'year'], { columns, stats: ['sum', 'count', 'mean'] }).rows();
    const expected = [...new Set(runs.map(([m, y]) => `${m}|${y}`))].sort().map((key) => {
      const [market, year] = key.split('|');
      const mine = rows.filter((r) => r.market === market && r.year === Number(year));
      const out: Record<string, unknown> = { market, year: Number(year) };
      for (const c of columns) {
        const present = mine.map((r) => r[c]).filter((v): v is number => typeof v === 'number');
        out[`${c}_sum`] = present.reduce((a, b) => a + b, 0);
        out[`${c}_count`] = present.length;
        out[`${c}_mean`] = present.reduce((a, b) => a + b, 0) / present.length;
      }
      return out;
    });
    expect(result.map((r) => JSON.stringify([r.market, r.year]))).toEqual(expected.map((r) => JSON.stringify([r.market, r.year])));
    for (const [g, row] of result.entries()) {
      for (const [key, value] of Object.entries(expected[g]!)) {
        if (typeof value === 'number' && !Number.isInteger(value)) expect(row[key], `${String(row.market)} ${String(row.year)} ${key}`).toBeCloseTo(value, 9);
        else expect(row[key], key).toEqual(value);
      }
    }
  });

  it('names the missing key column and the available ones', () => {
    expect(() => groupBy(table, ['country'])).toThrow(DataError);
    expect(() => groupBy(table, 'market', { columns: ['awareness'] })).toThrow(/awareness/);
  });
});

describe('pivot', () => {
  it('makes a market x year table, cells are means, empty cells null', () => {
    const wide = pivot(table, { index: 'market', columns: 'year', values: 'v' });
    expect(wide.columnNames).toEqual(['market', '2023', '2024']);
    expect(wide.rows()).toEqual([
      { market: 'DE', '2023': 3, '2024': 5 },
      { market: 'GB', '2023': 40, '2024': 15 },
    ]);
    const sparse = pivot(table, { index: 'brand_id', columns: 'market', values: 'v', agg: 'sum' });
    expect(sparse.rows()).toEqual([
      { brand_id: 1, DE: 1, GB: 50 }, // DE: null + 1; GB: 10 + 40
      { brand_id: 2, DE: 7, GB: 20 },
      { brand_id: 3, DE: 6, GB: null }, // no GB row for brand 3
    ]);
  });
});
