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
 * A listed field without its `.default(null)`: present, a value or null. In zod's compiled mode a
 * default costs a closure call per field and row; on ~120 columns it doubles the cost of
 * validation (measured 2.6x JSON.parse, against 1.3x without). A row that lacks a listed field
 * fails the listed schema, and the caller falls back to `brandscapeRowLoose`, which accepts it.
 */
const listed = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema);
const listedMetricSchema = z.number().nullable();

/**
 * The zod schema of a brandscape row for a known set of metric columns: every field listed,
 * required, number-or-null. Listing every column is what makes validation cheap (NOTES.md: a
 * catch-all record costs 2.9x JSON.parse, a listed object compiled 1.2x).
 *
 * `unknownColumns: 'error'` (default) refuses columns the list does not name, so a caller can
 * fall back to `brandscapeRowLoose` instead of silently dropping them. `'strip'` drops them and
 * is cheaper (zod's strict check compares every key with every listed name: quadratic in the row
 * width); a caller that strips checks the width of the rows itself (`hasRowWidth`).
 *
 * @example
 * const row = brandscapeRowSchema({ metricColumns: ['esteem_rank', 'esteem_c'], includes: ['brand'] });
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
    if (!wanted || wanted.has(key)) shape[key] = listed(schema);
  }
  for (const column of options.metricColumns) {
    if (!wanted || wanted.has(column)) shape[column] = listedMetricSchema;
  }
  for (const include of options.includes ?? []) shape[include] = listed(brandscapeIncludeShape[include]);
  return options.unknownColumns === 'strip' ? z.object(shape) : z.strictObject(shape);
}

/**
 * Whether `data` is a list of rows that each have exactly `width` keys. After a stripping
 * schema accepted every row (so every listed key is present), this tells in one pass over the
 * keys that no row carries a column the schema does not list.
 *
 * @example
 * hasRowWidth([{ id: 1, esteem_rank: 50 }], 2) // true
 */
export function hasRowWidth(data: unknown, width: number): boolean {
  if (!Array.isArray(data)) return false;
  for (const row of data as unknown[]) {
    if (typeof row !== 'object' || row === null) return false;
    let keys = 0;
    // JSON.parse makes plain objects: every enumerable key is their own.
    for (const _key in row) keys += 1;
    if (keys !== width) return false;
  }
  return true;
}

/**
 * When the metric catalogue is not known, metric columns are validated by a catch-all. Slower than
 * `brandscapeRowSchema`, never wrong about types.
 */
export const brandscapeRowLoose = z.looseObject({ ...brandscapeMetaShape, ...brandscapeIncludeShape }).catchall(metricValueSchema);
