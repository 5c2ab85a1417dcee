/**
 * Best Countries (§13). The metadata resources' schemas are undocumented: these are the emulator's
 * choice, kept small. Country data records are flat: metadata keys plus one key per attribute or
 * factor (§13.2), typed as a known part and a record of values.
 */
import * as z from 'zod';
import { id, int, num, str, timestamps } from './common.js';

export const bestCountriesMetricSlim = z.object({ id: id(), name: str(), key: str() });
export const bestCountriesMetric = z.object({
  id: id(),
  name: str(),
  /** The key of the metric's column in country data. */
  key: str(),
  description: str(),
  /** `attribute` (a perception attribute, scores and ranks) or `consideration` (also `percent`). */
  type: str(),
  group_id: int(),
  factor_id: int(),
  ...timestamps,
});
export type BestCountriesMetric = z.infer<typeof bestCountriesMetric>;

export const bestCountriesMetricGroupSlim = z.object({ id: id(), name: str() });
export const bestCountriesMetricGroup = z.object({ id: id(), name: str(), key: str(), description: str(), ...timestamps });
export type BestCountriesMetricGroup = z.infer<typeof bestCountriesMetricGroup>;

export const bestCountriesFactorSlim = z.object({ id: id(), name: str() });
export const bestCountriesFactor = z.object({
  id: id(),
  name: str(),
  key: str(),
  description: str(),
  /** Weight of the factor in the overall score (the weights sum to 1). */
  weight: num(),
  ...timestamps,
});
export type BestCountriesFactor = z.infer<typeof bestCountriesFactor>;

/** One country's calculated data for a year (§13.2): metadata plus one value per attribute/factor key. */
export const bestCountriesDatapoint = z
  .object({ country: str(), country_id: id(), country_code: str(), year_id: int() })
  .catchall(z.number().nullable());
export type BestCountriesDatapoint = z.infer<typeof bestCountriesDatapoint>;

export const BEST_COUNTRIES_DATA_TYPES = ['attributes', 'factors'] as const;
export const BEST_COUNTRIES_SCORE_TYPES = ['scores', 'ranks', 'percent'] as const;
export type BestCountriesDataType = (typeof BEST_COUNTRIES_DATA_TYPES)[number];
export type BestCountriesScoreType = (typeof BEST_COUNTRIES_SCORE_TYPES)[number];
