/**
 * Generic query features of every list (REFERENCE §7): field filters, helper filters,
 * `filter[updated_since]`, `search`, `sort`, sparse fieldsets and includes, checked against the
 * endpoint catalogue. Unknown keys are refused with a 400 that names them (§20), unless the
 * emulator runs with `strictParams: false`.
 */
import type { FieldCaps, ResourceSpec } from '../../catalogue/endpoints.js';
import { badRequest, notFound } from './api-error.js';
import type { AnyEntity, Binding, Ctx } from './bindings.js';
import { fromDateTime, fromFlag, likeMatcher, valueText } from './filter-values.js';
import type { ParsedQuery, SortKey } from './parse-query.js';

export interface EngineOptions {
  /** Refuse unknown filter/sort/include/fields keys with 400 (default) or ignore them. */
  strictParams: boolean;
}

const names = (keys: Iterable<string>) => [...keys].sort().join(', ') || '(none)';

/** Checks every key of the query against the resource's catalogue entry. */
export function validateQuery(spec: ResourceSpec, query: ParsedQuery, options: EngineOptions, extraFields: ReadonlySet<string> = new Set()): ParsedQuery {
  const where = `/${spec.path}`;
  const fieldCaps = (field: string): FieldCaps | undefined =>
    spec.fields[field] ?? (extraFields.has(field) ? { filter: 'like', sort: true, select: true } : undefined);
  const refuse = (message: string) => {
    if (options.strictParams) throw badRequest(message);
  };
  const filterable = [
    ...Object.entries(spec.fields).filter(([, c]) => c.filter !== 'none').map(([f]) => f),
    ...Object.keys(spec.helpers),
    ...(spec.updatedSince ? ['updated_since'] : []),
  ];
  for (const name of [...query.filters.keys()]) {
    const known = name in spec.helpers || (name === 'updated_since' && spec.updatedSince) || (fieldCaps(name)?.filter ?? 'none') !== 'none';
    if (!known) {
      refuse(`Unknown filter '${name}' on ${where}. Filters accepted here: ${names(filterable)}.`);
      query.filters.delete(name);
    }
  }
  query.sort = query.sort.filter((key) => {
    if (fieldCaps(key.field)?.sort) return true;
    const sortable = Object.entries(spec.fields).filter(([, c]) => c.sort).map(([f]) => f);
    refuse(`Cannot sort ${where} by '${key.field}'. Sortable fields: ${names(sortable)}.`);
    return false;
  });
  for (const [key, fields] of [...query.fields]) {
    if (key !== spec.fieldsKey) {
      refuse(`Unknown fieldset 'fields[${key}]' on ${where}: use fields[${spec.fieldsKey}] (included objects always have their slim shape).`);
      query.fields.delete(key);
      continue;
    }
    const bad = fields.filter((f) => !fieldCaps(f)?.select);
    if (bad.length > 0) {
      const selectable = Object.entries(spec.fields).filter(([, c]) => c.select).map(([f]) => f);
      refuse(`fields[${key}] names ${bad.map((b) => `'${b}'`).join(', ')}, not selectable on ${where}. Selectable: ${names(selectable)}.`);
      query.fields.set(key, fields.filter((f) => !bad.includes(f)));
    }
  }
  query.include = query.include.filter((name) => {
    if (name in spec.includes) return true;
    refuse(`Unknown include '${name}' on ${where}. Includes accepted here: ${names(Object.keys(spec.includes))}.`);
    return false;
  });
  if (query.search !== undefined && spec.search === false) {
    refuse(`search is not supported on ${where}; use a like filter such as filter[name].`);
    query.search = undefined;
  }
  return query;
}

type Row = Record<string, unknown>;

