/**
 * The emulator's dataset, as the HTTP layer sees it.
 *
 * `createDataset()` (dataset.ts) builds it from a seed: the same seed gives the same dataset, byte
 * for byte once served. Small resources are held as entities: the record exactly as the service
 * serves it (`record`, typed by the shared schemas) plus the relationship ids the HTTP layer needs
 * for helper filters and includes. Large resources (brandscape data, stock prices, cities) are
 * generated or loaded on demand behind the store interfaces below.
 */
import type { Audience, AudienceGroup } from '../../schemas/audiences.js';
import type { Brand, Collection } from '../../schemas/brands.js';
import type { AnnualResult, Company, StockExchange, StockPrice } from '../../schemas/companies.js';
import type { City, Country, Region, Year } from '../../schemas/geography.js';
import type { BrandMetric, BrandMetricGroup } from '../../schemas/metrics.js';
import type { ScoreType } from '../../schemas/score-types.js';
import type { Category, GicsSector, Sector } from '../../schemas/sectors.js';
import type { Study, StudyBrand } from '../../schemas/studies.js';

/** The user every default token acts as; owner of the private collections and audiences it may see. */
export const DEFAULT_USER = 'analyst';

export interface Entity<R> {
  readonly record: R;
}

export type RegionEntity = Entity<Region>;

export interface CountryEntity extends Entity<Country> {
  readonly regionId: number;
  /** Calendar years in which the country is in the Best Countries ranking. */
  readonly bestCountriesYears: readonly number[];
}

export type YearEntity = Entity<Year>;

export type AudienceGroupEntity = Entity<AudienceGroup>;

export interface AudienceEntity extends Entity<Audience> {
  readonly groupId: number | null;
  /** Owner of a private audience (`is_public` false); null for public ones. */
  readonly ownerUser: string | null;
}

export type SectorEntity = Entity<Sector>;

export interface CategoryEntity extends Entity<Category> {
  readonly sectorId: number;
}

export type GicsSectorEntity = Entity<GicsSector>;

export interface StockExchangeEntity extends Entity<StockExchange> {
  readonly countryId: number;
}

export interface Listing {
  readonly exchangeId: number;
  /** Ticker with the exchange suffix, e.g. `NVLK.US`. */
  readonly ticker: string;
}

export interface CompanyEntity extends Entity<Company> {
  readonly countryId: number;
  readonly gicsSectorId: number | null;
  /** The brand that carries the company's own name, if it is tracked. */
  readonly brandId: number | null;
  readonly brandIds: readonly number[];
  /** Empty for private companies. */
  readonly listings: readonly Listing[];
  /** One per fiscal year, oldest first; empty for private companies. */
  readonly financials: readonly AnnualResult[];
}

export interface BrandEntity extends Entity<Brand> {
  readonly sectorId: number;
  readonly companyId: number;
  /** Countries where the brand has a local name or comes from (the `countries` include). */
  readonly countryIds: readonly number[];
  /** Studies that include the brand, ascending. */
  readonly studyIds: readonly number[];
}

export interface CollectionEntity extends Entity<Collection> {
  readonly brandIds: readonly number[];
  readonly ownerUser: string;
  readonly isPublic: boolean;
  readonly sharedWith: readonly string[];
}

export interface MetricGroupEntity extends Entity<BrandMetricGroup> {
  readonly metricIds: readonly number[];
}

export interface MetricEntity extends Entity<BrandMetric> {
  readonly groupId: number;
  /** Metric key used by `metric_keys` and as the column prefix (the metric's import name). */
  readonly key: string;
  /** In use in today's studies (the `current` helper filter). */
  readonly isCurrent: boolean;
  /** A custom (client-specific) metric (the `custom` helper filter). */
  readonly isCustom: boolean;
}

export interface StudyEntity extends Entity<Study> {
  readonly countryId: number;
  readonly yearId: number;
  /** Calendar year. */
  readonly yearNumber: number;
  /** 1-4 for US quarterly waves, null for full-year studies. */
  readonly quarter: number | null;
  readonly isBavStudy: boolean;
  /** Released studies are the only ones whose brandscape data is served. */
  readonly released: boolean;
  readonly openSurvey: boolean;
}

