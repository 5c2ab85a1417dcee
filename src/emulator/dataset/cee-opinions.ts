/**
 * CEE opinions (§11.8): for each released full-year UK study with minority-ethnic audiences, the
 * share of each such audience (and of All Adults, for comparison) agreeing with each opinion.
 * Deterministic per seed; ids dense in (study, audience, opinion) order.
 */
import type { CeeOpinion } from '../../schemas/cee-opinions.js';
import { gauss4 } from './rng.js';
import type { Dataset, Entity } from './types.js';

export interface CeeOpinionEntity extends Entity<CeeOpinion> {
  readonly studyId: number;
  readonly audienceId: number;
  readonly countryId: number;
  readonly yearId: number;
  readonly yearNumber: number;
}

/** Opinion questions of the Consumer Equality Equation study, with a base level of agreement (logit). */
export const CEE_OPINIONS: readonly (readonly [string, string, number])[] = [
  ['feel_represented_in_advertising', 'I feel people like me are represented in advertising', -0.6],
  ['brands_should_reflect_diversity', 'Brands should reflect the diversity of the country', 0.9],
  ['experienced_unfair_treatment_shopping', 'I have been treated unfairly while shopping because of my ethnicity', -1.1],
  ['prefer_inclusive_brands', 'I prefer to buy from brands that are inclusive', 0.5],
  ['trust_big_brands_to_be_fair', 'I trust big brands to treat people like me fairly', -0.3],
  ['stopped_buying_over_stance', 'I have stopped buying a brand because of its stance on an issue', -0.8],
];

const cache = new WeakMap<Dataset, readonly CeeOpinionEntity[]>();

export function ceeOpinionsOf(ds: Dataset): readonly CeeOpinionEntity[] {
  const cached = cache.get(ds);
  if (cached) return cached;
  const minority = ds.audiences.filter((a) => a.record.is_ethnic_minority === true).map((a) => a.record.id);
  const out: CeeOpinionEntity[] = [];
  for (const study of ds.studies) {
    if (!study.released || study.quarter !== null) continue;
    const audiences = ds.brandscape.rowsOf(study.record.id).audienceIds;
    const groups = audiences.filter((a) => minority.includes(a));
    if (groups.length === 0) continue;
    const stamp = `${study.yearNumber}-0${1 + (study.record.id % 9)}-15T09:00:00.000000Z`;
    for (const audienceId of [1, ...groups]) {
      CEE_OPINIONS.forEach(([key, opinion, base], q) => {
        const lift = audienceId === 1 ? 0 : 0.35 * gauss4(ds.seed, audienceId, q, 0xcee);
        const drift = 0.08 * (study.yearNumber - 2021) * (q % 2 === 0 ? 1 : -1);
        const logit = base + lift + drift + 0.15 * gauss4(ds.seed, study.record.id, audienceId, q);
        out.push({
          studyId: study.record.id,
          audienceId,
          countryId: study.countryId,
          yearId: study.yearId,
          yearNumber: study.yearNumber,
          record: {
            id: out.length + 1,
            study_id: study.record.id,
            audience_id: audienceId,
            country_id: study.countryId,
            year_id: study.yearId,
            opinion_key: key,
            opinion,
            value: Math.round(1000 / (1 + Math.exp(-logit))) / 10,
            created_at: stamp,
            updated_at: stamp,
          },
        });
      });
    }
  }
  cache.set(ds, out);
  return out;
}
