/**
 * The query planning of `GET /brandscape-data` (REFERENCE §12): which (study x audience) blocks of
 * the dataset's row-id space a query keeps, and which rows of them a page shows, in which order.
 * Counting and paging in id order touch no metric value; values are read only when a query filters
 * or sorts on a metric column. The page writer (brandscape.ts) turns the planned rows into bytes.
 */
import { BRANDSCAPE_COMBINATIONS_TEXT, RESOURCES, isQualifyingBrandscapeFilter } from '../../catalogue/endpoints.js';
import { BRANDSCAPE_META_FIELDS } from '../../schemas/brandscape.js';
import type { MetricColumn, StudyRows } from '../dataset/types.js';
import { badRequest } from './api-error.js';
import type { Ctx } from './bindings.js';
import { fromCodeList, fromFlag, fromIdList, likeMatcher } from './filter-values.js';
import { validateQuery } from './list-engine.js';
import type { ParsedQuery, SortKey } from './parse-query.js';
import { splitList } from './parse-query.js';

export const spec = RESOURCES['brandscape-data'];
export type MetaField = (typeof BRANDSCAPE_META_FIELDS)[number];

/** One (study x audience) block and the rows of it the query keeps (undefined = all). */
export interface Block {
  studyId: number;
  audienceId: number;
  rows: StudyRows;
  keep: Int32Array | undefined;
  count: number;
  firstRowId: number;
}

export interface Plan {
  blocks: Block[];
  total: number;
  columns: readonly MetricColumn[];
  /** Meta fields to write, in order. */
  meta: readonly MetaField[];
  include: readonly string[];
  /** Row-level tests that need values or the row id. */
  rowFilters: { column?: MetricColumn; field?: 'id'; test: (formatted: string) => boolean }[];
  sort: SortKey[];
}


/** Metric columns selected by `metric_keys` / `metric_group_keys` (§12.7): all when neither is sent. */
function selectColumns(query: ParsedQuery, ctx: Ctx): MetricColumn[] {
  const all = ctx.ds.brandscape.columns;
  const keys = query.params.get('metric_keys');
  const groupKeys = query.params.get('metric_group_keys');
  if (keys === null && groupKeys === null) return [...all];
  const metricIds = new Set<number>();
  if (keys !== null) {
    for (const key of splitList(keys)) {
      const metric = ctx.idx.metricsByKey.get(key);
      if (!metric) throw badRequest(`Unknown metric key '${key}' in metric_keys. Known keys include: ${[...ctx.idx.metricsByKey.keys()].slice(0, 12).join(', ')}, ... (GET /brand-metrics lists them all).`);
      metricIds.add(metric.record.id);
    }
  }
  if (groupKeys !== null) {
    for (const key of splitList(groupKeys)) {
      const group = ctx.idx.metricGroupsByKey.get(key);
      if (!group) throw badRequest(`Unknown metric group key '${key}' in metric_group_keys. Known keys: ${[...ctx.idx.metricGroupsByKey.keys()].join(', ')}.`);
      for (const id of group.metricIds) metricIds.add(id);
    }
  }
  return all.filter((c) => metricIds.has(c.metricId));
}

