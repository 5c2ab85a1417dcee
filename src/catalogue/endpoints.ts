/**
 * The endpoint catalogue: what every resource of the Brand Data Service accepts and returns.
 *
 * This is the single source of truth shared by the client (typed parameters, query serialisation,
 * response parsing) and the emulator (routing, validation of parameters, includes). It imports only
 * the schemas: neither side imports the other to share it (DESIGN.md's layers). Facts come from REFERENCE.md §11 unless a comment says
 * otherwise; each entry is type-checked against its record schema, so a field cannot be added to
 * one without the other.
 */
import type * as z from 'zod';
import { audience, audienceGroup, audienceGroupSlim, audienceSlim } from '../schemas/audiences.js';
import { brand, brandSlim, collection, collectionSlim } from '../schemas/brands.js';
import { brandscapeMeta } from '../schemas/brandscape.js';
import {
  annualResult,
  company,
  companySlim,
  stockExchange,
  stockExchangeSlim,
  stockPrice,
  stockPriceSlim,
} from '../schemas/companies.js';
import { city, citySlim, country, countrySlim, region, regionSlim, year, yearSlim } from '../schemas/geography.js';
import { brandMetric, brandMetricGroup, brandMetricGroupSlim, brandMetricSlim } from '../schemas/metrics.js';
import {
  category,
  categorySlim,
  categoryWithSectorSlim,
  gicsSector,
  gicsSectorSlim,
  sector,
  sectorSlim,
} from '../schemas/sectors.js';
import { study, studyBrand, studyCategory, studySlim } from '../schemas/studies.js';
import { ceeOpinion, ceeOpinionSlim } from '../schemas/cee-opinions.js';
import { operatingCompany, operatingCompanySlim } from '../schemas/operating-companies.js';
import { toolGroup, toolMetadata, toolResource, toolSlim, toolUseCase } from '../schemas/tools.js';
import {
  bestCountriesFactor,
  bestCountriesFactorSlim,
  bestCountriesMetric,
  bestCountriesMetricGroup,
  bestCountriesMetricGroupSlim,
  bestCountriesMetricSlim,
} from '../schemas/best-countries.js';

/**
 * How a field can be filtered with `filter[<field>]`:
 * `exact` ids (comma-separated = any of), `like` case-insensitive contains, `bool` 1/0,
 * `any` filterable with undocumented semantics (arrays, objects), `none` not filterable.
 */
export type FilterKind = 'exact' | 'like' | 'bool' | 'any' | 'none';

export interface FieldCaps {
  readonly filter: FilterKind;
  readonly sort: boolean;
  readonly select: boolean;
}

const cap = <F extends FilterKind, S extends boolean, Sel extends boolean>(filter: F, sort: S, select: Sel) =>
  ({ filter, sort, select }) as const;

/** The usual capability sets; the resource tables of §11 use few combinations. */
const exact = cap('exact', true, true);
const like = cap('like', true, true);
const flag = cap('bool', true, true);
const flagNoSort = cap('bool', false, true);
const sortOnly = cap('none', true, true);
const selectOnly = cap('none', false, true);
const anyNoSort = cap('any', false, true);
const likeNoSort = cap('like', false, true);
/** `updated_at`: filterable only through `filter[updated_since]`. */
const updatedAt = cap('none', true, true);
const timestamps = { created_at: sortOnly, updated_at: updatedAt } as const;

/**
 * Helper ("additional") filters (§7.2): not columns, same `filter[...]` syntax.
 * `ids` comma-separated ids, `ints` comma-separated integers (calendar years), `codes`
 * comma-separated strings, `flag` switched on with 1, `int` one integer, `text`, `datetime`.
 */
export type HelperKind = 'ids' | 'ints' | 'codes' | 'flag' | 'int' | 'text' | 'datetime';

