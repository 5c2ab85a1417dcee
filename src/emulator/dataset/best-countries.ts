/**
 * Best Countries (§13), generated from the seeded world: ten factors, 74 attributes (71 perception
 * attributes and 3 consideration ones), and for every year the countries ranked that year (each
 * country's `bestCountriesYears`). Attribute scores come from a country's latent standing on the
 * attribute's factor; factor scores are means of their attributes' scores, the overall score the
 * weighted mean of the factors; ranks are computed from the served (rounded) scores, so scores and
 * ranks always agree. Metadata shapes are the emulator's choice (the service documents none).
 */
import type { BestCountriesFactor, BestCountriesMetric, BestCountriesMetricGroup } from '../../schemas/best-countries.js';
import { COUNTRIES, yearIdOf } from './reference-data.js';
import { gauss3, gauss4 } from './rng.js';
import type { Dataset, Entity } from './types.js';

const FACTORS: readonly (readonly [string, string, number, readonly string[]])[] = [
  ['adventure', 'Adventure', 0.05, ['friendly', 'fun', 'pleasant_climate', 'scenic', 'good_for_tourism']],
  ['agility', 'Agility', 0.11, ['adaptable', 'dynamic', 'modern', 'progressive', 'responsive_to_consumer_needs', 'efficient']],
  ['cultural_influence', 'Cultural Influence', 0.08, ['culturally_significant_in_entertainment', 'fashionable', 'happy', 'has_an_influential_culture', 'modern_culture', 'prestigious', 'trendy', 'strong_consumer_brands']],
  ['entrepreneurship', 'Entrepreneurship', 0.17, ['connected_to_the_rest_of_the_world', 'educated_population', 'entrepreneurial', 'innovative', 'easy_access_to_capital', 'skilled_labor_force', 'technological_expertise', 'transparent_business_practices', 'well_developed_infrastructure', 'well_developed_legal_framework']],
  ['heritage', 'Heritage', 0.05, ['culturally_accessible', 'has_a_rich_history', 'has_great_food', 'many_cultural_attractions', 'many_historical_attractions', 'beautiful_architecture', 'authentic']],
  ['movers', 'Movers', 0.05, ['different', 'distinctive', 'unique', 'forward_looking', 'growing', 'visionary']],
  ['open_for_business', 'Open for Business', 0.11, ['not_bureaucratic', 'cheap_manufacturing_costs', 'not_corrupt', 'favorable_tax_environment', 'transparent_government_practices', 'easy_to_start_a_business']],
  ['power', 'Power', 0.06, ['a_leader', 'economically_influential', 'politically_influential', 'strong_exports', 'strong_international_alliances', 'strong_military']],
  ['quality_of_life', 'Quality of Life', 0.17, ['a_good_job_market', 'affordable', 'economically_stable', 'family_friendly', 'income_equality', 'politically_stable', 'safe', 'well_developed_public_education_system', 'well_developed_public_health_system']],
  ['social_purpose', 'Social Purpose', 0.15, ['cares_about_human_rights', 'cares_about_the_environment', 'gender_equality', 'committed_to_social_justice', 'religious_freedom', 'respects_property_rights', 'trustworthy', 'well_distributed_political_power']],
];

/** Consideration attributes: also served as `percent` (share who would consider it). */
const CONSIDERATION = ['would_consider_living', 'would_consider_studying', 'would_consider_doing_business'] as const;

const title = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const STAMP = '2022-03-01T09:00:00.000000Z';
const UPDATED = '2024-09-10T09:00:00.000000Z';

export interface BestCountriesMetricEntity extends Entity<BestCountriesMetric> {
  readonly factorIndex: number;
}
export interface BestCountriesGroupEntity extends Entity<BestCountriesMetricGroup> {
  readonly metricIds: readonly number[];
}
export interface BestCountriesFactorEntity extends Entity<BestCountriesFactor> {
  readonly metricIds: readonly number[];
}

export type BestCountriesRow = Record<string, string | number | null> & { country: string; country_id: number; country_code: string; year_id: number };

export interface BestCountries {
  readonly metrics: readonly BestCountriesMetricEntity[];
  readonly groups: readonly BestCountriesGroupEntity[];
  readonly factors: readonly BestCountriesFactorEntity[];
  /** Years with calculated data. */
  readonly years: readonly number[];
  /** One flat record per country ranked in the year, in country-name order. */
  data(year: number, dataType: 'attributes' | 'factors', scoreType: 'scores' | 'ranks' | 'percent'): BestCountriesRow[];
}

const cache = new WeakMap<Dataset, BestCountries>();

