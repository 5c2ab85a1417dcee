/**
 * `GET /brandscape-data` and `/brandscape-data/{id}` (REFERENCE §12).
 *
 * Rows are never held in memory: a query resolves to (study x audience) blocks of the dataset's
 * row-id space, so counting and paging in id order touch no metric value. Values are computed only
 * for the blocks a page shows (or, when a query filters or sorts on a metric column, for every
 * candidate block). This endpoint must serve 1,000-row pages at hundreds of pages a second on one
 * core, so a page is written without formatting anything per value: the dataset keeps values as
 * 16-bit codes (dataset/value-codes.ts), keys and values are copied as pre-encoded 8-byte chunks,
 * row metadata comes from per-block and per-study texts, and pages are written into pooled
 * buffers that go to the socket as they are (`npm run bench` measures it).
 */
import {
  BRANDSCAPE_COMBINATIONS_TEXT,
  RESOURCES,
  isQualifyingBrandscapeFilter,
  type FieldCaps,
  type IncludeSpec,
} from '../../catalogue/endpoints.js';
import { BRANDSCAPE_META_FIELDS } from '../../schemas/brandscape.js';
import type { MetricColumn, StudyRows } from '../dataset/types.js';
import { badRequest, notFound } from './api-error.js';
import { slims, type Ctx } from './bindings.js';
import { fromCodeList, fromFlag, fromIdList, likeMatcher } from './filter-values.js';
import { codeText, toChunkText, toWordText, wordsOf, type ChunkText, type WordText } from '../dataset/value-codes.js';
import { JsonBytes, NULL_BYTES, toBytes, toJsonBytes, type BufferPool } from './json-bytes.js';
import { validateQuery } from './list-engine.js';
import type { ParsedQuery, SortKey } from './parse-query.js';
import { splitList } from './parse-query.js';

const spec = RESOURCES['brandscape-data'];
type MetaField = (typeof BRANDSCAPE_META_FIELDS)[number];

// ---- query planning ----------------------------------------------------------------------------

/** One (study x audience) block and the rows of it the query keeps (undefined = all). */
interface Block {
  studyId: number;
  audienceId: number;
  rows: StudyRows;
  keep: Int32Array | undefined;
  count: number;
  firstRowId: number;
}

