/**
 * Brand and category worth maps (§14): brands (or categories' brands, averaged) placed by brand
 * stature (x) and brand strength (y), as percentile ranks of the study: the power grid's axes.
 */
import type { BrandWorthMap, CategoryWorthMap } from '../../../schemas/turbo-pitch.js';
import { notFound } from '../api-error.js';
import type { Ctx } from '../bindings.js';
import { brandRow, mean1, metricName, studyBlock, valueAt, type ToolInput } from '../tool-input.js';

export const WORTH_MAP_AXES = { x: 'brand_stature_rank', y: 'brand_strength_rank' } as const;

const meta = (ctx: Ctx, audienceId: number, studies: number[]) => ({
  x_key: WORTH_MAP_AXES.x,
  x_label: `${metricName(ctx, 'brand_stature')} (percentile rank)`,
  y_key: WORTH_MAP_AXES.y,
  y_label: `${metricName(ctx, 'brand_strength')} (percentile rank)`,
  audience_id: audienceId,
  study_ids: studies,
});

export function brandWorthMap(input: ToolInput, ctx: Ctx): BrandWorthMap {
  const studies = input.ids('studies') ?? [];
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const data: BrandWorthMap['data'] = [];
  for (const studyId of studies) {
    const block = studyBlock(ctx, studyId, audienceId);
    for (const brandId of input.ids('brands') ?? []) {
      const row = brandRow(block, brandId);
      for (const key of [WORTH_MAP_AXES.x, WORTH_MAP_AXES.y]) {
        data.push({ brand_id: brandId, brand_name: block.rows.brandNames[row] ?? null, study_id: studyId, audience_id: audienceId, key, value: valueAt(block.column(key), row) });
      }
    }
  }
  return { ...meta(ctx, audienceId, studies), data };
}

export function categoryWorthMap(input: ToolInput, ctx: Ctx): CategoryWorthMap {
  const studies = input.ids('studies') ?? [];
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const data: CategoryWorthMap['data'] = [];
  for (const studyId of studies) {
    const block = studyBlock(ctx, studyId, audienceId);
    for (const categoryId of input.ids('categories') ?? []) {
      const category = ctx.idx.categories.get(categoryId);
      if (!category) throw notFound(`No category with id ${categoryId}.`);
      const rows: number[] = [];
      for (let i = 0; i < block.rows.length; i++) if (block.rows.categoryIds[i] === categoryId) rows.push(i);
      if (rows.length === 0) throw notFound(`Category ${categoryId} is not in study ${studyId}.`);
      for (const key of [WORTH_MAP_AXES.x, WORTH_MAP_AXES.y]) {
        const values = block.column(key);
        data.push({ category_id: categoryId, category_name: category.record.name, study_id: studyId, audience_id: audienceId, brand_count: rows.length, key, value: mean1(rows.map((r) => valueAt(values, r))) });
      }
    }
  }
  return { ...meta(ctx, audienceId, studies), data };
}
