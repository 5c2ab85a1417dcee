import * as z from 'zod';
import { bool, id, opt, str, timestamps } from './common.js';

export const brandMetricSlim = z.object({ id: id(), name: str(), is_active: bool() });
export type BrandMetricSlim = z.infer<typeof brandMetricSlim>;

export const brandMetric = z.object({
  id: id(),
  name: str(),
  description: str(),
  is_active: bool(),
  is_public: bool(),
  is_core: bool(),
  is_legacy: bool(),
  has_construct_score: bool(),
  has_percentile_rank_score: bool(),
  has_percentage_score: bool(),
  has_value_score: bool(),
  has_index_score: bool(),
  /** Exact column names of this metric in brandscape data: the authoritative metric -> column map. */
  brandscape_data_columns: opt(z.array(z.string())),
  ...timestamps,
});
export type BrandMetric = z.infer<typeof brandMetric>;

export const brandMetricGroupSlim = z.object({ id: id(), name: str() });

export const brandMetricGroup = z.object({
  id: id(),
  name: str(),
  /** Machine name used by `metric_group_keys`, e.g. `pillars`, `imagery`. */
  key: str(),
  description: str(),
  is_public: bool(),
  ...timestamps,
});
export type BrandMetricGroup = z.infer<typeof brandMetricGroup>;
