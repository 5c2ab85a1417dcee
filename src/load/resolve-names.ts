/**
 * Markets, audiences and sectors given by id, code or name, as an analyst types them ("germany",
 * "DE", "Côte d'Ivoire"; "female", 2; "automotive"), resolved against the service's lists (each a
 * short list, loaded in one request). Names are compared as `resolveBrands` compares brand names
 * (case, accents and spacing ignored); a name that fits several records is a UsageError listing
 * them, one that fits none a UsageError with what there is.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import { compareNames } from '../frames/compare-names.js';
import { editDistance, foldName } from '../frames/fold-name.js';

/** A market as resolved: its ISO code and English name. */
export interface ResolvedMarket {
  readonly ref: number | string;
  readonly id: number;
  readonly code: string;
  readonly name: string;
}

/** Codes people use for a market that are not its ISO code. */
const MARKET_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', EN: 'GB', EL: 'GR' };

const signalOf = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

/** The records whose folded name is `wanted`, else those whose name holds every word of it. */
function matches<T extends { name: string }>(records: readonly T[], given: string): { exact: T[]; partial: T[] } {
  const wanted = foldName(given);
  const exact = records.filter((r) => foldName(r.name) === wanted);
  const words = wanted.split(' ');
  const partial = exact.length > 0 ? [] : records.filter((r) => words.every((w) => foldName(r.name).includes(w)));
  return { exact, partial };
}

/** Up to five names nearest to `given`, for an error. */
function nearest<T extends { name: string }>(records: readonly T[], given: string): T[] {
  const wanted = foldName(given);
  return records
    .map((r) => ({ r, d: editDistance(wanted, foldName(r.name)) }))
    .filter((x) => x.d <= Math.max(3, Math.ceil(wanted.length / 3)))
    .sort((a, b) => a.d - b.d || compareNames(a.r.name, b.r.name))
    .slice(0, 5)
    .map((x) => x.r);
}

/**
 * Markets by ISO alpha-2 or alpha-3 code, English or native name, or id, among the markets with
 * studies. `UK` is taken for `GB`. An unknown market is a UsageError listing the markets there are.
 *
 * @example
 * (await resolveMarkets(client, ['germany', 'GB', 'Côte d’Ivoire'])).map((m) => m.code); // ['DE', 'GB', 'CI']
 */
