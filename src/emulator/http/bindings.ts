/**
 * How each resource of the catalogue maps onto the dataset: which entities it lists, who may see
 * them, how its helper filters and includes are computed, and its slim shape when embedded
 * elsewhere. Field filters, search, sorting and paging are generic (list-engine.ts).
 */
import type { ResourceName } from '../../catalogue/endpoints.js';
import type {
  AudienceEntity,
  BrandEntity,
  CategoryEntity,
  CityEntity,
  CollectionEntity,
  CompanyEntity,
  CountryEntity,
  Dataset,
  Entity,
  GicsSectorEntity,
  MetricEntity,
  MetricGroupEntity,
  RegionEntity,
  SectorEntity,
  StockExchangeEntity,
  StudyEntity,
  AudienceGroupEntity,
  YearEntity,
} from '../dataset/types.js';
import { notFound } from './api-error.js';
import { bestCountriesOf, type BestCountriesFactorEntity, type BestCountriesGroupEntity, type BestCountriesMetricEntity } from '../dataset/best-countries.js';
import { ceeOpinionsOf, type CeeOpinionEntity } from '../dataset/cee-opinions.js';
import { operatingCompanies, type OperatingCompanyEntity } from '../dataset/operating-companies.js';
import { TOOL_ENTITIES, TOOL_GROUPS, TOOL_USE_CASES, type ToolEntity } from '../dataset/tool-catalogue.js';
import { fromCodeList, fromDateTime, fromFlag, fromIdList, fromInt } from './filter-values.js';
import type { Indexes } from './indexes.js';

export interface Ctx {
  ds: Dataset;
  idx: Indexes;
  /** The user the request's token acts as. */
  user: string;
  /** Parent id of a sub-resource (`/studies/{id}/brands`). */
  parentId?: number;
}

export type AnyEntity = Entity<{ id: number; updated_at?: string | null }>;
type Predicate<E> = (e: E) => boolean;
/** Returns null when the filter asks for nothing (a flag sent as 0). */
type Helper<E> = (value: string, ctx: Ctx, name: string) => Predicate<E> | null;

export interface Binding<E extends AnyEntity = AnyEntity> {
  rows(ctx: Ctx): readonly E[];
  /** 'forbidden' entities are left out of lists and answer 403 when asked for by id. */
  access?(e: E, ctx: Ctx): 'ok' | 'forbidden';
  helpers: Readonly<Record<string, Helper<E>>>;
  includes: Readonly<Record<string, (e: E, ctx: Ctx) => unknown>>;
}

// ---- slim shapes (§11, "Slim") ------------------------------------------------------------------

const idName = (r: { id: number; name?: string | null }) => ({ id: r.id, name: r.name ?? null });