/** A predicate for one field filter, by the field's filter kind (§7.1, §20). */
export function fieldPredicate(field: string, caps: FieldCaps, value: string): (record: Row) => boolean {
  switch (caps.filter) {
    case 'exact': {
      const wanted = new Set(value.split(',').map((v) => v.trim()).filter((v) => v !== ''));
      return (r) => {
        const v = r[field];
        return v !== null && v !== undefined && wanted.has(valueText(v));
      };
    }
    case 'bool': {
      const wanted = fromFlag(field, value);
      return (r) => r[field] === wanted;
    }
    case 'like':
    case 'any': {
      const match = likeMatcher(value);
      return (r) => match(r[field]);
    }
    case 'none':
      return () => true;
  }
}

/** Every filter of the query as one predicate over entities. */
export function toPredicate<E extends AnyEntity>(spec: ResourceSpec, binding: Binding<E>, query: ParsedQuery, ctx: Ctx): (e: E) => boolean {
  const tests: ((e: E) => boolean)[] = [];
  for (const [name, value] of query.filters) {
    const helper = binding.helpers[name];
    if (helper) {
      const test = helper(value, ctx, name);
      if (test) tests.push(test);
    } else if (name === 'updated_since') {
      const since = fromDateTime(name, value);
      // Strictly after the given moment (§20); timestamps are shallow (§7.3).
      tests.push((e) => {
        const at = e.record.updated_at;
        return typeof at === 'string' && Date.parse(at) > since;
      });
    } else {
      const caps = spec.fields[name];
      if (caps) {
        const test = fieldPredicate(name, caps, value);
        tests.push((e) => test(e.record));
      }
    }
  }
  if (binding.access) tests.push((e) => binding.access?.(e, ctx) === 'ok');
  return (e) => tests.every((t) => t(e));
}

/**
 * Text as the search index sees it: lower case, accents folded (`Café` matches `cafe`), as a
 * search engine's analyser does (§7.7: search "handles language better" than like filters).
 */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** The words of a text already folded. */
const tokensOf = (folded: string) => folded.split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');

/** A field's text as the index holds it: folded, and its tokens. */
interface Analysed {
  readonly text: string;
  readonly tokens: readonly string[];
}

/**
 * Field texts already analysed, by their raw text: a search engine analyses a document when it is
 * indexed, not at every query. Keyed by the text itself, so a record that changes is analysed
 * afresh; cleared when it grows past `ANALYSED_MAX` texts.
 */
const analysed = new Map<string, Analysed>();
const ANALYSED_MAX = 200_000;

function analyse(raw: string): Analysed {
  let hit = analysed.get(raw);
  if (hit === undefined) {
    if (analysed.size >= ANALYSED_MAX) analysed.clear();
    const text = fold(raw);
    hit = { text, tokens: tokensOf(text) };
    analysed.set(raw, hit);
  }
  return hit;
}

/**
 * Relevance of an entity to a search (§7.7: "orders results by relevance"), from the record's
 * indexed fields (the first, the name, weighs most). Every query token must match some indexed
 * field; exact and prefix matches of whole names count most. 0: no match.
 */
export function searchScorer(query: string, fields: readonly string[]): (record: Row) => number {
  const q = fold(query.trim());
  const queryTokens = tokensOf(q);
  if (queryTokens.length === 0) return () => 0;
  const analysedFields = new Array<Analysed | undefined>(fields.length);
  return (record) => {
    for (let f = 0; f < fields.length; f++) {
      const value = record[fields[f]!];
      analysedFields[f] = value === null || value === undefined ? undefined : analyse(valueText(value));
    }
    // A token matches only inside some field's text: most records fail here, at no further cost.
    for (const qt of queryTokens) if (!analysedFields.some((field) => field !== undefined && field.text.includes(qt))) return 0;
    let score = 0;
    analysedFields.forEach((field, position) => {
      if (field === undefined) return;
      const weight = position === 0 ? 2 : 1;
      if (field.text === q) score += 100 * weight;
      else if (field.text.startsWith(q)) score += 40 * weight;
      else if (field.text.includes(q)) score += 15 * weight;
    });
    for (const qt of queryTokens) {
      let best = 0;
      for (const field of analysedFields) {
        for (const ft of field?.tokens ?? []) {
          if (ft === qt) best = Math.max(best, 10);
          else if (ft.startsWith(qt)) best = Math.max(best, 5);
          else if (ft.includes(qt)) best = Math.max(best, 2);
        }
      }
      if (best === 0) return 0;
      score += best;
    }
    return score;
  };
}

