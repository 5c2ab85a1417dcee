/**
 * `resolveBrands`: brands given by id or by name, as an analyst types them ("nestle", "Nestlé",
 * 1020), resolved to ids with the service's search, case- and accent-insensitively. A name that
 * fits several brands, or none, is a usage error that lists the candidates or the nearest names:
 * guessing would compare the wrong brand without anyone noticing.
 */
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { chunkIds } from '../client/url-budget.js';
import { UsageError } from '../errors.js';
import { linkSignals } from '../link-signals.js';
import { compareNames } from '../frames/compare-names.js';
import { editDistance, foldName } from '../frames/fold-name.js';

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

type Client = Pick<BrandscapeClient, 'brands'> & Partial<Pick<BrandscapeClient, 'concurrency'>>;

/**
 * The most brands resolved at once. Each name is a search (a request): a thousand names take two
 * minutes under the service's rate limit (500 requests a minute), and a comparison or report of
 * more brands than that is a list pasted by mistake.
 */
export const MAX_BRANDS = 1000;

/** The longest brand name searched for; the longest real ones are well under 100 characters. */
export const MAX_BRAND_NAME_LENGTH = 200;

/** Searches in flight when the client does not say its concurrency (the client's default). */
const DEFAULT_CONCURRENCY = 8;

/**
 * Resolves brands given by id or name. Ids are checked to exist (one request, or as many as it
 * takes to keep each URL within 8 KB); each name is looked up with the service's `search`, at most
 * the client's `concurrency` at a time: a brand whose global name equals the name (ignoring case
 * and accents) is taken; several such brands, or none but several partial matches, make an
 * `AmbiguousBrandError` listing them with the markets they are studied in; no match at all an
 * `UnknownBrandError` suggesting the nearest names. The first failure stops the other searches.
 * More than `MAX_BRANDS` brands, or a name over `MAX_BRAND_NAME_LENGTH` characters, is a
 * UsageError before any request.
 *
 * @example
 * const brands = await resolveBrands(client, ['veros', 'Emmo Cafe', 23]);
 * brands.map((b) => b.id); // [305, 303, 23]
 */
export async function resolveBrands(client: Client, refs: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<ResolvedBrand[]> {
  if (refs.length > MAX_BRANDS) {
    throw new UsageError(`brands: at most ${MAX_BRANDS} brands are resolved at once; got ${refs.length}.`, { hint: 'Give fewer brands, or select them by company or sector.' });
  }
  const long = refs.find((r): r is string => typeof r === 'string' && r.trim().length > MAX_BRAND_NAME_LENGTH);
  if (long !== undefined) {
    throw new UsageError(`brands: a brand name is at most ${MAX_BRAND_NAME_LENGTH} characters; got one of ${long.trim().length} ('${long.trim().slice(0, 40)}…').`, { hint: 'Give the brand by id, or by its name.' });
  }
  const concurrency = client.concurrency ?? DEFAULT_CONCURRENCY;
  // One signal for this call's requests, which each listen to it (up to `concurrency` searches,
  // each with its request and a wait for the rate governor): many listeners on this signal are
  // expected, and the caller's signal gets one. It is also how the first failure stops the rest.
  const link = linkSignals(options.signal);
  setMaxListeners(2 * concurrency + 8, link.signal);
  const signal = { signal: link.signal };
  try {
    const ids = [...new Set(refs.filter((r): r is number => typeof r === 'number'))];
    const byId = new Map<number, string>();
    // Ids are checked in as few requests as fit a URL (see url-budget.ts): 10,000 ids in one made a
    // URL of 69 KB, which the service refused.
    for (const chunk of chunkIds(ids)) {
      const found = await client.brands.all({ filter: { id: chunk }, fields: ['id', 'name'] }, signal);
      for (const b of found) byId.set(b.id, b.name ?? `Brand ${b.id}`);
      const absent = chunk.find((id) => !byId.has(id));
      if (absent !== undefined) throw new UnknownBrandError(absent, []);
    }
    // Names are searched for together, at most `concurrency` at a time (one request each); the
    // list of every brand, which a name that matches nothing is compared with, is loaded once.
    const lookup: Lookup = { client, signal: link.signal, everyBrand: undefined };
    const limit = pLimit(concurrency);
    const names = refs.map((ref) =>
      typeof ref === 'number'
        ? Promise.resolve<ResolvedBrand>({ ref, id: ref, name: byId.get(ref)! })
        : limit(async (): Promise<ResolvedBrand> => {
            link.signal.throwIfAborted();
            return { ref, ...(await resolveName(lookup, ref)) };
          }),
    );
    try {
      return await Promise.all(names);
    } catch (error) {
      // The first failure is the answer: the searches under way stop, those still waiting end
      // without a request (they find the signal aborted), and none is left running on return.
      link.abort(error);
      await Promise.allSettled(names);
      throw error;
    }
  } finally {
    link.dispose();
  }
}

/** What the look-ups of one `resolveBrands` call share. */
interface Lookup {
  readonly client: Client;
  readonly signal: AbortSignal;
  /** Every brand's id and name, loaded on the first name that matches nothing. */
  everyBrand: Promise<{ id: number; name?: string | null }[]> | undefined;
}

async function resolveName(lookup: Lookup, name: string): Promise<{ id: number; name: string }> {
  const { client } = lookup;
  const wanted = foldName(name);
  if (wanted === '') throw new UsageError('A brand name is empty.', { hint: 'Give a brand id or name.' });
  const opts = { signal: lookup.signal };
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
  lookup.everyBrand ??= client.brands.all({ fields: ['id', 'name'] }, opts);
  throw new UnknownBrandError(name, nearestNames(await lookup.everyBrand, wanted));
}

/**
 * Up to five brand names nearest to a name (by edit distance over the folded names), from every
 * brand's name: only when a name matched nothing, so the cost of listing every brand is paid on a
 * typo, never on a good name.
 */
function nearestNames(all: readonly { id: number; name?: string | null }[], wanted: string): { id: number; name: string }[] {
  return all
    .filter((b): b is { id: number; name: string } => Boolean(b.name))
    .map((b) => ({ id: b.id, name: b.name, d: editDistance(wanted, foldName(b.name)) }))
    .filter((b) => b.d <= Math.max(3, Math.ceil(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || compareNames(a.name, b.name))
    .slice(0, 5)
    .map(({ id, name }) => ({ id, name }));
}
