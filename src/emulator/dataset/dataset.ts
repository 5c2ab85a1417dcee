/**
 * `createDataset()`: the emulator's seeded, deterministic dataset. Small resources are built as
 * entities at start-up; brandscape data, archetype scores and stock prices are generated on demand
 * by their stores; cities are loaded from the gazetteer on first use.
 *
 * @example
 * const ds = createDataset({ seed: 7, brands: 300 });
 * ds.brands.length; // 300
 * ds.brandscape.values(ds.brandscape.studyIds()[0], 1, [0]); // first metric column, All Adults
 */
import type { AnnualResult } from '../../schemas/companies.js';
import type { Study } from '../../schemas/studies.js';
import { createArchetypeStore } from './archetype-store.js';
import { createBrandscapeStore } from './brandscape-store.js';
import { loadCities } from './cities.js';
import {
  AUDIENCE_GROUPS,
  AUDIENCES,
  COUNTRIES,
  EXCHANGES,
  FIRST_YEAR,
  GICS_SECTORS,
  LAST_YEAR,
  METRIC_GROUPS,
  METRICS,
  NAME_PARTS,
  REGIONS,
  SECTORS,
  yearIdOf,
} from './reference-data.js';
import { createRng, h2, h3 } from './rng.js';
import { SCORE_TYPES } from '../../schemas/score-types.js';
import { createStockPriceStore } from './stock-price-store.js';
import { createStudies, type StudyModel } from './studies.js';
import {
  DEFAULT_USER,
  type BrandEntity,
  type CityEntity,
  type CollectionEntity,
  type CompanyEntity,
  type Dataset,
  type DatasetOptions,
  type PublishRequest,
  type PublishResult,
  type StudyEntity,
} from './types.js';
import { createWorld, toCurrency, toIsin, type BrandModel, type CompanyModel } from './world.js';

/** The data's "today": fixed, so that the same seed serves the same bytes on any day. */
export const AS_OF = '2025-11-14';
const AS_OF_MS = Date.parse(`${AS_OF}T00:00:00Z`);

/** Timestamps as the service writes them: ISO-8601 UTC with six fractional digits (§3.3). */
export const toStamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const dayStamp = (iso: string, time = '09:00:00') => `${iso}T${time}.000000Z`;
/** A deterministic moment in [from, to] (whole seconds). */
const between = (seed: number, key: number, salt: number, from: string, to: string) => {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  return toStamp(Math.floor((a + (h2(h2(seed, salt), key) / 4294967296) * (b - a)) / 1000) * 1000);
};

const US_STATES: Readonly<Record<string, string>> = { 'New York City': 'NY', Chicago: 'IL', 'San Francisco': 'CA', Seattle: 'WA', Atlanta: 'GA' };
const ROLES = ['Chief Executive Officer', 'Chief Financial Officer', 'Chief Marketing Officer'];

