/**
 * Studies (one market in one period) and the brand x category rows each one surveyed.
 *
 * Every market is studied once a year from FIRST_YEAR to LAST_YEAR, the US also quarterly (§11.19).
 * The latest studies of a few markets and the US's running quarter are not released yet: the
 * emulator's publish call releases them, which is how a load sees data change.
 */
import type { StudyRows } from './types.js';
import { AUDIENCES, FIRST_YEAR, LAST_YEAR } from './reference-data.js';
import { h3, unit } from './rng.js';
import type { World } from './world.js';

export interface StudyModel {
  id: number;
  countryId: number;
  year: number;
  /** 1-4 for US quarterly waves, null for full-year studies. */
  quarter: number | null;
  /** Released at start-up (publish releases the others). */
  released: boolean;
  respondents: number;
  rows: StudyRows;
  /** Number of distinct brands. */
  brandCount: number;
  /** Number of distinct categories. */
  categoryCount: number;
}

const US = 76;
const UK = 48;

/** Which audiences a study carries data for (§11.1: All Adults always; the rest by market and year). */
function audiencesOf(countryId: number, weight: number, year: number, quarter: number | null): number[] {
  if (quarter !== null) return [1, 2, 3];
  const ids: number[] = [];
  for (const a of AUDIENCES) {
    const take =
      a.use === 'always' ||
      (a.use === 'gens' && weight >= 1.1) ||
      (a.use === 'income' && weight >= 0.9) ||
      (a.use === 'recent' && year >= 2021) ||
      (a.use === 'legacy' && year <= 2020 && weight >= 0.9) ||
      (a.use === 'uk-diversity' && countryId === UK && year >= 2021) ||
      (a.use === 'us-lifestyle' && countryId === US);
    if (take) ids.push(a.id);
  }
  return ids;
}

/** Not yet released at start-up: the 2025 studies of the last markets by id, and the US's Q4 2025 wave. */
const isUnreleased = (countryId: number, year: number, quarter: number | null) =>
  year === LAST_YEAR && ((quarter === null && countryId >= 70 && countryId !== US) || quarter === 4);

export function createStudies(world: World, seed: number): StudyModel[] {
  const studies: StudyModel[] = [];
  const categoryName = new Map(world.categories.map((c) => [c.id, c.name]));
  let nextId = 301;
  let nextRelation = 1;
  // Each market's candidate brands, ascending by id (rows of a study are in brand order).
  const candidates = new Map(world.markets.map((m) => [m.id, world.brands.filter((b) => b.markets.has(m.id))]));
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    for (const market of world.markets) {
      const waves = market.id === US ? [null, 1, 2, 3, 4] : [null];
      for (const quarter of waves) {
        const brandIds: number[] = [];
        const categoryIds: number[] = [];
        const brandNames: string[] = [];
        const categoryNames: string[] = [];
        const duplicate: number[] = [];
        const categories = new Set<number>();
        let brandCount = 0;
        for (const brand of candidates.get(market.id) ?? []) {
          const m = brand.markets.get(market.id);
          if (!m || year < m.fromYear || year > brand.lastYear) continue;
          // Abroad, a brand now and then skips a year's brand list.
          if (brand.homeCountryId !== market.id && unit(h3(seed ^ 0x6a95, brand.id, market.id * 100 + year)) < 0.02) continue;
          // Quarterly waves track a core list of the US brands.
          if (quarter !== null && unit(h3(seed ^ 0x0a7e, brand.id, year)) >= 0.6) continue;
          brandCount += 1;
          m.categoryIds.forEach((categoryId, k) => {
            brandIds.push(brand.id);
            categoryIds.push(categoryId);
            brandNames.push(m.localName ?? brand.name);
            categoryNames.push(categoryName.get(categoryId) ?? '');
            // All of a brand's rows but one are duplicates (§12.9): the first one is kept.
            duplicate.push(k === 0 ? 0 : 1);
            categories.add(categoryId);
          });
        }
        const length = brandIds.length;
        const respondents =
          quarter === null
            ? Math.round(2500 + 4500 * market.weight * (0.9 + 0.2 * unit(h3(seed ^ 0x5e5, market.id, year))))
            : Math.round(3000 * (0.9 + 0.2 * unit(h3(seed ^ 0x5e6, year, quarter))));
        studies.push({
          id: nextId++,
          countryId: market.id,
          year,
          quarter,
          released: !isUnreleased(market.id, year, quarter),
          respondents,
          brandCount,
          categoryCount: categories.size,
          rows: {
            studyId: nextId - 1,
            length,
            brandIds: Int32Array.from(brandIds),
            categoryIds: Int32Array.from(categoryIds),
            brandNames,
            categoryNames,
            isDuplicate: Uint8Array.from(duplicate),
            relationIds: Int32Array.from({ length }, () => nextRelation++),
            audienceIds: audiencesOf(market.id, market.weight, year, quarter),
          },
        });
      }
    }
  }
  return studies;
}
