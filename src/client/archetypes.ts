/**
 * The archetypes tool (§14): not paginated, its parameters top-level rather than `filter[...]`.
 * A cultural comparison ranks brands against their whole study; a competitive one against exactly
 * one competitive set, a collection or a category.
 */
import * as z from 'zod';
import { ARCHETYPES_TOOL } from '../catalogue/endpoints.js';
import type { ApiVersion } from '../catalogue/page-limits.js';
import { UsageError } from '../errors.js';
import { archetypeEntry, type ArchetypeEntry } from '../schemas/archetypes.js';
import type { ArchetypeParams, RequestOptions } from './brandscape-client.js';
import { toShapeError } from './parse.js';
import { toSearchParams, type QueryInput } from './query.js';
import type { Transport } from './transport.js';

const asList = (v: number | readonly number[] | undefined) => (v === undefined ? undefined : typeof v === 'number' ? [v] : [...v]);

const archetypesSchema = z.object({ data: z.array(archetypeEntry) });

/**
 * The archetypes call of a client.
 *
 * @example
 * const archetypes = createArchetypesTool(transport, 'v2');
 * await archetypes({ studies: [381], brands: [368], comparison: 'cultural' });
 */
export function createArchetypesTool(transport: Transport, version: ApiVersion): (params: ArchetypeParams, options?: RequestOptions) => Promise<ArchetypeEntry[]> {
  return async (params, options) => {
    const studies = asList(params.studies);
    if (!studies || studies.length === 0) throw new UsageError('archetypes needs at least one study.');
    const extra: QueryInput['extra'] = {
      studies,
      brands: asList(params.brands),
      audiences: asList(params.audiences),
    };
    if (params.comparison === 'competitive') {
      const collections = asList(params.collections);
      const categories = asList(params.categories);
      if ((collections === undefined) === (categories === undefined)) {
        throw new UsageError('A competitive comparison needs exactly one of collections or categories.');
      }
      Object.assign(extra, collections ? { collections } : { categories });
    }
    const answer = await transport.get(ARCHETYPES_TOOL.path, toSearchParams({ extra }, { version, fieldsKey: '' }), {
      signal: options?.signal,
      scope: ARCHETYPES_TOOL.scope,
    });
    const parsed = archetypesSchema.safeParse(answer.body);
    if (!parsed.success) throw toShapeError(answer.url, parsed.error);
    return parsed.data.data;
  };
}