const sortValue = (v: unknown): string | number | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object') {
    const name = (v as Row)['name'];
    return typeof name === 'string' ? name.toLowerCase() : JSON.stringify(v);
  }
  return valueText(v).toLowerCase();
};

/**
 * Compares records by several keys; nulls sort first in ascending order (the database's rule) and
 * ties keep id order. Text compares case-insensitively, like the service's collation.
 */
export function toComparator(sort: readonly SortKey[], read: (row: Row, field: string) => unknown = (r, f) => r[f]): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const key of sort) {
      const x = sortValue(read(a, key.field));
      const y = sortValue(read(b, key.field));
      let c = 0;
      if (x === null || y === null) c = x === y ? 0 : x === null ? -1 : 1;
      else if (typeof x === 'number' && typeof y === 'number') c = x - y;
      else c = String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      if (c !== 0) return key.desc ? -c : c;
    }
    return 0;
  };
}

/** Lists the entities matching the query, ordered (search relevance, then sort keys, then id). */
export function selectEntities<E extends AnyEntity>(spec: ResourceSpec, binding: Binding<E>, query: ParsedQuery, ctx: Ctx): E[] {
  const test = toPredicate(spec, binding, query, ctx);
  let rows = binding.rows(ctx).filter(test);
  if (query.search !== undefined && spec.search !== false) {
    const score = searchScorer(query.search, spec.search);
    const scored: { e: E; score: number }[] = [];
    for (const e of rows) {
      const value = score(e.record);
      if (value > 0) scored.push({ e, score: value });
    }
    if (query.sort.length === 0) scored.sort((a, b) => b.score - a.score || a.e.record.id - b.e.record.id);
    rows = scored.map((s) => s.e);
  }
  if (query.sort.length > 0) {
    const compare = toComparator(query.sort);
    rows = rows
      .map((e, i) => ({ e, i }))
      .sort((a, b) => compare(a.e.record as Row, b.e.record as Row) || a.i - b.i)
      .map((x) => x.e);
  }
  return rows;
}

/**
 * The record as served: the requested fields only (record order), with included objects placed
 * before the trailing timestamps, as the service's resources do (see the fixtures).
 */
export function toServed<E extends AnyEntity>(spec: ResourceSpec, binding: Binding<E>, entity: E, query: ParsedQuery, ctx: Ctx): Row {
  const record = entity.record as Row;
  const wanted = query.fields.get(spec.fieldsKey);
  const keep = wanted ? new Set(wanted) : undefined;
  const out: Row = {};
  const includes = () => {
    for (const name of query.include) {
      const aliasOf = spec.includes[name]?.aliasOf;
      // `category.sector` extends `category`; plain aliases emit under the canonical key.
      const key = aliasOf ?? name;
      const resolve = binding.includes[name] ?? (aliasOf ? binding.includes[aliasOf] : undefined);
      if (resolve) out[key] = resolve(entity, ctx);
    }
  };
  let included = false;
  for (const key of Object.keys(record)) {
    if (!included && (key === 'created_at' || key === 'updated_at')) {
      includes();
      included = true;
    }
    // Fields not selectable (`brandscape_data_columns`) are refused in fields[...] by validateQuery,
    // so they only appear in full records (§11.4).
    if (keep && !keep.has(key)) continue;
    out[key] = record[key];
  }
  if (!included) includes();
  return out;
}

/** Parses an id path segment; anything else is a 404 like the service's router. */
export function fromIdSegment(segment: string, what: string): number {
  if (!/^\d+$/.test(segment)) throw notFound(`No ${what} with id '${segment}'.`);
  return Number(segment);
}

