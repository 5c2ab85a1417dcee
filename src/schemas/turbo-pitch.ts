/**
 * Answers of the TurboPitch tools (§14). The service publishes only their envelopes (known from the
 * official client's parsers): arrays of flat records, arrays of entries with nested `metrics` or
 * `data`, or objects of metadata with a nested `data` array. The fields inside are the emulator's
 * choice, documented per tool; the client parses them with these schemas.
 */
import * as z from 'zod';
import { id, int, num, opt, str } from './common.js';

const ids = opt(z.array(z.number().int()));

/** brand-personality-match: flat records, the brands whose imagery profile is closest (similarity = Pearson r x 100). */
export const personalityMatch = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: int(),
  audience_id: int(),
  match_brand_id: id(),
  match_brand_name: str(),
  match_category_name: str(),
  similarity: num(),
});

/** brand-vulnerability-map: flat records, one per market and pillar: the brand's rank against its category's average. */
export const vulnerabilityPoint = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: int(),
  country_code: str(),
  year_number: int(),
  category_id: int(),
  category_name: str(),
  metric_key: str(),
  metric_name: str(),
  brand_value: num(),
  category_average: num(),
  gap: num(),
  is_vulnerable: opt(z.boolean()),
});

const worthMapMeta = {
  x_key: str(),
  x_label: str(),
  y_key: str(),
  y_label: str(),
  audience_id: int(),
  study_ids: ids,
};

/** brand-worth-map: metadata plus `{key, value}` records per brand and study. */
export const brandWorthMap = z.object({
  ...worthMapMeta,
  data: z.array(z.object({ brand_id: id(), brand_name: str(), study_id: int(), audience_id: int(), key: str(), value: num() })),
});

/** category-worth-map: the same, per category (means over the category's brands). */
export const categoryWorthMap = z.object({
  ...worthMapMeta,
  data: z.array(z.object({ category_id: id(), category_name: str(), study_id: int(), audience_id: int(), brand_count: int(), key: str(), value: num() })),
});

/** commitment-funnel: entries per brand, study and category with the stages as `metrics: [{key, value}]`. */
export const funnelEntry = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: int(),
  audience_id: int(),
  category_id: int(),
  category_name: str(),
  metrics: z.array(z.object({ key: z.string(), label: str(), value: num() })),
});

const comparisonMeta = {
  audience_id: int(),
  comparison_type: str(),
  comparison_ids: ids,
  comparison_name: str(),
  comparison_size: int(),
};

/** cost-of-entry: metadata plus one record per imagery attribute: what the brand lacks against the set's average. */
export const costOfEntry = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: int(),
  ...comparisonMeta,
  data: z.array(z.object({ key: z.string(), label: str(), brand_value: num(), comparison_average: num(), cost_of_entry: num() })),
});

/** love-plus: entries with `data: { <metric>: { value, label } }`. */
export const lovePlusEntry = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: int(),
  audience_id: int(),
  data: z.record(z.string(), z.object({ value: num(), label: str() })),
});

/** partnership-exchange-map: metadata plus what each partner brings to each brand, attribute by attribute. */
export const partnershipExchange = z.object({
  study_ids: ids,
  brand_ids: ids,
  comparison_brand_ids: ids,
  data: z.array(
    z.object({
      study_id: int(),
      brand_id: id(),
      brand_name: str(),
      partner_id: id(),
      partner_name: str(),
      key: z.string(),
      label: str(),
      brand_value: num(),
      partner_value: num(),
      exchange: num(),
    }),
  ),
});

/** swot: metadata plus one record per brand, study and imagery attribute, with its quadrant. */
export const swot = z.object({
  brand_ids: ids,
  study_ids: ids,
  ...comparisonMeta,
  data: z.array(
    z.object({
      brand_id: id(),
      brand_name: str(),
      study_id: int(),
      key: z.string(),
      label: str(),
      brand_value: num(),
      comparison_average: num(),
      difference: num(),
      quadrant: z.enum(['strength', 'weakness', 'opportunity', 'threat']),
    }),
  ),
});

/** toplist-market: a plain table, the top ten brands per metric plus the brands asked for. */
export const toplistRow = z.object({
  study_id: int(),
  audience_id: int(),
  metric_key: z.string(),
  metric_name: str(),
  position: int(),
  brand_id: id(),
  brand_name: str(),
  value: num(),
  is_selected: opt(z.boolean()),
});

/** Each tool's `data`, keyed by slug. */
export const TOOL_RESULTS = {
  'brand-personality-match': z.array(personalityMatch),
  'brand-vulnerability-map': z.array(vulnerabilityPoint),
  'brand-worth-map': brandWorthMap,
  'category-worth-map': categoryWorthMap,
  'commitment-funnel': z.array(funnelEntry),
  'cost-of-entry': costOfEntry,
  'love-plus': z.array(lovePlusEntry),
  'partnership-exchange-map': partnershipExchange,
  swot,
  'toplist-market': z.array(toplistRow),
} as const;

export type ToolResult<S extends keyof typeof TOOL_RESULTS> = z.infer<(typeof TOOL_RESULTS)[S]>;
export type PersonalityMatch = z.infer<typeof personalityMatch>;
export type VulnerabilityPoint = z.infer<typeof vulnerabilityPoint>;
export type BrandWorthMap = z.infer<typeof brandWorthMap>;
export type CategoryWorthMap = z.infer<typeof categoryWorthMap>;
export type FunnelEntry = z.infer<typeof funnelEntry>;
export type CostOfEntry = z.infer<typeof costOfEntry>;
export type LovePlusEntry = z.infer<typeof lovePlusEntry>;
export type PartnershipExchange = z.infer<typeof partnershipExchange>;
export type Swot = z.infer<typeof swot>;
export type ToplistRow = z.infer<typeof toplistRow>;