export const slims = {
  region: (ctx: Ctx, id: number | null) => {
    const r = id === null ? undefined : ctx.idx.regions.get(id);
    return r ? idName(r.record) : null;
  },
  country: (ctx: Ctx, id: number | null) => {
    const c = id === null ? undefined : ctx.idx.countries.get(id);
    if (!c) return null;
    const r = c.record;
    return { id: r.id, name: r.name, region: slims.region(ctx, c.regionId), code: r.code, code_alpha3: r.code_alpha3, code_numeric: r.code_numeric };
  },
  // The slim year is documented with `year` as a string (§11.20).
  year: (ctx: Ctx, id: number | null) => {
    const y = id === null ? undefined : ctx.idx.years.get(id);
    return y ? { id: y.record.id, year: y.record.year === null ? null : String(y.record.year) } : null;
  },
  study: (ctx: Ctx, id: number | null) => {
    const s = id === null ? undefined : ctx.idx.studies.get(id);
    if (!s) return null;
    return { id: s.record.id, name: s.record.name, period: s.record.period, country: slims.country(ctx, s.countryId), year: slims.year(ctx, s.yearId) };
  },
  sector: (ctx: Ctx, id: number | null) => {
    const s = id === null ? undefined : ctx.idx.sectors.get(id);
    return s ? idName(s.record) : null;
  },
  brand: (ctx: Ctx, id: number | null) => {
    const b = id === null ? undefined : ctx.idx.brands.get(id);
    return b ? { id: b.record.id, name: b.record.name, sector: slims.sector(ctx, b.sectorId) } : null;
  },
  category: (ctx: Ctx, id: number | null) => {
    const c = id === null ? undefined : ctx.idx.categories.get(id);
    return c ? idName(c.record) : null;
  },
  categoryWithSector: (ctx: Ctx, id: number | null) => {
    const c = id === null ? undefined : ctx.idx.categories.get(id);
    return c ? { ...idName(c.record), sector: slims.sector(ctx, c.sectorId) } : null;
  },
  company: (ctx: Ctx, id: number | null) => {
    const c = id === null ? undefined : ctx.idx.companies.get(id);
    return c ? idName(c.record) : null;
  },
  audience: (ctx: Ctx, id: number | null) => {
    const a = id === null ? undefined : ctx.idx.audiences.get(id);
    if (!a) return null;
    const r = a.record;
    return { id: r.id, name: r.name, is_active: r.is_active, is_public: r.is_public, available_for_bav: r.available_for_bav, available_for_bc: r.available_for_bc };
  },
  audienceGroup: (ctx: Ctx, id: number | null) => {
    const g = id === null ? undefined : ctx.idx.audienceGroups.get(id);
    return g ? idName(g.record) : null;
  },
  metric: (ctx: Ctx, id: number | null) => {
    const m = id === null ? undefined : ctx.idx.metrics.get(id);
    return m ? { id: m.record.id, name: m.record.name, is_active: m.record.is_active } : null;
  },
  metricGroup: (ctx: Ctx, id: number | null) => {
    const g = id === null ? undefined : ctx.idx.metricGroups.get(id);
    return g ? idName(g.record) : null;
  },
  gicsSector: (ctx: Ctx, id: number | null) => {
    const g = id === null ? undefined : ctx.idx.gicsSectors.get(id);
    return g ? idName(g.record) : null;
  },
  stockExchange: (ctx: Ctx, id: number | null) => {
    const x = id === null ? undefined : ctx.idx.stockExchanges.get(id);
    if (!x) return null;
    const r = x.record;
    return { id: r.id, name: r.name, code: r.code, suffix: r.suffix, operating_mic: r.operating_mic };
  },
} as const;

const each = <T>(ids: readonly number[], slim: (ctx: Ctx, id: number) => T | null, ctx: Ctx) =>
  ids.map((id) => slim(ctx, id)).filter((v): v is T => v !== null);

// ---- helper filter builders -----------------------------------------------------------------

const idsOf =
  <E>(get: (e: E, ctx: Ctx) => number | null | readonly number[]): Helper<E> =>
  (value, ctx, name) => {
    const ids = fromIdList(name, value);
    return (e) => {
      const v = get(e, ctx);
      if (v === null) return false;
      return typeof v === 'number' ? ids.has(v) : v.some((id) => ids.has(id));
    };
  };

const flag =
  <E>(test: (e: E, ctx: Ctx) => boolean): Helper<E> =>
  (value, ctx, name) =>
    fromFlag(name, value) ? (e) => test(e, ctx) : null;

/** A helper that selects by a set derived from the value (e.g. country codes -> country ids). */
const derived =
  <E, K>(toKeys: (value: string, ctx: Ctx, name: string) => Set<K>, get: (e: E, ctx: Ctx) => readonly K[] | K | null): Helper<E> =>
  (value, ctx, name) => {
    const keys = toKeys(value, ctx, name);
    return (e) => {
      const v = get(e, ctx);
      if (v === null) return false;
      return Array.isArray(v) ? (v as readonly K[]).some((k) => keys.has(k)) : keys.has(v as K);
    };
  };

const countryIdsFromCodes = (value: string, ctx: Ctx) => {
  const out = new Set<number>();
  for (const code of fromCodeList(value)) {
    const c = ctx.idx.countriesByCode.get(code);
    if (c) out.add(c.record.id);
  }
  return out;
};

const releasedStudies = (e: BrandEntity, ctx: Ctx) => e.studyIds.filter((id) => ctx.idx.studies.get(id)?.released === true);
const studiesOf = (ids: readonly number[], ctx: Ctx) => ids.map((id) => ctx.idx.studies.get(id)).filter((s): s is StudyEntity => s !== undefined);

/** Private audiences belong to their owner (§11.1); other users do not see them. */
const audienceAccess = (a: AudienceEntity, ctx: Ctx) => (a.record.is_public === false && a.ownerUser !== ctx.user ? 'forbidden' : 'ok');

