/**
 * The copy-free row check says yes exactly when zod would return the rows unchanged: tried on
 * every kind of departure from a listed brandscape row, each compared with zod's own verdict.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toRowCheck } from '../../src/client/row-check.js';
import { brandscapeRowSchema } from '../../src/schemas/brandscape.js';

const schema = brandscapeRowSchema({ metricColumns: ['esteem_rank', 'esteem_c'], unknownColumns: 'strip' });
const row = {
  id: 1,
  study_id: 381,
  brand_id: 12,
  category_id: 4,
  audience_id: 1,
  country_id: 27,
  year_id: 6,
  brand_name: 'Café Noir',
  category_name: null,
  is_duplicate: false,
  esteem_rank: 55.1,
  esteem_c: null,
};

/** zod's verdict: it accepts the rows and returns them as they are. */
const zodKeepsAsIs = (rows: unknown[]) => {
  const parsed = z.array(schema).safeParse(rows);
  return parsed.success && JSON.stringify(parsed.data) === JSON.stringify(rows);
};

describe('toRowCheck', () => {
  const check = toRowCheck(schema);

  it('exists for listed brandscape rows and accepts them as zod does', () => {
    expect(check).toBeDefined();
    const rows = [row, { ...row, id: 2, brand_name: null, is_duplicate: true, esteem_rank: null, esteem_c: -0.5 }];
    expect(zodKeepsAsIs(rows)).toBe(true);
    expect(check?.(rows)).toBe(true);
    expect(check?.([])).toBe(true);
  });

  const departures: [string, unknown][] = [
    ['a missing field', (({ esteem_c: _, ...rest }) => rest)(row)],
    ['an extra column', { ...row, new_metric_rank: 42 }],
    ['a string for a number', { ...row, esteem_rank: '55.1' }],
    ['a fraction for an id', { ...row, brand_id: 12.5 }],
    ['null for the id', { ...row, id: null }],
    ['a number for a flag', { ...row, is_duplicate: 0 }],
    ['an array for a row', [1, 2, 3]],
    ['null for a row', null],
    ['a number too large to be a safe integer', { ...row, study_id: 2 ** 60 }],
  ];
  for (const [name, bad] of departures) {
    it(`refuses ${name}, as zod would not return it unchanged`, () => {
      expect(zodKeepsAsIs([row, bad])).toBe(false);
      expect(check?.([row, bad])).toBe(false);
    });
  }

  it('has no check for schemas beyond plain leaves (nested objects, defaults, inherited key names)', () => {
    expect(toRowCheck(brandscapeRowSchema({ metricColumns: ['esteem_rank'], includes: ['brand'], unknownColumns: 'strip' }))).toBeUndefined();
    expect(toRowCheck(z.object({ id: z.number(), name: z.string().nullable().default(null) }))).toBeUndefined();
    expect(toRowCheck(z.object({ constructor: z.number() }))).toBeUndefined();
    expect(toRowCheck(z.object({ code: z.string().min(2) }))).toBeUndefined();
  });

  it('reads key names as data, never as code', () => {
    const odd = z.object({ "a'); throw new Error('x": z.number(), 'b"\\n': z.string() });
    const oddCheck = toRowCheck(odd);
    expect(oddCheck?.([{ "a'); throw new Error('x": 1, 'b"\\n': 'y' }])).toBe(true);
    expect(oddCheck?.([{ "a'); throw new Error('x": 'no', 'b"\\n': 'y' }])).toBe(false);
  });
});
