/**
 * `archetypeMatrix`: brand x archetype scores and ranks, cultural and competitive side by side.
 *
 * Cultural archetypes score a brand against every brand of its study; competitive ones against a
 * competitive set (a collection or a category), and come only from the archetypes tool (§14). The
 * tool's entries do not say whether a competitive set is a collection or a category, so the caller
 * names the set it asked for.
 */
import { DataError } from '../errors.js';
import type { ArchetypeEntry } from '../schemas/archetypes.js';
import type { FrameMeta, FrameTable } from './frame-table.js';
import { resultTable, type ResultSchema } from './result-table.js';
import { compareText } from './stats.js';
import type { ArchetypeRow } from './types.js';

export interface ArchetypeInput {
  /** Entries of `client.archetypes({ comparison: 'cultural', ... })`. */
  readonly cultural: readonly ArchetypeEntry[];
  /** Entries of `client.archetypes({ comparison: 'competitive', collections | categories, ... })`. */
  readonly competitive: readonly ArchetypeEntry[];
}

export interface ArchetypeMatrixOptions {
  /** The competitive set the entries were asked for. */
  set: { type: 'collection' | 'category'; id: number };
  /** Study (default: the only study of the competitive entries). */
  study?: number;
  /** Audience (default 1, All Adults). */
  audience?: number;
  /** Brands to keep (default: every brand of the competitive set). */
  brands?: readonly number[];
  /** Archetype keys to keep, e.g. `['hero', 'sage']` (default: all). */
  archetypes?: readonly string[];
}

export interface ArchetypeMatrixMeta extends FrameMeta {
  readonly source: 'archetypeMatrix';
  readonly studyId: number;
  readonly audienceId: number;
  readonly comparison: { readonly type: 'collection' | 'category'; readonly id: number; readonly name: string; readonly size: number | null };
  readonly archetypes: readonly string[];
}

const SCHEMA: ResultSchema = {
  columns: [
    'study_id', 'audience_id', 'brand_id', 'brand_name', 'archetype', 'archetype_name', 'cultural_score', 'cultural_rank',
    'competitive_score', 'competitive_rank', 'comparison_name', 'comparison_type',
  ],
  kinds: {
    study_id: 'int', audience_id: 'int', brand_id: 'int', brand_name: 'string', archetype: 'string', archetype_name: 'string',
    cultural_score: 'float', cultural_rank: 'float', competitive_score: 'float', competitive_rank: 'float',
    comparison_name: 'string', comparison_type: 'string',
  },
};

/** `hero` -> `Hero`, `regular_guy` -> `Regular Guy`. */
export function archetypeName(key: string): string {
  return key
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

const keysOf = (entries: readonly ArchetypeEntry[]) => {
  const keys = new Set<string>();
  for (const e of entries) for (const k of Object.keys(e.data)) if (!k.endsWith('_rank')) keys.add(k);
  return keys;
};

const num = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Joins cultural and competitive archetype entries per brand and archetype: the score (standardised
 * within the set: 0 is its average, in standard deviations) and the percentile rank within the set, against culture and against the
 * competitive set. Brands are those of the competitive set; a brand without a cultural entry keeps
 * nulls there.
 *
 * @example
 * const [cultural, competitive] = await Promise.all([
 *   client.archetypes({ studies: 650, comparison: 'cultural' }),
 *   client.archetypes({ studies: 650, comparison: 'competitive', categories: 1 }),
 * ]);
 * const matrix = archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: 1 } });
 * matrix.rows(); // [{ brand_name: 'Nike', archetype_name: 'Hero', cultural_score: 131, competitive_score: 104, ... }, ...]
 */
