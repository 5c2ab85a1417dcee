/**
 * The tools metadata of `/tools` (§11.21): one entry per TurboPitch tool with an endpoint, taking its
 * parameters from the shared tool catalogue, plus Brand 360 (embeddable, no API endpoint). Names,
 * descriptions, groups, resources and use cases are the emulator's wording.
 */
import { ARCHETYPES_TOOL } from '../../catalogue/endpoints.js';
import { TOOLS, type ToolSpec } from '../../catalogue/tools.js';
import type { ToolMetadata } from '../../schemas/tools.js';
import type { Entity } from './types.js';

export interface ToolEntity extends Entity<ToolMetadata> {
  readonly groupId: number;
  readonly useCaseIds: readonly number[];
}

export const TOOL_GROUPS = [
  { id: 1, name: 'TurboPitch' },
  { id: 2, name: 'Brand Analysis' },
];
export const TOOL_USE_CASES = [
  { id: 1, name: 'New business pitch' },
  { id: 2, name: 'Brand positioning' },
  { id: 3, name: 'Partnerships' },
];

const DEFS: readonly (readonly [slug: string, name: string, summary: string, group: number, useCases: readonly number[]])[] = [
  ['brand360', 'Brand 360', 'A one-page view of a brand in a market: pillars, imagery and commitment.', 2, [1, 2]],
  ['archetypes', 'Archetypes', 'Which archetypes a brand expresses, in culture or against a competitive set.', 2, [2]],
  ['brand-personality-match', 'Brand Personality Match', 'The brands whose imagery profile is closest to a brand\'s.', 1, [1, 3]],
  ['brand-vulnerability-map', 'Brand Vulnerability Map', 'Where a brand is weaker than its rivals, market by market.', 1, [1]],
  ['brand-worth-map', 'Brand Worth Map', 'Brands placed by how differentiated and how relevant they are.', 1, [1, 2]],
  ['category-worth-map', 'Category Worth Map', 'The brands of a category placed by differentiation and relevance.', 1, [1, 2]],
  ['commitment-funnel', 'Commitment Funnel', 'From knowing a brand to recommending it: where people drop out.', 1, [1]],
  ['cost-of-entry', 'Cost of Entry', 'The imagery a brand needs to compete in a category.', 1, [2]],
  ['love-plus', 'Love+', 'How much people love a brand, and what drives it.', 1, [1, 2]],
  ['partnership-exchange-map', 'Partnership Exchange Map', 'What each brand of a partnership brings to the other.', 1, [3]],
  ['swot', 'SWOT', 'Strengths, weaknesses, opportunities and threats from imagery against a set.', 1, [1, 2]],
  ['toplist-market', 'Market Toplist', 'The top brands of a market on chosen metrics.', 1, [1]],
];

const flags = (names: readonly string[], on: (n: string) => boolean) => Object.fromEntries(names.map((n) => [n, on(n)]));
const STAMP = '2023-05-15T09:00:00.000000Z';

export const TOOL_ENTITIES: readonly ToolEntity[] = DEFS.map(([slug, name, summary, groupId, useCaseIds], i) => {
  const spec: ToolSpec | undefined =
    slug === 'archetypes' ? { ...ARCHETYPES_TOOL, params: ARCHETYPES_TOOL.params } : (TOOLS as Readonly<Record<string, ToolSpec>>)[slug];
  const params = spec ? Object.keys(spec.params) : ['brands', 'studies', 'audiences'];
  const required = spec ? spec.required : ['brands', 'studies'];
  return {
    groupId,
    useCaseIds,
    record: {
      id: i + 1,
      name,
      slug,
      short_description: summary,
      description: `<p>${summary}</p>`,
      documentation_url: null,
      api_documentation_url: spec ? `https://developer.wppbav.com/docs/tools/${slug}` : null,
      api_endpoint_url: spec ? `https://fount.wppbav.com/api/v2/${spec.path}` : null,
      supported_parameters: flags(params, () => true),
      required_parameters: flags(params, (p) => required.includes(p)),
      multiple_choice_parameters: flags(params, (p) => spec === undefined || spec.params[p] === 'ids' || spec.params[p] === 'keys'),
      extra_parameters: {},
      export_formats: { xlsx: true, png: true, pptx: slug !== 'toplist-market' },
      is_in_preview: slug === 'partnership-exchange-map',
      created_at: STAMP,
      updated_at: STAMP,
    },
  };
});