export interface IncludeSpec {
  /** The resource whose slim shape is embedded, or a special shape. */
  readonly target: string;
  readonly many: boolean;
  readonly schema: z.ZodType;
  /** This name is an alias of another include; the object is emitted under that one's key. */
  readonly aliasOf?: string;
}

const one = <T extends string, S extends z.ZodType>(target: T, schema: S) => ({ target, many: false, schema }) as const;
const many = <T extends string, S extends z.ZodType>(target: T, schema: S) => ({ target, many: true, schema }) as const;

export interface ResourceSpec {
  /** Path under `/api/v2`; `{id}` marks a parent id (sub-resources). */
  readonly path: string;
  /** Key of sparse fieldsets: `fields[<fieldsKey>]` (snake_case resource name, §7.5). */
  readonly fieldsKey: string;
  /** Scope a token needs (§4.3: `<Resource display name>: Read`; only `Brands: Read` is documented). */
  readonly scope: string;
  /** `BAV-Event` / `type` of data-change webhooks, for resources that emit them (§15.1). */
  readonly event?: string;
  readonly record: z.ZodObject;
  readonly slim: z.ZodObject;
  readonly fields: Readonly<Record<string, FieldCaps>>;
  readonly helpers: Readonly<Record<string, HelperKind>>;
  readonly includes: Readonly<Record<string, IncludeSpec>>;
  /** Supports `search=` (§7.7) and, if so, which fields the emulator's index covers. */
  readonly search: readonly string[] | false;
  /** Supports `filter[updated_since]` (§7.3). */
  readonly updatedSince: boolean;
}

type SpecBody = Omit<ResourceSpec, 'record'>;

/**
 * Declares a resource, checked against its record schema: every field of the schema has
 * capabilities and no field is invented (a compile error otherwise).
 */
function define<R extends z.ZodObject>(record: R) {
  return <const S extends SpecBody & { fields: { readonly [K in keyof z.infer<R>]-?: FieldCaps } }>(
    spec: S & { fields: Record<Exclude<keyof S['fields'], keyof z.infer<R>>, never> },
  ): S & { record: R } => ({ ...spec, record });
}

