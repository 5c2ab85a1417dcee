/**
 * The world behind the emulator's data: companies and the brands they own, where each brand is
 * studied and in which categories, and the latent traits that drive every score.
 *
 * The model, in short: every brand has eight latent factors (FACTORS) made of a sector profile, a
 * company "family resemblance" and its own part, each drifting slowly over the years (a brand
 * trend plus a sector trend). A metric is a weighted mix of factors plus a part of its own. What a
 * market sees adds a persistent brand-in-market deviation (so markets correlate but differ), the
 * brand's reach there (known at home, less so abroad), a market response style, yearly noise,
 * audience skews and sampling noise (brandscape-store.ts). Companies' results and share prices
 * follow their brands' trends, so company and brand views tell one story.
 */
import {
  COUNTRIES,
  FACTORS,
  FIRST_YEAR,
  LAST_YEAR,
  NAME_PARTS,
  SECTORS,
  USD_PER,
  type CountryDef,
  type FactorName,
  type SectorDef,
} from './reference-data.js';
import { createRng, h3, unit, type Rng } from './rng.js';

export type Reach = 'global' | 'regional' | 'local';

export interface CategoryModel {
  id: number;
  name: string;
  sectorId: number;
}

export interface BrandMarket {
  /** Categories the brand is studied in in this market (first = its main one). */
  categoryIds: number[];
  /** The brand's name in this market's survey when it differs from the global name. */
  localName: string | null;
  /** First year the brand is studied in this market. */
  fromYear: number;
}

export interface BrandModel {
  id: number;
  name: string;
  sectorId: number;
  companyId: number;
  scope: Reach;
  homeCountryId: number;
  factors: Float64Array;
  /** Yearly drift of each factor (brand trend plus sector trend). */
  trends: Float64Array;
  /** How the brand skews along the audience axes (age, gender, income). */
  ageSkew: number;
  genderSkew: number;
  incomeSkew: number;
  /** Last year the brand is studied anywhere (brands are retired too). */
  lastYear: number;
  markets: Map<number, BrandMarket>;
  isCore: boolean;
  bavBrandId: number;
  bavId: number;
  shareOfCompany: number | null;
  createdMs: number;
  updatedMs: number;
}

export interface ListingModel {
  exchangeId: number;
  ticker: string;
  currency: string;
}

export interface FinancialYear {
  fiscalYear: number;
  revenueUsd: number;
  operatingIncomeUsd: number;
  netIncomeUsd: number;
  marketCapUsd: number;
  employees: number;
  /** Growth of the year (drives the share price). */
  growth: number;
}

export interface CompanyModel {
  id: number;
  name: string;
  countryId: number;
  sectorIds: number[];
  size: number;
  reach: Reach;
  brandIds: number[];
  flagshipBrandId: number | null;
  isPublic: boolean;
  listings: ListingModel[];
  financials: FinancialYear[];
  currency: string;
  fiscalYearEnd: string;
  ipoYear: number | null;
  createdMs: number;
  updatedMs: number;
}

export interface World {
  categories: CategoryModel[];
  brands: BrandModel[];
  companies: CompanyModel[];
  /** Countries where BAV studies are run (weight > 0). */
  markets: CountryDef[];
}