export async function resolveMarkets(client: Pick<BrandscapeClient, 'countries'>, refs: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<ResolvedMarket[]> {
  const countries = await client.countries.all({ filter: { with_studies: true }, fields: ['id', 'code', 'code_alpha3', 'name', 'native_name'] }, signalOf(options.signal));
  const known = countries
    .filter((c) => (c.code ?? '') !== '')
    .map((c) => ({ id: c.id, code: c.code!.toUpperCase(), alpha3: (c.code_alpha3 ?? '').toUpperCase(), name: c.name ?? c.code!, native: c.native_name ?? '' }));
  return refs.map((ref): ResolvedMarket => {
    if (typeof ref === 'number') {
      const byId = known.find((c) => c.id === ref);
      if (!byId) throw new UsageError(`There is no market with id ${ref} among the markets with studies.`, { hint: `Markets: ${known.map((c) => c.code).sort().join(', ')}.` });
      return { ref, id: byId.id, code: byId.code, name: byId.name };
    }
    const text = ref.trim();
    const upper = MARKET_ALIASES[text.toUpperCase()] ?? text.toUpperCase();
    const byCode = known.find((c) => c.code === upper || (text.length === 3 && c.alpha3 === upper));
    if (byCode) return { ref, id: byCode.id, code: byCode.code, name: byCode.name };
    const { exact, partial } = matches(known, text);
    const native = exact.length === 0 ? known.filter((c) => c.native !== '' && foldName(c.native) === foldName(text)) : [];
    const found = [...exact, ...native];
    if (found.length === 1) return { ref, id: found[0]!.id, code: found[0]!.code, name: found[0]!.name };
    const listed = (found.length > 1 ? found : partial).map((c) => `${c.code} ${c.name}`);
    if (listed.length > 0) {
      throw new UsageError(`The market '${text}' could be any of:\n  ${listed.join('\n  ')}`, { hint: '\nGive the market by its ISO code.' });
    }
    const near = nearest(known, text).map((c) => `${c.name} (${c.code})`);
    throw new UsageError(`No market with studies is named '${text}'.${near.length > 0 ? ` The nearest names: ${near.join(', ')}.` : ''}`, {
      hint: `Markets with studies: ${known.map((c) => c.code).sort().join(', ')}. 'brandscape markets' lists them with their names.`,
    });
  });
}

/** An audience as resolved. */
export interface ResolvedAudience {
  readonly id: number;
  readonly name: string;
}

/**
 * An audience by id or name ("All Adults", "female", "age 18-34"). An unknown one is a UsageError
 * listing the audiences there are; a name that fits several lists them.
 *
 * @example
 * await resolveAudience(client, 'female'); // { id: 2, name: 'Female' }
 */
export async function resolveAudience(client: Pick<BrandscapeClient, 'audiences'>, ref: number | string, options: { signal?: AbortSignal } = {}): Promise<ResolvedAudience> {
  if (ref === 1) return { id: 1, name: 'All Adults' };
  const records = await client.audiences.all({ fields: ['id', 'name'] }, signalOf(options.signal));
  const audiences = records.map((a) => ({ id: a.id, name: a.name ?? `Audience ${a.id}` }));
  const list = () => audiences.slice(0, 30).map((a) => `${a.id} ${a.name}`).join(', ');
  if (typeof ref === 'number' || /^\d+$/.test(ref.trim())) {
    const id = Number(ref);
    const found = audiences.find((a) => a.id === id);
    if (!found) throw new UsageError(`There is no audience ${id}.`, { hint: `Audiences: ${list()}${audiences.length > 30 ? ', ...' : ''}. 'brandscape audiences' lists them.` });
    return found;
  }
  const { exact, partial } = matches(audiences, ref);
  if (exact.length === 1) return exact[0]!;
  const candidates = exact.length > 1 ? exact : partial;
  if (candidates.length > 0) {
    throw new UsageError(`The audience '${ref.trim()}' could be any of:\n  ${candidates.map((a) => `${a.id} ${a.name}`).join('\n  ')}`, { hint: '\nGive the audience by id, or by its full name.' });
  }
  const near = nearest(audiences, ref).map((a) => `${a.name} (${a.id})`);
  throw new UsageError(`No audience is named '${ref.trim()}'.${near.length > 0 ? ` The nearest names: ${near.join(', ')}.` : ''}`, { hint: `Audiences: ${list()}. 'brandscape audiences' lists them.` });
}

/** A sector as resolved. */
export interface ResolvedSector {
  readonly ref: number | string;
  readonly id: number;
  readonly name: string;
}

/**
 * Sectors by id or name ("automotive", "Banking & Finance"). An unknown one is a UsageError listing
 * the sectors there are; a name that fits several lists them.
 *
 * @example
 * (await resolveSectors(client, ['automotive'])).map((s) => s.id); // [2]
 */
export async function resolveSectors(client: Pick<BrandscapeClient, 'sectors'>, refs: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<ResolvedSector[]> {
  const records = await client.sectors.all({ fields: ['id', 'name'] }, signalOf(options.signal));
  const sectors = records.map((s) => ({ id: s.id, name: s.name ?? `Sector ${s.id}` }));
  const all = () => sectors.map((s) => s.name).sort(compareNames).join(', ');
  return refs.map((ref): ResolvedSector => {
    if (typeof ref === 'number') {
      const found = sectors.find((s) => s.id === ref);
      if (!found) throw new UsageError(`There is no sector with id ${ref}.`, { hint: `Sectors: ${all()}.` });
      return { ref, ...found };
    }
    const { exact, partial } = matches(sectors, ref);
    if (exact.length === 1) return { ref, ...exact[0]! };
    const candidates = exact.length > 1 ? exact : partial;
    if (candidates.length > 0) {
      throw new UsageError(`The sector '${ref.trim()}' could be any of:\n  ${candidates.map((s) => `${s.id} ${s.name}`).join('\n  ')}`, { hint: '\nGive the sector by id, or by its full name.' });
    }
    throw new UsageError(`No sector is named '${ref.trim()}'.`, { hint: `Sectors: ${all()}.` });
  });
}

/**
 * Markets as ISO codes: codes (two letters) are upper-cased and kept as given, with no request
 * (what a caller checks them against is its own business); any other reference (a name, an
 * alpha-3 code, an id) is resolved with `resolveMarkets`.
 *
 * @example
 * await toMarketCodes(client, ['gb', 'Germany']); // ['GB', 'DE']
 */
export async function toMarketCodes(client: Pick<BrandscapeClient, 'countries'>, refs: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<string[]> {
  const isCode = (r: number | string): r is string => typeof r === 'string' && /^\s*[A-Za-z]{2}\s*$/.test(r);
  if (refs.every(isCode)) return refs.map((r) => r.trim().toUpperCase());
  const others = refs.filter((r) => !isCode(r));
  const resolved = await resolveMarkets(client, others, options);
  return refs.map((r) => (isCode(r) ? r.trim().toUpperCase() : resolved[others.indexOf(r)]!.code));
}