export const RESOURCES = {
  audiences: define(audience)({
    path: 'audiences',
    fieldsKey: 'audiences',
    scope: 'Audiences: Read',
    event: 'Audience',
    slim: audienceSlim,
    fields: {
      id: exact,
      name: like,
      description: sortOnly,
      is_active: flag,
      is_public: flag,
      available_for_bav: flag,
      available_for_bc: flag,
      bc_filters: anyNoSort,
      available_for_diversity: flag,
      is_ethnic_minority: flag,
      ...timestamps,
    },
    helpers: { active: 'flag', inactive: 'flag', public: 'flag', private: 'flag', groups: 'ids' },
    includes: { group: one('audience-groups', audienceGroupSlim) },
    search: ['name', 'description'],
    updatedSince: true,
  }),
  'audience-groups': define(audienceGroup)({
    path: 'audience-groups',
    fieldsKey: 'audience_groups',
    scope: 'Audience Groups: Read',
    slim: audienceGroupSlim,
    fields: { id: exact, name: like, description: likeNoSort, ...timestamps },
    helpers: {},
    includes: { audiences: many('audiences', audienceSlim) },
    search: ['name', 'description'],
    updatedSince: true,
  }),
  brands: define(brand)({
    path: 'brands',
    fieldsKey: 'brands',
    scope: 'Brands: Read',
    event: 'Brand',
    slim: brandSlim,
    fields: {
      id: exact,
      bav_brand_id: exact,
      bav_id: exact,
      name: like,
      share_of_company: like,
      is_core: flag,
      is_studied_globally: flag,
      url: selectOnly,
      logo_url: selectOnly,
      ...timestamps,
    },
    helpers: {
      years: 'ids',
      categories: 'ids',
      sectors: 'ids',
      countries: 'ids',
      regions: 'ids',
      studies: 'ids',
      country_codes: 'codes',
      year_numbers: 'ints',
      has_studies: 'flag',
    },
    includes: {
      company: one('companies', companySlim),
      sector: one('sectors', sectorSlim),
      studies: many('studies', studySlim),
      countries: many('countries', countrySlim),
    },
    search: ['name'],
    updatedSince: true,
  }),
  'brand-metrics': define(brandMetric)({
    path: 'brand-metrics',
    fieldsKey: 'brand_metrics',
    scope: 'Brand Metrics: Read',
    event: 'Brand Metric',
    slim: brandMetricSlim,
    fields: {
      id: exact,
      name: like,
      description: selectOnly,
      is_active: flag,
      is_public: flag,
      is_core: flag,
      is_legacy: flag,
      has_construct_score: flagNoSort,
      has_percentile_rank_score: flagNoSort,
      has_percentage_score: flagNoSort,
      has_value_score: flagNoSort,
      has_index_score: flagNoSort,
      // Not selectable through fields[...] (§11.4): always part of the full record.
      brandscape_data_columns: cap('none', false, false),
      ...timestamps,
    },
    helpers: {
      active: 'flag',
      inactive: 'flag',
      public: 'flag',
      private: 'flag',
      groups: 'ids',
      current: 'flag',
      legacy: 'flag',
      core: 'flag',
      custom: 'flag',
    },
    includes: { group: one('brand-metric-groups', brandMetricGroupSlim) },
    search: false,
    updatedSince: true,
  }),
  'brand-metric-groups': define(brandMetricGroup)({
    path: 'brand-metric-groups',
    fieldsKey: 'brand_metric_groups',
    scope: 'Brand Metric Groups: Read',
    slim: brandMetricGroupSlim,
    fields: { id: exact, name: like, key: like, description: like, is_public: flag, ...timestamps },
    helpers: { public: 'flag', private: 'flag' },
    includes: {
      metrics: many('brand-metrics', brandMetricSlim),
      // The resource page documents `metric`, the collections and v1 `metrics` (§22.5): both work.
      metric: { ...many('brand-metrics', brandMetricSlim), aliasOf: 'metrics' },
    },
    search: false,
    updatedSince: true,
  }),
  categories: define(category)({
    path: 'categories',
    fieldsKey: 'categories',
    scope: 'Categories: Read',
    slim: categorySlim,
    fields: { id: exact, name: like, ...timestamps },
    helpers: { sectors: 'ids' },
    includes: { sector: one('sectors', sectorSlim) },
    search: ['name'],
    updatedSince: true,
  }),
  cities: define(city)({
    path: 'cities',
    fieldsKey: 'cities',
    scope: 'Cities: Read',
    slim: citySlim,
    fields: {
      id: exact,
      name: like,
      latitude: like,
      longitude: like,
      timezone: like,
      population: like,
      elevation: like,
      digital_elevation_model: like,
      geonames_feature_code: like,
      created_at: like,
      updated_at: updatedAt,
    },
    helpers: { capitals: 'flag', regions: 'ids', countries: 'ids', in_best_countries: 'int' },
    includes: { country: one('countries', countrySlim) },
    search: false,
    updatedSince: true,
  }),
  collections: define(collection)({
    path: 'collections',
    fieldsKey: 'collections',
    scope: 'Collections: Read',
    event: 'Collection',
    slim: collectionSlim,
    fields: { id: exact, name: like, collection_type: like, uuid: like, ...timestamps },
    helpers: { public: 'flag', shared_with_me: 'flag', mine: 'flag' },
    includes: { brands: many('brands', brandSlim) },
    search: ['name'],
    updatedSince: true,
  }),
  companies: define(company)({
    path: 'companies',
    fieldsKey: 'companies',
    scope: 'Companies: Read',
    slim: companySlim,
    fields: {
      id: exact,
      name: like,
      description: likeNoSort,
      currency: like,
      isin: like,
      ipo_date: like,
      fiscal_year_end: like,
      street_address: like,
      state: like,
      postal_code: like,
      city: like,
      website_url: like,
      officers: anyNoSort,
      ...timestamps,
    },
    helpers: { public: 'flag', private: 'flag', brands: 'ids' },
    includes: {
      brand: one('brands', brandSlim),
      brands: many('brands', brandSlim),
      gics_sector: one('gics-sectors', gicsSectorSlim),
      stock_exchanges: many('stock-exchanges', stockExchangeSlim),
      country: one('countries', countrySlim),
      latest_financials: one('financials', annualResult),
      // Emulator extension: every fiscal year's results (the service documents only the latest).
      financials: many('financials', annualResult),
    },
    search: false,
    updatedSince: true,
  }),
  countries: define(country)({
    path: 'countries',
    fieldsKey: 'countries',
    scope: 'Countries: Read',
    slim: countrySlim,
    fields: {
      id: exact,
      is_active: flag,
      name: like,
      native_name: like,
      code: like,
      code_alpha3: like,
      code_numeric: like,
      capital: like,
      area: like,
      latitude: like,
      longitude: like,
      flag: selectOnly,
      created_at: like,
      updated_at: updatedAt,
    },
    helpers: {
      active: 'flag',
      regions: 'ids',
      with_studies: 'flag',
      with_recent_studies: 'int',
      in_best_countries: 'int',
    },
    includes: { region: one('regions', regionSlim) },
    search: ['name', 'native_name', 'code', 'code_alpha3', 'capital'],
    updatedSince: true,
  }),
  'gics-sectors': define(gicsSector)({
    path: 'gics-sectors',
    fieldsKey: 'gics_sectors',
    scope: 'GICS Sectors: Read',
    slim: gicsSectorSlim,
    fields: { id: exact, code: like, name: like, ...timestamps },
    helpers: {},
    includes: { companies: many('companies', companySlim) },
    search: false,
    updatedSince: true,
  }),
  regions: define(region)({
    path: 'regions',
    fieldsKey: 'regions',
    scope: 'Regions: Read',
    slim: regionSlim,
    fields: { id: exact, name: like, ...timestamps },
    helpers: {},
    includes: { countries: many('countries', countrySlim) },
    search: ['name'],
    updatedSince: true,
  }),
  sectors: define(sector)({
    path: 'sectors',
    fieldsKey: 'sectors',
    scope: 'Sectors: Read',
    slim: sectorSlim,
    fields: { id: exact, is_active: flag, name: like, excluded_for_most_influential: flag, ...timestamps },
    helpers: { in_most_influential: 'flag', not_in_most_influential: 'flag' },
    includes: { categories: many('categories', categorySlim) },
    search: ['name'],
    updatedSince: true,
  }),
  'stock-exchanges': define(stockExchange)({
    path: 'stock-exchanges',
    fieldsKey: 'stock_exchanges',
    scope: 'Stock Exchanges: Read',
    slim: stockExchangeSlim,
    fields: { id: exact, name: like, code: like, suffix: like, operating_mic: like, currency: like, ...timestamps },
    helpers: { countries: 'ids', country_codes: 'codes' },
    includes: { country: one('countries', countrySlim), companies: many('companies', companySlim) },
    search: false,
    updatedSince: true,
  }),
  'stock-prices': define(stockPrice)({
    path: 'stock-prices',
    fieldsKey: 'stock_prices',
    scope: 'Stock Prices: Read',
    slim: stockPriceSlim,
    fields: {
      id: exact,
      date: like,
      open_price: like,
      close_price: like,
      adjusted_close_price: like,
      high_price: like,
      low_price: like,
      trading_volume: like,
      ...timestamps,
    },
    helpers: { companies: 'ids', stock_exchanges: 'ids' },
    includes: { company: one('companies', companySlim), stock_exchange: one('stock-exchanges', stockExchangeSlim) },
    search: false,
    updatedSince: true,
  }),
  studies: define(study)({
    path: 'studies',
    fieldsKey: 'studies',
    scope: 'Studies: Read',
    event: 'Study',
    slim: studySlim,
    fields: {
      id: exact,
      name: like,
      is_active: flag,
      type: cap('any', true, true),
      period: cap('any', true, true),
      start_date: like,
      end_date: like,
      data_available_at: like,
      respondents: like,
      categories: like,
      data_updated_at: like,
      amount_of_cells: like,
      amount_of_brands: like,
      ...timestamps,
    },
    helpers: {
      data_updated_since: 'datetime',
      active: 'flag',
      inactive: 'flag',
      bav_study: 'flag',
      released: 'flag',
      unreleased: 'flag',
      full_year: 'flag',
      open_survey: 'flag',
      regions: 'ids',
      countries: 'ids',
      years: 'ids',
      country_codes: 'codes',
      year_numbers: 'ints',
    },
    includes: { country: one('countries', countrySlim), year: one('years', yearSlim) },
    search: ['name'],
    updatedSince: true,
  }),
  'study-brands': define(studyBrand)({
    // Brand-in-study relations of one study (§11.19). The fields key of a sub-resource is undocumented.
    path: 'studies/{id}/brands',
    fieldsKey: 'study_brands',
    scope: 'Studies: Read',
    slim: studyBrand,
    fields: { id: exact, brand_name: like, ...timestamps },
    helpers: { categories: 'ids', brands: 'ids' },
    includes: {
      country: one('countries', countrySlim),
      year: one('years', yearSlim),
      study: one('studies', studySlim),
      brand: one('brands', brandSlim),
      category: one('categories', categorySlim),
      // Nested include, documented once (§7.6): the category object gains its sector.
      'category.sector': { ...one('categories', categoryWithSectorSlim), aliasOf: 'category' },
    },
    search: false,
    updatedSince: true,
  }),
  'study-categories': define(studyCategory)({
    // Category-in-study relations of one study (§11.19; the path is REFERENCE's inference).
    path: 'studies/{id}/categories',
    fieldsKey: 'study_categories',
    scope: 'Studies: Read',
    slim: studyCategory,
    fields: { id: exact, category: cap('none', false, false), ...timestamps },
    helpers: { categories: 'ids', brands: 'ids' },
    includes: {
      country: one('countries', countrySlim),
      year: one('years', yearSlim),
      study: one('studies', studySlim),
      // Documented, though a category relation has no single brand: the emulator answers null.
      brand: one('brands', brandSlim),
      category: one('categories', categorySlim),
    },
    search: false,
    updatedSince: true,
  }),
  'operating-companies': define(operatingCompany)({
    path: 'operating-companies',
    fieldsKey: 'operating_companies',
    scope: 'Operating Companies: Read',
    slim: operatingCompanySlim,
    fields: { id: exact, name: like, ...timestamps },
    helpers: { parents: 'ids' },
    includes: { parent: one('operating-companies', operatingCompanySlim), brand: one('brands', brandSlim) },
    search: false,
    updatedSince: true,
  }),
  'cee-opinions': define(ceeOpinion)({
    // Columns undocumented (§11.8): the emulator's choice, every one filterable and sortable.
    path: 'cee-opinions',
    fieldsKey: 'cee_opinions',
    scope: 'CEE Opinions: Read',
    slim: ceeOpinionSlim,
    fields: {
      id: exact,
      study_id: exact,
      audience_id: exact,
      country_id: exact,
      year_id: exact,
      opinion_key: like,
      opinion: like,
      value: like,
      ...timestamps,
    },
    helpers: { years: 'ids', year_numbers: 'ints', studies: 'ids', audiences: 'ids', countries: 'ids', country_codes: 'codes' },
    includes: {
      study: one('studies', studySlim),
      country: one('countries', countrySlim),
      year: one('years', yearSlim),
      audience: one('audiences', audienceSlim),
    },
    search: false,
    updatedSince: true,
  }),
  tools: define(toolMetadata)({
    path: 'tools',
    fieldsKey: 'tools',
    scope: 'Tools: Read',
    slim: toolSlim,
    fields: {
      id: exact,
      name: like,
      slug: likeNoSort,
      short_description: selectOnly,
      description: selectOnly,
      documentation_url: selectOnly,
      api_documentation_url: selectOnly,
      api_endpoint_url: selectOnly,
      supported_parameters: selectOnly,
      required_parameters: selectOnly,
      multiple_choice_parameters: selectOnly,
      extra_parameters: selectOnly,
      export_formats: selectOnly,
      is_in_preview: flag,
      ...timestamps,
    },
    helpers: {},
    includes: {
      group: one('tool-groups', toolGroup),
      resources: many('tool-resources', toolResource),
      use_cases: many('tool-use-cases', toolUseCase),
    },
    search: false,
    updatedSince: true,
  }),
  'best-countries-metrics': define(bestCountriesMetric)({
    path: 'best-countries-metrics',
    fieldsKey: 'best_countries_metrics',
    scope: 'Best Countries: Read',
    slim: bestCountriesMetricSlim,
    fields: { id: exact, name: like, key: like, description: likeNoSort, type: like, group_id: exact, factor_id: exact, ...timestamps },
    helpers: { groups: 'ids', factors: 'ids' },
    includes: {},
    search: false,
    updatedSince: true,
  }),
  'best-countries-metric-groups': define(bestCountriesMetricGroup)({
    path: 'best-countries-metric-groups',
    fieldsKey: 'best_countries_metric_groups',
    scope: 'Best Countries: Read',
    slim: bestCountriesMetricGroupSlim,
    fields: { id: exact, name: like, key: like, description: likeNoSort, ...timestamps },
    helpers: {},
    includes: { metrics: many('best-countries-metrics', bestCountriesMetricSlim) },
    search: false,
    updatedSince: true,
  }),
  'best-countries-factors': define(bestCountriesFactor)({
    path: 'best-countries-factors',
    fieldsKey: 'best_countries_factors',
    scope: 'Best Countries: Read',
    slim: bestCountriesFactorSlim,
    fields: { id: exact, name: like, key: like, description: likeNoSort, weight: like, ...timestamps },
    helpers: {},
    includes: { metrics: many('best-countries-metrics', bestCountriesMetricSlim) },
    search: false,
    updatedSince: true,
  }),
  years: define(year)({
    path: 'years',
    fieldsKey: 'years',
    scope: 'Years: Read',
    slim: yearSlim,
    fields: { id: exact, year: exact, has_ogilvy_impact: flag, ...timestamps },
    helpers: {},
    includes: {},
    search: ['year'],
    updatedSince: true,
  }),
  'brandscape-data': define(brandscapeMeta)({
    path: 'brandscape-data',
    fieldsKey: 'brandscape_data',
    scope: 'Brandscape Data: Read',
    slim: brandscapeMeta,
    // Every field of a brandscape row is filterable, sortable and selectable (§12.4); metric columns
    // too, which are not listed here because they come from the metric catalogue.
    fields: {
      id: exact,
      study_id: exact,
      brand_id: exact,
      category_id: exact,
      audience_id: exact,
      country_id: exact,
      year_id: exact,
      brand_name: like,
      category_name: like,
      is_duplicate: flag,
    },
    helpers: {
      countries: 'ids',
      // Singular names on this endpoint, unlike `country_codes`/`year_numbers` elsewhere (§12.5).
      country_code: 'codes',
      years: 'ids',
      year_number: 'ints',
      brands: 'ids',
      categories: 'ids',
      audiences: 'ids',
      studies: 'ids',
      sectors: 'ids',
      companies: 'ids',
      brand_name: 'text',
    },
    includes: {
      study: one('studies', studySlim),
      year: one('years', yearSlim),
      country: one('countries', countrySlim),
      audience: one('audiences', audienceSlim),
      // Documented as `audiences`, used by the SDK as `audience` (§22.4): both work.
      audiences: { ...one('audiences', audienceSlim), aliasOf: 'audience' },
      brand: one('brands', brandSlim),
      category: one('categories', categorySlim),
      sector: one('sectors', sectorSlim),
      company: one('companies', companySlim),
    },
    search: false,
    updatedSince: false,
  }),
} as const;

