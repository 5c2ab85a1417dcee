/**
 * The TurboPitch tool endpoints (§14): paths, parameters and which are required, shared by the
 * client (checks before any request) and the emulator (400 naming a missing parameter). Tool
 * parameters are top-level, never `filter[...]`; lists are comma-separated.
 */

/**
 * `ids` comma-separated ids; `id` one integer; `one` one id sent "in array format" (`brands=1`, a
 * list of exactly one); `keys` comma-separated strings; `text` free text.
 */
export type ToolParamKind = 'ids' | 'id' | 'one' | 'keys' | 'text';

export interface ToolSpec {
  readonly path: string;
  readonly scope: string;
  /** Every parameter the tool accepts, in the order the service documents them. */
  readonly params: Readonly<Record<string, ToolParamKind>>;
  readonly required: readonly string[];
  /** Pairs of which exactly one must be given (`categories` or `collections`). */
  readonly exactlyOne?: readonly (readonly [string, string])[];
  /** Pairs of which at most one may be given. */
  readonly atMostOne?: readonly (readonly [string, string])[];
}

const tool = <const S extends Omit<ToolSpec, 'path' | 'scope'>>(slug: string, spec: S) => ({ path: `tools/${slug}`, scope: 'Tools: Read', ...spec }) as const;

const brandStudyAudience = { brands: 'ids', studies: 'ids', audiences: 'ids' } as const;

export const TOOLS = {
  'brand-personality-match': tool('brand-personality-match', { params: { brands: 'one', studies: 'one', audiences: 'one' }, required: ['brands', 'studies'] }),
  'brand-vulnerability-map': tool('brand-vulnerability-map', { params: { brand: 'id' }, required: ['brand'] }),
  'brand-worth-map': tool('brand-worth-map', { params: brandStudyAudience, required: ['brands', 'studies'] }),
  'category-worth-map': tool('category-worth-map', { params: { categories: 'ids', studies: 'ids', audiences: 'ids' }, required: ['categories', 'studies'] }),
  'commitment-funnel': tool('commitment-funnel', { params: brandStudyAudience, required: ['brands', 'studies'] }),
  'cost-of-entry': tool('cost-of-entry', {
    params: { brand: 'id', study: 'id', audience: 'id', categories: 'ids', collections: 'ids', comparisonName: 'text' },
    required: ['brand', 'study'],
    exactlyOne: [['categories', 'collections']],
  }),
  'love-plus': tool('love-plus', { params: brandStudyAudience, required: ['brands', 'studies'] }),
  'partnership-exchange-map': tool('partnership-exchange-map', {
    params: { brands: 'ids', comparison_brands: 'ids', studies: 'ids' },
    required: ['brands', 'comparison_brands', 'studies'],
  }),
  swot: tool('swot', {
    params: { ...brandStudyAudience, categories: 'ids', collections: 'ids', comparisonName: 'text' },
    required: ['brands', 'studies'],
    exactlyOne: [['categories', 'collections']],
  }),
  // Without metrics or metric_keys the emulator lists the four pillars (its choice; §14 is silent).
  'toplist-market': tool('toplist-market', {
    params: { ...brandStudyAudience, metrics: 'ids', metric_keys: 'keys' },
    required: ['brands', 'studies'],
    atMostOne: [['metrics', 'metric_keys']],
  }),
} as const satisfies Readonly<Record<string, ToolSpec>>;

export type ToolSlug = keyof typeof TOOLS;
export const TOOL_SLUGS = Object.keys(TOOLS) as ToolSlug[];

/**
 * What is wrong with a tool call's parameter names, or undefined: a missing required parameter, or
 * a pair of alternatives given both or neither. Shared by the client and the emulator so both say
 * the same thing.
 */
export function toolParamProblem(slug: ToolSlug, present: ReadonlySet<string>): string | undefined {
  const spec: ToolSpec = TOOLS[slug];
  const missing = spec.required.find((p) => !present.has(p));
  if (missing !== undefined) return `The ${slug} tool requires the parameter '${missing}'.`;
  for (const [a, b] of spec.exactlyOne ?? []) {
    if (present.has(a) === present.has(b)) return `The ${slug} tool needs exactly one of '${a}' or '${b}'${present.has(a) ? ', not both' : ''}.`;
  }
  for (const [a, b] of spec.atMostOne ?? []) {
    if (present.has(a) && present.has(b)) return `The ${slug} tool takes '${a}' or '${b}', not both.`;
  }
  return undefined;
}