/**
 * One metric column of brandscape data. Values are served with a fixed precision per score type:
 * `rank` and `pct` one decimal in [0, 100]; `c` three decimals in [-5, 5]; `brandscape_index` and
 * `category_index` integers in [0, 999]; `value` non-negative integers.
 */
export interface MetricColumn {
  /** Column name, `<key><suffix>`. */
  readonly name: string;
  readonly metricId: number;
  readonly metricKey: string;
  readonly groupKey: string;
  readonly scoreType: ScoreType;
  /** Position in `BrandscapeStore.columns`. */
  readonly index: number;
}

/** The brand-category rows of one study: one entry per brand and category it was studied in. */
export interface StudyRows {
  readonly studyId: number;
  /** Row count (brand x category pairs). */
  readonly length: number;
  readonly brandIds: Int32Array;
  readonly categoryIds: Int32Array;
  /** Local brand names used in the market's survey (may differ from the global name). */
  readonly brandNames: readonly string[];
  readonly categoryNames: readonly string[];
  /** 1 for every row of a brand but one when the brand is in several categories of the study. */
  readonly isDuplicate: Uint8Array;
  /** Id of the brand-in-study relation row (`GET /studies/{id}/brands`). */
  readonly relationIds: Int32Array;
  /** Audience ids with data in this study, ascending; All Adults (1) always first. */
  readonly audienceIds: readonly number[];
}

/**
 * A block's values as codes, column by column. Most columns are the same for every row of a brand
 * and are kept once per distinct brand; columns that differ by category are kept per row. The code
 * of row i, column j is `codes[offset[j] + (byRow[j] === 1 ? i : brandOfRow[i])]`.
 */
export interface BlockCodes {
  codes: Uint16Array;
  offset: Int32Array;
  byRow: Uint8Array;
  brandOfRow: Int32Array;
}

/**
 * Brandscape data, generated on demand. Row ids are dense per (study, audience) block:
 * blocks are ordered by study id, then audience id, and rows inside a block follow `StudyRows`
 * order, so `id = firstRowId(study, audience) + rowIndex`. Unreleased studies come last, so
 * releasing one appends rows without moving any existing id.
 */
export interface BrandscapeStore {
  /** Every metric column, in the canonical column order of a row. */
  readonly columns: readonly MetricColumn[];
  /** Released (served) studies with brandscape data, in row-id order. */
  studyIds(): readonly number[];
  rowsOf(studyId: number): StudyRows;
  firstRowId(studyId: number, audienceId: number): number;
  /** The block and row index of a row id, or undefined if no served row has that id. */
  locate(rowId: number): { studyId: number; audienceId: number; rowIndex: number } | undefined;
  /**
   * Values of the given columns (indexes into `columns`) for every row of one block, one array per
   * column, `NaN` where the value is null. Deterministic; may be cached internally (bounded).
   */
  values(studyId: number, audienceId: number, columnIndexes: readonly number[]): Float64Array[];
  /**
   * The same values as 16-bit codes (value-codes.ts: `VALUE_OF_CODE`, `codeText`), the form they are
   * computed and cached in, valid for the columns asked for: what the page writer copies as JSON
   * text without formatting a number. A view of the cache: read it before asking for another block.
   */
  codeColumns(studyId: number, audienceId: number, columnIndexes: readonly number[]): BlockCodes;
  /**
   * How the bounded caches stand: blocks held and the most that are, studies whose shared latents
   * are held, and slabs allocated so far. Once the caches are full, computing new blocks reuses the
   * slabs of evicted ones and `slabsAllocated` stops growing.
   */
  cacheStats(): { blocks: number; blockLimit: number; latentStudies: number; slabsAllocated: number };
}

export type ArchetypeComparison =
  | { readonly type: 'cultural' }
  | { readonly type: 'collection'; readonly id: number }
  | { readonly type: 'category'; readonly id: number };

