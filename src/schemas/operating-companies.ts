import * as z from 'zod';
import { id, str, timestamps } from './common.js';

/** A WPP operating company (agency), §11.14. The slim shape is undocumented: `{id, name}` is the emulator's choice. */
export const operatingCompanySlim = z.object({ id: id(), name: str() });

export const operatingCompany = z.object({ id: id(), name: str(), ...timestamps });
export type OperatingCompany = z.infer<typeof operatingCompany>;
