/**
 * `resolveBrands`: brands given by id or by name, as an analyst types them ("nestle", "Nestlé",
 * 1020), resolved to ids with the service's search, case- and accent-insensitively. A name that
 * fits several brands, or none, is a usage error that lists the candidates or the nearest names:
 * guessing would compare the wrong brand without anyone noticing.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import { compareNames } from './compare-names.js';

/** A brand as given, and the brand it names. */
export interface ResolvedBrand {
  /** What was given: an id or a name. */
  readonly ref: number | string;
  readonly id: number;
  /** The brand's global name. */
  readonly name: string;
}

/** A brand a name could mean, for the error message of an ambiguous name. */
export interface BrandCandidate {
  readonly id: number;
  readonly name: string;
  /** ISO codes of the markets where the brand is studied. */
  readonly markets: readonly string[];
}

/** A name that fits several brands, or only part of one brand's name: exit code 2, with the candidates listed. */
export class AmbiguousBrandError extends UsageError {
  override name = 'AmbiguousBrandError';
  readonly brand: string;
  readonly candidates: readonly BrandCandidate[];
  constructor(brand: string, candidates: readonly BrandCandidate[]) {
    const list = candidates.map((c) => `${c.id} ${c.name}${c.markets.length > 0 ? ` (studied in ${c.markets.join(', ')})` : ''}`);
    const head =
      candidates.length === 1
        ? `No brand is named exactly '${brand}'; one brand's name contains it:`
        : `The brand '${brand}' could be any of ${candidates.length} brands:`;
    super(`${head}\n  ${list.join('\n  ')}`, {
      hint: '\nGive the brand by id, or by its full name.',
    });
    this.brand = brand;
    this.candidates = candidates;
  }
}

/** A name that fits no brand: exit code 2, with the nearest names suggested. */
export class UnknownBrandError extends UsageError {
  override name = 'UnknownBrandError';
  /** The id or name given. */
  readonly brand: number | string;
  readonly suggestions: readonly { readonly id: number; readonly name: string }[];
  constructor(brand: number | string, suggestions: readonly { id: number; name: string }[]) {
    const nearest = suggestions.length > 0 ? ` The nearest names: ${suggestions.map((s) => `${s.name} (${s.id})`).join(', ')}.` : '';
    super(typeof brand === 'number' ? `There is no brand with id ${brand}.` : `No brand is named '${brand}'.${nearest}`, {
      hint: 'Check the spelling, or give the brand by id.',
    });
    this.brand = brand;
    this.suggestions = suggestions;
  }
}

type Client = Pick<BrandscapeClient, 'brands'>;

/** A name as compared: accents folded, lower case, single spaces. */
export function foldName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Edit distance between two short texts, a swap of neighbouring letters counting as one edit
 * (optimal string alignment): "Verso" is one edit from "Veros", as a typist would judge it.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Resolves brands given by id or name. Ids are checked to exist (one request); each name is looked
 * up with the service's `search`: a brand whose global name equals the name (ignoring case and
 * accents) is taken; several such brands, or none but several partial matches, make an
 * `AmbiguousBrandError` listing them with the markets they are studied in; no match at all an
 * `UnknownBrandError` suggesting the nearest names.
 *
 * @example
 * const brands = await resolveBrands(client, ['veros', 'Emmo Cafe', 23]);
 * brands.map((b) => b.id); // [305, 303, 23]
 */
export async function resolveBrands(client: Client, refs: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<ResolvedBrand[]> {
  const signal = options.signal ? { signal: options.signal } : {};
  const ids = [...new Set(refs.filter((r): r is number => typeof r === 'number'))];
  const byId = new Map<number, string>();
  if (ids.length > 0) {
    const found = await client.brands.all({ filter: { id: ids }, fields: ['id', 'name'] }, signal);
    for (const b of found) byId.set(b.id, b.name ?? `Brand ${b.id}`);
    const absent = ids.find((id) => !byId.has(id));
    if (absent !== undefined) throw new UnknownBrandError(absent, []);
  }
  // Names are looked up at once (one search each): several names cost one round trip, not several.
  return Promise.all(refs.map(async (ref): Promise<ResolvedBrand> => (typeof ref === 'number' ? { ref, id: ref, name: byId.get(ref)! } : { ref, ...(await resolveName(client, ref, options.signal)) })));
}

async function resolveName(client: Client, name: string, signal: AbortSignal | undefined): Promise<{ id: number; name: string }> {
  const wanted = foldName(name);
  if (wanted === '') throw new UsageError('A brand name is empty.', { hint: 'Give a brand id or name.' });
  const opts = signal ? { signal } : undefined;
  // The search asks for ids and names only: the markets of each candidate (its studies, which make a
  // large answer) are fetched only when a name turns out to be ambiguous.
  const page = await client.brands.page({ search: name.trim(), perPage: 50, fields: ['id', 'name'] }, opts);
  const hits = page.records.map((b) => ({ id: b.id, name: b.name ?? `Brand ${b.id}` }));
  const exact = hits.filter((b) => foldName(b.name) === wanted);
  const candidates = async (brands: readonly { id: number; name: string }[]): Promise<BrandCandidate[]> => {
    const withStudies = await client.brands.all({ filter: { id: brands.map((b) => b.id) }, fields: ['id'], include: ['studies'] }, opts);
    const marketsOf = new Map(withStudies.map((b) => [b.id, [...new Set((b.studies ?? []).map((s) => s.country?.code ?? '').filter((c) => c !== ''))].sort()]));
    return brands.map((b) => ({ id: b.id, name: b.name, markets: marketsOf.get(b.id) ?? [] }));
  };
  if (exact.length === 1) return { id: exact[0]!.id, name: exact[0]!.name };
  if (exact.length > 1) throw new AmbiguousBrandError(name, await candidates(exact));
  // Every word of the name inside a brand's name: a partial name ("Cola") that fits several brands.
  const words = wanted.split(' ');
  const partial = hits.filter((b) => words.every((w) => foldName(b.name).includes(w)));
  if (partial.length > 0) throw new AmbiguousBrandError(name, await candidates(partial));
  throw new UnknownBrandError(name, await nearestNames(client, wanted, signal));
}

/**
 * Up to five brand names nearest to a name (by edit distance over the folded names), from every
 * brand's name: only when a name matched nothing, so the cost of listing every brand is paid on a
 * typo, never on a good name.
 */
async function nearestNames(client: Client, wanted: string, signal: AbortSignal | undefined): Promise<{ id: number; name: string }[]> {
  const all = await client.brands.all({ fields: ['id', 'name'] }, signal ? { signal } : undefined);
  return all
    .filter((b) => b.name)
    .map((b) => ({ id: b.id, name: b.name!, d: distance(wanted, foldName(b.name!)) }))
    .filter((b) => b.d <= Math.max(3, Math.ceil(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || compareNames(a.name, b.name))
    .slice(0, 5)
    .map(({ id, name }) => ({ id, name }));
}