interface Plan {
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

function plan(query: ParsedQuery, ctx: Ctx, strictParams: boolean): Plan {
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

function metaValue(ctx: Ctx, block: Block, row: number, field: MetaField): string | number | boolean | null {
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
interface PageRows {
  block: Int32Array;
  row: Int32Array;
  length: number;
}

function pageRows(p: Plan, ctx: Ctx, offset: number, limit: number): { rows: PageRows; total: number } {
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

// ---- serialisation -----------------------------------------------------------------------------

const OPEN_DATA = toBytes('{"data":');

// A row's metadata is written as a few runs of text: fields that are the same for a whole block
// (study, audience, country, year) come from a text made once per block; fields of the study's row
// (brand and category ids and names, is_duplicate) from texts made once per study and kept for the
// next pages; only the row id is written digit by digit.

type MetaKind = 'id' | 'block' | 'row';
const META_KIND: Readonly<Record<MetaField, MetaKind>> = {
  id: 'id',
  study_id: 'block',
  audience_id: 'block',
  country_id: 'block',
  year_id: 'block',
  brand_id: 'row',
  category_id: 'row',
  brand_name: 'row',
  category_name: 'row',
  is_duplicate: 'row',
};

/** One run of a row's metadata text: keys with values, or (`idKey`) a key whose value, the row id, follows. */
interface MetaRun {
  kind: 'block' | 'row';
  /** Index among the runs of its kind. */
  index: number;
  parts: { field: MetaField; key: string }[];
  /** Ends with the key of the row id, written next. */
  idKey?: string;
}

/** The runs of the metadata part of a row, for the fields asked for, in order. */
function metaRuns(fields: readonly MetaField[]): MetaRun[] {
  const runs: MetaRun[] = [];
  const counts = { block: 0, row: 0 };
  const runOf = (kind: 'block' | 'row') => {
    const last = runs.at(-1);
    if (last && last.kind === kind && last.idKey === undefined) return last;
    const run: MetaRun = { kind, index: counts[kind]++, parts: [] };
    runs.push(run);
    return run;
  };
  fields.forEach((field, f) => {
    const key = `${f === 0 ? '{' : ','}"${field}":`;
    const kind = META_KIND[field];
    if (kind === 'id') runOf('block').idKey = key;
    else runOf(kind).parts.push({ field, key });
  });
  return runs;
}

const TRUE_BYTES = toBytes('true');
const FALSE_BYTES = toBytes('false');
const json = (v: number | string | boolean | null | undefined) => (v === undefined || (typeof v === 'number' && !Number.isFinite(v)) ? 'null' : JSON.stringify(v));

/** Texts of a study's rows for the 'row' runs: row i, run r at i x runs + r. Kept for recently served studies. */
const rowTexts = new Map<string, { rows: StudyRows; text: WordText }>();
/** About 90 KB a study: room for the three years of every market a comparison pages through. */
const ROW_TEXT_STUDIES_KEPT = 96;
/** Where row texts are written before they become words (kept: a study's texts are ~100 KB). */
let rowTextScratch = Buffer.alloc(256 * 1024);
/** Text that JSON writes as it is between quotes (no quote, backslash, control character or surrogate). */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
function rowTextOf(rows: StudyRows, runs: readonly MetaRun[]): WordText {
  const rowRuns = runs.filter((r) => r.kind === 'row');
  const key = `${rows.studyId}|${rowRuns.map((r) => r.parts.map((x) => x.key).join('')).join('|')}`;
  const hit = rowTexts.get(key);
  if (hit && hit.rows === rows) {
    rowTexts.delete(key);
    rowTexts.set(key, hit);
    return hit.text;
  }
  // Every text written at a 4-byte boundary into one buffer, then read as words.
  const starts = new Uint32Array(rows.length * rowRuns.length + 1);
  const lengths = new Uint32Array(rows.length * rowRuns.length);
  let buf = rowTextScratch;
  let pos = 0;
  const room = (n: number) => {
    if (pos + n <= buf.length) return;
    const next = Buffer.alloc(2 * buf.length + n);
    buf.copy(next, 0, 0, pos);
    buf = rowTextScratch = next;
  };
  const putBytes = (bytes: Uint8Array) => {
    room(bytes.length);
    for (let j = 0; j < bytes.length; j++) buf[pos++] = bytes[j] as number;
  };
  /** A JSON string; ASCII without anything to escape is copied char by char (most names), the rest encoded. */
  const putName = (name: string | undefined) => {
    if (name === undefined) return putBytes(NULL_BYTES);
    room(3 * name.length + 2);
    if (PLAIN.test(name)) {
      const start = pos;
      buf[pos++] = 34; // '"'
      for (let j = 0; j < name.length; j++) {
        const ch = name.charCodeAt(j);
        if (ch > 127) {
          pos = start;
          room(6 * name.length + 2);
          pos += buf.write(`"${name}"`, pos, 'utf8');
          return;
        }
        buf[pos++] = ch;
      }
      buf[pos++] = 34;
    } else {
      const text = JSON.stringify(name);
      room(3 * text.length);
      pos += buf.write(text, pos, 'utf8');
    }
  };
  const putInt = (n: number | undefined) => {
    room(NUMBER_ROOM);
    if (n !== undefined && n >= 0 && n < 2 ** 31 && n === Math.floor(n)) pos = putUint(buf, pos, n);
    else pos += buf.write(json(n), pos, 'latin1');
  };
  const keyBytes = rowRuns.map((run) => run.parts.map((part) => toBytes(part.key)));
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    rowRuns.forEach((run, r) => {
      starts[k] = pos;
      run.parts.forEach(({ field }, f) => {
        putBytes(keyBytes[r]?.[f] as Uint8Array);
        switch (field) {
          case 'brand_id':
            return putInt(rows.brandIds[i]);
          case 'category_id':
            return putInt(rows.categoryIds[i]);
          case 'brand_name':
            return putName(rows.brandNames[i]);
          case 'category_name':
            return putName(rows.categoryNames[i]);
          default:
            return putBytes(rows.isDuplicate[i] === 1 ? TRUE_BYTES : FALSE_BYTES);
        }
      });
      lengths[k] = pos - (starts[k] as number);
      room(4);
      pos = (pos + 3) & ~3;
      k += 1;
    });
  }
  starts[k] = pos;
  const text = wordsOf(buf.subarray(0, pos), starts, lengths);
  for (const oldest of rowTexts.keys()) {
    if (rowTexts.size < ROW_TEXT_STUDIES_KEPT) break;
    rowTexts.delete(oldest);
  }
  rowTexts.set(key, { rows, text });
  return text;
}

/** Texts of a block for the 'block' runs (ASCII: keys and ids), one per run. */
function blockTextOf(block: Block, ctx: Ctx, runs: readonly MetaRun[]): ChunkText {
  const study = ctx.idx.studies.get(block.studyId);
  const valueOf = (field: MetaField) =>
    field === 'study_id' ? block.studyId : field === 'audience_id' ? block.audienceId : field === 'country_id' ? study?.countryId : field === 'year_id' ? study?.yearId : undefined;
  return toChunkText(
    runs
      .filter((r) => r.kind === 'block')
      .map((run) => toBytes(run.parts.map(({ field, key }) => key + json(valueOf(field))).join('') + (run.idKey ?? ''))),
  );
}

/**
 * Writes text k of a word table at `pos` and returns the position after it. Up to 3 bytes after
 * that are overwritten with padding: the caller reserves room for them and writes over them next.
 * Row texts are words, not chunks (`putChunks`), because brand and category names may be UTF-8.
 */
function putText(view: DataView, pos: number, text: WordText, k: number): number {
  const words = text.words;
  let q = pos;
  for (let w = text.wordStart[k] as number, end = text.wordStart[k + 1] as number; w < end; w++) {
    view.setInt32(q, words[w] as number, true);
    q += 4;
  }
  return pos + (text.length[k] as number);
}

/** Writes text k of a chunk table at `pos` and returns the position after it (up to 7 bytes of padding follow, as with `putText`). */
function putChunks(view: DataView, pos: number, text: ChunkText, k: number): number {
  const chunks = text.chunks;
  let q = pos;
  for (let w = text.chunkStart[k] as number, end = text.chunkStart[k + 1] as number; w < end; w++) {
    view.setFloat64(q, chunks[w] as number, true);
    q += 8;
  }
  return pos + (text.length[k] as number);
}

/** A non-negative integer below 2^31 as ASCII digits; returns the new position. */
function putUint(buf: Uint8Array, pos: number, n: number): number {
  let digits = 1;
  for (let x = n; x >= 10; x = (x / 10) | 0) digits += 1;
  const end = pos + digits;
  for (let q = end - 1; q >= pos; q--) {
    const next = (n / 10) | 0;
    buf[q] = 48 + n - next * 10;
    n = next;
  }
  return end;
}

/** Column keys with their leading comma (the first opening the row with '{' when it has no metadata), for recent column sets. */
const keyTables = new Map<string, ChunkText>();
function columnKeys(columns: readonly MetricColumn[], opensRow: boolean): ChunkText {
  const signature = `${opensRow ? '{' : ','}${columns.map((c) => c.index).join(',')}`;
  let keys = keyTables.get(signature);
  if (!keys) {
    const texts = columns.map((c) => `,${JSON.stringify(c.name)}:`);
    if (opensRow && texts[0] !== undefined) texts[0] = `{${texts[0].slice(1)}`;
    keys = toChunkText(texts.map(toBytes));
    if (keyTables.size >= 64) keyTables.delete(keyTables.keys().next().value as string);
    keyTables.set(signature, keys);
  }
  return keys;
}

/** Slack after a row for chunk writes' padding, and room for the row id. */
const PAD = 8;
const NUMBER_ROOM = 24;
const EMPTY_WORDS = toWordText([]);

/**
 * Writes rows of a plan as JSON into bytes. Keys, names and included objects are encoded once;
 * metric values are copied from their codes' pre-encoded text (dataset/value-codes.ts). This is
 * the hot loop of the emulator: a 1,000-row page of pillars and imagery is 68,000 values, ~1.6 MB.
 */
function rowWriter(p: Plan, ctx: Ctx, out: JsonBytes) {
  const columnIndexes = p.columns.map((c) => c.index);
  const columnCount = columnIndexes.length;
  const runs = metaRuns(p.meta);
  const keys = columnKeys(p.columns, runs.length === 0);
  const opensRow = runs.length > 0 || columnCount > 0;
  const values = codeText();
  const encoded = new Map<string, Uint8Array>();
  const cached = (key: string, make: () => unknown) => {
    let bytes = encoded.get(key);
    if (bytes === undefined) encoded.set(key, (bytes = toJsonBytes(make())));
    return bytes;
  };
  const includeWriters = p.include.map((name, k) => {
    const key = (spec.includes as Readonly<Record<string, IncludeSpec>>)[name]?.aliasOf ?? name;
    const open = !opensRow && k === 0 ? '{' : ',';
    const prefix = toBytes(`${open}${JSON.stringify(key)}:`);
    const object = (block: Block, row: number): Uint8Array => {
      const study = ctx.idx.studies.get(block.studyId);
      const brandId = block.rows.brandIds[row] ?? 0;
      const brand = ctx.idx.brands.get(brandId);
      switch (key) {
        case 'study':
          return cached(`s${block.studyId}`, () => slims.study(ctx, block.studyId));
        case 'year':
          return cached(`y${study?.yearId}`, () => slims.year(ctx, study?.yearId ?? null));
        case 'country':
          return cached(`c${study?.countryId}`, () => slims.country(ctx, study?.countryId ?? null));
        case 'audience':
          return cached(`a${block.audienceId}`, () => slims.audience(ctx, block.audienceId));
        case 'brand':
          return cached(`b${brandId}`, () => slims.brand(ctx, brandId));
        case 'category': {
          const categoryId = block.rows.categoryIds[row] ?? 0;
          return cached(`k${categoryId}`, () => slims.category(ctx, categoryId));
        }
        case 'sector':
          return cached(`e${brand?.sectorId}`, () => slims.sector(ctx, brand?.sectorId ?? null));
        case 'company':
          return cached(`o${brand?.companyId}`, () => slims.company(ctx, brand?.companyId ?? null));
        default:
          return cached('null', () => null);
      }
    };
    return { prefix, object };
  });
  // Room for a row, names and included objects aside: keys, numbers, the longest value text (6 bytes).
  const rowRoom = 8 * keys.chunks.length + NUMBER_ROOM + 8 * columnCount + 2 + PAD;

  // What is the same for every row of a block, looked up once per run of rows from one block.
  let current = -1;
  let block: Block | undefined;
  let rowText: WordText = EMPTY_WORDS;
  let blockText: ChunkText = toChunkText([]);
  let blockRoom = 0;
  const rowRunCount = runs.filter((r) => r.kind === 'row').length;
  // The block's codes (a view of the dataset's cache: valid until another block is asked for), and
  // for each written column where its codes start and whether they are per row (else per brand).
  let codes: Uint16Array = new Uint16Array(0);
  let brandOfRow: Int32Array = new Int32Array(0);
  const codeStart = new Int32Array(columnCount);
  const perRow = new Int32Array(columnCount);

  return (blockIndex: number, i: number): void => {
    if (blockIndex !== current) {
      current = blockIndex;
      block = p.blocks[current];
      if (!block) return;
      if (runs.length > 0) {
        rowText = rowTextOf(block.rows, runs);
        blockText = blockTextOf(block, ctx, runs);
        blockRoom = 8 * blockText.chunks.length;
      }
      if (columnCount > 0) {
        const blockCodes = ctx.ds.brandscape.codeColumns(block.studyId, block.audienceId, columnIndexes);
        codes = blockCodes.codes;
        brandOfRow = blockCodes.brandOfRow;
        for (let c = 0; c < columnCount; c++) {
          const j = columnIndexes[c] as number;
          codeStart[c] = blockCodes.offset[j] as number;
          perRow[c] = blockCodes.byRow[j] as number;
        }
      }
    }
    if (!block) return;
    const rowTextStart = i * rowRunCount;
    out.reserve(rowRoom + blockRoom + 4 * ((rowText.wordStart[rowTextStart + rowRunCount] ?? 0) - (rowText.wordStart[rowTextStart] ?? 0)));
    const buf = out.buf;
    const view = out.view;
    let pos = out.pos;
    for (const run of runs) {
      pos = run.kind === 'block' ? putChunks(view, pos, blockText, run.index) : putText(view, pos, rowText, rowTextStart + run.index);
      if (run.idKey !== undefined) pos = putUint(buf, pos, block.firstRowId + i);
    }
    // Metric columns: each key, then the value's text by its code (one chunk, at most 8 bytes).
    const keyChunks = keys.chunks;
    const keyStart = keys.chunkStart;
    const keyLength = keys.length;
    const valueChunks = values.chunks;
    const valueLength = values.length;
    // Locals, not the closure's variables, in the hot loop (V8 reloads those on every use).
    const blockCodes = codes;
    const starts = codeStart;
    const byRow = perRow;
    // Column c's code for this row is at codeStart[c] + u, or + i for a per-row column: + u + d.
    const u = brandOfRow[i] as number;
    const d = i - u;
    for (let c = 0; c < columnCount; c++) {
      let q = pos;
      for (let w = keyStart[c] as number, end = keyStart[c + 1] as number; w < end; w++) {
        view.setFloat64(q, keyChunks[w] as number, true);
        q += 8;
      }
      pos += keyLength[c] as number;
      const code = blockCodes[(starts[c] as number) + u + d * (byRow[c] as number)] as number;
      view.setFloat64(pos, valueChunks[code] as number, true);
      pos += valueLength[code] as number;
    }
    out.pos = pos;
    for (const include of includeWriters) {
      out.raw(include.prefix);
      out.raw(include.object(block, i));
    }
    if (!opensRow && includeWriters.length === 0) out.byte(123); // '{': a row of nothing at all
    out.byte(125); // '}'
  };
}

/**
 * One page of brandscape data as a whole answer body: `{"data":[...]` followed by the rest of the
 * envelope, which `rest(count, total)` gives as JSON text starting with a comma (`,"links":...}`).
 * Written into one buffer, so the ~1.6 MB page is never copied.
 */
export function listBrandscape(
  query: ParsedQuery,
  ctx: Ctx,
  page: { page: number; perPage: number },
  strictParams: boolean,
  pool: BufferPool,
  rest: (count: number, total: number) => string,
): { body: Buffer; release: () => void } {
  const p = plan(query, ctx, strictParams);
  const { rows, total } = pageRows(p, ctx, (page.page - 1) * page.perPage, page.perPage);
  const out = new JsonBytes(1024 + rows.length * (400 + 32 * p.columns.length), pool);
  const write = rowWriter(p, ctx, out);
  out.raw(OPEN_DATA);
  out.byte(91); // '['
  for (let k = 0; k < rows.length; k++) {
    if (k > 0) out.byte(44); // ','
    write(rows.block[k] as number, rows.row[k] as number);
  }
  out.byte(93); // ']'
  out.raw(toBytes(rest(rows.length, total)));
  return out.detach();
}

/** One row by id, with the same column selection and includes as a list: its JSON bytes. */
export function getBrandscapeRow(rowId: number, query: ParsedQuery, ctx: Ctx, strictParams: boolean): Uint8Array {
  const located = ctx.ds.brandscape.locate(rowId);
  if (!located) throw notFound(`No brandscape data row with id ${rowId}.`);
  // A single row needs no qualifying filter: reuse the planner with the row's own study.
  query.filters.set('studies', String(located.studyId));
  query.filters.set('audiences', String(located.audienceId));
  const p = plan(query, ctx, strictParams);
  const b = p.blocks.findIndex((x) => x.studyId === located.studyId && x.audienceId === located.audienceId);
  if (b < 0) throw notFound(`No brandscape data row with id ${rowId}.`);
  const out = new JsonBytes();
  rowWriter(p, ctx, out)(b, located.rowIndex);
  return out.bytes();
}
