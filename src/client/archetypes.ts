/**
 * The archetypes tool (§14): not paginated, its parameters top-level rather than `filter[...]`.
 * A cultural comparison ranks brands against their whole study; a competitive one against exactly
 * one competitive set, a collection or a category.
 */
import * as z from 'zod';
import { ARCHETYPES_TOOL } from '../catalogue/endpoints.js';
import type { ApiVersion } from '../catalogue/page-limits.js';
import { DataError, UsageError } from '../errors.js';
import { archetypeEntry, type ArchetypeEntry } from '../schemas/archetypes.js';
import type { ArchetypeAnswer, ArchetypeOptions, ArchetypeParams } from './brandscape-client.js';
import { toShapeError } from './parse.js';
import { toSearchParams, type QueryInput } from './query.js';
import type { Transport } from './transport.js';

const asList = (v: number | readonly number[] | undefined) => (v === undefined ? undefined : typeof v === 'number' ? [v] : [...v]);

const archetypesSchema = z.object({ data: z.array(archetypeEntry) });

/**
 * The brands asked for that the answer has no entry for, per study (the service leaves out a
 * brand it has no archetype data for: not studied there, or not in the competitive set).
 */
function missingPairs(entries: readonly ArchetypeEntry[], studies: readonly number[], brands: readonly number[] | undefined): { brand_id: number; study_id: number }[] {
  if (brands === undefined) return [];
  const seen = new Set(entries.map((e) => `${e.brand_id}:${e.study_id}`));
  return studies.flatMap((study) => brands.filter((brand) => !seen.has(`${brand}:${study}`)).map((brand) => ({ brand_id: brand, study_id: study })));
}

/** "brand 369 in study 381, brand 12 in study 381": what had no data, in words. */
function missingText(missing: readonly { brand_id: number; study_id: number }[], studies: readonly number[]): string[] {
  return missing.map((m) => (studies.length === 1 ? `brand ${m.brand_id}` : `brand ${m.brand_id} in study ${m.study_id}`));
}

/**
 * The archetypes call of a client. Brands asked for with no data are never dropped in silence: a
 * `DataError` names them, or, with `{ missing: 'note' }`, the answer carries them and a note.
 *
 * @example
 * const archetypes = createArchetypesTool(transport, 'v2');
 * await archetypes({ studies: [381], brands: [368], comparison: 'cultural' });
 */
export function createArchetypesTool(
  transport: Transport,
  version: ApiVersion,
): (params: ArchetypeParams, options?: ArchetypeOptions) => Promise<ArchetypeEntry[] | ArchetypeAnswer> {
  return async (params, options) => {
    const studies = asList(params.studies);
    if (!studies || studies.length === 0) throw new UsageError('archetypes needs at least one study.');
    const brands = asList(params.brands);
    const extra: QueryInput['extra'] = {
      studies,
      brands,
      audiences: asList(params.audiences),
    };
    let setText = 'every brand of the study';
    if (params.comparison === 'competitive') {
      const collections = asList(params.collections);
      const categories = asList(params.categories);
      if ((collections === undefined) === (categories === undefined)) {
        throw new UsageError('A competitive comparison needs exactly one of collections or categories.');
      }
      Object.assign(extra, collections ? { collections } : { categories });
      setText = collections ? `collection ${collections.join(', ')}` : `category ${categories!.join(', ')}`;
    }
    const mode = options?.missing ?? 'error';
    if (mode !== 'error' && mode !== 'note') throw new UsageError(`missing takes 'error' or 'note'; got '${String(mode)}'.`);
    const answer = await transport.get(ARCHETYPES_TOOL.path, toSearchParams({ extra }, { version, fieldsKey: '' }), {
      signal: options?.signal,
      scope: ARCHETYPES_TOOL.scope,
    });
    const parsed = archetypesSchema.safeParse(answer.body);
    if (!parsed.success) throw toShapeError(answer.url, parsed.error);
    const entries = parsed.data.data;
    const missing = missingPairs(entries, studies, brands);
    const names = missingText(missing, studies);
    // "No competitive archetypes for brand 368 in study 381 (against collection 12)."
    const what = (list: string) => `No ${params.comparison} archetypes for ${list}${studies.length === 1 ? ` in study ${studies[0]}` : ''} (against ${setText})`;
    if (mode === 'note') {
      return { entries, missing, notes: missing.length === 0 ? [] : [`${what(names.join(', '))}.`] };
    }
    if (missing.length > 0) {
      const found = [...new Set(entries.map((e) => `brand ${e.brand_id}${studies.length === 1 ? '' : ` in study ${e.study_id}`}`))];
      throw new DataError(`${what(names.join(', '))}: not studied there, or not in the competitive set.`, names, found, {
        hint: "Ask for other brands or another study, or pass { missing: 'note' } to get the brands that have data and a note naming the others.",
      });
    }
    return entries;
  };
}
