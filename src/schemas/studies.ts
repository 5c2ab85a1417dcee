import * as z from 'zod';
import { bool, id, idName, int, opt, str, timestamps } from './common.js';
import { countrySlim, yearSlim } from './geography.js';

export const studySlim = z.object({
  id: id(),
  name: str(),
  // `period` is an object of undocumented shape (§11.19); `{id, name}` is the emulator's reading.
  period: opt(idName),
  country: opt(countrySlim),
  year: opt(yearSlim),
});
export type StudySlim = z.infer<typeof studySlim>;

export const study = z.object({
  id: id(),
  name: str(),
  is_active: bool(),
  type: opt(idName),
  period: opt(idName),
  start_date: str(),
  end_date: str(),
  data_available_at: str(),
  respondents: int(),
  /** A count of categories, not a list. */
  categories: int(),
  data_updated_at: str(),
  amount_of_cells: int(),
  amount_of_brands: int(),
  ...timestamps,
});
export type Study = z.infer<typeof study>;

/** A brand-in-study relation row of `GET /studies/{id}/brands` (one per brand and category). */
export const studyBrand = z.object({ id: id(), brand_name: str(), ...timestamps });
export type StudyBrand = z.infer<typeof studyBrand>;

/** A category-in-study relation row of `GET /studies/{id}/categories` (§11.19): the category is always embedded. */
export const studyCategory = z.object({ id: id(), category: opt(z.object({ id: id(), name: str() })), ...timestamps });
export type StudyCategory = z.infer<typeof studyCategory>;
