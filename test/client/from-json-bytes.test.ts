/**
 * Reading JSON from an answer's bytes run by run gives what JSON.parse of the whole text gives, on
 * the emulator's real pages and on texts made to mislead the cuts between records; text that is not
 * JSON is a SyntaxError, as from JSON.parse. `envelopeOf` reads only what follows the records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeOf, fromJsonBytes } from '../../src/client/from-json-bytes.js';
import type { Emulator } from '../../src/emulator/index.js';
import { call } from '../helpers/http.js';
import { startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

/** A list envelope around `records`, compact as the service writes it, padded past the run size. */
const envelope = (records: unknown[]) => JSON.stringify({ data: records, links: { first: null, last: null, prev: null, next: null }, meta: { total: records.length, links: [{ url: null, label: 1, active: true }] } });
const same = (text: string) => expect(fromJsonBytes(Buffer.from(text))).toEqual(JSON.parse(text));

describe('fromJsonBytes', () => {
  it('reads the emulator pages exactly as JSON.parse does (wide brandscape rows, non-ASCII names)', async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const answer = await call(emulator, `/api/v2/brandscape-data?filter[studies]=${study}&per_page=1000`);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(200_000);
    same(answer.text);
    const brands = await call(emulator, '/api/v2/brands?per_page=300&include=sector,company');
    same(brands.text);
  });

  it('is not misled by `},{` inside strings or nested lists, nor by `],"links":{` inside a string', () => {
    const tricky = Array.from({ length: 400 }, (_, i) => ({
      id: i,
      name: i % 7 === 0 ? 'a},{"id":-1},{b' : i % 11 === 0 ? 'x],"links":{"y":1}' : `brand ${i}`,
      nested: i % 5 === 0 ? [{ a: 1 }, { b: 2 }, { c: '},{' }] : [],
      padding: 'p'.repeat(200),
    }));
    same(envelope(tricky));
    // The same with the odd string in the very last record, next to the end of the list.
    same(envelope([...tricky, { id: 9999, name: '},{', tail: ']],"links":{' }]));
  });

  it('keeps characters of every width: Latin-1, CJK and emoji next to the cuts', () => {
    const names = ['Café', 'Nestlé', '日本ブランド', 'Łódź', '😀 brand', 'plain'];
    const rows = Array.from({ length: 600 }, (_, i) => ({ id: i, brand_name: names[i % names.length], filler: 'x'.repeat(120) }));
    same(envelope(rows));
  });

  it('reads other shapes whole: an empty list, an item, pretty-printed JSON, a second data key', () => {
    same(envelope([]));
    same(JSON.stringify({ data: { id: 1, name: 'x'.repeat(100_000) } }));
    same(JSON.stringify(JSON.parse(envelope(Array.from({ length: 500 }, (_, i) => ({ id: i, n: 'y'.repeat(150) })))), null, 2));
    const doubled = envelope(Array.from({ length: 500 }, (_, i) => ({ id: i, n: 'z'.repeat(150) }))).replace(/}$/, ',"data":[1]}');
    same(doubled);
    expect((fromJsonBytes(Buffer.from(doubled)) as { data: unknown }).data).toEqual([1]);
  });

  it('throws a SyntaxError for text that is not JSON, such as a body cut short', () => {
    const text = envelope(Array.from({ length: 500 }, (_, i) => ({ id: i, n: 'w'.repeat(150) })));
    expect(() => fromJsonBytes(Buffer.from(text.slice(0, Math.floor(text.length / 2))))).toThrow(SyntaxError);
    expect(() => fromJsonBytes(Buffer.from(text.slice(0, -1)))).toThrow(SyntaxError);
    expect(() => fromJsonBytes(Buffer.from('<html>Bad gateway</html>'))).toThrow(SyntaxError);
  });
});

describe('envelopeOf', () => {
  it("gives a list answer's envelope without its records: what JSON.parse gives with data empty", async () => {
    const study = emulator.dataset.studies.find((s) => s.released)?.record.id ?? 0;
    const answer = await call(emulator, `/api/v2/brandscape-data?filter[studies]=${study}&per_page=1000`);
    const whole = JSON.parse(answer.text) as { data: unknown[]; meta: { total: number } };
    expect(whole.data.length).toBeGreaterThan(100);
    expect(envelopeOf(Buffer.from(answer.text))).toEqual({ ...whole, data: [] });
    // Small pages too: the envelope does not depend on the run size.
    const small = JSON.stringify({ data: [{ id: 1 }], links: { next: null }, meta: { total: 1 } });
    expect(envelopeOf(Buffer.from(small))).toEqual({ data: [], links: { next: null }, meta: { total: 1 } });
  });

  it('is undefined for anything else: an item, pretty-printed JSON, a second data key, a cut envelope', () => {
    const list = envelope(Array.from({ length: 300 }, (_, i) => ({ id: i, n: 'v'.repeat(100) })));
    expect(envelopeOf(Buffer.from(JSON.stringify({ data: { id: 1 } })))).toBeUndefined();
    expect(envelopeOf(Buffer.from(JSON.stringify(JSON.parse(list), null, 2)))).toBeUndefined();
    expect(envelopeOf(Buffer.from(list.replace(/}$/, ',"data":[1]}')))).toBeUndefined();
    expect(envelopeOf(Buffer.from(list.slice(0, -3)))).toBeUndefined();
    expect(envelopeOf(Buffer.from('<html>Bad gateway</html>'))).toBeUndefined();
    // A `],"meta":{` inside a record's string is not the envelope's: the last one is.
    const tricky = envelope([{ id: 1, note: 'x],"meta":{"total":99}' }]);
    expect(envelopeOf(Buffer.from(tricky))).toEqual({ ...(JSON.parse(tricky) as object), data: [] });
  });
});
