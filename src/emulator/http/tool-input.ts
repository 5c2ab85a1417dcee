/**
 * What every TurboPitch tool of the emulator shares: its parameters read and checked against the
 * tool catalogue (a 400 naming a missing or unknown parameter), and the brandscape values of one
 * study and audience, read from the same store the brandscape endpoint serves, so a tool's numbers
 * are the numbers of the rows it summarises.
 */
import { TOOLS, toolParamProblem, type ToolSlug, type ToolSpec } from '../../catalogue/tools.js';
import type { StudyRows } from '../dataset/types.js';
import { ApiError, badRequest, notFound } from './api-error.js';
import type { Ctx } from './bindings.js';
import { fromIdList } from './filter-values.js';
import { splitList } from './parse-query.js';

export interface ToolInput {
  ids(name: string): number[] | undefined;
  id(name: string): number | undefined;
  keys(name: string): string[] | undefined;
  text(name: string): string | undefined;
}

export function readToolParams(slug: ToolSlug, params: URLSearchParams, strictParams: boolean): ToolInput {
  const spec: ToolSpec = TOOLS[slug];
  const accepted = Object.keys(spec.params);
  for (const key of params.keys()) {
    if (!(key in spec.params) && strictParams) {
      const hint = key.startsWith('filter[') ? ' Tool parameters are top-level, not filter[...].' : '';
      throw badRequest(`Unknown parameter '${key}' for the ${slug} tool.${hint} Parameters: ${accepted.join(', ')}.`);
    }
  }
  const present = new Set([...params.keys()].filter((k) => (params.get(k) ?? '').trim() !== ''));
  const problem = toolParamProblem(slug, present);
  if (problem) throw badRequest(problem);
  const ids = (name: string) => {
    const v = params.get(name);
    if (v === null || v.trim() === '') return undefined;
    const list = [...fromIdList(name, v)];
    if (spec.params[name] === 'one' && list.length !== 1) throw badRequest(`The ${slug} tool takes a single id for '${name}', got ${list.length}.`);
    return list;
  };
  return {
    ids,
    id: (name) => {
      const v = params.get(name);
      if (v === null || v.trim() === '') return undefined;
      if (!/^\d+$/.test(v.trim())) throw badRequest(`'${name}' of the ${slug} tool is one integer id, got '${v}'.`);
      return Number(v);
    },
    keys: (name) => {
      const v = params.get(name);
      return v === null || v.trim() === '' ? undefined : splitList(v);
    },
    text: (name) => params.get(name) ?? undefined,
  };
}

export interface StudyBlock {
  readonly studyId: number;
  readonly audienceId: number;
  readonly rows: StudyRows;
  /** A column's values by row (NaN = null), as the brandscape endpoint serves them. */
  column(name: string): Float64Array;
  /** Row indexes of a brand (one per category it was studied in), the non-duplicate first. */
  rowsOfBrand(brandId: number): number[];
  /** Row indexes with `is_duplicate` false: one per brand. */
  uniqueRows(): number[];
}

/** The brandscape values of a released study and audience (404 when the service would have none). */
export function studyBlock(ctx: Ctx, studyId: number, audienceId: number): StudyBlock {
  const study = ctx.idx.studies.get(studyId);
  if (!study || !study.released) throw notFound(`No released study with id ${studyId}.`);
  const rows = ctx.ds.brandscape.rowsOf(studyId);
  if (!rows.audienceIds.includes(audienceId)) throw notFound(`Study ${studyId} has no data for audience ${audienceId}.`);
  const columnIndex = new Map(ctx.ds.brandscape.columns.map((c) => [c.name, c.index]));
  const cache = new Map<string, Float64Array>();
  return {
    studyId,
    audienceId,
    rows,
    column(name) {
      let values = cache.get(name);
      if (!values) {
        const index = columnIndex.get(name);
        if (index === undefined) throw badRequest(`No brandscape column '${name}'.`);
        values = ctx.ds.brandscape.values(studyId, audienceId, [index])[0] ?? new Float64Array(rows.length).fill(Number.NaN);
        cache.set(name, values);
      }
      return values;
    },
    rowsOfBrand(brandId) {
      const out: number[] = [];
      for (let i = 0; i < rows.length; i++) if (rows.brandIds[i] === brandId) out.push(i);
      return out.sort((a, b) => (rows.isDuplicate[a] ?? 0) - (rows.isDuplicate[b] ?? 0));
    },
    uniqueRows() {
      const out: number[] = [];
      for (let i = 0; i < rows.length; i++) if (rows.isDuplicate[i] === 0) out.push(i);
      return out;
    },
  };
}

/** A brand's first (non-duplicate) row in a block, or a 404 saying the brand is not in the study. */
export function brandRow(block: StudyBlock, brandId: number): number {
  const row = block.rowsOfBrand(brandId)[0];
  if (row === undefined) throw notFound(`Brand ${brandId} is not in study ${block.studyId}.`);
  return row;
}

/** A served value: null for a missing one. */
export const valueAt = (values: Float64Array, row: number): number | null => {
  const v = values[row];
  return v === undefined || Number.isNaN(v) ? null : v;
};

/** The metric's display name, or its key. */
export const metricName = (ctx: Ctx, key: string): string => ctx.idx.metricsByKey.get(key)?.record.name ?? key;

/** Imagery metrics with data: the keys of the `imagery` group. */
export const imageryKeys = (ctx: Ctx): string[] =>
  ctx.ds.metrics.filter((m) => ctx.idx.metricGroups.get(m.groupId)?.record.key === 'imagery').map((m) => m.key);

/** Mean of the non-null values, rounded to one decimal (null when there are none). */
export function mean1(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return Math.round((present.reduce((s, v) => s + v, 0) / present.length) * 10) / 10;
}

/**
 * Brands of a competitive set within a study: a collection's brands (visible to the user) or a
 * category's. Returns the set's name and the study's rows of those brands (one per brand).
 */
export function competitiveSet(ctx: Ctx, block: StudyBlock, kind: 'categories' | 'collections', ids: readonly number[]): { name: string; rows: number[] } {
  const names: string[] = [];
  const brandIds = new Set<number>();
  const categoryIds = new Set<number>();
  for (const id of ids) {
    if (kind === 'collections') {
      const c = ctx.idx.collections.get(id);
      if (!c) throw notFound(`No collection with id ${id}.`);
      if (!(c.isPublic || c.ownerUser === ctx.user || c.sharedWith.includes(ctx.user))) throw new ApiError(403, `Collection ${id} is private to its owner.`);
      names.push(c.record.name ?? `Collection ${id}`);
      for (const b of c.brandIds) brandIds.add(b);
    } else {
      const c = ctx.idx.categories.get(id);
      if (!c) throw notFound(`No category with id ${id}.`);
      names.push(c.record.name ?? `Category ${id}`);
      categoryIds.add(id);
    }
  }
  const rows: number[] = [];
  const seen = new Set<number>();
  const r = block.rows;
  for (let i = 0; i < r.length; i++) {
    const brand = r.brandIds[i] ?? 0;
    const inSet = kind === 'collections' ? brandIds.has(brand) : categoryIds.has(r.categoryIds[i] ?? 0);
    if (inSet && !seen.has(brand)) {
      seen.add(brand);
      rows.push(i);
    }
  }
  return { name: names.join(' & '), rows };
}
