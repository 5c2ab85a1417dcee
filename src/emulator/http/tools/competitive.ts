/**
 * Tools that hold a brand against a competitive set (a category's or a collection's brands in the
 * study), attribute by imagery attribute: cost of entry and SWOT (§14).
 */
import type { CostOfEntry, Swot } from '../../../schemas/turbo-pitch.js';
import type { Ctx } from '../bindings.js';
import { brandRow, competitiveSet, imageryKeys, mean1, metricName, studyBlock, valueAt, type StudyBlock, type ToolInput } from '../tool-input.js';

const pct = (key: string) => `${key}_pct`;
const round1 = (v: number) => Math.round(v * 10) / 10;

function setOf(input: ToolInput, ctx: Ctx, block: StudyBlock) {
  const categories = input.ids('categories');
  const kind = categories ? 'categories' : 'collections';
  const ids = categories ?? input.ids('collections') ?? [];
  const set = competitiveSet(ctx, block, kind, ids);
  return { kind, ids, ...set, name: input.text('comparisonName') ?? set.name };
}

/** Imagery averages of the set's brands, by attribute key. */
const averages = (ctx: Ctx, block: StudyBlock, rows: number[]) =>
  new Map(imageryKeys(ctx).map((key) => [key, mean1(rows.map((r) => valueAt(block.column(pct(key)), r)))]));

export function costOfEntry(input: ToolInput, ctx: Ctx): CostOfEntry {
  const brandId = input.id('brand') ?? 0;
  const studyId = input.id('study') ?? 0;
  const audienceId = input.id('audience') ?? 1;
  const block = studyBlock(ctx, studyId, audienceId);
  const row = brandRow(block, brandId);
  const set = setOf(input, ctx, block);
  const avg = averages(ctx, block, set.rows);
  return {
    brand_id: brandId,
    brand_name: block.rows.brandNames[row] ?? null,
    study_id: studyId,
    audience_id: audienceId,
    comparison_type: set.kind === 'categories' ? 'category' : 'collection',
    comparison_ids: set.ids,
    comparison_name: set.name,
    comparison_size: set.rows.length,
    data: imageryKeys(ctx).map((key) => {
      const brandValue = valueAt(block.column(pct(key)), row);
      const average = avg.get(key) ?? null;
      return {
        key,
        label: metricName(ctx, key),
        brand_value: brandValue,
        comparison_average: average,
        cost_of_entry: brandValue === null || average === null ? null : round1(Math.max(0, average - brandValue)),
      };
    }),
  };
}

export function swot(input: ToolInput, ctx: Ctx): Swot {
  const studies = input.ids('studies') ?? [];
  const brands = input.ids('brands') ?? [];
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const data: Swot['data'] = [];
  let meta = { kind: 'categories', ids: [] as number[], name: '', size: 0 };
  for (const studyId of studies) {
    const block = studyBlock(ctx, studyId, audienceId);
    const set = setOf(input, ctx, block);
    meta = { kind: set.kind, ids: set.ids, name: set.name, size: set.rows.length };
    const avg = averages(ctx, block, set.rows);
    // Attributes the set scores highly on are what matters in the category: above the median average.
    const sorted = [...avg.values()].filter((v): v is number => v !== null).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    for (const brandId of brands) {
      const row = brandRow(block, brandId);
      for (const key of imageryKeys(ctx)) {
        const brandValue = valueAt(block.column(pct(key)), row);
        const average = avg.get(key) ?? null;
        if (brandValue === null || average === null) continue;
        const important = average >= median;
        const ahead = brandValue >= average;
        data.push({
          brand_id: brandId,
          brand_name: block.rows.brandNames[row] ?? null,
          study_id: studyId,
          key,
          label: metricName(ctx, key),
          brand_value: brandValue,
          comparison_average: average,
          difference: round1(brandValue - average),
          quadrant: important ? (ahead ? 'strength' : 'weakness') : ahead ? 'opportunity' : 'threat',
        });
      }
    }
  }
  return {
    brand_ids: brands,
    study_ids: studies,
    audience_id: audienceId,
    comparison_type: meta.kind === 'categories' ? 'category' : 'collection',
    comparison_ids: meta.ids,
    comparison_name: meta.name,
    comparison_size: meta.size,
    data,
  };
}
