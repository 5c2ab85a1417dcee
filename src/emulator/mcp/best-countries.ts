/**
 * The Best Countries MCP server's tools, answered from the emulator's Best Countries data: a country
 * tool gives, for each year and score type, the rows `/best-countries/countries/{year}/...` serves,
 * narrowed to the countries and the tool's attributes. The service's city data is not in its REST
 * API: the emulator derives a city's scores from its country's (a deterministic offset per city and
 * attribute), scores only.
 */
import { BC_TOOLS, MCP_MAX_ROWS, type BcCityInput, type BcToolName } from '../../catalogue/mcp-servers.js';
import { bestCountriesOf, type BestCountriesRow } from '../dataset/best-countries.js';
import type { CityEntity, CountryEntity } from '../dataset/types.js';
import type { Ctx } from '../http/bindings.js';
import { hashUnit } from '../http/hash.js';
import { fold, lookupAudiences, lookupCountries, nearestNames, ToolInputError, type Json } from './lookup.js';

type Row = Record<string, Json>;

/** The attribute (or factor) keys a tool answers. */
function keysOf(ctx: Ctx, tool: BcToolName): string[] {
  const bc = bestCountriesOf(ctx.ds);
  const source = BC_TOOLS[tool].source;
  if (source.dataType === 'factors') return [...bc.factors.map((f) => f.record.key ?? ''), 'overall'];
  const factorIds = new Set(bc.factors.filter((f) => ('factors' in source ? (source.factors as readonly string[]) : []).includes(f.record.key ?? '')).map((f) => f.record.id));
  const extra: readonly string[] = 'keys' in source ? source.keys : [];
  return bc.metrics.filter((m) => (m.record.factor_id !== null && m.record.factor_id !== undefined && factorIds.has(m.record.factor_id)) || extra.includes(m.record.key ?? '')).map((m) => m.record.key ?? '');
}

/** Consideration attributes: the only ones with a `percent` score. */
const considerationKeys = (ctx: Ctx) => new Set(bestCountriesOf(ctx.ds).metrics.filter((m) => m.record.type === 'consideration').map((m) => m.record.key ?? ''));

function yearsOf(ctx: Ctx, asked: readonly number[] | undefined): number[] {
  const bc = bestCountriesOf(ctx.ds);
  if (asked === undefined) return [bc.years.at(-1) ?? 0];
  const unknown = asked.filter((y) => !bc.years.includes(y));
  if (unknown.length > 0) throw new ToolInputError(`No Best Countries ranking for ${unknown.join(', ')}. Years with data: ${bc.years.join(', ')}.`);
  return [...asked];
}

/** Best Countries data is for All Adults only, in the emulator as in the REST API. */
function checkAudiences(ctx: Ctx, audiences: readonly (string | number)[] | undefined): void {
  if (audiences === undefined) return;
  const other = lookupAudiences(ctx, audiences).filter((a) => a.record.id !== 1);
  if (other.length > 0) throw new ToolInputError(`Best Countries data is for All Adults (audience 1) only; ${other.map((a) => a.record.name).join(', ')} ha${other.length > 1 ? 've' : 's'} none.`);
}

function rankedCountries(ctx: Ctx, refs: readonly string[] | undefined): CountryEntity[] | undefined {
  if (refs === undefined) return undefined;
  const ranked = () => ctx.ds.countries.filter((c) => c.bestCountriesYears.length > 0).map((c) => c.record.code ?? '').sort();
  return lookupCountries(ctx, refs, ranked);
}

const pick = (row: BestCountriesRow, keys: readonly string[]): Row => Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k] ?? null]));

export interface BcAnswer {
  [key: string]: Json;
  tool: string;
  total_rows: number;
  truncated: boolean;
  rows: Row[];
  notes: string[];
}

function answer(tool: string, rows: Row[], notes: string[]): BcAnswer {
  const kept = rows.slice(0, MCP_MAX_ROWS);
  if (rows.length > kept.length) notes.push(`${rows.length} rows answer this; the first ${kept.length} are here. Name countries or a year to narrow it.`);
  return { tool, total_rows: rows.length, truncated: rows.length > kept.length, rows: kept, notes };
}

