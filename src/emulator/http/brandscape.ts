/**
 * `GET /brandscape-data` and `/brandscape-data/{id}` (REFERENCE §12): the page writer.
 *
 * Rows are never held in memory: brandscape-plan.ts resolves a query to (study x audience) blocks
 * of the dataset's row-id space and the rows of a page; this file writes them. This endpoint must
 * serve 1,000-row pages at hundreds of pages a second on one core, so a page is written without
 * formatting anything per value: the dataset keeps values as 16-bit codes
 * (dataset/value-codes.ts), keys and values are copied as pre-encoded 8-byte chunks, row metadata
 * comes from per-block and per-study texts, and pages are written into pooled buffers that go to
 * the socket as they are (`npm run bench` measures it).
 */
import type { IncludeSpec } from '../../catalogue/endpoints.js';
import type { MetricColumn, StudyRows } from '../dataset/types.js';
import { notFound } from './api-error.js';
import { slims, type Ctx } from './bindings.js';
import { codeText, toChunkText, toWordText, wordsOf, type ChunkText, type WordText } from '../dataset/value-codes.js';
import { JsonBytes, NULL_BYTES, toBytes, toJsonBytes, type BufferPool } from './json-bytes.js';
import type { ParsedQuery } from './parse-query.js';
import { pageRows, plan, spec, type Block, type MetaField, type Plan } from './brandscape-plan.js';

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
