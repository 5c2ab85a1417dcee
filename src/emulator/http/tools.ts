/**
 * The TurboPitch tools (§14), dispatched by slug: parameters checked against the shared tool
 * catalogue, each tool computed from the brandscape values its answer summarises, answered as
 * `{"data": ...}` without paging.
 */
import type { ToolSlug } from '../../catalogue/tools.js';
import type { Ctx } from './bindings.js';
import { readToolParams, type ToolInput } from './tool-input.js';
import { commitmentFunnel, lovePlus } from './tools/commitment.js';
import { costOfEntry, swot } from './tools/competitive.js';
import { partnershipExchange } from './tools/partnership.js';
import { personalityMatch } from './tools/personality-match.js';
import { toplist } from './tools/toplist.js';
import { vulnerabilityMap } from './tools/vulnerability-map.js';
import { brandWorthMap, categoryWorthMap } from './tools/worth-map.js';

const RUNNERS: Readonly<Record<ToolSlug, (input: ToolInput, ctx: Ctx) => unknown>> = {
  'brand-personality-match': personalityMatch,
  'brand-vulnerability-map': vulnerabilityMap,
  'brand-worth-map': brandWorthMap,
  'category-worth-map': categoryWorthMap,
  'commitment-funnel': commitmentFunnel,
  'cost-of-entry': costOfEntry,
  'love-plus': lovePlus,
  'partnership-exchange-map': partnershipExchange,
  swot,
  'toplist-market': toplist,
};

export function runTool(slug: ToolSlug, params: URLSearchParams, ctx: Ctx, strictParams: boolean): { data: unknown } {
  return { data: RUNNERS[slug](readToolParams(slug, params, strictParams), ctx) };
}
