/**
 * Tables built while loading (`loadTable`, `brandscapeTable`, `TableBuilder`, the loader's
 * `loadInto`): over HTTP against the emulator, the table equals the one built from the collected
 * records, and the sink hears a restart when the data changes during a load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { FrameTable } from '../../src/frames/frame-table.js';
import { brandscapeTable, loadTable } from '../../src/load/load-table.js';
import { TableBuilder, toTable } from '../../src/frames/to-table.js';
import { loadInto } from '../../src/loader/load-all.js';
import type { FetchPage } from '../../src/loader/types.js';
import { startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
let client: ReturnType<typeof createClient>;
beforeAll(async () => {
  emulator = await startEmulator();
  client = createClient({ baseUrl: emulator.url, token: emulator.token });
});
afterAll(() => emulator?.close());

/** Every column: name, kind and cells. */
const contents = (t: FrameTable) => t.columnNames.map((name) => [name, t.kindOf(name), t.values(name)]);

describe('tables built while loading', () => {
  it('brandscapeTable equals toTable of the collected rows, over several pages', async () => {
    const params = { filter: { country_code: ['GB', 'DE'], year_number: [2024], audiences: 1 }, metricGroupKeys: ['pillars'], include: ['brand', 'sector'] as const, perPage: 50 };
    const [built, records, catalogue] = await Promise.all([brandscapeTable(client, params), client.brandscape.all(params), client.metricCatalogue()]);
    expect(records.length).toBeGreaterThan(150); // several pages of 50
    const collected = toTable(records, { metricColumns: catalogue.columns.allColumns });
    expect(built.length).toBe(records.length);
    // The same columns, plus the market's code and the calendar year beside their ids.
    const own = built.columnNames.filter((n) => n !== 'country_code' && n !== 'year');
    expect(contents(built.select(own))).toEqual(contents(collected));
    expect(built.kindOf('brand_id')).toBe('int');
    expect(built.kindOf('sector_name')).toBe('string');
    const names = built.columnNames;
    expect(names[names.indexOf('country_id') + 1]).toBe('country_code');
    expect(names[names.indexOf('year_id') + 1]).toBe('year');
    const studies = await client.studies.all({ filter: { id: [...new Set(records.map((r) => r.study_id).filter((id): id is number => id !== null))] }, include: ['country', 'year'] });
    const byStudy = new Map(studies.map((st) => [st.id, `${st.country?.code ?? ''} ${st.year?.year ?? ''}`]));
    const rows = built.rows() as { study_id: number; country_code: string; year: number }[];
    expect(new Set(rows.map((r) => r.country_code))).toEqual(new Set(['GB', 'DE']));
    expect(rows.every((r) => byStudy.get(r.study_id) === `${r.country_code} ${r.year}` && r.year === 2024)).toBe(true);
  });

  it('brandscapeTable adds no market columns an include already brings, nor without a studies fetcher', async () => {
    const params = { filter: { country_code: 'GB', year_number: 2024, audiences: 1 }, metricKeys: ['esteem'], include: ['country', 'year'] as const };
    const withIncludes = await brandscapeTable(client, params);
    expect(withIncludes.columnNames.filter((n) => n === 'country_code' || n === 'year')).toEqual(['country_code', 'year']);
    const bare = await brandscapeTable({ brandscape: client.brandscape, metricCatalogue: (options) => client.metricCatalogue(options) }, { ...params, include: [] });
    expect(bare.columnNames).not.toContain('country_code');
  });

  it('loadTable fills a table from any fetcher, with toTable options', async () => {
    const params = { filter: { country_codes: 'GB' }, include: ['sector'] as const, perPage: 20 };
    const [built, records] = await Promise.all([loadTable(client.brands, params, { table: { columns: ['name', 'id'] } }), client.brands.all(params)]);
    expect(records.length).toBeGreaterThan(40); // several pages of 20
    expect(built.columnNames.slice(0, 2)).toEqual(['name', 'id']);
    expect(contents(built)).toEqual(contents(toTable(records, { columns: ['name', 'id'] })));
  });

  it('a TableBuilder gives the same table page by page as at once, whatever the page sizes', () => {
    const records = Array.from({ length: 2500 }, (_, i) => ({
      id: i,
      name: i % 7 === 0 ? null : `n${i % 13}`,
      score: i % 5 === 0 ? null : i / 3,
      // A field that first appears late, and an object that appears only on some rows.
      ...(i > 2000 ? { late: i % 2 === 0 } : {}),
      ...(i % 3 === 0 ? { sector: { id: i % 4, name: `s${i % 4}` } } : {}),
    }));
    const builder = new TableBuilder();
    for (let start = 0, size = 1; start < records.length; start += size, size = size * 2 + 1) builder.append(records.slice(start, start + size));
    expect(contents(builder.finish())).toEqual(contents(toTable(records)));
    expect(() => builder.append(records)).toThrow(/finished/);
  });

  it('loadInto starts the sink again when the data changes during the load, and ends with the second load only', async () => {
    let calls = 0;
    // Page 2 of the first attempt reports another total: the loader starts again once.
    const fetchPage: FetchPage<{ id: number }> = async (page, perPage) => {
      calls += 1;
      const total = calls <= 2 ? 30 : 25;
      const records = Array.from({ length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) }, (_, i) => ({ id: (page - 1) * perPage + i + (calls <= 2 ? 1000 : 0) }));
      return { records, total, perPage, currentPage: page, lastPage: Math.ceil(total / perPage) };
    };
    const starts: number[] = [];
    const builder = new TableBuilder();
    const sink = { start: (total: number) => (starts.push(total), builder.start(total)), append: (r: readonly object[]) => builder.append(r), get length() { return builder.length; } };
    const summary = await loadInto(fetchPage, sink, { perPage: 10, concurrency: 1 });
    expect(starts).toEqual([30, 25]);
    expect(summary.stats.reloads).toBe(1);
    expect(summary.complete).toBe(true);
    expect(builder.finish().values('id')).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });
});