export interface ArchetypeScore {
  readonly brandId: number;
  /** Local brand name in the study. */
  readonly brandName: string;
  /** Per archetype key: index score (100 = comparison set average, integer) and percentile rank (0-100, 1 decimal). */
  readonly scores: Readonly<Record<string, { readonly score: number; readonly rank: number }>>;
}

export interface ArchetypeStore {
  /** Archetype keys, e.g. `hero`, `sage`; the cultural values are also the brandscape columns `archetype_<key>_c/_rank`. */
  readonly keys: readonly string[];
  /**
   * Scores of `brandIds` (all brands of the study when undefined) against the comparison set: the
   * whole study (cultural), a collection's brands or a category's brands within the study
   * (competitive). Scores and ranks change when the set changes. Returns the comparison set size.
   */
  score(
    studyId: number,
    audienceId: number,
    brandIds: readonly number[] | undefined,
    comparison: ArchetypeComparison,
  ): { readonly setSize: number; readonly entries: readonly ArchetypeScore[] };
}

/** Daily stock prices, generated on demand: one series per listing (company x exchange). */
export interface StockPriceStore {
  readonly count: number;
  /** Ids are dense: `id = index + 1`, ordered by listing then date. */
  row(index: number): StockPrice;
  companyOf(index: number): number;
  exchangeOf(index: number): number;
  /** Index ranges [start, end) of the rows of the listings matching both filters (undefined = any). */
  ranges(companyIds: ReadonlySet<number> | undefined, exchangeIds: ReadonlySet<number> | undefined): readonly (readonly [number, number])[];
}

export interface CityEntity extends Entity<City> {
  readonly countryId: number;
  readonly isCapital: boolean;
}

/** What a publish call changed, for webhook notifications. */
export interface PublishResult {
  readonly event: 'Study' | 'Brand';
  readonly action: 'create' | 'update';
  /** The changed records in their full response schema. */
  readonly records: readonly (Study | Brand)[];
}

export type PublishRequest =
  /** Release the next unreleased study (its brandscape rows appear at the end of the id space). */
  | { readonly kind: 'study'; readonly studyId?: number }
  /** Update brands: a new global name suffix or share of company, and a new `updated_at`. */
  | { readonly kind: 'brands'; readonly brandIds?: readonly number[]; readonly count?: number };

export interface Dataset {
  readonly seed: number;
  /** The data's "today": ISO date used for `updated_at` of published changes and relative filters. */
  readonly asOf: string;
  readonly regions: readonly RegionEntity[];
  readonly countries: readonly CountryEntity[];
  readonly years: readonly YearEntity[];
  readonly audienceGroups: readonly AudienceGroupEntity[];
  readonly audiences: readonly AudienceEntity[];
  readonly sectors: readonly SectorEntity[];
  readonly categories: readonly CategoryEntity[];
  readonly gicsSectors: readonly GicsSectorEntity[];
  readonly stockExchanges: readonly StockExchangeEntity[];
  readonly companies: readonly CompanyEntity[];
  readonly brands: readonly BrandEntity[];
  readonly collections: readonly CollectionEntity[];
  readonly metricGroups: readonly MetricGroupEntity[];
  readonly metrics: readonly MetricEntity[];
  /** Every study, released or not, ascending by id. */
  readonly studies: readonly StudyEntity[];
  readonly brandscape: BrandscapeStore;
  readonly archetypes: ArchetypeStore;
  readonly stockPrices: StockPriceStore;
  /** Cities of the dataset's countries from the gazetteer, loaded on first use. */
  cities(): readonly CityEntity[];
  /** Brand-in-study relation rows of a study, in relation-id order. */
  studyBrands(studyId: number): readonly { readonly record: StudyBrand; readonly brandId: number; readonly categoryId: number }[];
  /** Releases new data; the HTTP layer sends the webhooks. Mutates the dataset. */
  publish(request: PublishRequest, nowIso: string): PublishResult;
}

export interface DatasetOptions {
  seed?: number;
  /** Number of brands (default 2,434). */
  brands?: number;
}
