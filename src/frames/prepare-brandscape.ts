/**
 * `prepareBrandscape`: brandscape rows and their context (`BrandscapeInput`) to typed columns and
 * the lookups every comparison needs: each study's market, year and wave, each metric column's
 * catalogue names, and which rows count for category-agnostic columns.
 */
import { DataError } from '../errors.js';
import { fromMetricColumn, metricKeyOf, type ScoreType } from '../schemas/score-types.js';
import type { BrandRecord, BrandscapeInput, MetricCatalogue, StudyRecord } from './brandscape-input.js';
import { isCategorySpecific, type DedupeInfo } from './is-category-specific.js';
import { FrameTable, INT_NULL, cellOf, type FrameColumn, type FrameMeta } from './frame-table.js';
import { allRows, groupIndex } from './group-index.js';
import { toTable } from './to-table.js';

/** Market, calendar year and wave of a study. */
export interface StudyInfo {
  readonly studyId: number;
  readonly name: string;
  readonly countryId: number;
  readonly market: string;
  readonly countryCode: string;
  readonly year: number;
  /** 1-4 for US quarterly waves, null for full-year studies. */
  readonly quarter: number | null;
}

/** The market fields every comparison row carries (`MarketKey` of types.ts). */
export const marketFields = (study: StudyInfo) => ({ country_id: study.countryId, market: study.market, country_code: study.countryCode });

/** The metric fields every comparison row carries (`MetricKey` of types.ts). */
export const metricFields = (info: MetricInfo) => ({
  metric: info.metric,
  metric_name: info.metricName,
  metric_group: info.group,
  score_type: info.scoreType,
  column: info.column,
});

/** A metric column with its catalogue names. */
export interface MetricInfo {
  readonly column: string;
  readonly metric: string;
  readonly metricName: string;
  readonly group: string;
  readonly scoreType: ScoreType;
  /** Differs between a brand's category rows (kept per category by `auto` de-duplication). */
  readonly categorySpecific: boolean;
}

/** The brandscape rows as typed columns plus the lookups every comparison needs. */
export interface PreparedBrandscape {
  readonly table: FrameTable<object, FrameMeta>;
  readonly n: number;
  readonly studyId: Int32Array;
  readonly brandId: Int32Array;
  readonly categoryId: Int32Array;
  readonly audienceId: Int32Array;
  readonly studies: ReadonlyMap<number, StudyInfo>;
  /** Metric columns present in the rows. */
  readonly metrics: ReadonlyMap<string, MetricInfo>;
  /** 1 where a row counts for category-agnostic columns (not a duplicate). */
  readonly agnosticRow: Uint8Array;
  readonly dedupeBasis: DedupeInfo['basis'];
  readonly brands: ReadonlyMap<number, BrandRecord>;
}

/** An id column as integers (a float column of whole numbers too); undefined when there is none. */
export const intColumn = (table: FrameTable<object, FrameMeta>, name: string): Int32Array | undefined => {
  const column = table.has(name) ? table.column(name) : undefined;
  if (!column) return undefined;
  if (column.kind === 'int') return column.values;
  if (column.kind === 'float') return Int32Array.from(column.values, (v) => (Number.isInteger(v) ? v : INT_NULL));
  return undefined;
};

/** A cell as text (null when missing or when the column is absent). */
export const textAt = (column: FrameColumn | undefined, row: number): string | null => {
  if (!column) return null;
  const v = cellOf(column, row);
  return v === null ? null : String(v);
};

/** The quarter of a US wave, from its period (`Q2`) or its name (`US - Adults 2024 Q2`). */
export function quarterOf(periodName: string | null | undefined, studyName: string | null | undefined): number | null {
  for (const text of [periodName, studyName]) {
    if (!text) continue;
    const m = /\bQ([1-4])\b/i.exec(text) ?? /\bquarter\s*([1-4])\b/i.exec(text);
    if (m) return Number(m[1]);
  }
  return null;
}

const yearNumber = (v: string | number | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isInteger(n) ? n : null;
};