export type Resources = typeof RESOURCES;
export type ResourceName = keyof Resources;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** Resources that accept `search=` (a type error elsewhere). */
export type SearchableResource = {
  [R in ResourceName]: Resources[R]['search'] extends false ? never : R;
}[ResourceName];

export type BrandscapeDimension = 'study' | 'audience' | 'brand' | 'category' | 'country' | 'year';

/**
 * The filter combinations that qualify a brandscape query (§12.6), written once: the client
 * refuses a query before sending it, the emulator answers 400, and both say the same from this
 * table. A combination qualifies when every `requires` dimension is filtered; `refines` lists the
 * dimensions that may narrow it further.
 */
export const BRANDSCAPE_CHAINS: readonly { readonly requires: readonly BrandscapeDimension[]; readonly refines: readonly BrandscapeDimension[] }[] = [
  { requires: ['study'], refines: ['audience', 'brand', 'category'] },
  { requires: ['country', 'year'], refines: ['audience'] },
  { requires: ['brand'], refines: ['audience', 'country', 'year'] },
];

/** Which helper filters stand for which dimension of the chains (the first is the one messages name). */
export const BRANDSCAPE_DIMENSION_FILTERS: Readonly<Record<BrandscapeDimension, readonly string[]>> = {
  study: ['studies'],
  audience: ['audiences'],
  brand: ['brands', 'brand_name'],
  category: ['categories'],
  country: ['countries', 'country_code'],
  year: ['years', 'year_number'],
};