export function createDataset(options: DatasetOptions = {}): Dataset {
  const seed = options.seed ?? 1;
  const brandCount = options.brands ?? 2434;
  if (!Number.isInteger(brandCount) || brandCount < 1) throw new RangeError(`brands must be a positive integer, got ${brandCount}.`);
  const world = createWorld(seed, brandCount, AS_OF_MS);
  const studyModels = createStudies(world, seed);
  const countryByCode = new Map(COUNTRIES.map((c) => [c.code, c]));
  const countryById = new Map(COUNTRIES.map((c) => [c.id, c]));
  const stamp = (key: number, salt: number, from = '2020-01-15', to = '2023-06-30') => between(seed, key, salt, from, to);

  // ---- geography, years, audiences ------------------------------------------------------------------
  const regions = REGIONS.map((r) => ({ record: { id: r.id, name: r.name, created_at: stamp(r.id, 1), updated_at: stamp(r.id, 2, '2023-07-01', '2024-06-30') } }));
  const countries = COUNTRIES.map((c) => ({
    regionId: c.regionId,
    bestCountriesYears: Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => FIRST_YEAR + i).filter((y) => y >= (c.weight >= 0.9 ? FIRST_YEAR : c.weight > 0 ? 2021 : 2023)),
    record: {
      id: c.id,
      is_active: c.weight > 0,
      name: c.name,
      native_name: c.native,
      code: c.code,
      code_alpha3: c.alpha3,
      code_numeric: c.numeric,
      capital: c.capital,
      area: String(c.areaKm2),
      latitude: c.lat.toFixed(4),
      longitude: c.lon.toFixed(4),
      flag: `https://fount.wppbav.com/images/flags/${c.code.toLowerCase()}.svg`,
      created_at: stamp(c.id, 3),
      updated_at: stamp(c.id, 4, '2023-07-01', '2025-06-30'),
    },
  }));
  const years = Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => {
    const year = FIRST_YEAR + i;
    return { record: { id: yearIdOf(year), year, has_ogilvy_impact: year >= 2021, created_at: toStamp(Date.UTC(year - 1, 11, 1, 9)), updated_at: toStamp(Date.UTC(year, 11, 20, 9)) } };
  });
  const audienceGroups = AUDIENCE_GROUPS.map((g) => ({ record: { id: g.id, name: g.name, description: g.description, created_at: stamp(g.id, 5), updated_at: stamp(g.id, 6, '2023-07-01', '2025-06-30') } }));
  const audiences = AUDIENCES.map((a) => ({
    groupId: a.groupId,
    ownerUser: a.owner ?? null,
    record: {
      id: a.id,
      name: a.name,
      description: a.description,
      is_active: a.isActive ?? true,
      is_public: a.owner === undefined,
      available_for_bav: a.bav ?? true,
      available_for_bc: a.bc ?? false,
      bc_filters: a.bc ? [{ field: a.groupId === 2 ? 'gender' : a.groupId === 3 ? 'age' : a.groupId === 5 ? 'income' : 'segment', value: a.name }] : [],
      available_for_diversity: a.diversity ?? false,
      is_ethnic_minority: a.ethnicMinority ?? false,
      created_at: stamp(a.id, 7),
      updated_at: stamp(a.id, 8, '2023-07-01', '2025-06-30'),
    },
  }));

  // ---- sectors, categories, GICS, exchanges --------------------------------------------------------
  const sectors = SECTORS.map((s) => ({
    record: { id: s.id, is_active: s.weight > 0, name: s.name, excluded_for_most_influential: s.excluded, created_at: stamp(s.id, 9), updated_at: stamp(s.id, 10, '2023-07-01', '2025-06-30') },
  }));
  const categories = world.categories.map((c) => ({ sectorId: c.sectorId, record: { id: c.id, name: c.name, created_at: stamp(c.id, 11), updated_at: stamp(c.id, 12, '2023-07-01', '2025-06-30') } }));
  const gicsSectors = GICS_SECTORS.map((g) => ({ record: { id: g.id, code: g.code, name: g.name, created_at: stamp(g.id, 13), updated_at: stamp(g.id, 14) } }));
  const gicsIdByCode = new Map(GICS_SECTORS.map((g) => [g.code, g.id]));
  const stockExchanges = EXCHANGES.map((x) => ({
    countryId: countryByCode.get(x.country)?.id ?? 0,
    record: { id: x.id, name: x.name, code: x.code, suffix: x.suffix, operating_mic: x.mic, currency: x.currency, created_at: stamp(x.id, 15), updated_at: stamp(x.id, 16) },
  }));

  // ---- companies and brands ------------------------------------------------------------------------
  const companies: CompanyEntity[] = world.companies.map((c) => toCompanyEntity(c, seed, countryById, gicsIdByCode));
  const brandStudies = new Map<number, number[]>();
  for (const study of studyModels) {
    let last = -1;
    for (const brandId of study.rows.brandIds) {
      if (brandId === last) continue;
      last = brandId;
      let list = brandStudies.get(brandId);
      if (!list) brandStudies.set(brandId, (list = []));
      list.push(study.id);
    }
  }
  const toBrandEntity = (b: BrandModel, overrides: Partial<BrandEntity['record']> = {}): BrandEntity => ({
    sectorId: b.sectorId,
    companyId: b.companyId,
    countryIds: [b.homeCountryId, ...[...b.markets].filter(([id, m]) => m.localName !== null && id !== b.homeCountryId).map(([id]) => id)].sort((x, y) => x - y),
    studyIds: brandStudies.get(b.id) ?? [],
    record: {
      id: b.id,
      bav_brand_id: b.bavBrandId,
      bav_id: b.bavId,
      name: b.name,
      share_of_company: b.shareOfCompany,
      is_core: b.isCore,
      is_studied_globally: b.scope === 'global',
      url: `https://fount.wppbav.com/brands/${b.id}`,
      logo_url: `https://fount.wppbav.com/storage/logos/${b.id}.svg`,
      created_at: toStamp(b.createdMs),
      updated_at: toStamp(b.updatedMs),
      ...overrides,
    },
  });
  const brands: BrandEntity[] = world.brands.map((b) => toBrandEntity(b));
  const collections = createCollections(seed, world.brands, world.companies);

  // ---- metric catalogue -------------------------------------------------------------------------
  const metricGroups = METRIC_GROUPS.map((g) => ({
    metricIds: METRICS.flatMap((m, i) => (m.groupKey === g.key ? [i + 1] : [])),
    record: { id: g.id, name: g.name, key: g.key, description: g.description, is_public: g.isPublic, created_at: stamp(g.id, 17, '2020-01-15', '2020-06-30'), updated_at: stamp(g.id, 18, '2023-11-07', '2024-06-30') },
  }));
  const groupIdByKey = new Map(METRIC_GROUPS.map((g) => [g.key, g.id]));
  const metrics = METRICS.map((m, i) => {
    const columns = m.scoreTypes.map((t) => m.key + SCORE_TYPES[t].suffix);
    const isActive = m.isActive ?? true;
    return {
      groupId: groupIdByKey.get(m.groupKey) ?? 0,
      key: m.key,
      isCurrent: isActive && m.isLegacy !== true && columns.length > 0,
      isCustom: m.groupKey === 'client',
      record: {
        id: i + 1,
        name: m.name,
        description: m.description,
        is_active: isActive,
        is_public: m.isPublic ?? true,
        is_core: m.isCore ?? false,
        is_legacy: m.isLegacy ?? false,
        has_construct_score: m.scoreTypes.includes('c'),
        has_percentile_rank_score: m.scoreTypes.includes('rank'),
        has_percentage_score: m.scoreTypes.includes('pct'),
        has_value_score: m.scoreTypes.includes('value'),
        has_index_score: m.scoreTypes.includes('brandscape_index'),
        brandscape_data_columns: columns,
        created_at: stamp(i + 1, 19, '2020-01-15', '2020-06-30'),
        updated_at: stamp(i + 1, 20, '2023-01-01', '2025-06-30'),
      },
    };
  });

  // ---- studies -------------------------------------------------------------------------------------
  const studies: StudyEntity[] = studyModels.map((s) => toStudyEntity(s, countryById, s.released));
  const brandscape = createBrandscapeStore(world, studyModels, seed);
  const collectionBrands = new Map(collections.map((c) => [c.record.id, c.brandIds]));
  const archetypes = createArchetypeStore({ brandscape, collectionBrands: (id) => collectionBrands.get(id) });
  const stockPrices = createStockPriceStore(world.companies, seed, AS_OF_MS);

  let cities: CityEntity[] | undefined;
  const studyBrandCache = new Map<number, ReturnType<Dataset['studyBrands']>>();
  const modelById = new Map(studyModels.map((s) => [s.id, s]));
  const brandModelById = new Map(world.brands.map((b) => [b.id, b]));
  let brandCursor = h2(seed, 0xb4a2d) % Math.max(1, brands.length);

  const dataset: Dataset = {
    seed,
    asOf: AS_OF,
    regions,
    countries,
    years,
    audienceGroups,
    audiences,
    sectors,
    categories,
    gicsSectors,
    stockExchanges,
    companies,
    brands,
    collections,
    metricGroups,
    metrics,
    studies,
    brandscape,
    archetypes,
    stockPrices,
    cities: () => (cities ??= loadCities(COUNTRIES, toStamp(Date.parse('2023-08-15T10:00:00Z')))),
    studyBrands(studyId) {
      let rows = studyBrandCache.get(studyId);
      if (rows) return rows;
      const model = modelById.get(studyId);
      if (!model) return [];
      const created = dayStamp(`${model.year}-01-20`);
      rows = Array.from({ length: model.rows.length }, (_, i) => ({
        brandId: model.rows.brandIds[i] ?? 0,
        categoryId: model.rows.categoryIds[i] ?? 0,
        record: { id: model.rows.relationIds[i] ?? 0, brand_name: model.rows.brandNames[i] ?? null, created_at: created, updated_at: created },
      }));
      studyBrandCache.set(studyId, rows);
      return rows;
    },
    publish(request: PublishRequest, nowIso: string): PublishResult {
      if (request.kind === 'study') {
        const index = request.studyId === undefined ? studies.findIndex((s) => !s.released) : studies.findIndex((s) => s.record.id === request.studyId);
        const model = modelById.get(studies[index]?.record.id ?? -1);
        if (index < 0 || !model) throw new RangeError(request.studyId === undefined ? 'Every study is released already.' : `No study ${request.studyId}.`);
        if (model.released) throw new RangeError(`Study ${model.id} is released already.`);
        model.released = true;
        const released = toStudyEntity(model, countryById, true, nowIso);
        studies[index] = released;
        return { event: 'Study', action: 'update', records: [released.record] };
      }
      const count = request.brandIds?.length ?? request.count ?? 1;
      const ids = request.brandIds ?? Array.from({ length: count }, () => (brands[(brandCursor = (brandCursor + 1) % brands.length)]?.record.id ?? 1));
      const records = ids.map((id) => {
        const index = brands.findIndex((b) => b.record.id === id);
        const model = brandModelById.get(id);
        const current = brands[index];
        if (index < 0 || !model || !current) throw new RangeError(`No brand ${id}.`);
        // A new primary logo was approved: the brand's own record changes (§7.3: shallow timestamps).
        const version = Number(/\?v=(\d+)$/.exec(current.record.logo_url ?? '')?.[1] ?? 1) + 1;
        const updated = toBrandEntity(model, { logo_url: `https://fount.wppbav.com/storage/logos/${id}.svg?v=${version}`, updated_at: nowIso });
        brands[index] = updated;
        return updated.record;
      });
      return { event: 'Brand', action: 'update', records };
    },
  };
  return dataset;
}

