/**
 * A small brandscape dataset written by hand. Every expectation in the frames tests is computed by
 * hand from these rows (in the comments next to each expectation), not by running the code.
 *
 * Markets and studies (audience 1 unless said):
 *   GB (country 1): study 10 = 2023, study 11 = 2024
 *   DE (country 2): study 20 = 2024
 *   US (country 3): study 29 = 2023 full year, studies 30/31 = 2024 Q1/Q2 waves
 * Brands: 1 Alpha (local 'Alpha UK' in GB; sector 100 Tech; company 500 Acme; share 0.75)
 *         2 Beta  (Tech; Acme; share 0.25)
 *         3 Gamma (sector 200 Food; company 600 Foodco; share unknown)
 *         4 Delta (Food; company 700 Deltaco; share 0.5)
 *         5 Epsilon (Food; Deltaco; share unknown)
 */
import type { BrandRecord, BrandscapeInput, MetricCatalogue, StudyRecord } from '../../src/frames/brandscape-input.js';
import type { CompanyRecord, StockPriceRecord } from '../../src/frames/company-rollup.js';
import type { BrandscapeMeta } from '../../src/schemas/brandscape.js';
import type { ArchetypeEntry } from '../../src/schemas/archetypes.js';

const ts = { created_at: null, updated_at: null };

export const catalogue: MetricCatalogue = {
  metrics: [
    metric(1, 'Differentiation', ['differentiation_rank', 'differentiation_c']),
    metric(2, 'Esteem', ['esteem_rank']),
    metric(3, 'Usage', ['usage_pct', 'usage_rank']),
  ],
  groups: [
    { id: 1, name: 'Pillars', key: 'pillars', description: null, is_public: true, ...ts, metrics: [slim(1, 'Differentiation'), slim(2, 'Esteem')] },
    { id: 5, name: 'Usage & Commitment', key: 'commitment', description: null, is_public: true, ...ts, metrics: [slim(3, 'Usage')] },
  ],
};

function metric(id: number, name: string, columns: string[]) {
  return {
    id, name, description: null, is_active: true, is_public: true, is_core: true, is_legacy: false,
    has_construct_score: true, has_percentile_rank_score: true, has_percentage_score: false, has_value_score: false, has_index_score: false,
    brandscape_data_columns: columns, ...ts,
  };
}
function slim(id: number, name: string) {
  return { id, name, is_active: true };
}

const country = (id: number, name: string, code: string) => ({ id, name, code });
const GB = country(1, 'United Kingdom', 'GB');
const DE = country(2, 'Germany', 'DE');
const US = country(3, 'United States', 'US');
const FULL = { id: 1, name: 'Full Year' };

export const studies: StudyRecord[] = [
  { id: 10, name: 'UK - Adults 2023', period: FULL, country: GB, year: { id: 31, year: '2023' } },
  { id: 11, name: 'UK - Adults 2024', period: FULL, country: GB, year: { id: 32, year: '2024' } },
  { id: 20, name: 'Germany - Adults 2024', period: FULL, country: DE, year: { id: 32, year: '2024' } },
  { id: 29, name: 'US - Adults 2023', period: FULL, country: US, year: { id: 31, year: 2023 } },
  { id: 30, name: 'US - Adults 2024 Q1', period: { id: 2, name: 'Q1' }, country: US, year: { id: 32, year: '2024' } },
  { id: 31, name: 'US - Adults 2024 Q2', period: { id: 3, name: 'Q2' }, country: US, year: { id: 32, year: '2024' } },
];

export const brands: BrandRecord[] = [
  { id: 1, name: 'Alpha', share_of_company: 0.75, company: { id: 500, name: 'Acme' }, sector: { id: 100, name: 'Tech' } },
  { id: 2, name: 'Beta', share_of_company: 0.25, company: { id: 500, name: 'Acme' }, sector: { id: 100, name: 'Tech' } },
  { id: 3, name: 'Gamma', share_of_company: null, company: { id: 600, name: 'Foodco' }, sector: { id: 200, name: 'Food' } },
  { id: 4, name: 'Delta', share_of_company: 0.5, company: { id: 700, name: 'Deltaco' }, sector: { id: 200, name: 'Food' } },
  { id: 5, name: 'Epsilon', share_of_company: null, company: { id: 700, name: 'Deltaco' }, sector: { id: 200, name: 'Food' } },
];

type Row = BrandscapeMeta & Record<string, unknown>;
let nextId = 1;
const studyOf = new Map(studies.map((s) => [s.id, s]));

/** One row; metric values default to null (missing). */
function row(study: number, brand: number, category: number, duplicate: boolean, values: { d?: number | null; dc?: number | null; e?: number | null; u?: number | null }, audience = 1): Row {
  const s = studyOf.get(study)!;
  const b = brands.find((x) => x.id === brand)!;
  return {
    id: nextId++,
    study_id: study,
    brand_id: brand,
    category_id: category,
    audience_id: audience,
    country_id: s.country!.id,
    year_id: s.year!.id,
    brand_name: brand === 1 && s.country!.code === 'GB' ? 'Alpha UK' : b.name,
    category_name: `Category ${category}`,
    is_duplicate: duplicate,
    differentiation_rank: values.d ?? null,
    differentiation_c: values.dc ?? null,
    esteem_rank: values.e ?? null,
    usage_pct: values.u ?? null,
    usage_rank: null,
  };
}

