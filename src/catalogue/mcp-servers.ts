/**
 * The service's MCP servers (REFERENCE §18): their paths, tool names and input schemas, in one
 * place that the emulator (which serves them) and the tests (which call them) share.
 *
 * The service documents the servers, the tool names and the parameters each kind of tool takes
 * (brands, countries as ISO alpha-2 "preferred", years, audiences, score types, tickers with an
 * exchange suffix), but not the input schemas (obtain them with `tools/list`; not guaranteed
 * stable). The schemas here are our choice, following those parameters; §23.3
 * says so. Everything a tool takes is optional except the ticker: missing parameters are filled by
 * the server-side fallbacks the documentation announces (the emulator's are in §23.3).
 */
import * as z from 'zod';

/** Where the servers live on the service's MCP host (the emulator serves them on its own port). */
export const MCP_HOST = 'https://mcp-beta.wppbav.com';

/** At most this many rows in one data tool's answer (the emulator's choice; the answer says what it cut). */
export const MCP_MAX_ROWS = 100;

const brandRef = z.union([z.string().trim().min(1), z.number().int().positive()]);

const brands = z
  .array(brandRef)
  .min(1)
  .max(20)
  .describe('Brands by name (case and accents ignored) or by id, e.g. ["Veros", 23]. Left out: every brand of the markets and years asked for.');
const countries = z
  .array(z.string().trim().min(2))
  .min(1)
  .max(60)
  .describe('Markets as ISO 3166 alpha-2 codes (preferred, e.g. "GB", "DE"), alpha-3 codes or English names. Left out: every market where the brands are studied.');
const years = z
  .array(z.number().int().min(1990).max(2100))
  .min(1)
  .max(20)
  .describe('Calendar years, e.g. [2024]. Left out: the latest year with released data in each market.');
const audiences = z
  .array(brandRef)
  .min(1)
  .max(10)
  .describe('Audiences by id or name, e.g. [1] or ["Gen Z"]. Left out: All Adults (id 1).');

/** What every BAV data tool takes. */
export const BAV_DATA_INPUT = z.object({
  brands: brands.optional(),
  countries: countries.optional(),
  years: years.optional(),
  audiences: audiences.optional(),
});
export type BavDataInput = z.infer<typeof BAV_DATA_INPUT>;

const search = z.string().trim().min(1).max(100).describe('Text to look for in names, case and accents ignored.');
const limit = z.number().int().min(1).max(MCP_MAX_ROWS).describe(`How many records at most (default 50, at most ${MCP_MAX_ROWS}).`);

/**
 * Where a BAV data tool's values come from (our choice of what each documented tool answers):
 * brandscape columns of a metric group or of metrics, for the audiences asked for (or, for
 * `get-influence-data`, the Influentials audience by default), or a TurboPitch tool's answer.
 */
export type BavSource =
  | { readonly kind: 'columns'; readonly metricGroupKeys?: readonly string[]; readonly metricKeys?: readonly string[]; readonly defaultAudience?: string }
  | { readonly kind: 'tool'; readonly slug: 'brand-worth-map' | 'commitment-funnel' };

interface BavDataTool {
  readonly title: string;
  readonly description: string;
  readonly source: BavSource;
}

const rowsNote = `One row per brand, study and category the brand was studied in (is_duplicate marks all but one), with the same values as the service's brandscape data for that study and audience. At most ${MCP_MAX_ROWS} rows: the answer says when it cut some.`;

