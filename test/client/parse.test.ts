/**
 * Page schemas: small pages are parsed by the plain schema, and a shape is compiled once it has
 * parsed 1,000 records; both accept and refuse the same pages, with the same messages.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ResponseShapeError } from '../../src/errors.js';
import { fromListBody, pageSchemaOf } from '../../src/client/parse.js';

const page = (data: unknown[]) => ({
  data,
  links: { first: 'x?page=1', last: 'x?page=1', prev: null, next: null },
  meta: { current_page: 1, from: 1, last_page: 1, links: [{ url: 'x?page=1', label: 1, active: true }], path: 'x', per_page: 1000, to: data.length, total: data.length },
});
const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Brand ${i + 1}`, share: i % 3 === 0 ? null : i / 10 }));
const bad = page([{ id: 1, name: 'Brand 1', share: 0.5 }, { id: 'two', name: 'Brand 2', share: null }]);

/** The message a refused page gets, or undefined when it is accepted. */
function refusal(parse: () => unknown): string | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseShapeError);
    return (error as Error).message;
  }
}

describe('page schemas', () => {
  it('parse small pages with the plain schema and compile a shape once it has parsed 1,000 records', () => {
    const record = z.object({ id: z.number().int(), name: z.string(), share: z.number().nullable() });
    const plain = pageSchemaOf(record, 10);
    expect(pageSchemaOf(record, 400)).toBe(plain);
    const plainRefusal = refusal(() => fromListBody(record, bad, '/brands'));
    expect(plainRefusal).toContain('data[1].id');
    expect(fromListBody(record, page(records(500)), '/brands').records).toHaveLength(500);
    // 10 + 400 + 2 + 500 records so far: the next page of 100 passes 1,000.
    const compiled = pageSchemaOf(record, 100);
    expect(compiled).not.toBe(plain);
    expect(pageSchemaOf(record, 1)).toBe(compiled);
    expect(refusal(() => fromListBody(record, bad, '/brands'))).toBe(plainRefusal);
    const body = page(records(1000));
    expect(fromListBody(record, body, '/brands').records).toEqual(body.data);
  });

  it('compile at once for a page of 1,000 records or more', () => {
    const record = z.object({ id: z.number().int() });
    const first = pageSchemaOf(record, 1000);
    expect(pageSchemaOf(record, 1)).toBe(first);
    const other = z.object({ id: z.number().int() });
    expect(pageSchemaOf(other, 999)).not.toBe(pageSchemaOf(other, 1));
  });
});