/** Public collections are visible to everyone, private ones to their creator and those it is shared with (§11.10). */
const collectionAccess = (c: CollectionEntity, ctx: Ctx) =>
  c.isPublic || c.ownerUser === ctx.user || c.sharedWith.includes(ctx.user) ? 'ok' : 'forbidden';

const metricIsPublic = (m: MetricEntity) => m.record.is_public !== false;

const bestCountriesMetricSlims = (ctx: Ctx, ids: readonly number[]) => {
  const metrics = bestCountriesOf(ctx.ds).metrics;
  return ids.map((id) => metrics[id - 1]?.record).flatMap((m) => (m ? [{ id: m.id, name: m.name, key: m.key }] : []));
};

// ---- bindings ---------------------------------------------------------------------------------

type StudyBrandEntity = ReturnType<Dataset['studyBrands']>[number];

/** A category-in-study relation: one per distinct category of the study's brand rows. */
interface StudyCategoryEntity {
  readonly record: { id: number; category: { id: number; name: string | null } | null; created_at: string | null; updated_at: string | null };
  readonly categoryId: number;
  readonly brandIds: ReadonlySet<number>;
}

const studyCategoryCache = new WeakMap<Dataset, Map<number, readonly StudyCategoryEntity[]>>();

/** Relation ids are the emulator's choice: `study id * 1000 + position` (stable, unique). */
function studyCategoriesOf(ctx: Ctx, studyId: number): readonly StudyCategoryEntity[] {
  let byStudy = studyCategoryCache.get(ctx.ds);
  if (!byStudy) studyCategoryCache.set(ctx.ds, (byStudy = new Map<number, readonly StudyCategoryEntity[]>()));
  const cached = byStudy.get(studyId);
  if (cached) return cached;
  const brandsOf = new Map<number, Set<number>>();
  let stamp: string | null = null;
  for (const row of ctx.ds.studyBrands(studyId)) {
    stamp ??= row.record.created_at;
    let set = brandsOf.get(row.categoryId);
    if (!set) brandsOf.set(row.categoryId, (set = new Set()));
    set.add(row.brandId);
  }
  const rows = [...brandsOf.keys()]
    .sort((a, b) => a - b)
    .map((categoryId, i) => ({
      categoryId,
      brandIds: brandsOf.get(categoryId) ?? new Set<number>(),
      record: { id: studyId * 1000 + i + 1, category: slims.category(ctx, categoryId), created_at: stamp, updated_at: stamp },
    }));
  byStudy.set(studyId, rows);
  return rows;
}

const parentStudy = (ctx: Ctx) => {
  const study = ctx.parentId === undefined ? undefined : ctx.idx.studies.get(ctx.parentId);
  if (!study) throw notFound(`No study with id ${ctx.parentId ?? '?'}.`);
  return study;
};

/** Checks a binding against its entity type, then erases the type for the generic engine. */
const bind = <E extends AnyEntity>(binding: Binding<E>): Binding => binding as unknown as Binding;