function toStudyEntity(s: StudyModel, countryById: Map<number, (typeof COUNTRIES)[number]>, released: boolean, releasedAt?: string): StudyEntity {
  const country = countryById.get(s.countryId);
  const q = s.quarter;
  const startMonth = q === null ? 2 : (q - 1) * 3 + 1;
  const endMonth = q === null ? 5 : q * 3;
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastDay = new Date(Date.UTC(s.year, endMonth, 0)).getUTCDate();
  const availableMs = q === null ? Date.UTC(s.year, 8, 15, 8) : Date.UTC(s.year, endMonth, 15, 8);
  const available = released ? (releasedAt ?? toStamp(availableMs)) : null;
  const record: Study = {
    id: s.id,
    name: `${country?.short ?? 'Market'} - Adults ${s.year}${q === null ? '' : ` Q${q}`}`,
    is_active: true,
    // The shapes of `type` and `period` are undocumented (§11.19): {id, name} is our reading.
    type: q === null ? { id: 1, name: 'BAV Full Study' } : { id: 2, name: 'BAV Quarterly' },
    period: q === null ? { id: 1, name: 'Full Year' } : { id: 1 + q, name: `Q${q}` },
    start_date: `${s.year}-${pad(startMonth)}-01`,
    end_date: `${s.year}-${pad(endMonth)}-${pad(lastDay)}`,
    data_available_at: available,
    respondents: s.respondents,
    categories: s.categoryCount,
    data_updated_at: available,
    amount_of_cells: s.rows.length,
    amount_of_brands: s.brandCount,
    created_at: toStamp(Date.UTC(s.year, startMonth - 2, 10, 9)),
    updated_at: available ?? toStamp(Date.UTC(s.year, startMonth - 1, 1, 9)),
  };
  return {
    record,
    countryId: s.countryId,
    yearId: yearIdOf(s.year),
    yearNumber: s.year,
    quarter: q,
    isBavStudy: q === null,
    released,
    openSurvey: !released && q === null,
  };
}

