/**
 * Commitment funnel and Love+ (§14). The funnel's stages are the category-specific commitment
 * percentages (usage, preference, recommendation) of each of the brand's rows; Love+ is the mean of
 * the brand's esteem and relevance percentile ranks, with both parts alongside.
 */
import type { FunnelEntry, LovePlusEntry } from '../../../schemas/turbo-pitch.js';
import type { Ctx } from '../bindings.js';
import { brandRow, mean1, metricName, studyBlock, valueAt, type ToolInput } from '../tool-input.js';

export const FUNNEL_STAGES = ['usage', 'preference', 'recommendation'] as const;

export function commitmentFunnel(input: ToolInput, ctx: Ctx): FunnelEntry[] {
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const out: FunnelEntry[] = [];
  for (const studyId of input.ids('studies') ?? []) {
    const block = studyBlock(ctx, studyId, audienceId);
    for (const brandId of input.ids('brands') ?? []) {
      brandRow(block, brandId);
      for (const row of [...block.rowsOfBrand(brandId)].sort((a, b) => a - b)) {
        out.push({
          brand_id: brandId,
          brand_name: block.rows.brandNames[row] ?? null,
          study_id: studyId,
          audience_id: audienceId,
          category_id: block.rows.categoryIds[row] ?? null,
          category_name: block.rows.categoryNames[row] ?? null,
          metrics: FUNNEL_STAGES.map((key) => ({ key, label: metricName(ctx, key), value: valueAt(block.column(`${key}_pct`), row) })),
        });
      }
    }
  }
  return out;
}

export function lovePlus(input: ToolInput, ctx: Ctx): LovePlusEntry[] {
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const out: LovePlusEntry[] = [];
  for (const studyId of input.ids('studies') ?? []) {
    const block = studyBlock(ctx, studyId, audienceId);
    for (const brandId of input.ids('brands') ?? []) {
      const row = brandRow(block, brandId);
      const esteem = valueAt(block.column('esteem_rank'), row);
      const relevance = valueAt(block.column('relevance_rank'), row);
      out.push({
        brand_id: brandId,
        brand_name: block.rows.brandNames[row] ?? null,
        study_id: studyId,
        audience_id: audienceId,
        data: {
          love_plus: { value: mean1([esteem, relevance]), label: 'Love+' },
          esteem: { value: esteem, label: `${metricName(ctx, 'esteem')} (percentile rank)` },
          relevance: { value: relevance, label: `${metricName(ctx, 'relevance')} (percentile rank)` },
        },
      });
    }
  }
  return out;
}