const bindings = {
  audiences: bind<AudienceEntity>({
    rows: (ctx) => ctx.ds.audiences,
    access: audienceAccess,
    helpers: {
      active: flag((a) => a.record.is_active === true),
      inactive: flag((a) => a.record.is_active === false),
      public: flag((a) => a.record.is_public === true),
      private: flag((a, ctx) => a.record.is_public === false && a.ownerUser === ctx.user),
      groups: idsOf((a) => a.groupId),
    },
    includes: { group: (a, ctx) => slims.audienceGroup(ctx, a.groupId) },
  }),
  'audience-groups': bind<AudienceGroupEntity>({
    rows: (ctx) => ctx.ds.audienceGroups,
    helpers: {},
    includes: {
      audiences: (g, ctx) =>
        ctx.ds.audiences.filter((a) => a.groupId === g.record.id && audienceAccess(a, ctx) === 'ok').map((a) => slims.audience(ctx, a.record.id)),
    },
  }),
  brands: bind<BrandEntity>({
    rows: (ctx) => ctx.ds.brands,
    helpers: {
      years: idsOf((b, ctx) => studiesOf(releasedStudies(b, ctx), ctx).map((s) => s.yearId)),
      categories: idsOf((b, ctx) => [...(ctx.idx.brandCategories.get(b.record.id) ?? [])]),
      sectors: idsOf((b) => b.sectorId),
      countries: idsOf((b, ctx) => studiesOf(releasedStudies(b, ctx), ctx).map((s) => s.countryId)),
      regions: idsOf((b, ctx) => studiesOf(releasedStudies(b, ctx), ctx).map((s) => ctx.idx.countries.get(s.countryId)?.regionId ?? 0)),
      studies: idsOf((b) => b.studyIds),
      country_codes: derived(countryIdsFromCodes, (b, ctx) => studiesOf(releasedStudies(b, ctx), ctx).map((s) => s.countryId)),
      year_numbers: derived((v, _ctx, name) => fromIdList(name, v), (b, ctx) => studiesOf(releasedStudies(b, ctx), ctx).map((s) => s.yearNumber)),
      has_studies: flag((b) => b.studyIds.length > 0),
    },
    includes: {
      company: (b, ctx) => slims.company(ctx, b.companyId),
      sector: (b, ctx) => slims.sector(ctx, b.sectorId),
      studies: (b, ctx) => each(releasedStudies(b, ctx), slims.study, ctx),
      countries: (b, ctx) => each(b.countryIds, slims.country, ctx),
    },
  }),
  'brand-metrics': bind<MetricEntity>({
    rows: (ctx) => ctx.ds.metrics,
    helpers: {
      active: flag((m) => m.record.is_active === true),
      inactive: flag((m) => m.record.is_active === false),
      public: flag((m) => metricIsPublic(m)),
      private: flag((m) => !metricIsPublic(m)),
      groups: idsOf((m) => m.groupId),
      current: flag((m) => m.isCurrent),
      legacy: flag((m) => m.record.is_legacy === true),
      core: flag((m) => m.record.is_core === true),
      custom: flag((m) => m.isCustom),
    },
    includes: { group: (m, ctx) => slims.metricGroup(ctx, m.groupId) },
  }),
  'brand-metric-groups': bind<MetricGroupEntity>({
    rows: (ctx) => ctx.ds.metricGroups,
    helpers: {
      public: flag((g) => g.record.is_public !== false),
      private: flag((g) => g.record.is_public === false),
    },
    includes: { metrics: (g, ctx) => each(g.metricIds, slims.metric, ctx) },
  }),
  categories: bind<CategoryEntity>({
    rows: (ctx) => ctx.ds.categories,
    helpers: { sectors: idsOf((c) => c.sectorId) },
    includes: { sector: (c, ctx) => slims.sector(ctx, c.sectorId) },
  }),
  cities: bind<CityEntity>({
    rows: (ctx) => ctx.idx.cities(),
    helpers: {
      capitals: flag((c) => c.isCapital),
      regions: idsOf((c, ctx) => ctx.idx.countries.get(c.countryId)?.regionId ?? null),
      countries: idsOf((c) => c.countryId),
      in_best_countries: (value, ctx, name) => {
        const year = fromInt(name, value);
        return (c) => ctx.idx.countries.get(c.countryId)?.bestCountriesYears.includes(year) === true;
      },
    },
    includes: { country: (c, ctx) => slims.country(ctx, c.countryId) },
  }),
  collections: bind<CollectionEntity>({
    rows: (ctx) => ctx.ds.collections,
    access: collectionAccess,
    helpers: {
      public: flag((c) => c.isPublic),
      shared_with_me: flag((c, ctx) => c.sharedWith.includes(ctx.user)),
      mine: flag((c, ctx) => c.ownerUser === ctx.user),
    },
    includes: { brands: (c, ctx) => each(c.brandIds, slims.brand, ctx) },
  }),
  companies: bind<CompanyEntity>({
    rows: (ctx) => ctx.ds.companies,
    helpers: {
      public: flag((c) => c.listings.length > 0),
      private: flag((c) => c.listings.length === 0),
      brands: idsOf((c) => c.brandIds),
    },
    includes: {
      brand: (c, ctx) => slims.brand(ctx, c.brandId),
      brands: (c, ctx) => each(c.brandIds, slims.brand, ctx),
      gics_sector: (c, ctx) => slims.gicsSector(ctx, c.gicsSectorId),
      stock_exchanges: (c, ctx) => each(c.listings.map((l) => l.exchangeId), slims.stockExchange, ctx),
      country: (c, ctx) => slims.country(ctx, c.countryId),
      latest_financials: (c) => c.financials.at(-1) ?? null,
      financials: (c) => c.financials,
    },
  }),
  countries: bind<CountryEntity>({
    rows: (ctx) => ctx.ds.countries,
    helpers: {
      active: flag((c) => c.record.is_active === true),
      regions: idsOf((c) => c.regionId),
      with_studies: flag((c, ctx) => ctx.idx.countriesWithStudies.has(c.record.id)),
      // Released syndicated BAV studies in the last X calendar years: 0 = the current year (§11.12).
      with_recent_studies: (value, ctx, name) => {
        const back = fromInt(name, value);
        const current = Number(ctx.ds.asOf.slice(0, 4));
        return (c) => [...(ctx.idx.releasedYearsByCountry.get(c.record.id) ?? [])].some((y) => y >= current - back && y <= current);
      },
      in_best_countries: (value, _ctx, name) => {
        const year = fromInt(name, value);
        return (c) => c.bestCountriesYears.includes(year);
      },
    },
    includes: { region: (c, ctx) => slims.region(ctx, c.regionId) },
  }),
  'gics-sectors': bind<GicsSectorEntity>({
    rows: (ctx) => ctx.ds.gicsSectors,
    helpers: {},
    includes: {
      companies: (g, ctx) => ctx.ds.companies.filter((c) => c.gicsSectorId === g.record.id).map((c) => slims.company(ctx, c.record.id)),
    },
  }),
  regions: bind<RegionEntity>({
    rows: (ctx) => ctx.ds.regions,
    helpers: {},
    includes: {
      countries: (r, ctx) => ctx.ds.countries.filter((c) => c.regionId === r.record.id).map((c) => slims.country(ctx, c.record.id)),
    },
  }),
  sectors: bind<SectorEntity>({
    rows: (ctx) => ctx.ds.sectors,
    helpers: {
      in_most_influential: flag((s) => s.record.excluded_for_most_influential === false),
      not_in_most_influential: flag((s) => s.record.excluded_for_most_influential === true),
    },
    includes: {
      categories: (s, ctx) => ctx.ds.categories.filter((c) => c.sectorId === s.record.id).map((c) => slims.category(ctx, c.record.id)),
    },
  }),
  'stock-exchanges': bind<StockExchangeEntity>({
    rows: (ctx) => ctx.ds.stockExchanges,
    helpers: {
      countries: idsOf((x) => x.countryId),
      country_codes: derived(countryIdsFromCodes, (x) => x.countryId),
    },
    includes: {
      country: (x, ctx) => slims.country(ctx, x.countryId),
      companies: (x, ctx) =>
        ctx.ds.companies.filter((c) => c.listings.some((l) => l.exchangeId === x.record.id)).map((c) => slims.company(ctx, c.record.id)),
    },
  }),
  studies: bind<StudyEntity>({
    rows: (ctx) => ctx.ds.studies,
    helpers: {
      data_updated_since: (value, _ctx, name) => {
        const since = fromDateTime(name, value);
        return (s) => s.record.data_updated_at !== null && Date.parse(s.record.data_updated_at) > since;
      },
      active: flag((s) => s.record.is_active === true),
      inactive: flag((s) => s.record.is_active === false),
      bav_study: flag((s) => s.isBavStudy),
      released: flag((s) => s.released),
      unreleased: flag((s) => !s.released),
      full_year: flag((s) => s.quarter === null),
      open_survey: flag((s) => s.openSurvey),
      regions: idsOf((s, ctx) => ctx.idx.countries.get(s.countryId)?.regionId ?? null),
      countries: idsOf((s) => s.countryId),
      years: idsOf((s) => s.yearId),
      country_codes: derived(countryIdsFromCodes, (s) => s.countryId),
      year_numbers: derived((v, _ctx, name) => fromIdList(name, v), (s) => s.yearNumber),
    },
    includes: {
      country: (s, ctx) => slims.country(ctx, s.countryId),
      year: (s, ctx) => slims.year(ctx, s.yearId),
    },
  }),
  'study-brands': bind<StudyBrandEntity>({
    rows: (ctx) => {
      const study = ctx.parentId === undefined ? undefined : ctx.idx.studies.get(ctx.parentId);
      if (!study) throw notFound(`No study with id ${ctx.parentId ?? '?'}.`);
      return ctx.ds.studyBrands(study.record.id);
    },
    helpers: {
      categories: idsOf((r) => r.categoryId),
      brands: idsOf((r) => r.brandId),
    },
    includes: {
      country: (_r, ctx) => slims.country(ctx, ctx.idx.studies.get(ctx.parentId ?? 0)?.countryId ?? null),
      year: (_r, ctx) => slims.year(ctx, ctx.idx.studies.get(ctx.parentId ?? 0)?.yearId ?? null),
      study: (_r, ctx) => slims.study(ctx, ctx.parentId ?? null),
      brand: (r, ctx) => slims.brand(ctx, r.brandId),
      category: (r, ctx) => slims.category(ctx, r.categoryId),
      'category.sector': (r, ctx) => slims.categoryWithSector(ctx, r.categoryId),
    },
  }),
  'study-categories': bind<StudyCategoryEntity>({
    rows: (ctx) => studyCategoriesOf(ctx, parentStudy(ctx).record.id),
    helpers: {
      categories: idsOf((r) => r.categoryId),
      brands: idsOf((r) => [...r.brandIds]),
    },
    includes: {
      country: (_r, ctx) => slims.country(ctx, parentStudy(ctx).countryId),
      year: (_r, ctx) => slims.year(ctx, parentStudy(ctx).yearId),
      study: (_r, ctx) => slims.study(ctx, ctx.parentId ?? null),
      brand: () => null,
      category: (r, ctx) => slims.category(ctx, r.categoryId),
    },
  }),
  'operating-companies': bind<OperatingCompanyEntity>({
    rows: () => operatingCompanies(),
    helpers: { parents: idsOf((o) => o.parentId) },
    includes: {
      parent: (o) => {
        const parent = operatingCompanies().find((p) => p.record.id === o.parentId);
        return parent ? idName(parent.record) : null;
      },
      brand: (o, ctx) => slims.brand(ctx, o.brandId),
    },
  }),
  'cee-opinions': bind<CeeOpinionEntity>({
    rows: (ctx) => ceeOpinionsOf(ctx.ds),
    helpers: {
      years: idsOf((o) => o.yearId),
      year_numbers: idsOf((o) => o.yearNumber),
      studies: idsOf((o) => o.studyId),
      audiences: idsOf((o) => o.audienceId),
      countries: idsOf((o) => o.countryId),
      country_codes: derived(countryIdsFromCodes, (o) => o.countryId),
    },
    includes: {
      study: (o, ctx) => slims.study(ctx, o.studyId),
      country: (o, ctx) => slims.country(ctx, o.countryId),
      year: (o, ctx) => slims.year(ctx, o.yearId),
      audience: (o, ctx) => slims.audience(ctx, o.audienceId),
    },
  }),
  tools: bind<ToolEntity>({
    rows: () => TOOL_ENTITIES,
    helpers: {},
    includes: {
      group: (t) => TOOL_GROUPS.find((g) => g.id === t.groupId) ?? null,
      resources: (t) => [{ id: t.record.id, title: `${t.record.name ?? ''}: a guide`, url: `https://fount.wppbav.com/guides/${t.record.slug ?? ''}` }],
      use_cases: (t) => TOOL_USE_CASES.filter((u) => t.useCaseIds.includes(u.id)),
    },
  }),
  'best-countries-metrics': bind<BestCountriesMetricEntity>({
    rows: (ctx) => bestCountriesOf(ctx.ds).metrics,
    helpers: { groups: idsOf((m) => m.record.group_id), factors: idsOf((m) => m.record.factor_id) },
    includes: {},
  }),
  'best-countries-metric-groups': bind<BestCountriesGroupEntity>({
    rows: (ctx) => bestCountriesOf(ctx.ds).groups,
    helpers: {},
    includes: { metrics: (g, ctx) => bestCountriesMetricSlims(ctx, g.metricIds) },
  }),
  'best-countries-factors': bind<BestCountriesFactorEntity>({
    rows: (ctx) => bestCountriesOf(ctx.ds).factors,
    helpers: {},
    includes: { metrics: (f, ctx) => bestCountriesMetricSlims(ctx, f.metricIds) },
  }),
  years: bind<YearEntity>({
    rows: (ctx) => ctx.ds.years,
    helpers: {},
    includes: {},
  }),
} satisfies Partial<Record<ResourceName, Binding>>;

export type BoundResource = keyof typeof bindings;

export function bindingOf(resource: string): Binding | undefined {
  return (bindings as Record<string, Binding | undefined>)[resource];
}
