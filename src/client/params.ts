/**
 * Typed request parameters and result types, derived from the endpoint catalogue and the schemas.
 *
 * Filters use the service's own names (`filter[country_codes]` is `filter: { country_codes }`), so
 * the REFERENCE and the types read alike; `search` exists only on searchable resources, `include`
 * only lists a resource's relationships and adds them to the result type, `fields` narrows it.
 */
import type * as z from 'zod';
import type { Resources, SearchableResource } from '../catalogue/endpoints.js';
import type { BrandscapeMeta, BrandscapeRow, brandscapeIncludeShape } from '../schemas/brandscape.js';

/** Resources listed with the generic fetcher (brandscape data has its own parameters). */
export type ListResource = Exclude<keyof Resources, 'brandscape-data' | SubResource>;
/** Resources under a study (`studies/{id}/brands`, `studies/{id}/categories`). */
export type SubResource = 'study-brands' | 'study-categories';
type AnyResource = keyof Resources;

type Spec<R extends AnyResource> = Resources[R];
type Fields<R extends AnyResource> = Spec<R>['fields'];
/** The full record type of a resource, as parsed. */
export type RecordOf<R extends AnyResource> = z.infer<Spec<R>['record']>;

type KeysWhere<T, Cond> = { [K in keyof T]: T[K] extends Cond ? K : never }[keyof T] & string;

export type FilterableField<R extends AnyResource> = KeysWhere<Fields<R>, { filter: 'exact' | 'like' | 'bool' | 'any' }>;
export type SortableField<R extends AnyResource> = KeysWhere<Fields<R>, { sort: true }>;
export type SelectableField<R extends AnyResource> = KeysWhere<Fields<R>, { select: true }>;

type FieldFilterValue<C> = C extends { filter: 'exact' }
  ? number | string | readonly (number | string)[]
  : C extends { filter: 'bool' }
    ? boolean
    : string | number | readonly (string | number)[];

export type HelperValue<K> = K extends 'ids' | 'ints'
  ? number | readonly number[]
  : K extends 'codes'
    ? string | readonly string[]
    : K extends 'flag'
      ? boolean
      : K extends 'int'
        ? number
        : K extends 'datetime'
          ? string | Date
          : string;

/** `filter[...]` parameters of a resource: its filterable fields, helper filters and `updated_since`. */
export type FilterOf<R extends AnyResource> = {
  [K in FilterableField<R>]?: FieldFilterValue<Fields<R>[K]>;
} & {
  [H in keyof Spec<R>['helpers'] & string]?: HelperValue<Spec<R>['helpers'][H]>;
} & (Spec<R>['updatedSince'] extends true ? { updated_since?: string | Date } : unknown);

export type IncludeName<R extends AnyResource> = keyof Spec<R>['includes'] & string;

export type SortKey<R extends AnyResource> = SortableField<R> | `-${SortableField<R>}`;

type SearchParam<R extends AnyResource> = R extends SearchableResource
  ? {
      /** Full-text search, ranked by relevance (§7.7). */
      search?: string;
    }
  : { search?: never };

/** Parameters of one list request. */
export type ListParams<R extends AnyResource> = {
  filter?: FilterOf<R>;
  include?: readonly IncludeName<R>[];
  fields?: readonly SelectableField<R>[];
  sort?: SortKey<R> | readonly SortKey<R>[];
  /** 1-based page (one-page requests). */
  page?: number;
  /** Page size; defaults to the largest the version allows for full loads, 25 for one page. */
  perPage?: number;
} & SearchParam<R>;

/** Parameters of a single-record request. */
export type ItemParams<R extends AnyResource> = {
  include?: readonly IncludeName<R>[];
  fields?: readonly SelectableField<R>[];
};

type IncludeSpecOf<R extends AnyResource, N> = N extends keyof Spec<R>['includes'] ? Spec<R>['includes'][N] : never;
/** The key an include is emitted under (aliases emit under their canonical name). */
type IncludeKey<R extends AnyResource, N> = IncludeSpecOf<R, N> extends { aliasOf: infer A extends string } ? A : N & string;
type IncludeValue<S> = S extends { many: true; schema: infer Z extends z.ZodType }
  ? z.infer<Z>[]
  : S extends { schema: infer Z extends z.ZodType }
    ? z.infer<Z> | null
    : never;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The included objects that `include: [...]` adds to a record. */
export type Included<R extends AnyResource, I> = I extends readonly (infer N)[]
  ? [N] extends [never]
    ? unknown
    : UnionToIntersection<N extends unknown ? { [K in IncludeKey<R, N>]: IncludeValue<IncludeSpecOf<R, N>> } : never>
  : unknown;

type Selected<R extends AnyResource, F> = F extends readonly (infer K)[]
  ? [K] extends [never]
    ? RecordOf<R>
    : Pick<RecordOf<R>, K & keyof RecordOf<R>>
  : RecordOf<R>;

/** The record type a request returns: the full record (or the selected fields) plus includes. */
export type Item<R extends AnyResource, P> = Selected<R, P extends { fields?: infer F } ? F : undefined> &
  Included<R, P extends { include?: infer I } ? I : undefined>;

// ---- brandscape data ---------------------------------------------------------------------------

type BrandscapeHelpers = Spec<'brandscape-data'>['helpers'];
export type BrandscapeInclude = IncludeName<'brandscape-data'>;

/**
 * Filters of brandscape data: the helper filters of §12.5, the metadata fields, and any metric
 * column (like-matched, as every non-id filter of the service is).
 */
export type BrandscapeFilter = {
  [H in Extract<keyof BrandscapeHelpers, string>]?: HelperValue<BrandscapeHelpers[H]>;
} & {
  [K in FilterableField<'brandscape-data'>]?: FieldFilterValue<Fields<'brandscape-data'>[K]>;
} & Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

export interface BrandscapeParams {
  /** Must include a qualifying combination (§12.6): studies; or a country with a year; or brands. */
  filter: BrandscapeFilter;
  /** Metric keys (e.g. `differentiation`): restricts metric columns to these metrics (§12.7). */
  metricKeys?: readonly string[];
  /** Metric group keys (e.g. `pillars`, `imagery`): every metric of these groups. */
  metricGroupKeys?: readonly string[];
  include?: readonly BrandscapeInclude[];
  /** Metadata fields and metric columns to keep. */
  fields?: readonly string[];
  /** Any metadata field or metric column, `-` for descending. */
  sort?: string | readonly string[];
  page?: number;
  perPage?: number;
}

type BrandscapeIncludeKey<N> = N extends 'audiences' ? 'audience' : N & keyof typeof brandscapeIncludeShape;
type BrandscapeIncluded<I> = I extends readonly (infer N)[]
  ? [N] extends [never]
    ? unknown
    : UnionToIntersection<
        N extends unknown ? { [K in BrandscapeIncludeKey<N>]: z.infer<(typeof brandscapeIncludeShape)[K]> } : never
      >
  : unknown;

/** A brandscape row with the includes a request asked for. */
export type BrandscapeItem<P> = BrandscapeRow & BrandscapeIncluded<P extends { include?: infer I } ? I : undefined>;

export type { BrandscapeMeta, BrandscapeRow };
