/**
 * `resolveEntities`: brands, companies and sectors given to a comparison by id or by name, resolved
 * against the rows it was given (no request: frames take data). Names are compared as
 * `resolveBrands` compares them (`foldName`: case, accents and spacing ignored); a brand matches its global name
 * or any of its local names. A name that fits several entities, or only part of some, is an error
 * listing them; a name that fits none suggests the nearest. Ids pass through unchanged (whether
 * they have rows is `selectRows`'s question, with its `missing` option).
 */
import { UsageError } from '../errors.js';
import { compareNames } from './compare-names.js';
import { brandNames, entityIds, entityNames } from './entity-of.js';
import { INT_NULL } from './frame-table.js';
import type { PreparedBrandscape } from './prepare-brandscape.js';
import { editDistance, foldName } from './fold-name.js';

/** The kinds of entity a comparison selects by id or name. */
export type NamedEntityKind = 'brand' | 'company' | 'sector';

/** An entity a name may stand for, with the names it goes by in the rows. */
interface Named {
  readonly id: number;
  /** The name shown in errors (a brand's global name). */
  readonly name: string;
  /** Folded names it answers to (a brand's global and local names). */
  readonly folded: Set<string>;
  /** Market codes where it has rows (named in an ambiguity error). */
  readonly markets: Set<string>;
}

/**
 * A name that fits several brands, companies or sectors of the rows (or only part of some): the
 * candidates listed, as `AmbiguousBrandError` lists them (frames take data, so they cannot
 * import the brand look-up's errors from load/).
 */
export class AmbiguousNameError extends UsageError {
  override name = 'AmbiguousNameError';
  readonly kind: NamedEntityKind;
  readonly given: string;
  readonly candidates: readonly { readonly id: number; readonly name: string; readonly markets: readonly string[] }[];
  constructor(kind: NamedEntityKind, given: string, candidates: readonly { id: number; name: string; markets: readonly string[] }[]) {
    const plural = kind === 'company' ? 'companies' : `${kind}s`;
    const head = candidates.length === 1 ? `No ${kind} is named exactly '${given}'; one ${kind}'s name contains it:` : `The ${kind} '${given}' could be any of ${candidates.length} ${plural}:`;
    const list = candidates.map((c) => `${c.id} ${c.name}${c.markets.length > 0 ? ` (in ${c.markets.join(', ')})` : ''}`);
    super(`${head}\n  ${list.join('\n  ')}`, { hint: `\nGive the ${kind} by id, or by its full name.` });
    this.kind = kind;
    this.given = given;
    this.candidates = candidates;
  }
}

/** A name that fits no brand, company or sector in the rows: the nearest names suggested. */
export class UnknownNameError extends UsageError {
  override name = 'UnknownNameError';
  readonly kind: NamedEntityKind;
  readonly given: string;
  readonly suggestions: readonly { readonly id: number; readonly name: string }[];
  constructor(kind: NamedEntityKind, given: string, suggestions: readonly { id: number; name: string }[]) {
    const nearest = suggestions.length > 0 ? ` The nearest names: ${suggestions.map((s) => `${s.name} (${s.id})`).join(', ')}.` : '';
    super(`No ${kind} in the rows is named '${given}'.${nearest}`, { hint: `Check the spelling, or give the ${kind} by id.` });
    this.kind = kind;
    this.given = given;
    this.suggestions = suggestions;
  }
}

/** Every entity of a kind in the rows, with its names and markets (one pass over the rows). */
function namedEntities(prep: PreparedBrandscape, kind: NamedEntityKind): Named[] {
  const ids = kind === 'brand' ? prep.brandId : entityIds(prep, kind);
  const names = kind === 'brand' ? brandNames(prep) : { local: entityNames(prep, kind), global: entityNames(prep, kind) };
  const out = new Map<number, Named>();
  // Names are read once per entity and study (a brand's local name is the same across its rows of a study).
  const seen = new Set<string>();
  for (let row = 0; row < prep.n; row++) {
    const id = ids[row]!;
    if (id === INT_NULL) continue;
    const key = `${id}:${prep.studyId[row]!}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let entity = out.get(id);
    if (!entity) {
      const name = names.global(row);
      entity = { id, name, folded: new Set([foldName(name)]), markets: new Set() };
      out.set(id, entity);
    }
    entity.folded.add(foldName(names.local(row)));
    const code = prep.studies.get(prep.studyId[row]!)?.countryCode;
    if (code) entity.markets.add(code);
  }
  return [...out.values()];
}

/**
 * The ids of entities given by id or name. Without a name among `refs` the rows are not read.
 *
 * @example
 * resolveEntities(prep, 'brand', ['veros', 23]); // [305, 23]
 */
export function resolveEntities(prep: PreparedBrandscape, kind: NamedEntityKind, refs: readonly (number | string)[]): number[] {
  if (refs.every((r) => typeof r === 'number')) return refs as number[];
  const entities = namedEntities(prep, kind);
  return refs.map((ref) => (typeof ref === 'number' ? ref : resolveOne(entities, kind, ref)));
}

function resolveOne(entities: readonly Named[], kind: NamedEntityKind, given: string): number {
  const wanted = foldName(given);
  if (wanted === '') throw new UsageError(`A ${kind} name is empty.`, { hint: `Give a ${kind} id or name.` });
  const exact = entities.filter((e) => e.folded.has(wanted));
  if (exact.length === 1) return exact[0]!.id;
  const words = wanted.split(' ');
  const partial = exact.length > 1 ? exact : entities.filter((e) => [...e.folded].some((n) => words.every((w) => n.includes(w))));
  if (partial.length > 0) {
    const sorted = [...partial].sort((a, b) => compareNames(a.name, b.name) || a.id - b.id);
    throw new AmbiguousNameError(kind, given, sorted.map((e) => ({ id: e.id, name: e.name, markets: [...e.markets].sort() })));
  }
  const nearest = entities
    .map((e) => ({ id: e.id, name: e.name, d: Math.min(...[...e.folded].map((n) => editDistance(wanted, n))) }))
    .filter((e) => e.d <= Math.max(3, Math.ceil(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || compareNames(a.name, b.name))
    .slice(0, 5)
    .map(({ id, name }) => ({ id, name }));
  throw new UnknownNameError(kind, given, nearest);
}
