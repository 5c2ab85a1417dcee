import * as z from 'zod';
import { id, int, num, str } from './common.js';

/**
 * One entry of `GET /api/v2/tools/archetypes`: a brand scored on every archetype against a
 * comparison set. The service documents only the skeleton (§14: entry fields plus a nested `data`
 * object of archetype values); these entry fields are the emulator's reading of it.
 *
 * `data` holds, per archetype key, the score (`<key>`: standardised within the set, 0 = its average)
 * and the percentile rank within the set (`<key>_rank`, 0-100).
 */
export const archetypeEntry = z.object({
  brand_id: id(),
  brand_name: str(),
  study_id: id(),
  audience_id: id(),
  comparison_type: z.enum(['cultural', 'competitive']),
  comparison_id: int(),
  comparison_name: str(),
  comparison_size: int(),
  data: z.record(z.string(), num()),
});
export type ArchetypeEntry = z.infer<typeof archetypeEntry>;