export function plan(query: ParsedQuery, ctx: Ctx, strictParams: boolean): Plan {
  const allColumns = ctx.ds.brandscape.columns;
  const columnByName = new Map(allColumns.map((c) => [c.name, c]));
  validateQuery(spec, query, { strictParams }, new Set(columnByName.keys()));
  const helperNames = [...query.filters.keys()].filter((n) => n in spec.helpers);
  // Filtering is required on this endpoint (§12.6); the emulator refuses what the service refuses.
  if (!isQualifyingBrandscapeFilter(helperNames)) {
    throw badRequest(`Brandscape data needs a qualifying filter combination. Use one of: ${BRANDSCAPE_COMBINATIONS_TEXT}.`);
  }
  let columns = selectColumns(query, ctx);
  let meta: MetaField[] = [...BRANDSCAPE_META_FIELDS];
  const wanted = query.fields.get(spec.fieldsKey);
  if (wanted) {
    // fields[...] narrows whatever metric_keys selected (the combination is undocumented, §12.7).
    const set = new Set(wanted);
    meta = meta.filter((f) => set.has(f));
    columns = columns.filter((c) => set.has(c.name));
  }

  const { ds, idx } = ctx;
  const f = query.filters;
  const ids = (name: string) => (f.has(name) ? fromIdList(name, f.get(name) ?? '') : undefined);

  // Study level: studies, countries / country_code, years / year_number, and meta id filters.
  const studySet = ids('studies');
  let countrySet = ids('countries');
  if (f.has('country_code')) {
    const fromCodes = new Set<number>();
    for (const code of fromCodeList(f.get('country_code') ?? '')) {
      const c = idx.countriesByCode.get(code);
      if (c) fromCodes.add(c.record.id);
    }
    countrySet = countrySet ? new Set([...countrySet].filter((x) => fromCodes.has(x))) : fromCodes;
  }
  let yearSet = ids('years');
  if (f.has('year_number')) {
    const fromNumbers = new Set<number>();
    for (const n of fromIdList('year_number', f.get('year_number') ?? '')) {
      const id = idx.yearIdByNumber.get(n);
      if (id !== undefined) fromNumbers.add(id);
    }
    yearSet = yearSet ? new Set([...yearSet].filter((x) => fromNumbers.has(x))) : fromNumbers;
  }
  const exactMeta = (field: MetaField) => (f.has(field) ? new Set(splitList(f.get(field) ?? '').map(Number)) : undefined);
  const studyIdSet = exactMeta('study_id');
  const countryIdSet = exactMeta('country_id');
  const yearIdSet = exactMeta('year_id');

  // Audience level.
  const audienceSet = ids('audiences');
  const audienceIdSet = exactMeta('audience_id');

  // Brand-category level.
  const brandSet = ids('brands');
  const brandIdSet = exactMeta('brand_id');
  const categorySet = ids('categories');
  const categoryIdSet = exactMeta('category_id');
  const sectorSet = ids('sectors');
  const companySet = ids('companies');
  const brandNameLike = f.has('brand_name') ? likeMatcher(f.get('brand_name') ?? '') : undefined;
  const categoryNameLike = f.has('category_name') ? likeMatcher(f.get('category_name') ?? '') : undefined;
  const duplicate = f.has('is_duplicate') ? fromFlag('is_duplicate', f.get('is_duplicate') ?? '') : undefined;
  const rowLevel = brandSet || brandIdSet || categorySet || categoryIdSet || sectorSet || companySet || brandNameLike || categoryNameLike || duplicate !== undefined;

  const rowFilters: Plan['rowFilters'] = [];
  for (const [name, value] of f) {
    const column = columnByName.get(name);
    if (column) rowFilters.push({ column, test: likeMatcher(value) });
    else if (name === 'id') {
      const wantedIds = new Set(splitList(value));
      rowFilters.push({ field: 'id', test: (s) => wantedIds.has(s) });
    }
  }

  const blocks: Block[] = [];
  let total = 0;
  for (const studyId of ds.brandscape.studyIds()) {
    const study = idx.studies.get(studyId);
    if (!study) continue;
    if (studySet && !studySet.has(studyId)) continue;
    if (studyIdSet && !studyIdSet.has(studyId)) continue;
    if (countrySet && !countrySet.has(study.countryId)) continue;
    if (countryIdSet && !countryIdSet.has(study.countryId)) continue;
    if (yearSet && !yearSet.has(study.yearId)) continue;
    if (yearIdSet && !yearIdSet.has(study.yearId)) continue;
    const rows = ds.brandscape.rowsOf(studyId);
    let keep: Int32Array | undefined;
    if (rowLevel) {
      const kept: number[] = [];
      for (let i = 0; i < rows.length; i++) {
        const brandId = rows.brandIds[i] ?? 0;
        const categoryId = rows.categoryIds[i] ?? 0;
        if (brandSet && !brandSet.has(brandId)) continue;
        if (brandIdSet && !brandIdSet.has(brandId)) continue;
        if (categorySet && !categorySet.has(categoryId)) continue;
        if (categoryIdSet && !categoryIdSet.has(categoryId)) continue;
        if (sectorSet || companySet) {
          const brand = idx.brands.get(brandId);
          if (sectorSet && !(brand && sectorSet.has(brand.sectorId))) continue;
          if (companySet && !(brand && companySet.has(brand.companyId))) continue;
        }
        if (brandNameLike && !brandNameLike(rows.brandNames[i])) continue;
        if (categoryNameLike && !categoryNameLike(rows.categoryNames[i])) continue;
        if (duplicate !== undefined && (rows.isDuplicate[i] === 1) !== duplicate) continue;
        kept.push(i);
      }
      if (kept.length === 0) continue;
      keep = Int32Array.from(kept);
    }
    const count = keep ? keep.length : rows.length;
    for (const audienceId of rows.audienceIds) {
      if (audienceSet && !audienceSet.has(audienceId)) continue;
      if (audienceIdSet && !audienceIdSet.has(audienceId)) continue;
      blocks.push({ studyId, audienceId, rows, keep, count, firstRowId: ds.brandscape.firstRowId(studyId, audienceId) });
      total += count;
    }
  }
  return { blocks, total, columns, meta, include: query.include, rowFilters, sort: query.sort };
}

// ---- row references, filtering and sorting ------------------------------------------------------

/** A row as (block index, row index within the study's rows). */
interface RowRef {
  block: number;
  row: number;
}

function* refsInOrder(blocks: readonly Block[]): Generator<RowRef> {
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (!block) continue;
    if (block.keep) for (const row of block.keep) yield { block: b, row };
    else for (let row = 0; row < block.rows.length; row++) yield { block: b, row };
  }
}

