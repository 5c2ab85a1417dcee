// The benchmark's Data sheet: N tidy rows x 22 columns, deterministic, shaped like toTidy's rows
// (ids, repeated names, a flag, a float value), written once as JSON lines for both writers.
export const DATA_COLUMNS = [
  ['study_id', 'integer'], ['country_id', 'integer'], ['market', 'text'], ['country_code', 'text'], ['year', 'integer'],
  ['audience_id', 'integer'], ['brand_id', 'integer'], ['brand_name', 'text'], ['global_name', 'text'], ['category_id', 'integer'],
  ['category_name', 'text'], ['sector_id', 'integer'], ['sector_name', 'text'], ['company_id', 'integer'], ['company_name', 'text'],
  ['is_duplicate', 'bool'], ['metric', 'text'], ['metric_name', 'text'], ['metric_group', 'text'], ['score_type', 'text'],
  ['column', 'text'], ['value', 'general'],
];

const MARKETS = [['United Kingdom', 'GB', 48], ['Germany', 'DE', 25], ['France', 'FR', 23], ['Italy', 'IT', 33], ['Spain', 'ES', 64], ['United States', 'US', 76]];
const METRICS = ['differentiation', 'relevance', 'esteem', 'knowledge'];
const TYPES = ['rank', 'c', 'brandscape_index', 'category_index'];

/** Row `i` of the data (an array of 22 cells). */
export function dataRow(i) {
  let x = (i * 2654435761) >>> 0;
  const next = () => ((x = (x * 1103515245 + 12345) >>> 0) / 4294967296);
  const [market, code, countryId] = MARKETS[i % MARKETS.length];
  const brand = 1 + Math.floor(next() * 1000);
  const metric = METRICS[Math.floor(i / 6) % 4];
  const type = TYPES[Math.floor(i / 24) % 4];
  return [
    500 + (i % 6), countryId, market, code, 2025, 1, brand, `Brand ${brand} local`, `Brand ${brand}`, 1 + (brand % 80),
    `Category ${1 + (brand % 80)}`, 1 + (brand % 24), `Sector ${1 + (brand % 24)}`, 100 + (brand % 300), `Company ${100 + (brand % 300)} plc`,
    next() < 0.1, metric, metric[0].toUpperCase() + metric.slice(1), 'pillars', type, `${metric}_${type}`, Math.round(next() * 1000000) / 10000,
  ];
}
