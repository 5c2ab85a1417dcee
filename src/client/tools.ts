/**
 * The TurboPitch tools (§14): one typed method per tool. Parameters are checked against the shared
 * tool catalogue before any request (a UsageError names what is missing or doubled), sent
 * top-level as the service names them, and the answer is parsed into typed results.
 */
import type * as z from 'zod';
import type { ApiVersion } from '../catalogue/page-limits.js';
import { TOOLS, toolParamProblem, type ToolSlug } from '../catalogue/tools.js';
import { UsageError } from '../errors.js';
import { TOOL_RESULTS, type ToolResult } from '../schemas/turbo-pitch.js';
import { toShapeError } from './parse.js';
import type { Transport } from './transport.js';

/** One id or several. */
export type Ids = number | readonly number[];
type Signal = { signal?: AbortSignal };

export interface BrandsInStudies {
  brands: Ids;
  studies: Ids;
  /** Default: All Adults (1). */
  audiences?: Ids;
}

/** Exactly one competitive set: a category's brands or a collection's. */
export type CompetitiveSet = { categories: Ids; collections?: never } | { collections: Ids; categories?: never };

export interface ToolMethods {
  /** The ten brands whose imagery is closest to one brand's in one study. */
  personalityMatch(params: { brand: number; study: number; audience?: number }, options?: Signal): Promise<ToolResult<'brand-personality-match'>>;
  /** A brand's pillar ranks against its category's average, market by market. */
  vulnerabilityMap(params: { brand: number }, options?: Signal): Promise<ToolResult<'brand-vulnerability-map'>>;
  /** Brands placed by brand stature (x) and brand strength (y). */
  brandWorthMap(params: BrandsInStudies, options?: Signal): Promise<ToolResult<'brand-worth-map'>>;
  /** Categories placed the same way (their brands' means). */
  categoryWorthMap(params: { categories: Ids; studies: Ids; audiences?: Ids }, options?: Signal): Promise<ToolResult<'category-worth-map'>>;
  /** Usage, preference and recommendation per brand, study and category. */
  commitmentFunnel(params: BrandsInStudies, options?: Signal): Promise<ToolResult<'commitment-funnel'>>;
  /** The imagery a brand lacks against a competitive set. */
  costOfEntry(params: { brand: number; study: number; audience?: number; comparisonName?: string } & CompetitiveSet, options?: Signal): Promise<ToolResult<'cost-of-entry'>>;
  /** Love+: esteem and relevance together. */
  lovePlus(params: BrandsInStudies, options?: Signal): Promise<ToolResult<'love-plus'>>;
  /** What partner brands bring to brands, attribute by attribute. */
  partnershipExchangeMap(params: { brands: Ids; comparisonBrands: Ids; studies: Ids }, options?: Signal): Promise<ToolResult<'partnership-exchange-map'>>;
  /** Strengths, weaknesses, opportunities and threats against a competitive set. */
  swot(params: BrandsInStudies & CompetitiveSet & { comparisonName?: string }, options?: Signal): Promise<ToolResult<'swot'>>;
  /** The top ten brands per metric (the four pillars by default), plus the brands asked for. */
  toplistMarket(
    params: BrandsInStudies & ({ metrics?: Ids; metricKeys?: never } | { metricKeys?: readonly string[]; metrics?: never }),
    options?: Signal,
  ): Promise<ToolResult<'toplist-market'>>;
}

type ServiceParams = Readonly<Record<string, Ids | string | readonly string[] | undefined>>;

const asList = (v: Ids | readonly string[]): readonly (number | string)[] => (Array.isArray(v) ? (v as readonly (number | string)[]) : [v as number]);

/** The query of a tool call, checked: known names, ids that are integers, the catalogue's rules. */
export function toToolQuery(slug: ToolSlug, params: ServiceParams): URLSearchParams {
  const spec = TOOLS[slug];
  const kinds: Readonly<Record<string, string>> = spec.params;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const kind = kinds[name];
    if (kind === undefined) throw new UsageError(`The ${slug} tool has no parameter '${name}'.`);
    if (kind === 'text') {
      query.set(name, String(value));
      continue;
    }
    const list = asList(value as Ids | readonly string[]);
    if (list.length === 0) continue;
    if (kind !== 'keys' && list.some((v) => typeof v !== 'number' || !Number.isInteger(v))) {
      throw new UsageError(`'${name}' of the ${slug} tool takes integer ids, got ${JSON.stringify(value)}.`);
    }
    if ((kind === 'id' || kind === 'one') && list.length !== 1) throw new UsageError(`'${name}' of the ${slug} tool is a single id.`);
    query.set(name, list.join(','));
  }
  const problem = toolParamProblem(slug, new Set(query.keys()));
  if (problem) throw new UsageError(problem);
  return query;
}

export function createToolMethods(transport: Transport, version: ApiVersion): ToolMethods {
  const call = async <S extends ToolSlug>(slug: S, params: ServiceParams, options: Signal | undefined): Promise<ToolResult<S>> => {
    const query = toToolQuery(slug, params);
    if (version === 'v1') throw new UsageError(`The ${slug} tool exists only in API v2.`);
    const answer = await transport.get(TOOLS[slug].path, query, { signal: options?.signal, scope: TOOLS[slug].scope });
    const schema: z.ZodType = TOOL_RESULTS[slug];
    const parsed = schema.safeParse((answer.body as { data?: unknown } | null)?.data);
    if (!parsed.success) throw toShapeError(answer.url, parsed.error);
    return parsed.data as ToolResult<S>;
  };
  return {
    personalityMatch: (p, o) => call('brand-personality-match', { brands: p.brand, studies: p.study, audiences: p.audience }, o),
    vulnerabilityMap: (p, o) => call('brand-vulnerability-map', { brand: p.brand }, o),
    brandWorthMap: (p, o) => call('brand-worth-map', { brands: p.brands, studies: p.studies, audiences: p.audiences }, o),
    categoryWorthMap: (p, o) => call('category-worth-map', { categories: p.categories, studies: p.studies, audiences: p.audiences }, o),
    commitmentFunnel: (p, o) => call('commitment-funnel', { brands: p.brands, studies: p.studies, audiences: p.audiences }, o),
    costOfEntry: (p, o) =>
      call('cost-of-entry', { brand: p.brand, study: p.study, audience: p.audience, categories: p.categories, collections: p.collections, comparisonName: p.comparisonName }, o),
    lovePlus: (p, o) => call('love-plus', { brands: p.brands, studies: p.studies, audiences: p.audiences }, o),
    partnershipExchangeMap: (p, o) => call('partnership-exchange-map', { brands: p.brands, comparison_brands: p.comparisonBrands, studies: p.studies }, o),
    swot: (p, o) =>
      call('swot', { brands: p.brands, studies: p.studies, audiences: p.audiences, categories: p.categories, collections: p.collections, comparisonName: p.comparisonName }, o),
    toplistMarket: (p, o) => call('toplist-market', { brands: p.brands, studies: p.studies, audiences: p.audiences, metrics: p.metrics, metric_keys: p.metricKeys }, o),
  };
}
