/**
 * Score types of brandscape metric columns (REFERENCE §12.3). A metric column is named
 * `<import_name><suffix>`; which suffixes a metric has is told by its `has_*` flags and, exactly,
 * by its `brandscape_data_columns`.
 */
export const SCORE_TYPES = {
  rank: { suffix: '_rank', flag: 'has_percentile_rank_score', label: 'Percentile rank' },
  pct: { suffix: '_pct', flag: 'has_percentage_score', label: 'Percentage' },
  c: { suffix: '_c', flag: 'has_construct_score', label: 'Construct score' },
  brandscape_index: { suffix: '_brandscape_index', flag: 'has_index_score', label: 'Index vs brandscape' },
  category_index: { suffix: '_category_index', flag: 'has_index_score', label: 'Index vs category' },
  value: { suffix: '', flag: 'has_value_score', label: 'Value' },
} as const;

export type ScoreType = keyof typeof SCORE_TYPES;
export const SCORE_TYPE_NAMES = Object.keys(SCORE_TYPES) as ScoreType[];

/** Suffixed score types, longest suffix first so `_category_index` wins over shorter endings. */
const SUFFIXED: readonly ScoreType[] = SCORE_TYPE_NAMES.filter((t) => SCORE_TYPES[t].suffix !== '').sort(
  (a, b) => SCORE_TYPES[b].suffix.length - SCORE_TYPES[a].suffix.length,
);

/**
 * Splits a metric column into metric key and score type.
 *
 * @example fromMetricColumn('differentiation_rank') // { metric: 'differentiation', scoreType: 'rank' }
 * @example fromMetricColumn('brand_base') // { metric: 'brand_base', scoreType: 'value' }
 */
export function fromMetricColumn(column: string): { metric: string; scoreType: ScoreType } {
  for (const type of SUFFIXED) {
    const suffix = SCORE_TYPES[type].suffix;
    if (column.endsWith(suffix) && column.length > suffix.length) {
      return { metric: column.slice(0, -suffix.length), scoreType: type };
    }
  }
  return { metric: column, scoreType: 'value' };
}

/** The column of `metric` for `scoreType`, e.g. `toMetricColumn('esteem', 'rank')` is `esteem_rank`. */
export function toMetricColumn(metric: string, scoreType: ScoreType): string {
  return metric + SCORE_TYPES[scoreType].suffix;
}

/**
 * The metric key of a brand-metric record, derived from its `brandscape_data_columns` (the service
 * documents neither `import_name` nor `key` on metrics; the columns are authoritative).
 */
export function metricKeyOf(columns: readonly string[]): string | undefined {
  let key: string | undefined;
  for (const column of columns) {
    const { metric } = fromMetricColumn(column);
    if (key === undefined || metric.length < key.length) key = metric;
  }
  return key;
}
