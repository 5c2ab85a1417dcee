import * as z from 'zod';
import { bool, id, int, opt, str } from './common.js';
import { audienceSlim } from './audiences.js';
import { brandSlim } from './brands.js';
import { companySlim } from './companies.js';
import { countrySlim, yearSlim } from './geography.js';
import { categorySlim, sectorSlim } from './sectors.js';
import { studySlim } from './studies.js';

/**
 * The metadata part of a brandscape-data row, in the order the service emits it. The service does
 * not document this list (§12.3); `brand_name` is the LOCAL name used in that market's survey.
 */
export const brandscapeMetaShape = {
  id: id(),
  study_id: int(),
  brand_id: int(),
  category_id: int(),
  audience_id: int(),
  country_id: int(),
  year_id: int(),
  brand_name: str(),
  category_name: str(),
  is_duplicate: bool(),
} as const;

export const BRANDSCAPE_META_FIELDS = Object.keys(brandscapeMetaShape) as (keyof typeof brandscapeMetaShape)[];

export const brandscapeMeta = z.object(brandscapeMetaShape);
export type BrandscapeMeta = z.infer<typeof brandscapeMeta>;

/** Included objects of a brandscape row (§12.8); `audiences` is accepted as an alias of `audience`. */
export const brandscapeIncludeShape = {
  study: opt(studySlim),
  year: opt(yearSlim),
  country: opt(countrySlim),
  audience: opt(audienceSlim),
  brand: opt(brandSlim),
  category: opt(categorySlim),
  sector: opt(sectorSlim),
  company: opt(companySlim),
} as const;

/** Metric columns with a score-type suffix; unsuffixed value columns are read with `metricValue`. */
export type SuffixedMetricColumn =
  | `${string}_rank`
  | `${string}_pct`
  | `${string}_c`
  | `${string}_brandscape_index`
  | `${string}_category_index`;

/**
 * A brandscape row: known metadata plus numeric metric columns (null where the metric has no value
 * for that brand). Column names come from the metric catalogue (`brand-metrics`).
 */
export type BrandscapeRow = BrandscapeMeta & { readonly [column: SuffixedMetricColumn]: number | null };

/** Reads any metric column of a row, including unsuffixed value-score columns such as `brand_base`. */
export function metricValue(row: BrandscapeMeta, column: string): number | null {
  const value: unknown = (row as Record<string, unknown>)[column];
  return typeof value === 'number' ? value : null;
}

const metricValueSchema = opt(z.number());

/**
 * The zod schema of a brandscape row for a known set of metric columns. Listing every column is
 * what makes validation cheap (NOTES.md: a catch-all record costs 2.9x JSON.parse, a listed object
 * compiled 1.2x). `unknownColumns: 'error'` (default) refuses columns the list does not name, so a
 * caller can fall back to `brandscapeRowLoose` instead of silently dropping them.
 */
export function brandscapeRowSchema(options: {
  metricColumns: readonly string[];
  includes?: readonly (keyof typeof brandscapeIncludeShape)[];
  fields?: readonly string[];
  unknownColumns?: 'error' | 'strip';
}) {
  const shape: Record<string, z.ZodType> = {};
  const wanted = options.fields ? new Set(options.fields) : undefined;
  for (const [key, schema] of Object.entries(brandscapeMetaShape)) {
    if (!wanted || wanted.has(key)) shape[key] = schema;
  }
  for (const column of options.metricColumns) {
    if (!wanted || wanted.has(column)) shape[column] = metricValueSchema;
  }
  for (const include of options.includes ?? []) shape[include] = brandscapeIncludeShape[include];
  return options.unknownColumns === 'strip' ? z.object(shape) : z.strictObject(shape);
}

/**
 * When the metric catalogue is not known, metric columns are validated by a catch-all. Slower than
 * `brandscapeRowSchema`, never wrong about types.
 */
export const brandscapeRowLoose = z.looseObject({ ...brandscapeMetaShape, ...brandscapeIncludeShape }).catchall(metricValueSchema);
