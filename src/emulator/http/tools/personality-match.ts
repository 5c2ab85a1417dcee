/**
 * brand-personality-match (§14): the ten brands of the study whose imagery profile is closest to the
 * brand's, by Pearson correlation of their imagery percentages (similarity = r x 100, one decimal).
 */
import type { PersonalityMatch } from '../../../schemas/turbo-pitch.js';
import type { Ctx } from '../bindings.js';
import { brandRow, imageryKeys, studyBlock, valueAt, type ToolInput } from '../tool-input.js';

/** Pearson correlation over the pairs where both values exist. */
export function pearson(a: readonly (number | null)[], b: readonly (number | null)[]): number | null {
  const pairs = a.flatMap((x, i) => (x !== null && b[i] !== null && b[i] !== undefined ? [[x, b[i]] as const] : []));
  if (pairs.length < 3) return null;
  const mx = pairs.reduce((s, [x]) => s + x, 0) / pairs.length;
  const my = pairs.reduce((s, [, y]) => s + y, 0) / pairs.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

export function personalityMatch(input: ToolInput, ctx: Ctx): PersonalityMatch[] {
  const brandId = input.ids('brands')?.[0] ?? 0;
  const studyId = input.ids('studies')?.[0] ?? 0;
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const block = studyBlock(ctx, studyId, audienceId);
  const row = brandRow(block, brandId);
  const columns = imageryKeys(ctx).map((key) => block.column(`${key}_pct`));
  const profile = (r: number) => columns.map((c) => valueAt(c, r));
  const own = profile(row);
  const matches = block
    .uniqueRows()
    .filter((r) => block.rows.brandIds[r] !== brandId)
    .map((r) => ({ r, similarity: pearson(own, profile(r)) }))
    .filter((m): m is { r: number; similarity: number } => m.similarity !== null)
    .sort((a, b) => b.similarity - a.similarity || (block.rows.brandIds[a.r] ?? 0) - (block.rows.brandIds[b.r] ?? 0))
    .slice(0, 10);
  return matches.map(({ r, similarity }) => ({
    brand_id: brandId,
    brand_name: block.rows.brandNames[row] ?? null,
    study_id: studyId,
    audience_id: audienceId,
    match_brand_id: block.rows.brandIds[r] ?? 0,
    match_brand_name: block.rows.brandNames[r] ?? null,
    match_category_name: block.rows.categoryNames[r] ?? null,
    similarity: Math.round(similarity * 1000) / 10,
  }));
}