/** The rows, as the client loads them without includes. */
export const rows: Row[] = [
  // GB 2024 (study 11): Alpha in two categories (the second a duplicate: same agnostic values, other usage).
  row(11, 1, 7, false, { d: 60, dc: 0.5, e: 40, u: 10 }),
  row(11, 1, 8, true, { d: 60, dc: 0.5, e: 40, u: 30 }),
  row(11, 2, 7, false, { d: 80, dc: 1.5, e: null, u: 20 }),
  row(11, 3, 9, false, { d: 30, dc: -1, e: 50, u: 40 }),
  row(11, 1, 7, false, { d: 99, dc: 2, e: 99, u: 99 }, 2), // audience 2: never in audience-1 results
  // DE 2024 (study 20)
  row(20, 1, 7, false, { d: 40, dc: -0.5, e: 70, u: 50 }),
  row(20, 2, 7, false, { d: null, dc: null, e: 60, u: 60 }), // differentiation missing
  row(20, 3, 9, false, { d: 50, dc: 0, e: 20, u: 10 }),
  row(20, 4, 9, false, { d: 20, dc: -2, e: null, u: 30 }),
  row(20, 5, 9, false, { d: 40, dc: -0.5, e: 10, u: 50 }),
  // US 2024 waves (studies 30, 31) and US 2023 full year (study 29)
  row(30, 1, 7, false, { d: 70, dc: 1, u: 20 }),
  row(30, 1, 8, true, { d: 70, dc: 1, u: 40 }),
  row(31, 1, 7, false, { d: 90, dc: 2, u: 60 }),
  row(29, 1, 7, false, { d: 75, dc: 1.2, u: 30 }),
  // GB 2023 (study 10)
  row(10, 1, 7, false, { d: 50, dc: 0.2, e: 30 }),
  row(10, 2, 7, false, { d: 70, dc: 1.1, e: 20 }),
];

export const input: BrandscapeInput = { rows, catalogue, studies, brands };

/**
 * Acme's brands with per-category usage rows, shares unknown (so companyRollup weights brands
 * equally). GB 2023: Alpha 30, Beta 50. GB 2024: Alpha 10 (category 7) and 90 (category 8, the
 * duplicate row), Beta 20.
 */
export const twoCategoryInput: BrandscapeInput = {
  rows: [
    row(10, 1, 7, false, { u: 30 }),
    row(10, 2, 7, false, { u: 50 }),
    row(11, 1, 7, false, { u: 10 }),
    row(11, 1, 8, true, { u: 90 }),
    row(11, 2, 7, false, { u: 20 }),
  ],
  catalogue,
  studies,
  brands: brands.map((b) => ({ ...b, share_of_company: null })),
};

export const companies: CompanyRecord[] = [
  {
    id: 500,
    name: 'Acme',
    currency: 'GBP',
    financials: [
      { fiscal_year: 2023, period_end: '2023-12-31', currency: 'GBP', ticker: 'ACME.L', revenue: 100, operating_income: 10, net_income: 7, market_cap: 900, employees: 50 },
      { fiscal_year: 2024, period_end: '2024-12-31', currency: 'GBP', ticker: 'ACME.L', revenue: 120, operating_income: 12, net_income: 8, market_cap: 1000, employees: 55 },
    ],
  },
  { id: 600, name: 'Foodco', currency: 'EUR', financials: [] }, // private: no results, no prices
];

const LSE = { id: 1, suffix: '.L', code: 'LSE' };
const NYSE = { id: 2, suffix: '.US', code: 'NYSE' };
const price = (date: string, close: number, exchange: typeof LSE): StockPriceRecord => ({ date, close_price: close, company: { id: 500 }, stock_exchange: exchange });
export const stockPrices: StockPriceRecord[] = [
  price('2023-12-29', 9, LSE),
  price('2024-01-02', 10, LSE),
  price('2024-06-28', 14, LSE),
  price('2024-12-30', 12, LSE),
  // A secondary listing in another currency: must not be mixed in.
  price('2024-01-02', 100, NYSE),
  price('2024-12-30', 130, NYSE),
];

const entry = (brand: number, name: string, type: 'cultural' | 'competitive', comparison: number | null, comparisonName: string, data: Record<string, number | null>): ArchetypeEntry => ({
  brand_id: brand,
  brand_name: name,
  study_id: 11,
  audience_id: 1,
  comparison_type: type,
  comparison_id: comparison,
  comparison_name: comparisonName,
  comparison_size: type === 'cultural' ? 4 : 3,
  data,
});

export const cultural: ArchetypeEntry[] = [
  entry(1, 'Alpha UK', 'cultural', null, 'Culture', { hero: 120, hero_rank: 80, sage: 90, sage_rank: 40 }),
  entry(2, 'Beta', 'cultural', null, 'Culture', { hero: 100, hero_rank: 50, sage: 110, sage_rank: 70 }),
];

export const competitive: ArchetypeEntry[] = [
  entry(1, 'Alpha UK', 'competitive', 7, 'Category 7', { hero: 105, hero_rank: 100, sage: 95, sage_rank: 0 }),
  entry(2, 'Beta', 'competitive', 7, 'Category 7', { hero: 95, hero_rank: 0, sage: 105, sage_rank: 100 }),
  entry(6, 'Zeta', 'competitive', 7, 'Category 7', { hero: 100, hero_rank: 50, sage: null, sage_rank: null }),
  entry(1, 'Alpha UK', 'competitive', 8, 'Category 8', { hero: 110, hero_rank: 100, sage: 90, sage_rank: 0 }),
];
