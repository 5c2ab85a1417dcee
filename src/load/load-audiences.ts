/**
 * `loadAudiences`: the audiences (respondent groups) a brandscape query or `--audience` can name.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { toTable } from '../frames/to-table.js';

/** An audience. */
export interface AudienceRow {
  id: number;
  name: string;
  description: string | null;
  is_active: boolean | null;
  available_for_bav: boolean | null;
}

export interface LoadAudiencesOptions {
  /** Also list inactive audiences and those not available with BAV data (default false). */
  all?: boolean;
  signal?: AbortSignal;
}

/**
 * The audiences, by id: the active ones available with BAV data (brandscape rows), unless `all`.
 * Audience 1 is All Adults (everyone surveyed).
 *
 * @example
 * const audiences = await loadAudiences(client);
 * audiences.print(); // id  name  description  is_active  available_for_bav
 */
export async function loadAudiences(client: Pick<BrandscapeClient, 'audiences'>, options: LoadAudiencesOptions = {}): Promise<FrameTable<AudienceRow, FrameMeta>> {
  const records = await client.audiences.all({ sort: 'id' }, options.signal ? { signal: options.signal } : {});
  const rows = records
    .filter((a) => options.all === true || (a.is_active !== false && a.available_for_bav !== false))
    .map((a): AudienceRow => ({ id: a.id, name: a.name ?? `Audience ${a.id}`, description: a.description ?? null, is_active: a.is_active ?? null, available_for_bav: a.available_for_bav ?? null }));
  return toTable<AudienceRow>(rows, {
    source: 'loadAudiences',
    columns: ['id', 'name', 'description', 'is_active', 'available_for_bav'],
    kinds: { id: 'int', name: 'string', description: 'string', is_active: 'bool', available_for_bav: 'bool' },
  });
}