/** Answers a Best Countries country tool. */
export function bcCountryData(ctx: Ctx, tool: BcToolName, input: BcCityInput): BcAnswer {
  if (input.countries === undefined && input.years === undefined) {
    throw new ToolInputError('Give at least one of countries or years, e.g. {"countries": ["DE", "JP"]}.');
  }
  checkAudiences(ctx, input.audiences);
  const bc = bestCountriesOf(ctx.ds);
  const source = BC_TOOLS[tool].source;
  const countries = rankedCountries(ctx, input.countries);
  const wanted = countries && new Set(countries.map((c) => c.record.id));
  const keys = keysOf(ctx, tool);
  const consideration = considerationKeys(ctx);
  const notes: string[] = [];
  const rows: Row[] = [];
  for (const year of yearsOf(ctx, input.years)) {
    for (const scoreType of input.score_types ?? ['scores']) {
      const kept = scoreType === 'percent' ? keys.filter((k) => consideration.has(k)) : keys;
      if (kept.length === 0 || (scoreType === 'percent' && source.dataType === 'factors')) {
        notes.push(`percent exists only for consideration attributes (would consider living, studying, doing business); ${tool} has none.`);
        continue;
      }
      const served = bc.data(year, source.dataType, scoreType);
      for (const row of served) {
        if (wanted && !wanted.has(row.country_id)) continue;
        rows.push({ year, score_type: scoreType, country: row.country, country_id: row.country_id, country_code: row.country_code, ...pick(row, kept) });
      }
      for (const c of countries ?? []) if (!served.some((r) => r.country_id === c.record.id)) notes.push(`${c.record.name} is not ranked in ${year}.`);
    }
  }
  return answer(tool, rows, [...new Set(notes)]);
}

/** Cities by name or id, or the capitals of the countries. */
function citiesOf(ctx: Ctx, input: BcCityInput, countries: readonly CountryEntity[] | undefined): CityEntity[] {
  const all = ctx.idx.cities();
  const inCountries = (c: CityEntity) => countries === undefined || countries.some((k) => k.record.id === c.countryId);
  if (input.cities === undefined) {
    if (countries === undefined) throw new ToolInputError('Give cities, or countries (their capitals are answered), e.g. {"cities": ["Paris"]}.');
    return all.filter((c) => c.isCapital && inCountries(c));
  }
  return input.cities.map((ref) => {
    if (typeof ref === 'number') {
      const city = ctx.idx.cityById(ref);
      if (!city) throw new ToolInputError(`There is no city with id ${ref}.`);
      return city;
    }
    // The largest city of that name: "Paris" is the French capital, not Paris, Texas.
    const named = all.filter((c) => fold(c.record.name ?? '') === fold(ref) && inCountries(c)).sort((a, b) => (b.record.population ?? 0) - (a.record.population ?? 0));
    if (named[0]) return named[0];
    const near = nearestNames(ref, all.filter(inCountries).filter((c) => (c.record.population ?? 0) >= 500_000).map((c) => c.record.name ?? ''));
    throw new ToolInputError(`No city is named '${ref}'${countries ? ` in ${countries.map((c) => c.record.code).join(', ')}` : ''}.${near.length > 0 ? ` Cities with similar names: ${near.join(', ')}.` : ''}`);
  });
}

/** Answers a Best Countries city tool: the city's country's scores, moved by a fixed offset per city and attribute. */
export function bcCityData(ctx: Ctx, tool: BcToolName, input: BcCityInput): BcAnswer {
  if (input.cities === undefined && input.countries === undefined && input.years === undefined) {
    throw new ToolInputError('Give at least one of cities, countries or years, e.g. {"cities": ["Paris", "Berlin"]}.');
  }
  checkAudiences(ctx, input.audiences);
  const notes: string[] = [];
  const types = input.score_types ?? ['scores'];
  if (types.some((t) => t !== 'scores')) notes.push('City data has scores only (0-100); ranks and percent are for countries.');
  const countries = rankedCountries(ctx, input.countries);
  const cities = citiesOf(ctx, input, countries);
  const keys = keysOf(ctx, tool);
  const bc = bestCountriesOf(ctx.ds);
  const rows: Row[] = [];
  for (const year of yearsOf(ctx, input.years)) {
    const byCountry = new Map(bc.data(year, 'attributes', 'scores').map((r) => [r.country_id, r]));
    for (const city of cities) {
      const base = byCountry.get(city.countryId);
      const country = ctx.idx.countries.get(city.countryId);
      if (!base) {
        notes.push(`${city.record.name} (${country?.record.code ?? '?'}): its country is not ranked in ${year}.`);
        continue;
      }
      const row: Row = { year, score_type: 'scores', city: city.record.name ?? '', city_id: city.record.id, country: base.country, country_code: base.country_code };
      keys.forEach((key, k) => {
        const v = base[key];
        const offset = (hashUnit(ctx.ds.seed, city.record.id, k, year) - 0.5) * 16;
        row[key] = typeof v === 'number' ? Math.round(Math.min(100, Math.max(0, v + offset)) * 10) / 10 : null;
      });
      rows.push(row);
    }
  }
  return answer(tool, rows, [...new Set(notes)]);
}
