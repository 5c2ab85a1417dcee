/**
 * `latestFullYear`: the most recent year with a released full-year study in every one of some
 * markets (US quarterly waves aside): the year a cross-market comparison of those markets can use
 * without leaving any of them empty.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import { loadReleasedStudies } from './released-studies.js';
import { resolveMarkets } from './resolve-names.js';

/**
 * The latest year released in all these markets (by code, name or id). A market without any
 * released full-year study, or markets that share no year, are a UsageError saying which years
 * each has.
 *
 * @example
 * const year = await latestFullYear(client, ['GB', 'DE', 'France']); // e.g. 2025
 */
export async function latestFullYear(client: Pick<BrandscapeClient, 'studies' | 'countries'>, markets: readonly (number | string)[], options: { signal?: AbortSignal } = {}): Promise<number> {
  if (markets.length === 0) throw new UsageError('latestFullYear needs at least one market.', { hint: "e.g. latestFullYear(client, ['GB', 'DE'])." });
  const resolved = await resolveMarkets(client, markets, options);
  const codes = [...new Set(resolved.map((m) => m.code))];
  const studies = await loadReleasedStudies(client, codes, options.signal);
  const yearsOf = new Map(codes.map((c) => [c, new Set<number>()]));
  for (const s of studies) if (s.quarter === null) yearsOf.get(s.code)?.add(s.year);
  const without = codes.filter((c) => yearsOf.get(c)!.size === 0);
  if (without.length > 0) throw new UsageError(`No released full-year study in ${without.join(', ')}.`, { hint: "'brandscape markets' lists the markets and their years." });
  const common = [...yearsOf.get(codes[0]!)!].filter((y) => codes.every((c) => yearsOf.get(c)!.has(y)));
  if (common.length === 0) {
    const each = codes.map((c) => `${c} ${[...yearsOf.get(c)!].sort((a, b) => a - b).join(', ')}`).join('; ');
    throw new UsageError(`${codes.join(', ')} have no year of released full-year studies in common.`, { hint: `Years: ${each}.` });
  }
  return Math.max(...common);
}
