/**
 * What the MCP tools of the emulated service are given, looked up in the dataset: brands by id or
 * name, markets by ISO code or name, audiences by id or name. The service's agents extract these
 * from a user's words, so names are matched ignoring case and accents; a name that fits nothing is
 * a tool error naming the nearest ones (what an agent needs to ask again).
 */
import type { AudienceEntity, BrandEntity, CountryEntity } from '../dataset/types.js';
import type { Ctx } from '../http/bindings.js';

/** A tool call that cannot be answered as asked: the message goes back to the agent as an `isError` result. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/** A name as compared: accents folded, lower case, single spaces. */
export const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** Up to five names closest to `wanted`: those containing it (or contained in it), else those sharing its first letters. */
export function nearestNames(wanted: string, names: readonly string[]): string[] {
  const w = fold(wanted);
  const inside = names.filter((n) => fold(n).includes(w) || w.includes(fold(n)));
  const near = inside.length > 0 ? inside : names.filter((n) => fold(n).startsWith(w.slice(0, 3)));
  return [...new Set(near)].slice(0, 5);
}

export function lookupBrands(ctx: Ctx, refs: readonly (string | number)[]): BrandEntity[] {
  return refs.map((ref) => {
    if (typeof ref === 'number') {
      const brand = ctx.idx.brands.get(ref);
      if (!brand) throw new ToolInputError(`There is no brand with id ${ref}. Use get-brands to find brands and their ids.`);
      return brand;
    }
    const wanted = fold(ref);
    const exact = ctx.ds.brands.filter((b) => fold(b.record.name ?? '') === wanted);
    if (exact.length === 1) return exact[0]!;
    if (exact.length > 1) {
      throw new ToolInputError(`'${ref}' is the name of ${exact.length} brands: ${exact.map((b) => `${b.record.name} (id ${b.record.id})`).join(', ')}. Give the brand by id.`);
    }
    const near = nearestNames(ref, ctx.ds.brands.map((b) => b.record.name ?? ''));
    throw new ToolInputError(`No brand is named '${ref}'.${near.length > 0 ? ` The nearest names: ${near.join(', ')}.` : ''} Use get-brands to search.`);
  });
}

/** Markets that have released BAV studies, by code. */
const studiedCodes = (ctx: Ctx) =>
  [...ctx.idx.releasedYearsByCountry.keys()].map((id) => ctx.idx.countries.get(id)?.record.code ?? '').filter((c) => c !== '').sort();

export function lookupCountries(ctx: Ctx, refs: readonly string[], known: () => readonly string[] = () => studiedCodes(ctx)): CountryEntity[] {
  return refs.map((ref) => {
    const text = ref.trim();
    // Alpha-2 is the documented form; alpha-3 and names are what agents also extract.
    const byCode = /^[A-Za-z]{2,3}$/.test(text) ? ctx.idx.countriesByCode.get(text.toUpperCase()) : undefined;
    if (byCode) return byCode;
    const byName = ctx.ds.countries.find((c) => fold(c.record.name ?? '') === fold(text));
    if (byName) return byName;
    const aliases: Readonly<Record<string, string>> = { UK: 'GB', EN: 'GB', EL: 'GR' };
    const alias = aliases[text.toUpperCase()];
    throw new ToolInputError(`'${ref}' is not a market: give an ISO 3166 alpha-2 code${alias ? ` (did you mean ${alias}?)` : ''}. Markets with data: ${known().join(', ')}.`);
  });
}

/** Audiences the user may see: public ones and their own. */
export const visibleAudiences = (ctx: Ctx): AudienceEntity[] => ctx.ds.audiences.filter((a) => a.record.is_public !== false || a.ownerUser === ctx.user);

export function lookupAudiences(ctx: Ctx, refs: readonly (string | number)[]): AudienceEntity[] {
  const visible = visibleAudiences(ctx);
  return refs.map((ref) => {
    const found = typeof ref === 'number' ? visible.find((a) => a.record.id === ref) : visible.find((a) => fold(a.record.name ?? '') === fold(ref));
    if (found) return found;
    throw new ToolInputError(`There is no audience ${typeof ref === 'number' ? `with id ${ref}` : `named '${ref}'`}. Audiences: ${visible.map((a) => `${a.record.id} ${a.record.name}`).join(', ')}.`);
  });
}

/** Plain values of a record, for a structured answer. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