const MAJOR_HOMES: Readonly<Record<string, number>> = { US: 9, GB: 3, DE: 3, FR: 3, JP: 3, CH: 2, NL: 1.5, SE: 1, KR: 1.5, CN: 2, IT: 1.5, ES: 1 };
const EXCHANGE_OF_COUNTRY: Readonly<Record<string, number>> = {
  US: 1, GB: 3, FR: 4, DE: 5, JP: 6, CN: 8, IN: 9, BR: 10, CA: 11, AU: 12, CH: 13, ES: 14, IT: 15, KR: 16, NL: 17, SE: 18, MX: 19, ZA: 20, SA: 21, SG: 22, TH: 23, TR: 24, ID: 25, PL: 26,
};
const EXCHANGE_SUFFIX: Readonly<Record<number, string>> = {
  1: '.US', 2: '.US', 3: '.L', 4: '.PA', 5: '.DE', 6: '.T', 7: '.SS', 8: '.HK', 9: '.NS', 10: '.SA', 11: '.TO', 12: '.AX', 13: '.SW', 14: '.MC', 15: '.MI', 16: '.KS', 17: '.AS', 18: '.ST', 19: '.MX', 20: '.JO', 21: '.SR', 22: '.SI', 23: '.BK', 24: '.IS', 25: '.JK', 26: '.WA',
};
const EXCHANGE_CURRENCY: Readonly<Record<number, string>> = {
  1: 'USD', 2: 'USD', 3: 'GBP', 4: 'EUR', 5: 'EUR', 6: 'JPY', 7: 'CNY', 8: 'HKD', 9: 'INR', 10: 'BRL', 11: 'CAD', 12: 'AUD', 13: 'CHF', 14: 'EUR', 15: 'EUR', 16: 'KRW', 17: 'EUR', 18: 'SEK', 19: 'MXN', 20: 'ZAR', 21: 'SAR', 22: 'SGD', 23: 'THB', 24: 'TRY', 25: 'IDR', 26: 'PLN',
};

/** Picks an item with probability proportional to its weight. */
function weighted<T>(rng: Rng, items: readonly T[], weightOf: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weightOf(item), 0);
  let r = rng.next() * total;
  for (const item of items) {
    r -= weightOf(item);
    if (r < 0) return item;
  }
  const last = items.at(-1);
  if (last === undefined) throw new Error('weighted() from an empty list');
  return last;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Brand-like names: invented words, sometimes with a word of the sector ("Lumora Bank"). */
function createNamer(rng: Rng) {
  const used = new Set<string>();
  const word = () => {
    const middle = rng.chance(0.45) ? rng.pick(NAME_PARTS.middles) : '';
    return cap(`${rng.pick(NAME_PARTS.starts)}${middle}${rng.pick(NAME_PARTS.ends)}`.toLowerCase());
  };
  const candidate = (sector: SectorDef): string => {
    const r = rng.next();
    if (r < 0.5) return word();
    if (r < 0.7) return `${word()} ${rng.pick(sector.nameWords)}`;
    if (r < 0.85) return `${rng.pick(NAME_PARTS.words)}${rng.pick(NAME_PARTS.ends)}`;
    return `${rng.pick(NAME_PARTS.words)} ${word()}`;
  };
  return {
    brand(sector: SectorDef): string {
      for (let attempt = 0; attempt < 50; attempt++) {
        const name = candidate(sector);
        if (!used.has(name.toLowerCase())) {
          used.add(name.toLowerCase());
          return name;
        }
      }
      // Practically unreachable; keeps names unique whatever the seed.
      let n = 2;
      const base = candidate(sector);
      while (used.has(`${base} ${n}`.toLowerCase())) n += 1;
      used.add(`${base} ${n}`.toLowerCase());
      return `${base} ${n}`;
    },
    company(): string {
      for (;;) {
        const name = rng.chance(0.5) ? `${word()} ${rng.pick(NAME_PARTS.corporate)}` : `${rng.pick(NAME_PARTS.words)}${rng.pick(NAME_PARTS.ends)} ${rng.pick(NAME_PARTS.corporate)}`;
        if (!used.has(name.toLowerCase())) {
          used.add(name.toLowerCase());
          return name;
        }
      }
    },
  };
}