/** The BAV server's data tools, by documented name. */
export const BAV_DATA_TOOLS = {
  'get-pillar-data': {
    title: 'Pillar data',
    description: `The four pillars of brand equity (differentiation, relevance, esteem, knowledge) as construct scores, percentile ranks and index scores. ${rowsNote}`,
    source: { kind: 'columns', metricGroupKeys: ['pillars'] },
  },
  'get-powergrid-data': {
    title: 'Power Grid data',
    description: `Brand strength (differentiation with relevance) and brand stature (esteem with knowledge): the Power Grid's axes, as construct scores and percentile ranks. ${rowsNote}`,
    source: { kind: 'columns', metricGroupKeys: ['power_grid'] },
  },
  'get-imagery-data': {
    title: 'Imagery data',
    description: `The imagery attributes respondents associate with the brand (innovative, trustworthy, ...), as the share who chose each and its percentile rank. ${rowsNote}`,
    source: { kind: 'columns', metricGroupKeys: ['imagery'] },
  },
  'get-personality-data': {
    title: 'Personality data',
    description: `The brand's personality as the twelve cultural archetypes (hero, sage, explorer, ...), as construct scores and percentile ranks against every brand of its study. ${rowsNote}`,
    source: { kind: 'columns', metricGroupKeys: ['archetypes'] },
  },
  'get-usage-data': {
    title: 'Usage data',
    description: `Usage: the share who use the brand regularly, asked within each category the brand was studied in. ${rowsNote}`,
    source: { kind: 'columns', metricKeys: ['usage'] },
  },
  'get-preferences-data': {
    title: 'Preference data',
    description: `Preference: the share who prefer the brand over the others of its category. ${rowsNote}`,
    source: { kind: 'columns', metricKeys: ['preference'] },
  },
  'get-recommendation-data': {
    title: 'Recommendation data',
    description: `Recommendation: the share who would recommend the brand within its category. ${rowsNote}`,
    source: { kind: 'columns', metricKeys: ['recommendation'] },
  },
  'get-brand-worth-data': {
    title: 'Brand worth data',
    description: `Brand worth: the brand placed by brand stature (x) and brand strength (y) as percentile ranks, the Brand Worth Map's axes (the same values as the brand-worth-map tool). At most ${MCP_MAX_ROWS} points.`,
    source: { kind: 'tool', slug: 'brand-worth-map' },
  },
  'get-customer-experience-data': {
    title: 'Customer experience data',
    description: `The customer's path with the brand: usage, preference and recommendation per category, with the conversion from each step to the next (the same values as the commitment-funnel tool). At most ${MCP_MAX_ROWS} entries.`,
    source: { kind: 'tool', slug: 'commitment-funnel' },
  },
  'get-influence-data': {
    title: 'Influence data',
    description: `How opinion leaders see the brand: the four pillars among the Influentials audience (studies from 2021), unless audiences are given. ${rowsNote}`,
    source: { kind: 'columns', metricGroupKeys: ['pillars'], defaultAudience: 'Influentials' },
  },
} as const satisfies Readonly<Record<string, BavDataTool>>;

export type BavDataToolName = keyof typeof BAV_DATA_TOOLS;

/** The BAV server's metadata tools: the records of the matching REST resources. */
export const BAV_METADATA_TOOLS = {
  'get-brands': {
    title: 'Brands',
    resource: 'brands',
    description: 'Brands with their ids, by name (search) and the markets they are studied in. Use it to find the id or exact name of a brand before asking for its data.',
    input: z.object({
      search: search.optional(),
      countries: countries.optional().describe('Only brands studied in these markets (ISO alpha-2 codes preferred).'),
      limit: limit.optional(),
    }),
  },
  'get-markets': {
    title: 'Markets',
    resource: 'countries',
    description: 'Markets (countries) with released BAV studies, with their ISO codes and the years studied.',
    input: z.object({ search: search.optional() }),
  },
  'get-sectors': {
    title: 'Sectors',
    resource: 'sectors',
    description: 'Sectors: stable across markets and years (compare across markets by sector, not category).',
    input: z.object({ search: search.optional() }),
  },
  'get-categories': {
    title: 'Categories',
    resource: 'categories',
    description: 'Categories (they vary by market), with their sector.',
    input: z.object({
      search: search.optional(),
      sectors: z.array(brandRef).min(1).max(20).optional().describe('Only categories of these sectors (ids or names).'),
      limit: limit.optional(),
    }),
  },
  'get-audiences': {
    title: 'Audiences',
    resource: 'audiences',
    description: 'Audiences (All Adults, age groups, generations, ...) with their ids.',
    input: z.object({ search: search.optional() }),
  },
} as const;