function toCompanyEntity(
  c: CompanyModel,
  seed: number,
  countryById: Map<number, (typeof COUNTRIES)[number]>,
  gicsIdByCode: Map<string, number>,
): CompanyEntity {
  const rng = createRng(h2(seed, 0xc0 + c.id));
  const country = countryById.get(c.countryId);
  const city = country ? rng.pick(country.cities) : null;
  const sector = SECTORS.find((s) => s.id === c.sectorIds[0]);
  const slug = c.name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '').slice(0, 24);
  const primary = c.listings[0];
  const periodEnd = (fy: number) =>
    c.fiscalYearEnd === 'March' ? `${fy}-03-31` : c.fiscalYearEnd === 'June' ? `${fy}-06-30` : c.fiscalYearEnd === 'September' ? `${fy}-09-30` : `${fy}-12-31`;
  const financials: AnnualResult[] = c.financials.map((f) => ({
    fiscal_year: f.fiscalYear,
    period_end: periodEnd(f.fiscalYear),
    currency: c.currency,
    ticker: primary?.ticker ?? null,
    revenue: toCurrency(f.revenueUsd, c.currency),
    operating_income: toCurrency(f.operatingIncomeUsd, c.currency),
    net_income: toCurrency(f.netIncomeUsd, c.currency),
    market_cap: toCurrency(f.marketCapUsd, c.currency),
    employees: f.employees,
  }));
  const digits = String(h3(seed, c.id, 0x151).toString()).padStart(9, '0').slice(-9);
  return {
    countryId: c.countryId,
    gicsSectorId: sector?.gics === null || sector === undefined ? null : (gicsIdByCode.get(String(sector.gics)) ?? null),
    brandId: c.flagshipBrandId,
    brandIds: c.brandIds,
    listings: c.listings.map((l) => ({ exchangeId: l.exchangeId, ticker: l.ticker })),
    financials,
    record: {
      id: c.id,
      name: c.name,
      description: `${c.name} is a ${c.isPublic ? 'listed' : 'privately held'} ${sector?.name.toLowerCase() ?? ''} company headquartered in ${city ?? 'its home market'}, ${country?.name ?? ''}, owning ${c.brandIds.length} tracked brand${c.brandIds.length === 1 ? '' : 's'}.`,
      currency: c.currency,
      isin: c.isPublic && country ? toIsin(country.code, digits) : null,
      ipo_date: c.ipoYear === null ? null : `${c.ipoYear}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
      fiscal_year_end: c.fiscalYearEnd,
      street_address: `${rng.int(1, 400)} ${rng.pick(NAME_PARTS.streets)}`,
      state: city ? (US_STATES[city] ?? null) : null,
      postal_code: String(rng.int(10000, 99999)),
      city,
      website_url: `https://www.${slug}.com`,
      officers: ROLES.map((role) => ({ name: `${rng.pick(NAME_PARTS.firstNames)} ${rng.pick(NAME_PARTS.lastNames)}`, role })),
      created_at: toStamp(c.createdMs),
      updated_at: toStamp(c.updatedMs),
    },
  };
}

