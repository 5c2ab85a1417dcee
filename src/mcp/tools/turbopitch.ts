/**
 * `turbopitch`: the service's TurboPitch tools (§14) with names an analyst uses: brands by name,
 * a market code and a year instead of study ids, categories and collections by name. The answer is
 * the tool's own, bounded.
 */
import * as z from 'zod';
import { TOOL_SLUGS, type ToolSlug } from '../../catalogue/tools.js';
import type { CompetitiveSet } from '../../client/tools.js';
import { UsageError } from '../../errors.js';
import { resolveBrands } from '../../load/resolve-brands.js';
import type { McpContext } from '../context.js';
import { idsOfNamed } from '../named-ids.js';
import { studyOf } from '../study-of.js';
import { MAX_ANSWER_CHARS, boundRows, jsonAnswer, type ToolAnswer } from '../tool-result.js';

const ref = z.union([z.string().trim().min(1), z.number().int().positive()]);

export const turboPitchInput = z.object({
  tool: z
    .enum(TOOL_SLUGS as [ToolSlug, ...ToolSlug[]])
    .describe(
      'brand-personality-match (the 10 brands whose imagery is closest to one brand), brand-vulnerability-map (a brand against its category, market by market), brand-worth-map (stature x strength), category-worth-map, commitment-funnel (usage, preference, recommendation), cost-of-entry (imagery a brand lacks against a set), love-plus (esteem with relevance), partnership-exchange-map (what partner brands bring), swot (against a set), toplist-market (top 10 per metric).',
    ),
  brands: z.array(ref).min(1).max(10).optional().describe('Brands by name or id (one brand for personality match, vulnerability map and cost of entry). Not for category-worth-map.'),
  market: z.string().trim().min(2).max(3).optional().describe('ISO alpha-2 market code: the study (every tool but brand-vulnerability-map needs it).'),
  year: z.number().int().min(1990).max(2100).optional().describe('Calendar year (default: the latest released full year in the market).'),
  audience: z.number().int().positive().optional().describe('Audience id (default 1, All Adults).'),
  categories: z.array(ref).min(1).max(10).optional().describe('Categories by name or id: the set of cost-of-entry and swot, or the categories of category-worth-map.'),
  collections: z.array(ref).min(1).max(10).optional().describe('Collections by name or id: the set of cost-of-entry and swot (instead of categories).'),
  comparison_brands: z.array(ref).min(1).max(10).optional().describe('partnership-exchange-map: the partner brands.'),
  metric_keys: z.array(z.string().trim().min(1)).min(1).max(10).optional().describe('toplist-market: metric keys (default the four pillars).'),
});

export const turboPitchTool = {
  name: 'turbopitch',
  title: 'TurboPitch tools',
  description:
    "Runs one of the service's TurboPitch tools (personality match, vulnerability map, brand and category worth maps, commitment funnel, cost of entry, Love+, partnership exchange map, SWOT, market toplist) with brands, categories and collections by name and a market and year instead of study ids. Use it for pitch questions ('who are X's closest brands', 'what does X lack against its category'); the answer is the tool's own.",
  input: turboPitchInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
} as const;

type Args = z.infer<typeof turboPitchInput>;

function need<T>(value: T | undefined, what: string, tool: ToolSlug): T {
  if (value === undefined) throw new UsageError(`The ${tool} tool needs ${what}.`);
  return value;
}

/** Exactly one competitive set, as cost-of-entry and swot take it. */
async function setOf(context: McpContext, args: Args, signal: AbortSignal): Promise<CompetitiveSet> {
  if ((args.categories === undefined) === (args.collections === undefined)) throw new UsageError(`The ${args.tool} tool compares against one set: give categories or collections (one of them).`);
  return args.categories ? { categories: await idsOfNamed(context, 'categories', args.categories, signal) } : { collections: await idsOfNamed(context, 'collections', args.collections!, signal) };
}

async function run(context: McpContext, args: Args, signal: AbortSignal): Promise<unknown> {
  const tools = context.client.turboPitch;
  const options = { signal };
  const brands = args.brands ? (await resolveBrands(context.client, args.brands, { signal })).map((b) => b.id) : undefined;
  const one = (): number => {
    const list = need(brands, 'brands (one brand)', args.tool);
    if (list.length !== 1) throw new UsageError(`The ${args.tool} tool takes one brand, not ${list.length}.`);
    return list[0]!;
  };
  if (args.tool === 'brand-vulnerability-map') return tools.vulnerabilityMap({ brand: one() }, options);
  const study = (await studyOf(context, need(args.market, 'a market (ISO code)', args.tool), args.year, signal)).id;
  const audience = args.audience ?? 1;
  switch (args.tool) {
    case 'brand-personality-match':
      return tools.personalityMatch({ brand: one(), study, audience }, options);
    case 'brand-worth-map':
      return tools.brandWorthMap({ brands: need(brands, 'brands', args.tool), studies: study, audiences: audience }, options);
    case 'category-worth-map':
      return tools.categoryWorthMap({ categories: await idsOfNamed(context, 'categories', need(args.categories, 'categories', args.tool), signal), studies: study, audiences: audience }, options);
    case 'commitment-funnel':
      return tools.commitmentFunnel({ brands: need(brands, 'brands', args.tool), studies: study, audiences: audience }, options);
    case 'cost-of-entry':
      return tools.costOfEntry({ brand: one(), study, audience, ...(await setOf(context, args, signal)) }, options);
    case 'love-plus':
      return tools.lovePlus({ brands: need(brands, 'brands', args.tool), studies: study, audiences: audience }, options);
    case 'partnership-exchange-map': {
      const partners = (await resolveBrands(context.client, need(args.comparison_brands, 'comparison_brands (the partner brands)', args.tool), { signal })).map((b) => b.id);
      return tools.partnershipExchangeMap({ brands: need(brands, 'brands', args.tool), comparisonBrands: partners, studies: study }, options);
    }
    case 'swot':
      return tools.swot({ brands: need(brands, 'brands', args.tool), studies: study, audiences: audience, ...(await setOf(context, args, signal)) }, options);
    case 'toplist-market':
      return tools.toplistMarket({ brands: need(brands, 'brands', args.tool), studies: study, audiences: audience, ...(args.metric_keys ? { metricKeys: args.metric_keys } : {}) }, options);
  }
}

export async function runTurboPitch(context: McpContext, args: Args, signal: AbortSignal): Promise<ToolAnswer> {
  const result = await run(context, args, signal);
  const answer: Record<string, unknown> = { tool: args.tool };
  const list = Array.isArray(result) ? result : undefined;
  const inner = !list && typeof result === 'object' && result !== null && Array.isArray((result as { data?: unknown }).data) ? (result as { data: unknown[] }) : undefined;
  if (list || inner) {
    // The tool's rows, cut to fit; what the tool says about them (axes, labels) kept whole.
    const rows = list ?? inner!.data;
    const bounded = boundRows(rows, MAX_ANSWER_CHARS - 2_000);
    Object.assign(answer, inner ? { ...inner } : {}, { data: bounded.rows, total: bounded.total, hasMore: bounded.hasMore });
    if (bounded.hasMore) answer['note'] = `${bounded.total - bounded.rows.length} of ${bounded.total} entries are left out. Ask for fewer brands or categories.`;
  } else {
    answer['result'] = result;
  }
  return jsonAnswer(answer);
}