export type BavMetadataToolName = keyof typeof BAV_METADATA_TOOLS;
/** What any metadata tool takes (each takes some of these). */
export type BavMetadataInput = z.infer<(typeof BAV_METADATA_TOOLS)[BavMetadataToolName]['input']>;

/** Best Countries score types (REFERENCE §13.2): `percent` exists only for consideration attributes. */
export const BC_SCORE_TYPES = ['scores', 'ranks', 'percent'] as const;

const bcCommon = {
  countries: countries.optional().describe('Countries as ISO 3166 alpha-2 codes (preferred), alpha-3 codes or English names. Left out: every country ranked in the year.'),
  years: years.optional().describe('Calendar years of the ranking, e.g. [2024]. Left out: the latest ranking.'),
  audiences: audiences.optional().describe('Audiences by id or name. Best Countries data is for All Adults (id 1), the default.'),
  score_types: z.array(z.enum(BC_SCORE_TYPES)).min(1).max(3).optional().describe('scores (0-100, the default), ranks (1 = best), percent (consideration attributes only).'),
};

/** What every Best Countries country tool takes. */
export const BC_COUNTRY_INPUT = z.object(bcCommon);

/** What every Best Countries city tool takes. */
export const BC_CITY_INPUT = z.object({
  cities: z.array(brandRef).min(1).max(20).optional().describe('Cities by English name or id, e.g. ["Paris"]. Left out: the capital of each country asked for.'),
  ...bcCommon,
});
export type BcCityInput = z.infer<typeof BC_CITY_INPUT>;

/**
 * What a Best Countries tool answers (our choice): the factors, or the attributes of the given
 * factors and keys; for a city, the same derived from the city's country (the service's city data is
 * not in its REST API).
 */
export interface BcSource {
  readonly level: 'country' | 'city';
  readonly dataType: 'factors' | 'attributes';
  /** Attributes of these factors (dataType attributes). */
  readonly factors?: readonly string[];
  /** And these attribute keys. */
  readonly keys?: readonly string[];
}

interface BcTool {
  readonly title: string;
  readonly description: string;
  readonly source: BcSource;
}

const bcNote = 'One row per country and year, with the same values as the service\'s Best Countries data (/best-countries/countries/{year}/...).';
const cityNote = "One row per city and year. City scores follow the city's country (the emulator derives them; the REST API has no city data).";

export const BC_TOOLS = {
  'get-country-factors-data': {
    title: 'Country factors',
    description: `The ten Best Countries factors (adventure, agility, cultural influence, entrepreneurship, heritage, movers, open for business, power, quality of life, social purpose). ${bcNote}`,
    source: { level: 'country', dataType: 'factors' },
  },
  'get-country-perceptions-data': {
    title: 'Country perceptions',
    description: `How respondents perceive each country: the perception attributes of the cultural influence, heritage, movers, power and social purpose factors. ${bcNote}`,
    source: { level: 'country', dataType: 'attributes', factors: ['cultural_influence', 'heritage', 'movers', 'power', 'social_purpose'] },
  },
  'get-country-doing-business-data': {
    title: 'Doing business in a country',
    description: `The attributes of the open for business and entrepreneurship factors, and the share who would consider doing business there (percent). ${bcNote}`,
    source: { level: 'country', dataType: 'attributes', factors: ['open_for_business', 'entrepreneurship'], keys: ['would_consider_doing_business'] },
  },
  'get-country-education-data': {
    title: 'Education in a country',
    description: `Education: an educated population, a well-developed public education system, a skilled labor force, and the share who would consider studying there (percent). ${bcNote}`,
    source: { level: 'country', dataType: 'attributes', keys: ['educated_population', 'well_developed_public_education_system', 'skilled_labor_force', 'would_consider_studying'] },
  },
  'get-country-visit-consideration-data': {
    title: 'Visiting a country',
    description: `What makes a country worth visiting: the attributes of the adventure and heritage factors (friendly, fun, scenic, good for tourism, rich history, great food, ...). ${bcNote}`,
    source: { level: 'country', dataType: 'attributes', factors: ['adventure', 'heritage'] },
  },
  'get-product-origin-data': {
    title: 'Product origin',
    description: `What a country of origin says about its products: strong consumer brands, strong exports, technological expertise, innovative, authentic, prestigious. ${bcNote}`,
    source: { level: 'country', dataType: 'attributes', keys: ['strong_consumer_brands', 'strong_exports', 'technological_expertise', 'innovative', 'authentic', 'prestigious'] },
  },
  'get-city-perceptions-data': {
    title: 'City perceptions',
    description: `How respondents perceive a city: the perception attributes of the cultural influence, heritage and movers factors. ${cityNote}`,
    source: { level: 'city', dataType: 'attributes', factors: ['cultural_influence', 'heritage', 'movers'] },
  },
  'get-city-doing-business-data': {
    title: 'Doing business in a city',
    description: `The attributes of the open for business and entrepreneurship factors, for a city. ${cityNote}`,
    source: { level: 'city', dataType: 'attributes', factors: ['open_for_business', 'entrepreneurship'] },
  },
  'get-city-visit-consideration-data': {
    title: 'Visiting a city',
    description: `What makes a city worth visiting: the attributes of the adventure and heritage factors. ${cityNote}`,
    source: { level: 'city', dataType: 'attributes', factors: ['adventure', 'heritage'] },
  },
} as const satisfies Readonly<Record<string, BcTool>>;

