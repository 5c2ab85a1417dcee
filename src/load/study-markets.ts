/**
 * The market code and calendar year of brandscape rows, from their studies: brandscape records
 * carry `country_id` and `year_id` (ids), but every comparison and every file a reader opens
 * needs `country_code` and `year` (docs/columns.md).
 */
import { FrameTable, type FrameMeta } from '../frames/frame-table.js';
import { INT_NULL, cellOf, type FrameColumn } from '../frames/column.js';
import { textColumn } from '../frames/string-dictionary.js';

/** The studies fetcher this needs: any client's `studies`. */
export interface StudiesOf {
  studies: {
    all(
      params: { filter: { id: number[] }; include: ['country', 'year'] },
      options?: { signal?: AbortSignal },
    ): Promise<readonly { id: number; country?: { code?: string | null } | null; year?: { year?: string | number | null } | null }[]>;
  };
}

/** A study's market and calendar year (null when the service does not say). */
export interface StudyMarket {
  code: string | null;
  year: number | null;
}

/**
 * The market code and calendar year of each study id, a request per 100 studies.
 *
 * @example
 * const markets = await loadStudyMarkets(client, [12, 13]);
 * markets.get(12); // { code: 'GB', year: 2024 }
 */
export async function loadStudyMarkets(client: StudiesOf, ids: Iterable<number>, signal?: AbortSignal): Promise<Map<number, StudyMarket>> {
  const wanted = [...new Set(ids)];
  const out = new Map<number, StudyMarket>();
  for (let i = 0; i < wanted.length; i += 100) {
    const studies = await client.studies.all({ filter: { id: wanted.slice(i, i + 100) }, include: ['country', 'year'] }, signal ? { signal } : {});
    for (const s of studies) {
      const year = Number(s.year?.year);
      out.set(s.id, { code: s.country?.code ?? null, year: Number.isInteger(year) ? year : null });
    }
  }
  return out;
}

/**
 * The table with `country_code` after `country_id` and `year` after `year_id`, from its
 * `study_id` column; a table that has either already (an include brought it) or lacks
 * `study_id` is returned as it is.
 */
export async function withStudyMarkets<R extends object, M extends FrameMeta>(table: FrameTable<R, M>, client: StudiesOf, signal?: AbortSignal): Promise<FrameTable<R, M>> {
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
