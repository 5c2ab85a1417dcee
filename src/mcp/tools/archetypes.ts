/**
 * `archetypes`: how strongly brands express each of the twelve archetypes in one market and year,
 * against every brand of the study (cultural) or against a competitive set (a category or a
 * collection): each brand's archetypes ordered from its strongest, with scores and ranks.
 */
import * as z from 'zod';
import { UsageError } from '../../errors.js';
import { archetypeName } from '../../frames/archetype-matrix.js';
import { resolveBrands } from '../../load/resolve-brands.js';
import type { McpContext } from '../context.js';
import { idOfNamed } from '../named-ids.js';
import { studyOf } from '../study-of.js';
import { jsonAnswer, type ToolAnswer } from '../tool-result.js';

const ref = z.union([z.string().trim().min(1), z.number().int().positive()]);

export const archetypesInput = z.object({
  brands: z.array(ref).min(1).max(10).describe('Brands by name (case and accents ignored) or id.'),
  market: z.string().trim().min(2).max(3).describe('ISO alpha-2 market code, e.g. "US".'),
  year: z.number().int().min(1990).max(2100).optional().describe('Calendar year (default: the latest released full year in the market).'),
  audience: z.number().int().positive().optional().describe('Audience id (default 1, All Adults).'),
  category: ref.optional().describe('Compare against the brands of this category (name or id) instead of every brand of the study. Give category or collection, not both.'),
  collection: ref.optional().describe('Compare against the brands of this collection (name or id).'),
});

export const archetypesTool = {
  name: 'archetypes',
  title: 'Brand archetypes',
  description:
    "How strongly brands express the twelve archetypes (hero, sage, explorer, caregiver, ...) in one market and year: against every brand of the study (cultural, the default) or against a competitive set (a category or a collection). Each brand's archetypes come ordered from its strongest, with the score (0 = the set's average) and the percentile rank in the set. Use it for brand personality and positioning questions.",
  input: archetypesInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
} as const;

export async function runArchetypes(context: McpContext, args: z.infer<typeof archetypesInput>, signal: AbortSignal): Promise<ToolAnswer> {
  if (args.category !== undefined && args.collection !== undefined) throw new UsageError('Give category or collection, not both: a competitive comparison has one set.');
  const [brands, study] = await Promise.all([resolveBrands(context.client, args.brands, { signal }), studyOf(context, args.market, args.year, signal)]);
  const audience = args.audience ?? 1;
  const base = { studies: study.id, brands: brands.map((b) => b.id), audiences: audience };
  const params =
    args.category !== undefined
      ? { ...base, comparison: 'competitive' as const, categories: await idOfNamed(context, 'categories', args.category, signal) }
      : args.collection !== undefined
        ? { ...base, comparison: 'competitive' as const, collections: await idOfNamed(context, 'collections', args.collection, signal) }
        : { ...base, comparison: 'cultural' as const };
  const answer = await context.client.archetypes(params, { missing: 'note', signal });
  const results = answer.entries.map((entry) => {
    const keys = Object.keys(entry.data).filter((k) => !k.endsWith('_rank'));
    const archetypes = keys
      .map((key) => ({ archetype: archetypeName(key), key, score: entry.data[key] ?? null, rank: entry.data[`${key}_rank`] ?? null }))
      .sort((a, b) => (b.score ?? Number.NEGATIVE_INFINITY) - (a.score ?? Number.NEGATIVE_INFINITY));
    return {
      brand_id: entry.brand_id,
      brand_name: entry.brand_name,
      strongest: archetypes.slice(0, 3).map((a) => a.archetype),
      archetypes,
    };
  });
  const first = answer.entries[0];
  return jsonAnswer({
    market: study.countryCode,
    year: study.year,
    study_id: study.id,
    audience_id: audience,
    comparison: first ? { type: first.comparison_type, name: first.comparison_name, size: first.comparison_size } : { type: params.comparison },
    brands: results,
    notes: [...answer.notes],
  });
}