export type BcToolName = keyof typeof BC_TOOLS;

/** A ticker with its exchange suffix, as the Financial Data server requires (`AAPL.US`). */
export const TICKER_PATTERN = /^[A-Z0-9][A-Z0-9-]{0,9}\.[A-Z]{1,4}$/;

/** What every Financial Data tool takes. */
export const FUTURES_INPUT = z.object({
  ticker: z
    .string()
    .trim()
    .toUpperCase()
    .regex(TICKER_PATTERN, { error: 'A ticker has its exchange suffix, e.g. AAPL.US or NVLK.DE.' })
    .describe('The ticker with its exchange suffix, e.g. "AAPL.US" (get-brands does not list tickers; the companies resource does).'),
  years: years.optional().describe('Fiscal years, e.g. [2023, 2024]. Left out: the last five.'),
});
export type FuturesInput = z.infer<typeof FUTURES_INPUT>;

export const FUTURES_TOOLS = {
  'get-analyst-ratings': { title: 'Analyst ratings', description: 'Analyst ratings of a listed company: buy, hold and sell counts, the consensus and the mean price target.' },
  'get-balance-sheet': { title: 'Balance sheet', description: 'Balance sheet per fiscal year: total assets, total liabilities, equity, cash.' },
  'get-cash-flow': { title: 'Cash flow', description: 'Cash flow per fiscal year: operating, investing and financing cash flows, free cash flow.' },
  'get-earnings': { title: 'Earnings', description: 'Earnings per fiscal year: net income, shares outstanding, earnings per share.' },
  'get-financial-overview': { title: 'Financial overview', description: 'A listed company at a glance: its exchange, currency, latest fiscal year (revenue, operating and net income, market capitalisation, employees) and latest share price.' },
  'get-income-statement': { title: 'Income statement', description: 'Income statement per fiscal year: revenue, operating income, net income.' },
} as const satisfies Readonly<Record<string, { title: string; description: string }>>;

export type FuturesToolName = keyof typeof FUTURES_TOOLS;

/** The three servers: their documented paths and tools. */
export const MCP_SERVERS = {
  bav: { path: '/v1/bav', name: 'BAV', tools: [...Object.keys(BAV_DATA_TOOLS), ...Object.keys(BAV_METADATA_TOOLS)] as (BavDataToolName | BavMetadataToolName)[] },
  'best-countries': { path: '/v1/best-countries', name: 'Best Countries', tools: Object.keys(BC_TOOLS) as BcToolName[] },
  futures: { path: '/v1/futures', name: 'Financial Data (BAV Futures)', tools: Object.keys(FUTURES_TOOLS) as FuturesToolName[] },
} as const;

export type McpServerKey = keyof typeof MCP_SERVERS;