/** Values of some columns for a block, fetched once per block within a request. */
function valueCache(ctx: Ctx, blocks: readonly Block[]) {
  const cache = new Map<string, Float64Array>();
  return (blockIndex: number, column: MetricColumn): Float64Array => {
    const key = `${blockIndex}:${column.index}`;
    let v = cache.get(key);
    if (!v) {
      const block = blocks[blockIndex];
      if (!block) return new Float64Array(0);
      v = ctx.ds.brandscape.values(block.studyId, block.audienceId, [column.index])[0] ?? new Float64Array(0);
      cache.set(key, v);
    }
    return v;
  };
}

export function metaValue(ctx: Ctx, block: Block, row: number, field: MetaField): string | number | boolean | null {
  const study = ctx.idx.studies.get(block.studyId);
  switch (field) {
    case 'id':
      return block.firstRowId + row;
    case 'study_id':
      return block.studyId;
    case 'brand_id':
      return block.rows.brandIds[row] ?? null;
    case 'category_id':
      return block.rows.categoryIds[row] ?? null;
    case 'audience_id':
      return block.audienceId;
    case 'country_id':
      return study?.countryId ?? null;
    case 'year_id':
      return study?.yearId ?? null;
    case 'brand_name':
      return block.rows.brandNames[row] ?? null;
    case 'category_name':
      return block.rows.categoryNames[row] ?? null;
    case 'is_duplicate':
      return block.rows.isDuplicate[row] === 1;
  }
}

/** Applies row-level filters and sorting; returns the selected rows in order, or undefined for id order. */
function orderedRefs(p: Plan, ctx: Ctx): RowRef[] | undefined {
  const idOrder = p.sort.length === 0 || (p.sort.length === 1 && p.sort[0]?.field === 'id' && !p.sort[0].desc);
  if (p.rowFilters.length === 0 && idOrder) return undefined;
  const values = valueCache(ctx, p.blocks);
  const columnByName = new Map(ctx.ds.brandscape.columns.map((c) => [c.name, c]));
  let refs = [...refsInOrder(p.blocks)];
  for (const filter of p.rowFilters) {
    const column = filter.column;
    if (column) {
      // Values have a fixed precision, so String() gives the text the row shows.
      refs = refs.filter((r) => {
        const v = values(r.block, column)[r.row] ?? Number.NaN;
        return v === v && filter.test(String(v));
      });
    } else {
      refs = refs.filter((r) => filter.test(String((p.blocks[r.block]?.firstRowId ?? 0) + r.row)));
    }
  }
  if (!idOrder) {
    const keys = p.sort.map((key) => {
      const column = columnByName.get(key.field);
      const read = column
        ? (r: RowRef) => {
            const v = values(r.block, column)[r.row] ?? Number.NaN;
            return v === v ? v : null;
          }
        : (r: RowRef) => {
            const block = p.blocks[r.block];
            if (!block) return null;
            const v = metaValue(ctx, block, r.row, key.field as MetaField);
            return typeof v === 'string' ? v.toLowerCase() : typeof v === 'boolean' ? Number(v) : v;
          };
      return { desc: key.desc, values: refs.map(read) };
    });
    const order = refs.map((_, i) => i);
    order.sort((a, b) => {
      for (const key of keys) {
        const x = key.values[a] ?? null;
        const y = key.values[b] ?? null;
        // Nulls first in ascending order, as the database sorts them.
        const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        if (c !== 0) return key.desc ? -c : c;
      }
      return a - b;
    });
    refs = order.map((i) => refs[i] ?? { block: 0, row: 0 });
  }
  return refs;
}

/** The rows of one page, in order: row k is row `row[k]` of block `block[k]`. */
export interface PageRows {
  block: Int32Array;
  row: Int32Array;
  length: number;
}

export function pageRows(p: Plan, ctx: Ctx, offset: number, limit: number): { rows: PageRows; total: number } {
  const ordered = orderedRefs(p, ctx);
  if (ordered) {
    const refs = ordered.slice(offset, offset + limit);
    return { rows: { block: Int32Array.from(refs, (r) => r.block), row: Int32Array.from(refs, (r) => r.row), length: refs.length }, total: ordered.length };
  }
  const size = Math.max(0, Math.min(limit, p.total - offset));
  const rows: PageRows = { block: new Int32Array(size), row: new Int32Array(size), length: 0 };
  let skip = offset;
  for (let b = 0; b < p.blocks.length && rows.length < size; b++) {
    const block = p.blocks[b];
    if (!block) continue;
    if (skip >= block.count) {
      skip -= block.count;
      continue;
    }
    for (let k = skip; k < block.count && rows.length < size; k++) {
      rows.block[rows.length] = b;
      rows.row[rows.length] = block.keep ? (block.keep[k] ?? 0) : k;
      rows.length += 1;
    }
    skip = 0;
  }
  return { rows, total: p.total };
}
