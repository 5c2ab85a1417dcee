/**
 * Categories and collections by id or by name, as an analyst names them: a name is looked up with
 * the service's search and must match one record exactly (case and accents ignored); otherwise the
 * error lists the candidates with their ids.
 */
import { UsageError } from '../errors.js';
import { foldName } from '../frames/fold-name.js';
import type { McpContext } from './context.js';

export type NamedKind = 'categories' | 'collections';

async function candidates(context: McpContext, kind: NamedKind, text: string, signal: AbortSignal): Promise<{ id: number; name: string | null }[]> {
  const params = { search: text, perPage: 50, fields: ['id', 'name'] } as const;
  const page = kind === 'categories' ? await context.client.categories.page(params, { signal }) : await context.client.collections.page(params, { signal });
  return page.records.map((r) => ({ id: r.id, name: r.name ?? null }));
}

/** The id of a category or collection given by id or exact name. */
export async function idOfNamed(context: McpContext, kind: NamedKind, value: string | number, signal: AbortSignal): Promise<number> {
  if (typeof value === 'number') return value;
  const found = await candidates(context, kind, value, signal);
  const exact = found.filter((r) => foldName(r.name ?? '') === foldName(value));
  if (exact.length === 1) return exact[0]!.id;
  const listed = (exact.length > 1 ? exact : found).slice(0, 8).map((r) => `${r.name} (${r.id})`);
  const singular = kind === 'categories' ? 'category' : 'collection';
  throw new UsageError(exact.length > 1 ? `Several ${kind} are named '${value}'.` : `No ${singular} is named '${value}'.`, {
    hint: listed.length > 0 ? `Give the ${singular} by id: ${listed.join(', ')}.` : `Look ${kind} up with fetch_rows (resource ${kind}, search).`,
  });
}

/** Several at once. */
export const idsOfNamed = (context: McpContext, kind: NamedKind, values: readonly (string | number)[], signal: AbortSignal): Promise<number[]> =>
  Promise.all(values.map((v) => idOfNamed(context, kind, v, signal)));
