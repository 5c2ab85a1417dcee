/**
 * toplist-market (§14): per metric, the ten brands of the study with the highest percentile rank
 * (one row per brand), followed by any brand asked for that is not among them, with its position.
 * Without metrics or metric_keys the four pillars are listed (the emulator's choice).
 */
import type { ToplistRow } from '../../../schemas/turbo-pitch.js';
import { badRequest } from '../api-error.js';
import type { Ctx } from '../bindings.js';
import { brandRow, metricName, studyBlock, valueAt, type ToolInput } from '../tool-input.js';
import { PILLARS } from './vulnerability-map.js';

export function toplist(input: ToolInput, ctx: Ctx): ToplistRow[] {
  const audienceId = input.ids('audiences')?.[0] ?? 1;
  const selected = input.ids('brands') ?? [];
  const byId = input.ids('metrics')?.map((id) => {
    const m = ctx.idx.metrics.get(id);
    if (!m) throw badRequest(`No brand metric with id ${id}.`);
    return m.key;
  });
  const keys = byId ?? input.keys('metric_keys') ?? [...PILLARS];
  const rows: ToplistRow[] = [];
  for (const studyId of input.ids('studies') ?? []) {
    const block = studyBlock(ctx, studyId, audienceId);
    for (const id of selected) brandRow(block, id);
    for (const key of keys) {
      const column = ctx.ds.brandscape.columns.find((c) => c.metricKey === key && c.scoreType === 'rank');
      if (!column) throw badRequest(`Metric '${key}' has no percentile rank to list brands by.`);
      const values = block.column(column.name);
      const ranked = block
        .uniqueRows()
        .map((r) => ({ r, v: valueAt(values, r) }))
        .filter((x): x is { r: number; v: number } => x.v !== null)
        .sort((a, b) => b.v - a.v || (block.rows.brandIds[a.r] ?? 0) - (block.rows.brandIds[b.r] ?? 0));
      ranked.forEach(({ r, v }, i) => {
        const brandId = block.rows.brandIds[r] ?? 0;
        const isSelected = selected.includes(brandId);
        if (i >= 10 && !isSelected) return;
        rows.push({ study_id: studyId, audience_id: audienceId, metric_key: key, metric_name: metricName(ctx, key), position: i + 1, brand_id: brandId, brand_name: block.rows.brandNames[r] ?? null, value: v, is_selected: isSelected });
      });
    }
  }
  return rows;
}