export function archetypeMatrix(input: ArchetypeInput, options: ArchetypeMatrixOptions): FrameTable<ArchetypeRow, ArchetypeMatrixMeta> {
  const audience = options.audience ?? 1;
  const wrong = input.competitive.filter((e) => e.comparison_type !== 'competitive');
  if (wrong.length > 0) {
    throw new DataError('The competitive entries include cultural ones.', ['competitive entries'], ['cultural entries'], {
      hint: "Pass the answer of client.archetypes({ comparison: 'competitive', ... }) as competitive.",
    });
  }
  const setIds = [...new Set(input.competitive.map((e) => e.comparison_id))];
  const ofSet = input.competitive.filter((e) => e.comparison_id === options.set.id);
  if (ofSet.length === 0) {
    throw new DataError(
      `No competitive entries for ${options.set.type} ${options.set.id}.`,
      [`${options.set.type} ${options.set.id}`],
      setIds.map((id) => `${input.competitive.find((e) => e.comparison_id === id)?.comparison_name ?? '?'} (${id})`),
    );
  }
  const studies = [...new Set(ofSet.map((e) => e.study_id))];
  if (options.study === undefined && studies.length > 1) {
    throw new DataError('The competitive entries cover several studies; choose one with study.', ['study'], studies.map(String));
  }
  const studyId = options.study ?? studies[0]!;
  const audiences = [...new Set(ofSet.filter((e) => e.study_id === studyId).map((e) => e.audience_id))];
  const entries = ofSet.filter((e) => e.study_id === studyId && e.audience_id === audience);
  if (entries.length === 0) {
    throw new DataError(`No competitive entries for study ${studyId}, audience ${audience}.`, [`study ${studyId}, audience ${audience}`], [
      ...studies.map((s) => `study ${s}`),
      ...audiences.map((a) => `audience ${a}`),
    ]);
  }
  let brands = entries;
  if (options.brands) {
    const present = new Set(entries.map((e) => e.brand_id));
    const absent = options.brands.filter((b) => !present.has(b));
    if (options.brands.length === 0 || absent.length > 0) {
      throw new DataError('Brands not in the competitive set were asked for.', absent.length > 0 ? absent.map(String) : ['brands'], [...present].map(String));
    }
    const wanted = new Set(options.brands);
    brands = entries.filter((e) => wanted.has(e.brand_id));
  }
  const cultural = new Map(
    input.cultural.filter((e) => e.comparison_type === 'cultural' && e.study_id === studyId && e.audience_id === audience).map((e) => [e.brand_id, e]),
  );
  const available = [...new Set([...keysOf(entries), ...keysOf([...cultural.values()])])];
  const keys = options.archetypes ?? available;
  const unknown = keys.filter((k) => !available.includes(k));
  if (keys.length === 0 || unknown.length > 0) throw new DataError('Unknown archetypes.', unknown.length > 0 ? unknown : ['archetypes'], available);
  const comparisonName = entries[0]!.comparison_name ?? `${options.set.type} ${options.set.id}`;
  const notes: string[] = [];
  const noCultural = brands.filter((e) => !cultural.has(e.brand_id)).length;
  if (noCultural > 0) notes.push(`${noCultural} ${noCultural === 1 ? 'brand of the set has' : 'brands of the set have'} no cultural entry: ${noCultural === 1 ? 'its' : 'their'} cultural columns are null.`);

  const out: ArchetypeRow[] = [];
  for (const entry of brands) {
    const c = cultural.get(entry.brand_id);
    for (const key of keys) {
      out.push({
        study_id: studyId,
        audience_id: audience,
        brand_id: entry.brand_id,
        brand_name: entry.brand_name ?? c?.brand_name ?? `Brand ${entry.brand_id}`,
        archetype: key,
        archetype_name: archetypeName(key),
        cultural_score: num(c?.data[key]),
        cultural_rank: num(c?.data[`${key}_rank`]),
        competitive_score: num(entry.data[key]),
        competitive_rank: num(entry.data[`${key}_rank`]),
        comparison_name: comparisonName,
        comparison_type: options.set.type,
      });
    }
  }
  const order = new Map(keys.map((k, i) => [k, i]));
  out.sort((a, b) => compareText(a.brand_name, b.brand_name) || a.brand_id - b.brand_id || order.get(a.archetype)! - order.get(b.archetype)!);
  return resultTable(out, SCHEMA, {
    source: 'archetypeMatrix',
    notes,
    studyId,
    audienceId: audience,
    comparison: { type: options.set.type, id: options.set.id, name: comparisonName, size: entries[0]!.comparison_size },
    archetypes: keys,
  });
}