/** A UUID v4 made from the seed (collections' public identifiers). */
function uuidOf(seed: number, id: number): string {
  const hex = [0, 1, 2, 3].map((k) => h3(seed, id, k).toString(16).padStart(8, '0')).join('');
  const variant = '89ab'[h2(seed, id) % 4] ?? '8';
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Competitive sets: public sector leaders, cross-sector sets and company portfolios, plus private
 * sets of the default user, of another user, and one shared with the default user (§11.10).
 */
function createCollections(seed: number, brands: readonly BrandModel[], companies: readonly CompanyModel[]): CollectionEntity[] {
  const reach = (b: BrandModel) => b.markets.size * 10 + (b.factors[3] ?? 0);
  const byReach = [...brands].sort((a, b) => reach(b) - reach(a) || a.id - b.id);
  const sets: { name: string; brandIds: number[]; owner: string; isPublic: boolean; sharedWith: string[] }[] = [];
  const add = (name: string, list: readonly BrandModel[], owner = 'fount-team', isPublic = true, sharedWith: string[] = []) => {
    if (list.length >= 2) sets.push({ name, brandIds: list.map((b) => b.id).sort((x, y) => x - y), owner, isPublic, sharedWith });
  };
  add('Global icons', byReach.slice(0, 20));
  const influential = new Set(SECTORS.filter((s) => !s.excluded).map((s) => s.id));
  add('Most influential brands', [...brands].filter((b) => influential.has(b.sectorId)).sort((a, b) => reach(b) + (b.factors[2] ?? 0) - (reach(a) + (a.factors[2] ?? 0)) || a.id - b.id).slice(0, 25));
  for (const sector of SECTORS) add(`${sector.name} leaders`, byReach.filter((b) => b.sectorId === sector.id).slice(0, 12));
  const tech = new Set([9, 13, 19]);
  add('Tech & telecom watchlist', byReach.filter((b) => tech.has(b.sectorId)).slice(0, 10), DEFAULT_USER, false);
  add('Client set: grocery retail', byReach.filter((b) => b.sectorId === 16).slice(2, 10), DEFAULT_USER, false);
  add('Competitor review (confidential)', byReach.filter((b) => b.sectorId === 3).slice(0, 8), 'someone-else', false);
  add('Pitch set: challenger banks', byReach.filter((b) => b.sectorId === 3).slice(3, 11), 'strategy-team', false, [DEFAULT_USER]);
  for (const company of [...companies].sort((a, b) => b.brandIds.length - a.brandIds.length || a.id - b.id).slice(0, 5)) {
    add(`${company.name} portfolio`, company.brandIds.map((id) => brands[id - 1]).filter((b): b is BrandModel => b !== undefined));
  }
  return sets.map((s, i) => {
    const id = i + 1;
    const created = between(seed, id, 21, '2020-06-01', '2023-12-31');
    return {
      brandIds: s.brandIds,
      ownerUser: s.owner,
      isPublic: s.isPublic,
      sharedWith: s.sharedWith,
      record: { id, name: s.name, collection_type: s.isPublic ? 'public' : 'private', uuid: uuidOf(seed, id), created_at: created, updated_at: between(seed, id, 22, '2024-01-01', AS_OF) },
    };
  });
}
