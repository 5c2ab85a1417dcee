/**
 * The archetypes tool's scores (§14). A brand's archetype score is its latent archetype value
 * standardised against a comparison set (0 = the set's mean, in standard deviations) with its
 * percentile rank in that set. Against the whole study ("cultural") this is exactly the
 * brandscape columns `archetype_<key>_c` / `_rank`; against a collection's or a category's brands
 * ("competitive") both move with the set.
 */
import { ARCHETYPES } from './reference-data.js';
import { percentileRanks, standardise, type BrandscapeInternals } from './brandscape-store.js';
import type { ArchetypeComparison, ArchetypeScore, ArchetypeStore, StudyRows } from './types.js';

export interface ArchetypeStoreOptions {
  brandscape: BrandscapeInternals;
  /** Brands of a collection (any study). */
  collectionBrands(collectionId: number): readonly number[] | undefined;
}

export function createArchetypeStore(options: ArchetypeStoreOptions): ArchetypeStore {
  const keys = ARCHETYPES.map((a) => a.key);
  return {
    keys,
    score(studyId, audienceId, brandIds, comparison) {
      const rows = options.brandscape.rowsOf(studyId);
      const inSet = setMembers(rows, comparison, options);
      const scoresByBrand = new Map<number, Record<string, { score: number; rank: number }>>();
      let setSize = 0;
      let studyBrands: Int32Array | undefined;
      for (const key of keys) {
        const { brandIds: ids, z } = options.brandscape.latentsOf(studyId, audienceId, `archetype_${key}`);
        studyBrands = ids;
        const member = Uint8Array.from(ids, (id) => (inSet === undefined || inSet.has(id) ? 1 : 0));
        const setValues = z.filter((_, i) => member[i] === 1);
        setSize = setValues.length;
        // Standardise everyone against the set; rank the set members among themselves, and any
        // other requested brand among the set's scores.
        const standardised = standardise(setValues, z);
        const setScores = standardised.filter((_, i) => member[i] === 1);
        const memberRanks = percentileRanks(setScores);
        const outsiderRanks = percentileRanks(setScores, standardised, false);
        let m = 0;
        for (let i = 0; i < ids.length; i++) {
          const id = ids[i] ?? 0;
          const rank = member[i] === 1 ? (memberRanks[m++] ?? Number.NaN) : (outsiderRanks[i] ?? Number.NaN);
          let entry = scoresByBrand.get(id);
          if (!entry) scoresByBrand.set(id, (entry = {}));
          entry[key] = { score: standardised[i] ?? Number.NaN, rank };
        }
      }
      const wanted = brandIds ?? [...(studyBrands ?? [])].filter((id) => inSet === undefined || inSet.has(id));
      const nameOf = new Map<number, string>();
      for (let i = rows.length - 1; i >= 0; i--) nameOf.set(rows.brandIds[i] ?? 0, rows.brandNames[i] ?? '');
      const entries: ArchetypeScore[] = [];
      for (const brandId of wanted) {
        const scores = scoresByBrand.get(brandId);
        // A brand not studied in this study has no scores; NaN (too small a base) is served as null.
        if (scores) entries.push({ brandId, brandName: nameOf.get(brandId) ?? '', scores });
      }
      return { setSize, entries };
    },
  };
}

/** Brands of the comparison set within the study; undefined = the whole study (cultural). */
function setMembers(rows: StudyRows, comparison: ArchetypeComparison, options: ArchetypeStoreOptions): Set<number> | undefined {
  if (comparison.type === 'cultural') return undefined;
  if (comparison.type === 'collection') return new Set(options.collectionBrands(comparison.id) ?? []);
  const members = new Set<number>();
  for (let i = 0; i < rows.length; i++) if (rows.categoryIds[i] === comparison.id) members.add(rows.brandIds[i] ?? 0);
  return members;
}
