/**
 * Which name a chart shows for a brand. `entity_name` is the brand's local name in one market (the
 * name its survey used); `global_name` is the same everywhere. A chart row or line that spans
 * several markets can carry only one name: the local one when every market uses it, else the
 * global one. The local name of each market stays in the tooltip.
 */
import type { EntityKey, MarketKey } from '../frames/types.js';

/** A stable key for an entity across rows (ids of brands, companies and sectors may collide). */
export function entityKey(row: Pick<EntityKey, 'entity_kind' | 'entity_id'>): string {
  return `${row.entity_kind}:${row.entity_id}`;
}

/**
 * The display name of each entity of the rows, by `entityKey`.
 *
 * @example
 * entityNames(rows).get('brand:12') // 'Lay's' when every market calls it that, else 'Walkers' → 'Lay's' (global)
 */
export function entityNames(rows: readonly (EntityKey & Pick<MarketKey, 'country_code'>)[]): Map<string, string> {
  const locals = new Map<string, Set<string>>();
  const globals = new Map<string, string>();
  for (const row of rows) {
    const key = entityKey(row);
    let set = locals.get(key);
    if (set === undefined) locals.set(key, (set = new Set()));
    set.add(row.entity_name);
    if (!globals.has(key)) globals.set(key, row.global_name);
  }
  const names = new Map<string, string>();
  for (const [key, set] of locals) {
    const [only] = set;
    names.set(key, set.size === 1 && only !== undefined ? only : (globals.get(key) ?? only ?? key));
  }
  return names;
}

/** The word for an entity kind, for axis and legend titles. */
export function entityNoun(kind: EntityKey['entity_kind']): string {
  return kind === 'brand' ? 'Brand' : kind === 'company' ? 'Company' : 'Sector';
}
