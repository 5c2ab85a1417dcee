/**
 * Best Countries raw respondent data (`/best-countries/countries/raw/{year}`, §13.3): the service
 * documents no schema, so the record is the emulator's choice. One record per respondent and
 * country rated: who answered (a UUID v4, the demographics that audiences' `bc_filters` name:
 * `gender`, `age`, `income`, `segment`) and, for each of the 74 attributes, whether they associate
 * it with the country (1) or not (0). A country's share of 1s follows its calculated score, so the
 * raw data agrees with `/best-countries/countries/{year}/attributes/scores` on average. Rows are
 * generated on demand from the seed: nothing is stored.
 */
import { bestCountriesOf } from './best-countries.js';
import { yearIdOf } from './reference-data.js';
import { h2, h3, h4, unit, uuidV4Of } from './rng.js';
import type { CountryEntity, Dataset } from './types.js';

/** Respondents per year, and countries each of them rates. */
export const RAW_RESPONDENTS_PER_YEAR = 800;
export const RAW_COUNTRIES_PER_RESPONDENT = 4;

export type RawRow = Record<string, string | number | null | { id: number; name: string; code: string }>;

export interface RawYear {
  readonly year: number;
  /** Rows of the year, before any filter; row `i` has id `firstId + i`. */
  readonly count: number;
  readonly firstId: number;
  /** The country row `i` is about. */
  countryOf(i: number): CountryEntity;
  /** Row `i` as served. */
  row(i: number): RawRow;
}

const AGES = ['Age 18-34', 'Age 35-54', 'Age 55+'] as const;
const INCOMES = ['Low Income', 'Middle Income', 'High Income'] as const;
const SALT = 0xbc7a;

/** The raw data of a Best Countries year, or undefined when the year has none. */
export function rawYearOf(ds: Dataset, year: number): RawYear | undefined {
  const bc = bestCountriesOf(ds);
  if (!bc.years.includes(year)) return undefined;
  const countries = ds.countries.filter((c) => c.bestCountriesYears.includes(year)).sort((a, b) => String(a.record.name).localeCompare(String(b.record.name)));
  const scores = new Map(bc.data(year, 'attributes', 'scores').map((r) => [r.country_id, r]));
  const attributes = bc.metrics.map((m) => ({ id: m.record.id, key: m.record.key ?? '' }));
  const seed = ds.seed;
  const n = countries.length;
  // Countries rated by one respondent: evenly spaced from a random start, so never the same twice.
  const stride = Math.max(1, Math.floor(n / RAW_COUNTRIES_PER_RESPONDENT));
  const countryOf = (i: number): CountryEntity => {
    const respondent = Math.floor(i / RAW_COUNTRIES_PER_RESPONDENT);
    const slot = i % RAW_COUNTRIES_PER_RESPONDENT;
    return countries[(h3(seed, SALT, year * 10_000 + respondent) + slot * stride) % n]!;
  };
  const firstId = yearIdOf(year) * 100_000 + 1;
  return {
    year,
    count: RAW_RESPONDENTS_PER_YEAR * RAW_COUNTRIES_PER_RESPONDENT,
    firstId,
    countryOf,
    row(i) {
      const respondent = Math.floor(i / RAW_COUNTRIES_PER_RESPONDENT);
      const who = h3(seed, SALT + 1, year * 10_000 + respondent);
      const country = countryOf(i);
      const home = countries[h2(who, 1) % n];
      const ageDraw = unit(h2(who, 2));
      const incomeDraw = unit(h2(who, 3));
      const row: RawRow = {
        id: firstId + i,
        respondent_id: uuidV4Of(seed, SALT, year, respondent),
        year_id: yearIdOf(year),
        year,
        country: { id: country.record.id, name: country.record.name ?? '', code: country.record.code ?? '' },
        respondent_country_code: home?.record.code ?? null,
        gender: unit(h2(who, 4)) < 0.51 ? 'Female' : 'Male',
        age: AGES[ageDraw < 0.3 ? 0 : ageDraw < 0.64 ? 1 : 2],
        income: INCOMES[Math.min(2, Math.floor(incomeDraw * 3))]!,
        segment: unit(h2(who, 5)) < 0.3 ? 'Sports Fans' : null,
        weight: Math.round((0.5 + 1.5 * unit(h2(who, 6))) * 1000) / 1000,
      };
      const score = scores.get(country.record.id);
      for (const a of attributes) {
        const p = Number(score?.[a.key] ?? 50) / 100;
        row[a.key] = unit(h4(seed, firstId + i, a.id, year)) < p ? 1 : 0;
      }
      return row;
    },
  };
}
