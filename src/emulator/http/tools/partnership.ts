/** partnership-exchange-map (§14): what each partner brand brings to each brand, imagery attribute by attribute (All Adults). */
import type { PartnershipExchange } from '../../../schemas/turbo-pitch.js';
import type { Ctx } from '../bindings.js';
import { brandRow, imageryKeys, metricName, studyBlock, valueAt, type ToolInput } from '../tool-input.js';

export function partnershipExchange(input: ToolInput, ctx: Ctx): PartnershipExchange {
  const studies = input.ids('studies') ?? [];
  const brands = input.ids('brands') ?? [];
  const partners = input.ids('comparison_brands') ?? [];
  const data: PartnershipExchange['data'] = [];
  for (const studyId of studies) {
    // The tool takes no audience (§14): All Adults.
    const block = studyBlock(ctx, studyId, 1);
    for (const brandId of brands) {
      const row = brandRow(block, brandId);
      for (const partnerId of partners) {
        const partnerRow = brandRow(block, partnerId);
        for (const key of imageryKeys(ctx)) {
          const values = block.column(`${key}_pct`);
          const b = valueAt(values, row);
          const p = valueAt(values, partnerRow);
          data.push({
            study_id: studyId,
            brand_id: brandId,
            brand_name: block.rows.brandNames[row] ?? null,
            partner_id: partnerId,
            partner_name: block.rows.brandNames[partnerRow] ?? null,
            key,
            label: metricName(ctx, key),
            brand_value: b,
            partner_value: p,
            exchange: b === null || p === null ? null : Math.round((p - b) * 10) / 10,
          });
        }
      }
    }
  }
  return { study_ids: studies, brand_ids: brands, comparison_brand_ids: partners, data };
}
