/**
 * `GET /api/v2/tools/archetypes` (§14): cultural archetypes score a brand against every brand of
 * its study; competitive ones against a collection's or a category's brands (exactly one of the
 * two). Tool parameters are top-level and the answer is `{"data": [...]}`, not paginated.
 */
import type { ArchetypeEntry } from '../../schemas/archetypes.js';
import type { ArchetypeComparison } from '../dataset/types.js';
import { ApiError, badRequest, notFound } from './api-error.js';
import type { Ctx } from './bindings.js';
import { fromIdList } from './filter-values.js';

const KNOWN = new Set(['studies', 'brands', 'audiences', 'collections', 'categories']);

export function runArchetypes(params: URLSearchParams, ctx: Ctx, strictParams: boolean): { data: ArchetypeEntry[] } {
  for (const key of params.keys()) {
    if (!KNOWN.has(key) && strictParams) throw badRequest(`Unknown parameter '${key}' for the archetypes tool. Parameters: studies (required), brands, audiences, collections or categories.`);
  }
  const ids = (name: string) => {
    const v = params.get(name);
    return v === null ? undefined : [...fromIdList(name, v)];
  };
  const studies = ids('studies');
  if (!studies || studies.length === 0) throw badRequest('The archetypes tool requires studies (comma-separated study ids).');
  const collections = ids('collections');
  const categories = ids('categories');
  if (collections && categories) throw badRequest('Give either collections or categories as the competitive set, not both.');
  const audiences = ids('audiences') ?? [1];
  const brands = ids('brands');

  const comparisons: { comparison: ArchetypeComparison; name: string }[] = [];
  if (collections) {
    for (const id of collections) {
      const c = ctx.idx.collections.get(id);
      if (!c) throw notFound(`No collection with id ${id}.`);
      if (!(c.isPublic || c.ownerUser === ctx.user || c.sharedWith.includes(ctx.user))) {
        throw new ApiError(403, `Collection ${id} is private to its owner.`);
      }
      comparisons.push({ comparison: { type: 'collection', id }, name: c.record.name ?? `Collection ${id}` });
    }
  } else if (categories) {
    for (const id of categories) {
      const c = ctx.idx.categories.get(id);
      if (!c) throw notFound(`No category with id ${id}.`);
      comparisons.push({ comparison: { type: 'category', id }, name: c.record.name ?? `Category ${id}` });
    }
  } else {
    comparisons.push({ comparison: { type: 'cultural' }, name: 'Culture' });
  }

  const data: ArchetypeEntry[] = [];
  for (const studyId of studies) {
    const study = ctx.idx.studies.get(studyId);
    if (!study || !study.released) throw notFound(`No released study with id ${studyId}.`);
    for (const audienceId of audiences) {
      if (!ctx.ds.brandscape.rowsOf(studyId).audienceIds.includes(audienceId)) {
        throw notFound(`Study ${studyId} has no data for audience ${audienceId}.`);
      }
      for (const { comparison, name } of comparisons) {
        const result = ctx.ds.archetypes.score(studyId, audienceId, brands, comparison);
        for (const entry of result.entries) {
          const scores: Record<string, number | null> = {};
          for (const key of ctx.ds.archetypes.keys) {
            const s = entry.scores[key];
            scores[key] = s?.score ?? null;
            scores[`${key}_rank`] = s?.rank ?? null;
          }
          data.push({
            brand_id: entry.brandId,
            brand_name: entry.brandName,
            study_id: studyId,
            audience_id: audienceId,
            comparison_type: comparison.type === 'cultural' ? 'cultural' : 'competitive',
            comparison_id: comparison.type === 'cultural' ? null : comparison.id,
            comparison_name: name,
            comparison_size: result.setSize,
            data: scores,
          });
        }
      }
    }
  }
  return { data };
}