/** An ISIN for a company of a country: country code, nine characters, Luhn check digit (ISO 6166). */
export function toIsin(countryCode: string, digits: string): string {
  const body = `${countryCode}${digits}`;
  const expanded = [...body].map((ch) => (/[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch)).join('');
  let sum = 0;
  for (let i = 0; i < expanded.length; i++) {
    let d = Number(expanded[expanded.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

function tickerOf(name: string, taken: Set<string>): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  const consonants = letters.replace(/[AEIOU]/g, '');
  const options = [letters.slice(0, 3), letters.slice(0, 4), `${letters[0] ?? 'X'}${consonants.slice(1, 3)}`, `${letters.slice(0, 2)}${consonants.slice(-2)}`];
  for (const option of options) {
    if (option.length >= 2 && !taken.has(option)) {
      taken.add(option);
      return option;
    }
  }
  let n = 1;
  while (taken.has(`${letters.slice(0, 3)}${n}`)) n += 1;
  taken.add(`${letters.slice(0, 3)}${n}`);
  return `${letters.slice(0, 3)}${n}`;
}

const factorIndex = (name: FactorName) => FACTORS.indexOf(name);

export function createWorld(seed: number, brandCount: number, asOfMs: number): World {
  const rng = createRng(seed);
  const namer = createNamer(rng.fork(1));
  const markets = COUNTRIES.filter((c) => c.weight > 0);
  const activeSectors = SECTORS.filter((s) => s.weight > 0);
  const countryById = new Map(COUNTRIES.map((c) => [c.id, c]));

  // Categories: global names; which of them a market uses differs (see categoriesInMarket).
  const categories: CategoryModel[] = [];
  for (const sector of SECTORS) for (const name of sector.categories) categories.push({ id: categories.length + 1, name, sectorId: sector.id });
  const categoriesOf = new Map<number, CategoryModel[]>();
  for (const category of categories) categoriesOf.set(category.sectorId, [...(categoriesOf.get(category.sectorId) ?? []), category]);

  // ---- companies ------------------------------------------------------------------------------
  const companyRng = rng.fork(2);
  const companyCount = Math.max(8, Math.round(brandCount * 0.27));
  const drafts = Array.from({ length: companyCount }, () => ({
    size: Math.min(60, (1 - companyRng.next()) ** (-1 / 1.25)),
    primary: weighted(companyRng, activeSectors, (s) => s.weight),
    secondary: companyRng.chance(0.35) ? weighted(companyRng, activeSectors, (s) => s.weight) : null,
    factor: Float64Array.from(FACTORS, () => companyRng.normal() * 0.4),
    roll: companyRng.next(),
  }));
  const bySize = [...drafts.keys()].sort((a, b) => (drafts[b]?.size ?? 0) - (drafts[a]?.size ?? 0));
  const reachOf = new Map<number, Reach>(bySize.map((index, rank) => [index, rank < companyCount * 0.12 ? 'global' : rank < companyCount * 0.37 ? 'regional' : 'local']));
  const majorHomes = markets.filter((m) => MAJOR_HOMES[m.code] !== undefined);

  // Brands per company: one each, the rest in proportion to size (largest remainder).
  const totalSize = drafts.reduce((sum, d) => sum + d.size, 0);
  const extra = Math.max(0, brandCount - companyCount);
  const quotas = drafts.map((d) => (extra * d.size) / totalSize);
  const counts = quotas.map((q) => 1 + Math.floor(q));
  let missing = brandCount - counts.reduce((a, b) => a + b, 0);
  const byRemainder = [...quotas.keys()].sort((a, b) => ((quotas[b] ?? 0) % 1) - ((quotas[a] ?? 0) % 1));
  for (let i = 0; missing > 0; i = (i + 1) % byRemainder.length, missing--) {
    const index = byRemainder[i] ?? 0;
    counts[index] = (counts[index] ?? 0) + 1;
  }
  // With fewer brands than companies some companies get none: drop those.
  let kept = drafts.map((d, i) => ({ d, i, count: counts[i] ?? 0 }));
  if (brandCount < companyCount) kept = kept.slice(0, brandCount).map((k) => ({ ...k, count: 1 }));

  const companies: CompanyModel[] = [];
  const brands: BrandModel[] = [];
  const brandRng = rng.fork(3);
  const yearMs = (y: number, dayOfYear = 0) => Date.UTC(y, 0, 1) + dayOfYear * 86_400_000;
  const stampBetween = (r: Rng, fromMs: number, toMs: number) => Math.floor((fromMs + r.next() * (toMs - fromMs)) / 1000) * 1000;

  const brandDrafts: { companyIndex: number; sector: SectorDef; scope: Reach; home: CountryDef }[] = [];
  for (const { d, i, count } of kept) {
    const reach = reachOf.get(i) ?? 'local';
    const home = reach === 'global' ? weighted(companyRng, majorHomes, (m) => MAJOR_HOMES[m.code] ?? 1) : weighted(companyRng, markets, (m) => m.weight);
    const companyIndex = companies.length;
    const sectorIds = [d.primary.id, ...(d.secondary && d.secondary.id !== d.primary.id ? [d.secondary.id] : [])];
    const fiscal = home.code === 'JP' || home.code === 'IN' ? (d.roll < 0.7 ? 'March' : 'December') : home.code === 'AU' ? (d.roll < 0.6 ? 'June' : 'December') : d.roll < 0.85 ? 'December' : 'September';
    const createdMs = stampBetween(companyRng, yearMs(2019, 40), yearMs(2021));
    companies.push({
      id: companyIndex + 1,
      name: '',
      countryId: home.id,
      sectorIds,
      size: d.size,
      reach,
      brandIds: [],
      flagshipBrandId: null,
      isPublic: false,
      listings: [],
      financials: [],
      currency: home.currency,
      fiscalYearEnd: fiscal,
      ipoYear: null,
      createdMs,
      updatedMs: stampBetween(companyRng, createdMs, asOfMs),
    });
    for (let k = 0; k < count; k++) {
      const sector = d.secondary && brandRng.chance(0.25) ? d.secondary : d.primary;
      const r = brandRng.next();
      const scope: Reach =
        reach === 'global' ? (r < 0.55 ? 'global' : r < 0.85 ? 'regional' : 'local') : reach === 'regional' ? (r < 0.6 ? 'regional' : 'local') : r < 0.1 ? 'regional' : 'local';
      let brandHome = home;
      if (brandRng.chance(scope === 'local' ? 0.15 : 0.2)) {
        const sameRegion = markets.filter((m) => m.regionId === home.regionId);
        brandHome = brandRng.pick(sameRegion.length > 0 ? sameRegion : markets);
      }
      brandDrafts.push({ companyIndex, sector, scope, home: brandHome });
    }
  }

  // Brand ids in shuffled order, so one company's brands are spread over the id range.
  const order = brandRng.shuffle([...brandDrafts.keys()]);
  const bavBrandIds = new Set<number>();
  for (const [position, draftIndex] of order.entries()) {
    const draft = brandDrafts[draftIndex];
    if (!draft) continue;
    const company = companies[draft.companyIndex];
    const companyDraft = kept[draft.companyIndex]?.d;
    if (!company || !companyDraft) continue;
    const id = position + 1;
    const factors = new Float64Array(FACTORS.length);
    const trends = new Float64Array(FACTORS.length);
    const rising = brandRng.chance(0.08);
    const declining = !rising && brandRng.chance(0.07);
    for (let f = 0; f < FACTORS.length; f++) {
      const name = FACTORS[f] as FactorName;
      factors[f] = (draft.sector.profile[name] ?? 0) + 0.35 * (companyDraft.factor[f] ?? 0) + 0.85 * brandRng.normal();
      trends[f] = (draft.sector.trend[name] ?? 0) + 0.04 * brandRng.normal();
    }
    // Familiarity follows reach: a global brand is known nearly everywhere.
    factors[factorIndex('familiarity')] = (factors[factorIndex('familiarity')] ?? 0) + (draft.scope === 'global' ? 0.9 : draft.scope === 'regional' ? 0.2 : -0.2);
    if (rising) {
      trends[factorIndex('energy')] = (trends[factorIndex('energy')] ?? 0) + 0.12;
      trends[factorIndex('relevance')] = (trends[factorIndex('relevance')] ?? 0) + 0.06;
    }
    if (declining) {
      trends[factorIndex('regard')] = (trends[factorIndex('regard')] ?? 0) - 0.1;
      trends[factorIndex('energy')] = (trends[factorIndex('energy')] ?? 0) - 0.1;
    }
    let bavBrandId = 0;
    while (bavBrandId === 0 || bavBrandIds.has(bavBrandId)) bavBrandId = brandRng.int(-60000, 60000);
    bavBrandIds.add(bavBrandId);
    const createdMs = stampBetween(brandRng, yearMs(2019, 60), yearMs(2022));
    brands.push({
      id,
      name: namer.brand(draft.sector),
      sectorId: draft.sector.id,
      companyId: company.id,
      scope: draft.scope,
      homeCountryId: draft.home.id,
      factors,
      trends,
      ageSkew: 0.45 * brandRng.normal(),
      genderSkew: 0.3 * brandRng.normal(),
      incomeSkew: 0.35 * brandRng.normal(),
      lastYear: brandRng.chance(0.04) ? brandRng.int(2021, 2024) : LAST_YEAR,
      markets: new Map(),
      isCore: brandRng.chance(draft.scope === 'global' ? 0.5 : draft.scope === 'regional' ? 0.15 : 0.05),
      bavBrandId,
      bavId: 10000 + id * 3 + brandRng.int(0, 2),
      shareOfCompany: null,
      createdMs,
      updatedMs: stampBetween(brandRng, Math.max(createdMs, yearMs(2021)), asOfMs),
    });
    company.brandIds.push(id);
  }
  for (const company of companies) company.brandIds.sort((a, b) => a - b);

  // ---- where each brand is studied ----------------------------------------------------------------
  const marketRng = rng.fork(4);
  const available = (countryId: number, categoryId: number) => unit(h3(seed ^ 0x0ca7, countryId, categoryId)) < 0.85;
  for (const brand of brands) {
    const sectorCategories = categoriesOf.get(brand.sectorId) ?? [];
    const main = marketRng.pick(sectorCategories);
    const home = countryById.get(brand.homeCountryId);
    const firstYear = marketRng.chance(0.85) ? FIRST_YEAR : marketRng.int(FIRST_YEAR + 1, LAST_YEAR - 1);
    for (const market of markets) {
      const isHome = market.id === brand.homeCountryId;
      const sameRegion = market.regionId === home?.regionId;
      const p = isHome ? 1 : brand.scope === 'global' ? 0.9 : brand.scope === 'regional' ? (sameRegion ? 0.7 : 0.05) : sameRegion ? 0.03 : 0;
      if (!marketRng.chance(p)) continue;
      const inMarket = sectorCategories.filter((c) => available(market.id, c.id));
      const preferred = marketRng.chance(0.85) ? main : marketRng.pick(sectorCategories);
      const first = available(market.id, preferred.id) || inMarket.length === 0 ? preferred : (inMarket[0] ?? preferred);
      const categoryIds = [first.id];
      const others = inMarket.filter((c) => c.id !== first.id);
      if (others.length > 0 && marketRng.chance(0.2)) {
        categoryIds.push(marketRng.pick(others).id);
        const rest = others.filter((c) => !categoryIds.includes(c.id));
        if (rest.length > 0 && marketRng.chance(0.2)) categoryIds.push(marketRng.pick(rest).id);
      }
      categoryIds.sort((a, b) => a - b);
      // Foreign brands are sometimes surveyed under a local name (§12.3: brand_name is local).
      const localName = !isHome && market.localSuffix !== '' && brand.scope !== 'local' && marketRng.chance(0.15) ? `${brand.name}${market.localSuffix}` : null;
      const fromYear = isHome ? firstYear : Math.max(firstYear, marketRng.chance(0.9) ? FIRST_YEAR : marketRng.int(FIRST_YEAR + 1, LAST_YEAR - 1));
      brand.markets.set(market.id, { categoryIds, localName, fromYear });
    }
  }

  // ---- company names, flagships, shares, listings and results ------------------------------------
  const finRng = rng.fork(5);
  const tickersTaken = new Map<number, Set<string>>();
  const brandById = new Map(brands.map((b) => [b.id, b]));
  for (const company of companies) {
    const owned = company.brandIds.map((id) => brandById.get(id)).filter((b): b is BrandModel => b !== undefined);
    const biggest = [...owned].sort((a, b) => b.markets.size - a.markets.size || a.id - b.id)[0];
    if (biggest && finRng.chance(0.5)) {
      // Named after its best-known brand: that brand is the company's `brand` include (§11.11).
      company.name = `${biggest.name} ${finRng.pick(NAME_PARTS.corporate)}`;
      company.flagshipBrandId = biggest.id;
    } else {
      company.name = namer.company();
    }
    company.isPublic = finRng.chance(Math.min(0.9, 0.25 + company.size / 12));
    if (company.isPublic) {
      const country = countryById.get(company.countryId);
      const homeExchange = country ? EXCHANGE_OF_COUNTRY[country.code] : undefined;
      const exchangeIds = [homeExchange ?? 1];
      // Large foreign companies also list in New York; some US tech lists on Nasdaq instead.
      if (exchangeIds[0] !== 1 && company.size > 8 && finRng.chance(0.5)) exchangeIds.push(1);
      if (exchangeIds[0] === 1 && company.sectorIds.some((s) => s === 13 || s === 9) && finRng.chance(0.6)) exchangeIds[0] = 2;
      for (const exchangeId of exchangeIds) {
        const taken = tickersTaken.get(exchangeId === 2 ? 1 : exchangeId) ?? new Set<string>();
        tickersTaken.set(exchangeId === 2 ? 1 : exchangeId, taken);
        company.listings.push({ exchangeId, ticker: `${tickerOf(company.name, taken)}${EXCHANGE_SUFFIX[exchangeId] ?? '.US'}`, currency: EXCHANGE_CURRENCY[exchangeId] ?? 'USD' });
      }
      company.ipoYear = finRng.chance(0.85) ? finRng.int(1960, 2015) : finRng.int(2016, 2019);
      // Shares of the company's results carried by each brand (0-1, summing to at most 1).
      const weights = owned.map((b) => (b.markets.size + 1) * (0.5 + finRng.next()));
      const total = weights.reduce((a, b) => a + b, 0) / (0.9 + 0.1 * finRng.next());
      owned.forEach((b, i) => (b.shareOfCompany = Math.round(((weights[i] ?? 0) / total) * 10000) / 10000));
      company.financials = financialsOf(company, owned, finRng);
    }
  }
  return { categories, brands, companies, markets };
}

/**
 * Annual results driven by the company's brands: growth follows their energy and relevance trends,
 * margins their regard, valuation multiples their differentiation.
 */
function financialsOf(company: CompanyModel, owned: readonly BrandModel[], rng: Rng): FinancialYear[] {
  const mean = (f: FactorName, of: 'factors' | 'trends') => owned.reduce((sum, b) => sum + (b[of][factorIndex(f)] ?? 0), 0) / Math.max(1, owned.length);
  const energyTrend = mean('energy', 'trends') + mean('relevance', 'trends');
  const regard = mean('regard', 'factors');
  const energy = mean('energy', 'factors');
  let revenue = company.size * 1.2e9 * (0.6 + 0.8 * rng.next());
  const out: FinancialYear[] = [];
  for (let year = FIRST_YEAR - 1; year <= LAST_YEAR - 1; year++) {
    const macro = year === 2020 ? -0.07 : year === 2021 ? 0.05 : 0;
    const growth = year === FIRST_YEAR - 1 ? 0 : 0.03 + 2.5 * energyTrend + macro + 0.04 * rng.normal();
    revenue *= 1 + growth;
    const margin = Math.min(0.4, Math.max(0.01, 0.1 + 0.04 * regard + 0.03 * rng.normal()));
    const operating = revenue * margin;
    const net = operating * (0.7 + 0.1 * rng.next());
    const multiple = Math.max(0.4, 1.4 + 0.8 * energy + 4 * energyTrend + 0.2 * rng.normal());
    out.push({
      fiscalYear: year,
      revenueUsd: revenue,
      operatingIncomeUsd: operating,
      netIncomeUsd: net,
      marketCapUsd: revenue * multiple,
      employees: Math.round(revenue / (220_000 + 80_000 * rng.next())),
      growth,
    });
  }
  return out;
}

/** Converts US dollars to a currency, rounded to thousands (how results are reported). */
export const toCurrency = (usd: number, currency: string) => Math.round(usd / (USD_PER[currency] ?? 1) / 1000) * 1000;