/**
 * Whether a set of brandscape helper filters qualifies: some chain has every dimension it
 * requires filtered (a study, a brand, or a country together with a year).
 *
 * @example
 * isQualifyingBrandscapeFilter(['country_code', 'year_number', 'audiences']) // true
 * isQualifyingBrandscapeFilter(['country_code', 'audiences'])                 // false: no year
 */
export function isQualifyingBrandscapeFilter(filterNames: Iterable<string>): boolean {
  const names = new Set(filterNames);
  const filtered = (dimension: BrandscapeDimension) => BRANDSCAPE_DIMENSION_FILTERS[dimension].some((f) => names.has(f));
  return BRANDSCAPE_CHAINS.some((chain) => chain.requires.every(filtered));
}

/**
 * The accepted combinations in words, for error messages, from the same table.
 *
 * @example
 * BRANDSCAPE_COMBINATIONS_TEXT // 'filter[studies] (optionally with audiences, brands, categories); filter[countries] or filter[country_code] together with ...'
 */
export const BRANDSCAPE_COMBINATIONS_TEXT = BRANDSCAPE_CHAINS.map((chain) => {
  const required = chain.requires.map((d) => BRANDSCAPE_DIMENSION_FILTERS[d].map((f) => `filter[${f}]`).join(' or ')).join(' together with ');
  const refinements = chain.refines.map((d) => BRANDSCAPE_DIMENSION_FILTERS[d][0]).join(', ');
  return `${required} (optionally with ${refinements})`;
}).join('; ');

/** The archetypes tool (§14): not paginated, parameters are top-level, not `filter[...]`. */
export const ARCHETYPES_TOOL = {
  path: 'tools/archetypes',
  scope: 'Tools: Archetypes',
  params: { studies: 'ids', brands: 'ids', audiences: 'ids', collections: 'ids', categories: 'ids' },
  required: ['studies'],
} as const;

