/**
 * Lookups over the dataset that helper filters and includes need: records by id and a few derived
 * relations. Rebuilt after every publish (cheap: tens of milliseconds), never per request.
 */
import type {
  AudienceEntity,
  AudienceGroupEntity,
  BrandEntity,
  CategoryEntity,
  CityEntity,
  CollectionEntity,
  CompanyEntity,
  CountryEntity,
  Dataset,
  GicsSectorEntity,
  MetricEntity,
  MetricGroupEntity,
  RegionEntity,
  SectorEntity,
  StockExchangeEntity,
  StudyEntity,
  YearEntity,
} from '../dataset/types.js';

const byId = <E extends { record: { id: number } }>(rows: readonly E[]) => new Map(rows.map((e) => [e.record.id, e]));

export interface Indexes {
  regions: Map<number, RegionEntity>;
  countries: Map<number, CountryEntity>;
  countriesByCode: Map<string, CountryEntity>;
  years: Map<number, YearEntity>;
  yearIdByNumber: Map<number, number>;
  audienceGroups: Map<number, AudienceGroupEntity>;
  audiences: Map<number, AudienceEntity>;
  sectors: Map<number, SectorEntity>;
  categories: Map<number, CategoryEntity>;
  gicsSectors: Map<number, GicsSectorEntity>;
  stockExchanges: Map<number, StockExchangeEntity>;
  companies: Map<number, CompanyEntity>;
  brands: Map<number, BrandEntity>;
  collections: Map<number, CollectionEntity>;
  metricGroups: Map<number, MetricGroupEntity>;
  metrics: Map<number, MetricEntity>;
  metricsByKey: Map<string, MetricEntity>;
  metricGroupsByKey: Map<string, MetricGroupEntity>;
  studies: Map<number, StudyEntity>;
  /** Categories each brand was studied in, over every released study. */
  brandCategories: Map<number, Set<number>>;
  /** Countries with at least one study, released or not. */
  countriesWithStudies: Set<number>;
  /** Released BAV studies per country: their calendar years. */
  releasedYearsByCountry: Map<number, Set<number>>;
  /** Cities, loaded from the gazetteer on first use. */
  cities(): readonly CityEntity[];
  cityById(id: number): CityEntity | undefined;
}

export function createIndexes(ds: Dataset): Indexes {
  const brandCategories = new Map<number, Set<number>>();
  for (const studyId of ds.brandscape.studyIds()) {
    const rows = ds.brandscape.rowsOf(studyId);
    for (let i = 0; i < rows.length; i++) {
      const brandId = rows.brandIds[i] ?? 0;
      let set = brandCategories.get(brandId);
      if (!set) brandCategories.set(brandId, (set = new Set()));
      set.add(rows.categoryIds[i] ?? 0);
    }
  }
  const releasedYearsByCountry = new Map<number, Set<number>>();
  for (const study of ds.studies) {
    if (!study.released || !study.isBavStudy) continue;
    let set = releasedYearsByCountry.get(study.countryId);
    if (!set) releasedYearsByCountry.set(study.countryId, (set = new Set()));
    set.add(study.yearNumber);
  }
  let cityMap: Map<number, CityEntity> | undefined;
  const cityIndex = () => (cityMap ??= byId(ds.cities()));
  return {
    regions: byId(ds.regions),
    countries: byId(ds.countries),
    countriesByCode: new Map(ds.countries.flatMap((c) => [
      [(c.record.code ?? '').toUpperCase(), c] as const,
      [(c.record.code_alpha3 ?? '').toUpperCase(), c] as const,
    ])),
    years: byId(ds.years),
    yearIdByNumber: new Map(ds.years.map((y) => [y.record.year ?? 0, y.record.id])),
    audienceGroups: byId(ds.audienceGroups),
    audiences: byId(ds.audiences),
    sectors: byId(ds.sectors),
    categories: byId(ds.categories),
    gicsSectors: byId(ds.gicsSectors),
    stockExchanges: byId(ds.stockExchanges),
    companies: byId(ds.companies),
    brands: byId(ds.brands),
    collections: byId(ds.collections),
    metricGroups: byId(ds.metricGroups),
    metrics: byId(ds.metrics),
    metricsByKey: new Map(ds.metrics.map((m) => [m.key, m])),
    metricGroupsByKey: new Map(ds.metricGroups.map((g) => [g.record.key ?? '', g])),
    studies: byId(ds.studies),
    brandCategories,
    countriesWithStudies: new Set(ds.studies.map((s) => s.countryId)),
    releasedYearsByCountry,
    cities: () => ds.cities(),
    cityById: (id) => cityIndex().get(id),
  };
}