function studyInfos(table: FrameTable<object, FrameMeta>, studyId: Int32Array, studies: readonly StudyRecord[] | undefined): Map<number, StudyInfo> {
  const given = new Map((studies ?? []).map((s) => [s.id, s]));
  const first = groupIndex([studyId], allRows(table.length));
  const countryIds = intColumn(table, 'country_id');
  const years = intColumn(table, 'year');
  const col = (name: string) => (table.has(name) ? table.column(name) : undefined);
  const countryName = col('country_name');
  const countryCode = col('country_code');
  const studyName = col('study_name');
  const periodName = col('period_name');
  const out = new Map<number, StudyInfo>();
  const missing: string[] = [];
  for (let g = 0; g < first.count; g++) {
    const row = first.firstRow[g]!;
    const id = studyId[row]!;
    const s = given.get(id);
    const countryId = s?.country?.id ?? (countryIds ? countryIds[row]! : INT_NULL);
    const year = yearNumber(s?.year?.year) ?? (years && years[row] !== INT_NULL ? years[row]! : null);
    const market = s?.country?.name ?? textAt(countryName, row);
    if (countryId === INT_NULL || year === null || market === null) {
      missing.push(`study ${id}`);
      continue;
    }
    const name = s?.name ?? textAt(studyName, row) ?? `Study ${id}`;
    out.set(id, {
      studyId: id,
      name,
      countryId,
      market,
      countryCode: s?.country?.code ?? textAt(countryCode, row) ?? '',
      year,
      quarter: quarterOf(s?.period?.name ?? textAt(periodName, row), name),
    });
  }
  if (missing.length > 0) {
    throw new DataError(
      'The market or year of some studies is not known.',
      missing,
      [...given.keys()].map((id) => `study ${id}`),
      {
        hint: "Pass studies loaded with client.studies.all({ include: ['country', 'year'] }), or load the rows with include: ['study'] (or ['country', 'year']).",
      },
    );
  }
  return out;
}

function metricIndex(table: FrameTable<object, FrameMeta>, catalogue: MetricCatalogue): Map<string, MetricInfo> {
  const groupOf = new Map<number, string>();
  for (const group of catalogue.groups) for (const m of group.metrics) if (group.key !== null) groupOf.set(m.id, group.key);
  const known = new Map<string, { metric: string; name: string; group: string }>();
  for (const metric of catalogue.metrics) {
    const columns = metric.brandscape_data_columns ?? [];
    const key = metricKeyOf(columns);
    if (key === undefined) continue;
    for (const column of columns) known.set(column, { metric: key, name: metric.name ?? key, group: groupOf.get(metric.id) ?? '' });
  }
  const out = new Map<string, MetricInfo>();
  for (const [column, c] of table.entries()) {
    const k = known.get(column);
    // Every float column of a brandscape table is a metric (metadata and includes are ids, text and flags).
    if (!k && c.kind !== 'float') continue;
    const { metric, scoreType } = fromMetricColumn(column);
    const info = k ?? { metric, name: metric, group: '' };
    out.set(column, {
      column,
      metric: info.metric,
      metricName: info.name,
      group: info.group,
      scoreType,
      categorySpecific: isCategorySpecific({ metric: info.metric, group: info.group, scoreType }),
    });
  }
  return out;
}

/** Required metadata columns of brandscape rows. */
const REQUIRED = ['study_id', 'brand_id', 'category_id', 'audience_id'] as const;

/** Turns the input into typed columns and lookups; throws a DataError naming what is missing. */
export function prepareBrandscape(input: BrandscapeInput): PreparedBrandscape {
  // No implicit cache of tables made from record arrays: records can be edited in place, which no
  // cheap key (identity, length, first and last record) notices. Callers reuse a table explicitly.
  const table = input.rows instanceof FrameTable ? input.rows : toTable(input.rows, { source: 'brandscape' });
  const missing = REQUIRED.filter((name) => !table.has(name));
  if (missing.length > 0) {
    throw new DataError('The brandscape rows lack metadata the comparisons need.', missing, table.columnNames, {
      hint: 'Load the rows without narrowing fields[brandscape_data] to metric columns only.',
    });
  }
  const [studyId, brandId, categoryId, audienceId] = REQUIRED.map((name) => {
    const values = intColumn(table, name);
    if (!values) throw new DataError(`Column '${name}' does not hold ids.`, [name], table.columnNames);
    return values;
  }) as [Int32Array, Int32Array, Int32Array, Int32Array];
  const n = table.length;
  const agnosticRow = new Uint8Array(n);
  let basis: DedupeInfo['basis'];
  const duplicate = table.has('is_duplicate') ? table.column('is_duplicate') : undefined;
  if (duplicate?.kind === 'bool') {
    basis = 'is_duplicate';
    // A missing flag counts as "not a duplicate": dropping the row would lose the brand.
    for (let i = 0; i < n; i++) agnosticRow[i] = duplicate.values[i] === 1 ? 0 : 1;
  } else {
    basis = 'first row per study, audience and brand';
    const firsts = groupIndex([studyId, audienceId, brandId], allRows(n)).firstRow;
    for (let g = 0; g < firsts.length; g++) agnosticRow[firsts[g]!] = 1;
  }
  const brands = new Map((input.brands ?? []).map((b) => [b.id, b]));
  return {
    table,
    n,
    studyId,
    brandId,
    categoryId,
    audienceId,
    studies: studyInfos(table, studyId, input.studies),
    metrics: metricIndex(table, input.catalogue),
    agnosticRow,
    dedupeBasis: basis,
    brands,
  };
}