export function bestCountriesOf(ds: Dataset): BestCountries {
  const cached = cache.get(ds);
  if (cached) return cached;
  const metrics: BestCountriesMetricEntity[] = [];
  FACTORS.forEach(([, name, , attributes], f) => {
    for (const key of attributes) {
      metrics.push({
        factorIndex: f,
        record: { id: metrics.length + 1, name: title(key), key, description: `Perceived as ${title(key).toLowerCase()} (${name})`, type: 'attribute', group_id: 1, factor_id: f + 1, created_at: STAMP, updated_at: UPDATED },
      });
    }
  });
  CONSIDERATION.forEach((key, i) => {
    metrics.push({
      // Consideration follows quality of life, business and the overall standing.
      factorIndex: [8, 6, 3][i] ?? 0,
      record: { id: metrics.length + 1, name: title(key), key, description: `Share of respondents who ${title(key).toLowerCase().replace('would', 'would')} in the country`, type: 'consideration', group_id: 2, factor_id: null, created_at: STAMP, updated_at: UPDATED },
    });
  });
  const groups: BestCountriesGroupEntity[] = [
    { metricIds: metrics.filter((m) => m.record.type === 'attribute').map((m) => m.record.id), record: { id: 1, name: 'Perception attributes', key: 'perceptions', description: 'How respondents perceive each country', created_at: STAMP, updated_at: UPDATED } },
    { metricIds: metrics.filter((m) => m.record.type === 'consideration').map((m) => m.record.id), record: { id: 2, name: 'Consideration', key: 'consideration', description: 'Whether respondents would consider living, studying or doing business in the country', created_at: STAMP, updated_at: UPDATED } },
  ];
  const factors: BestCountriesFactorEntity[] = FACTORS.map(([key, name, weight], f) => ({
    metricIds: metrics.filter((m) => m.record.factor_id === f + 1).map((m) => m.record.id),
    record: { id: f + 1, name, key, description: `${name}: one of the ten factors of GDP growth`, weight, created_at: STAMP, updated_at: UPDATED },
  }));

  const weightOf = new Map(COUNTRIES.map((c) => [c.id, c.weight]));
  const years = [...new Set(ds.countries.flatMap((c) => c.bestCountriesYears))].sort((a, b) => a - b);
  const round1 = (v: number) => Math.round(v * 10) / 10;
  /** A country's standing on a factor: larger, more visible markets score higher on average. */
  const latent = (countryId: number, f: number, year: number) =>
    0.9 * gauss3(ds.seed, countryId, f) + 0.8 * ((weightOf.get(countryId) ?? 0.5) - 0.5) + 0.08 * (year - 2022) * gauss3(ds.seed, countryId, 0xbc + f);
  const attributeScore = (countryId: number, m: BestCountriesMetricEntity, year: number) =>
    round1(100 / (1 + Math.exp(-(latent(countryId, m.factorIndex, year) + 0.45 * gauss4(ds.seed, countryId, m.record.id, year % 7)))));

  const countriesOf = (year: number) => ds.countries.filter((c) => c.bestCountriesYears.includes(year)).sort((a, b) => String(a.record.name).localeCompare(String(b.record.name)));
  const scoreCache = new Map<number, Map<number, Record<string, number>>>();
  /** Attribute and factor scores (and `overall`) of every country of a year. */
  const scoresOf = (year: number) => {
    let byCountry = scoreCache.get(year);
    if (byCountry) return byCountry;
    byCountry = new Map();
    for (const c of countriesOf(year)) {
      const values: Record<string, number> = {};
      for (const m of metrics) values[m.record.key ?? ''] = attributeScore(c.record.id, m, year);
      let overall = 0;
      factors.forEach((f) => {
        const keys = f.metricIds.map((id) => metrics[id - 1]?.record.key ?? '');
        const mean = keys.reduce((s, k) => s + (values[k] ?? 0), 0) / keys.length;
        values[f.record.key ?? ''] = round1(mean);
        overall += (f.record.weight ?? 0) * mean;
      });
      values['overall'] = round1(overall);
      byCountry.set(c.record.id, values);
    }
    scoreCache.set(year, byCountry);
    return byCountry;
  };

  const result: BestCountries = {
    metrics,
    groups,
    factors,
    years,
    data(year, dataType, scoreType) {
      const keys =
        dataType === 'factors'
          ? [...factors.map((f) => f.record.key ?? ''), 'overall']
          : metrics.filter((m) => scoreType !== 'percent' || m.record.type === 'consideration').map((m) => m.record.key ?? '');
      const scores = scoresOf(year);
      const countries = countriesOf(year);
      const ranks = new Map<string, Map<number, number>>();
      if (scoreType === 'ranks') {
        for (const key of keys) {
          // Competition ranking (1, 2, 2, 4): equal scores share a rank.
          const ordered = countries.map((c) => ({ id: c.record.id, v: scores.get(c.record.id)?.[key] ?? 0 })).sort((a, b) => b.v - a.v);
          const byId = new Map<number, number>();
          ordered.forEach((o, i) => byId.set(o.id, i > 0 && ordered[i - 1]?.v === o.v ? (byId.get(ordered[i - 1]?.id ?? 0) ?? i + 1) : i + 1));
          ranks.set(key, byId);
        }
      }
      return countries.map((c) => {
        const row: BestCountriesRow = { country: c.record.name ?? '', country_id: c.record.id, country_code: c.record.code ?? '', year_id: yearIdOf(year) };
        const values = scores.get(c.record.id) ?? {};
        for (const key of keys) {
          if (scoreType === 'ranks') row[key] = ranks.get(key)?.get(c.record.id) ?? null;
          // Percent: the share who would consider it, a little below the 0-100 score.
          else if (scoreType === 'percent') row[key] = round1((values[key] ?? 0) * 0.62);
          else row[key] = values[key] ?? null;
        }
        return row;
      });
    },
  };
  cache.set(ds, result);
  return result;
}
