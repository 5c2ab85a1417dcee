/**
 * `loadTable` and `brandscapeTable`: a query loaded straight into a `FrameTable`, page by page as
 * the pages arrive, without keeping the record objects. A notebook that loads a million rows this
 * way never holds a million objects for the garbage collector to walk (a group-by on a table next
 * to the loaded records measured about 4x slower), and the load's peak memory stays close to the
 * table's own size.
 */
import type { BrandscapeClient, FetchAllOptions } from '../client/brandscape-client.js';
import type { BrandscapeParams } from '../client/params.js';
import type { LoadSummary, RecordSink } from '../loader/types.js';
import { FrameTable, type FrameMeta, type FrameRow } from '../frames/frame-table.js';
import { INT_NULL, cellOf, type FrameColumn } from '../frames/column.js';
import { textColumn } from '../frames/string-dictionary.js';
import { TableBuilder, type ToTableOptions } from '../frames/to-table.js';
import { loadStudyMarkets, type StudiesOf } from './study-markets.js';

/** Anything that loads into a sink: every fetcher of a client (`client.brands`, `client.brandscape`, ...). */
export interface LoadsInto<P> {
  loadInto(params: P, sink: RecordSink<never>, options?: FetchAllOptions): Promise<LoadSummary>;
}

export interface LoadTableOptions extends FetchAllOptions {
  /** How the records become columns (`toTable`'s options: metric columns, kinds, column order). */
  table?: ToTableOptions;
}

/**
 * Loads every record of a query into a table as the pages arrive (the loader's guarantees: every
 * record of `meta.total` or an error). The table equals `toTable(await fetcher.all(params))`.
 *
 * @example
 * const brands = await loadTable(client.brands, { filter: { country_codes: 'GB' } });
 * brands.length;
 */
export async function loadTable<P, R extends object = FrameRow>(fetcher: LoadsInto<P>, params: P, options: LoadTableOptions = {}): Promise<FrameTable<R, FrameMeta>> {
  const { table, ...load } = options;
  const builder = new TableBuilder<R>({ source: 'loadTable', ...table });
  await fetcher.loadInto(params, builder, load);
  return builder.finish();
}

/**
 * Brandscape rows loaded straight into a table, with the metric columns typed as numbers from the
 * metric catalogue (fetched alongside the first page, and cached by the client). Given a client
 * with `studies` (any client), the rows also get `country_code` (after `country_id`) and `year`
 * (after `year_id`) from their studies, unless an include brings them (docs/columns.md).
 *
 * @example
 * const client = createClient({ baseUrl: emulator.url, token: emulator.token });
 * const table = await brandscapeTable(client, { filter: { country_code: 'GB', year_number: 2024, audiences: 1 }, metricKeys: ['differentiation'], include: ['brand'] });
 * table.where({ differentiation_rank: { gte: 90 } }).sortBy({ column: 'differentiation_rank', descending: true }).head(5).rows();
 */
export async function brandscapeTable<R extends object = FrameRow>(
  client: Pick<BrandscapeClient, 'brandscape' | 'metricCatalogue'> & Partial<StudiesOf>,
  params: BrandscapeParams,
  options: LoadTableOptions = {},
): Promise<FrameTable<R, FrameMeta>> {
  // A token without the catalogue's scope still loads rows: metric columns are then typed by their values.
  const catalogue = client.metricCatalogue(options.signal ? { signal: options.signal } : undefined).catch(() => undefined);
  const builder = new TableBuilder<R>({ source: 'brandscape', ...options.table });
  const { table: _table, ...load } = options;
  await client.brandscape.loadInto(params, builder, load);
  const metricColumns = options.table?.metricColumns ?? (await catalogue)?.columns.allColumns ?? [];
  const table = builder.finishWith({ metricColumns });
  return client.studies ? withStudyMarkets(table, { studies: client.studies }, options.signal) : table;
}

/**
 * The table with `country_code` after `country_id` and `year` after `year_id`, from its
 * `study_id` column; a table that has either already (an include brought it) or lacks
 * `study_id` is returned as it is.
 */
async function withStudyMarkets<R extends object, M extends FrameMeta>(table: FrameTable<R, M>, client: StudiesOf, signal?: AbortSignal): Promise<FrameTable<R, M>> {
  const names = table.columnNames;
  const addCode = names.includes('country_id') && !names.includes('country_code');
  const addYear = names.includes('year_id') && !names.includes('year');
  if (!names.includes('study_id') || (!addCode && !addYear) || table.length === 0) return table;
  const studyColumn = table.column('study_id');
  const n = table.length;
  const studyOf = (i: number) => {
    const id = cellOf(studyColumn, i);
    return typeof id === 'number' ? id : undefined;
  };
  const ids = new Set<number>();
  for (let i = 0; i < n; i++) {
    const id = studyOf(i);
    if (id !== undefined) ids.add(id);
  }
  const markets = await loadStudyMarkets(client, ids, signal);
  const marketOf = (i: number) => {
    const id = studyOf(i);
    return id === undefined ? undefined : markets.get(id);
  };
  const columns: [string, FrameColumn][] = [];
  for (const name of names) {
    columns.push([name, table.column(name)]);
    if (name === 'country_id' && addCode) columns.push(['country_code', textColumn(n, (i) => marketOf(i)?.code ?? null)]);
    if (name === 'year_id' && addYear) {
      const years = new Int32Array(n);
      for (let i = 0; i < n; i++) years[i] = marketOf(i)?.year ?? INT_NULL;
      columns.push(['year', { kind: 'int', values: years }]);
    }
  }
  return new FrameTable<R, M>(columns, n, table.meta);
}
