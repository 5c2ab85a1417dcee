import * as z from 'zod';
import { id, int, num, str, timestamps } from './common.js';

/**
 * One CEE opinion datapoint (§11.8): the share of an ethnic group (an audience) of one study giving
 * an answer to an opinion question. The service documents only "metadata columns (study details)
 * plus opinion and value columns; values are percentages": these column names are the emulator's
 * choice.
 */
export const ceeOpinion = z.object({
  id: id(),
  study_id: int(),
  audience_id: int(),
  country_id: int(),
  year_id: int(),
  opinion_key: str(),
  opinion: str(),
  /** Percentage of the audience agreeing, 0-100, one decimal. */
  value: num(),
  ...timestamps,
});
export type CeeOpinion = z.infer<typeof ceeOpinion>;
export const ceeOpinionSlim = z.object({ id: id(), opinion: str(), value: num() });
