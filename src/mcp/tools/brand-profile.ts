/**
 * `brand_profile`: one brand in one market and year: its four pillars (construct score, percentile
 * rank, index scores), its position on the Power Grid (strength and stature, and the quadrant, as
 * the power-grid chart places it) and, per category it was studied in, usage, preference and
 * recommendation.
 */
import * as z from 'zod';
import { POWER_GRID_QUADRANTS } from '../../charts/power-grid.js';
import { UsageError } from '../../errors.js';
import { resolveBrands } from '../../load/resolve-brands.js';
import { metricValue } from '../../schemas/brandscape.js';
import type { McpContext } from '../context.js';
import { studyOf } from '../study-of.js';
import { jsonAnswer, type ToolAnswer } from '../tool-result.js';

export const profileInput = z.object({
  brand: z.union([z.string().trim().min(1), z.number().int().positive()]).describe('The brand, by name (case and accents ignored) or id.'),
  market: z.string().trim().min(2).max(3).describe('ISO alpha-2 market code, e.g. "GB".'),
  year: z.number().int().min(1990).max(2100).optional().describe('Calendar year (default: the latest released full year in the market).'),
  audience: z.number().int().positive().optional().describe('Audience id (default 1, All Adults).'),
});

export const profileTool = {
  name: 'brand_profile',
  title: "A brand's profile in one market",
  description:
    "One brand in one market and year: the four pillars (differentiation, relevance, esteem, knowledge) as construct scores, percentile ranks and index scores, the brand's Power Grid position (strength, stature and quadrant) and usage, preference and recommendation per category. Use it for 'how strong is X in the UK'; use compare_brands to set several brands or markets side by side.",
  input: profileInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
} as const;

const PILLARS = ['differentiation', 'relevance', 'esteem', 'knowledge'] as const;
const SCORES = ['c', 'rank', 'brandscape_index', 'category_index'] as const;

/** The quadrant the power-grid chart places a brand in: strength and stature split at 50. */
function quadrant(strength: number, stature: number): string {
  if (strength >= 50) return stature >= 50 ? POWER_GRID_QUADRANTS.leadership : POWER_GRID_QUADRANTS.niche;
  return stature >= 50 ? POWER_GRID_QUADRANTS.eroded : POWER_GRID_QUADRANTS.new;
}

const round = (v: number | null, digits: number) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

export async function runProfile(context: McpContext, args: z.infer<typeof profileInput>, signal: AbortSignal): Promise<ToolAnswer> {
  const [[brand], study] = await Promise.all([resolveBrands(context.client, [args.brand], { signal }), studyOf(context, args.market, args.year, signal)]);
  const audience = args.audience ?? 1;
  const rows = await context.client.brandscape.all(
    { filter: { studies: study.id, brands: brand!.id, audiences: audience }, metricGroupKeys: ['pillars', 'power_grid', 'commitment'] },
    { signal },
  );
  if (rows.length === 0) {
    throw new UsageError(`${brand!.name} has no data in ${study.countryCode} ${study.year}${audience === 1 ? '' : ` for audience ${audience}`}.`, {
      hint: 'compare_brands without markets lists the markets where the brand is studied; search kind "years" lists the years of a market.',
    });
  }
  // Pillars are the same on every category row of a brand; the non-duplicate row carries them.
  const main = rows.find((r) => r.is_duplicate === false) ?? rows[0]!;
  const pillars = Object.fromEntries(PILLARS.map((p) => [p, Object.fromEntries(SCORES.map((s) => [s, metricValue(main, `${p}_${s}`)]))]));
  const rank = (p: (typeof PILLARS)[number]) => metricValue(main, `${p}_rank`);
  const [d, r, e, k] = PILLARS.map(rank);
  const strength = d !== null && d !== undefined && r !== null && r !== undefined ? Math.sqrt(d * r) : null;
  const stature = e !== null && e !== undefined && k !== null && k !== undefined ? Math.sqrt(e * k) : null;
  const categories = rows.map((row) => ({
    category: row.category_name,
    usage_pct: metricValue(row, 'usage_pct'),
    preference_pct: metricValue(row, 'preference_pct'),
    recommendation_pct: metricValue(row, 'recommendation_pct'),
  }));
  return jsonAnswer({
    brand: { id: brand!.id, name: brand!.name, local_name: main.brand_name },
    market: study.countryCode,
    market_name: study.market,
    year: study.year,
    study_id: study.id,
    audience_id: audience,
    pillars,
    power_grid: {
      strength: round(strength, 1),
      stature: round(stature, 1),
      quadrant: strength === null || stature === null ? null : quadrant(strength, stature),
      brand_strength_rank: metricValue(main, 'brand_strength_rank'),
      brand_stature_rank: metricValue(main, 'brand_stature_rank'),
      how: 'strength = geometric mean of the differentiation and relevance ranks, stature = of the esteem and knowledge ranks; quadrants split at 50, as the power-grid chart draws them.',
    },
    categories,
  });
}
