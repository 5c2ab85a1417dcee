/**
 * A country's indicators (`/countries/{id}/indicators`, §11.12): the service documents no response,
 * so the record is the emulator's choice: one per country and year of the dataset, macroeconomic
 * and population figures generated from the seed, the country's market size and its area. Growth
 * dips in 2020 and inflation peaks in 2022 for every country, as they did.
 */
import { COUNTRIES, yearIdOf } from './reference-data.js';
import { gauss3, gauss4, unit, h2 } from './rng.js';
import type { Dataset } from './types.js';

export interface CountryIndicators {
  [key: string]: string | number;
  id: number;
  country_id: number;
  year_id: number;
  year: number;
  /** People, whole number. */
  population: number;
  /** Gross domestic product, billions of US dollars. */
  gdp_usd_bn: number;
  /** Real GDP growth on the year before, percent. */
  gdp_growth_pct: number;
  gdp_per_capita_usd: number;
  /** Consumer price inflation, percent. */
  inflation_pct: number;
  unemployment_pct: number;
  internet_users_pct: number;
  urban_population_pct: number;
  created_at: string;
  updated_at: string;
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Year numbers with indicators: every year of the dataset. */
export const indicatorYears = (ds: Dataset): number[] => ds.years.map((y) => Number(y.record.year)).sort((a, b) => a - b);

/**
 * The indicators of a country in a year, or undefined when the dataset has no such country or year.
 *
 * @example
 * indicatorsOf(ds, 48, 2024)?.population
 */
export function indicatorsOf(ds: Dataset, countryId: number, year: number): CountryIndicators | undefined {
  const def = COUNTRIES.find((c) => c.id === countryId);
  if (!def || !indicatorYears(ds).includes(year)) return undefined;
  const seed = ds.seed;
  // A country's level: larger markets are larger economies; the rest is the seed's noise.
  const population0 = Math.round(2e6 + def.weight * 45e6 * (1 + 0.6 * unit(h2(seed, countryId * 7 + 1))) + Math.sqrt(def.areaKm2) * 4000);
  const perCapita0 = 6000 + 52000 * unit(h2(seed, countryId * 7 + 2)) * (0.4 + 0.6 * Math.min(1, def.weight));
  const first = indicatorYears(ds)[0] ?? year;
  let perCapita = perCapita0;
  let population = population0;
  let growth = 0;
  for (let y = first; y <= year; y++) {
    growth = (y === 2020 ? -4.5 : y === 2021 ? 4.8 : 2.2) + 1.4 * gauss3(seed, countryId, y);
    if (y > first) {
      perCapita *= 1 + growth / 100;
      population *= 1 + (0.4 + 0.5 * gauss3(seed, countryId * 31, 1)) / 100;
    }
  }
  const inflation = clamp((year === 2022 ? 7.5 : year === 2023 ? 5 : 2.3) + 1.1 * Math.abs(gauss3(seed, countryId, year + 100)), 0, 40);
  // Published mid-year (the data's "today" is in late 2025, after every year's stamp).
  const stamp = `${year}-06-${String(1 + (countryId % 27)).padStart(2, '0')}T08:00:00.000000Z`;
  return {
    id: countryId * 1000 + yearIdOf(year),
    country_id: countryId,
    year_id: yearIdOf(year),
    year,
    population: Math.round(population),
    gdp_usd_bn: round((population * perCapita) / 1e9, 1),
    gdp_growth_pct: round(growth, 1),
    gdp_per_capita_usd: Math.round(perCapita),
    inflation_pct: round(inflation, 1),
    unemployment_pct: round(clamp(5.5 + 2.5 * gauss4(seed, countryId, year, 3), 2, 25), 1),
    internet_users_pct: round(clamp(55 + 35 * unit(h2(seed, countryId * 7 + 3)) + (year - first) * 1.2, 20, 99.5), 1),
    urban_population_pct: round(clamp(45 + 40 * unit(h2(seed, countryId * 7 + 4)) + (year - first) * 0.3, 15, 99), 1),
    created_at: stamp,
    updated_at: stamp,
  };
}
