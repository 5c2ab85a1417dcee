/**
 * TurboPitch tool results as flat records, one table per tool, ready for `toTable` (or `toDanfo` from `brandscape-kit/danfo`):
 * nested stages and metrics become columns, `{key, value}` pairs of a worth map become one row per
 * brand (or category) with a column per axis, and the metadata of object answers is left to the
 * caller (it describes the whole table).
 */
import type { ToolSlug } from '../catalogue/tools.js';
import type { ToolResult } from '../schemas/turbo-pitch.js';

export type ToolRecord = Record<string, string | number | boolean | null>;

/** Long `{key, value}` records to one row per `idKeys` combination, a column per key. */
function widen(records: readonly Record<string, unknown>[], idKeys: readonly string[]): ToolRecord[] {
  const rows = new Map<string, ToolRecord>();
  for (const r of records) {
    const id = idKeys.map((k) => String(r[k])).join('|');
    let row = rows.get(id);
    if (!row) rows.set(id, (row = Object.fromEntries(idKeys.map((k) => [k, (r[k] ?? null) as ToolRecord[string]]))));
    row[String(r['key'])] = (r['value'] ?? null) as ToolRecord[string];
  }
  return [...rows.values()];
}

/**
 * The rows of a tool's result.
 *
 * @example
 * const funnel = await client.turboPitch.commitmentFunnel({ brands: [368, 412], studies: 381 });
 * const df = await toDanfo(toolRecords('commitment-funnel', funnel)); // usage, preference, recommendation columns
 */
export function toolRecords<S extends ToolSlug>(slug: S, result: ToolResult<S>): ToolRecord[] {
  switch (slug) {
    case 'commitment-funnel':
      return (result as ToolResult<'commitment-funnel'>).map(({ metrics, ...entry }) => ({ ...entry, ...Object.fromEntries(metrics.map((m) => [m.key, m.value])) }));
    case 'love-plus':
      return (result as ToolResult<'love-plus'>).map(({ data, ...entry }) => ({ ...entry, ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.value])) }));
    case 'brand-worth-map':
      return widen((result as ToolResult<'brand-worth-map'>).data, ['brand_id', 'brand_name', 'study_id', 'audience_id']);
    case 'category-worth-map':
      return widen((result as ToolResult<'category-worth-map'>).data, ['category_id', 'category_name', 'study_id', 'audience_id', 'brand_count']);
    case 'cost-of-entry':
    case 'partnership-exchange-map':
    case 'swot':
      return [...(result as ToolResult<'cost-of-entry' | 'partnership-exchange-map' | 'swot'>).data] as ToolRecord[];
    default:
      return [...(result as readonly ToolRecord[])];
  }
}
