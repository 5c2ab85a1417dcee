/**
 * WPP operating companies (§11.14): a small fixed hierarchy under WPP. Which brand an agency has is
 * undocumented in detail; the emulator's synthetic brands are not agencies, so `brand` is null.
 */
import type { OperatingCompany } from '../../schemas/operating-companies.js';
import type { Entity } from './types.js';

export interface OperatingCompanyEntity extends Entity<OperatingCompany> {
  readonly parentId: number | null;
  readonly brandId: number | null;
}

const AGENCIES: readonly (readonly [number, string, number | null])[] = [
  [1, 'WPP', null],
  [2, 'Ogilvy', 1],
  [3, 'VML', 1],
  [4, 'WPP Media', 1],
  [5, 'Wavemaker', 4],
  [6, 'Mindshare', 4],
  [7, 'EssenceMediacom', 4],
  [8, 'AKQA', 1],
  [9, 'Burson', 1],
  [10, 'Hogarth', 1],
  [11, 'Landor', 1],
  [12, 'Design Bridge and Partners', 1],
  [13, 'BAV Group', 3],
  [14, 'Ogilvy Health', 2],
  [15, 'Ogilvy PR', 2],
];

const OPERATING_COMPANIES: readonly OperatingCompanyEntity[] = AGENCIES.map(([id, name, parentId]) => ({
  parentId,
  brandId: null,
  record: {
    id,
    name,
    created_at: `2021-0${1 + (id % 9)}-1${id % 10}T08:30:00.000000Z`,
    updated_at: `2024-0${1 + (id % 9)}-0${1 + (id % 9)}T10:00:00.000000Z`,
  },
}));

export const operatingCompanies = (): readonly OperatingCompanyEntity[] => OPERATING_COMPANIES;
