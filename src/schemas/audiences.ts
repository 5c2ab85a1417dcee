import * as z from 'zod';
import { bool, id, opt, str, timestamps } from './common.js';

export const audienceSlim = z.object({
  id: id(),
  name: str(),
  is_active: bool(),
  is_public: bool(),
  available_for_bav: bool(),
  available_for_bc: bool(),
});

export const audience = z.object({
  id: id(),
  name: str(),
  description: str(),
  is_active: bool(),
  is_public: bool(),
  available_for_bav: bool(),
  available_for_bc: bool(),
  // Element shape undocumented (§11.1): kept as unknown values.
  bc_filters: opt(z.array(z.unknown())),
  available_for_diversity: bool(),
  is_ethnic_minority: bool(),
  ...timestamps,
});
export type Audience = z.infer<typeof audience>;

export const audienceGroupSlim = z.object({ id: id(), name: str() });

export const audienceGroup = z.object({ id: id(), name: str(), description: str(), ...timestamps });
export type AudienceGroup = z.infer<typeof audienceGroup>;
