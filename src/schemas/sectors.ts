import * as z from 'zod';
import { bool, id, opt, str, timestamps } from './common.js';

export const sectorSlim = z.object({ id: id(), name: str() });

export const sector = z.object({
  id: id(),
  is_active: bool(),
  name: str(),
  excluded_for_most_influential: bool(),
  ...timestamps,
});
export type Sector = z.infer<typeof sector>;

export const categorySlim = z.object({ id: id(), name: str() });

/** A category as embedded with the nested include `category.sector` (§11.19). */
export const categoryWithSectorSlim = categorySlim.extend({ sector: opt(sectorSlim) });

export const category = z.object({ id: id(), name: str(), ...timestamps });
export type Category = z.infer<typeof category>;

export const gicsSectorSlim = z.object({ id: id(), name: str() });
export const gicsSector = z.object({ id: id(), code: str(), name: str(), ...timestamps });
export type GicsSector = z.infer<typeof gicsSector>;
