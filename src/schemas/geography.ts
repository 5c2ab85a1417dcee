import * as z from 'zod';
import { bool, id, opt, str, int, timestamps } from './common.js';

export const regionSlim = z.object({ id: id(), name: str() });

export const region = z.object({ id: id(), name: str(), ...timestamps });
export type Region = z.infer<typeof region>;

export const countrySlim = z.object({
  id: id(),
  name: str(),
  region: opt(regionSlim),
  code: str(),
  code_alpha3: str(),
  code_numeric: str(),
});

export const country = z.object({
  id: id(),
  is_active: bool(),
  name: str(),
  native_name: str(),
  code: str(),
  code_alpha3: str(),
  code_numeric: str(),
  capital: str(),
  area: str(),
  latitude: str(),
  longitude: str(),
  flag: str(),
  ...timestamps,
});
export type Country = z.infer<typeof country>;

export const citySlim = z.object({ id: id(), name: str() });

export const city = z.object({
  id: id(),
  name: str(),
  latitude: str(),
  longitude: str(),
  timezone: str(),
  population: int(),
  elevation: int(),
  digital_elevation_model: int(),
  geonames_feature_code: str(),
  ...timestamps,
});
export type City = z.infer<typeof city>;

export const yearSlim = z.object({
  id: id(),
  // The slim shape documents `year` as a string while the full record has an integer (§11.20).
  year: opt(z.union([z.string(), z.number()])),
});

export const year = z.object({ id: id(), year: int(), has_ogilvy_impact: bool(), ...timestamps });
export type Year = z.infer<typeof year>;
