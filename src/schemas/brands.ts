import * as z from 'zod';
import { bool, id, int, num, opt, str, timestamps } from './common.js';
import { sectorSlim } from './sectors.js';

export const brandSlim = z.object({ id: id(), name: str(), sector: opt(sectorSlim) });

export const brand = z.object({
  id: id(),
  // The legacy brand key can be negative (§11.3).
  bav_brand_id: int(),
  bav_id: int(),
  name: str(),
  share_of_company: num(),
  is_core: bool(),
  is_studied_globally: bool(),
  url: str(),
  logo_url: str(),
  ...timestamps,
});
export type Brand = z.infer<typeof brand>;

export const collectionSlim = z.object({ id: id(), name: str() });
export const collection = z.object({
  id: id(),
  name: str(),
  collection_type: str(),
  uuid: str(),
  ...timestamps,
});
export type Collection = z.infer<typeof collection>;
