/**
 * `loadMetrics`: the metric keys (`esteem`), their names, groups and score types, and the
 * brandscape columns each gives (`esteem_c`, `esteem_rank`, ...): what `metrics`, `metricKeys`,
 * `--metrics` and `--metric-groups` take. The service's metric records carry names and columns but
 * no key; the key is the columns' common stem, as the client derives it.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { toTable } from '../frames/to-table.js';
import { fromMetricColumn, metricKeyOf } from '../schemas/score-types.js';

/** A metric of the catalogue. */
export interface MetricRow {
  /** What `metrics` / `--metrics` take, e.g. `esteem`. */
  key: string;
  name: string;
  /** Group keys, e.g. `pillars` (what `metricGroupKeys` / `--metric-groups` take). */
  groups: string;
  /** Group names, e.g. `Pillars`. */
  group_names: string;
  /** Score types, e.g. `c, rank, brandscape_index, category_index` (what `--score-type` takes). */
  score_types: string;
  /** The brandscape columns, e.g. `esteem_c, esteem_rank, ...`. */
  columns: string;
  is_core: boolean | null;
  is_legacy: boolean | null;
  description: string | null;
}

export interface LoadMetricsOptions {
  /** Only the metrics of these groups (keys, e.g. `pillars`). */
  groups?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The metric catalogue as a table, one row per metric, in group order.
 *
 * @example
 * const metrics = await loadMetrics(client, { groups: ['pillars'] });
 * metrics.select(['key', 'name', 'score_types']).print();
 * // key              name             score_types
 * // differentiation  Differentiation  c, rank, brandscape_index, category_index
 */
export async function loadMetrics(client: Pick<BrandscapeClient, 'metricCatalogue'>, options: LoadMetricsOptions = {}): Promise<FrameTable<MetricRow, FrameMeta>> {
  const catalogue = await client.metricCatalogue(options.signal ? { signal: options.signal } : {});
  const groupsOf = new Map<number, { key: string; name: string }[]>();
  for (const g of catalogue.groups) {
    if (g.key === null) continue;
    for (const m of g.metrics) groupsOf.set(m.id, [...(groupsOf.get(m.id) ?? []), { key: g.key, name: g.name ?? g.key }]);
  }
  const wanted = options.groups?.map((g) => g.trim().toLowerCase());
  const known = new Set(catalogue.groups.map((g) => g.key));
  const unknown = wanted?.filter((g) => !known.has(g)) ?? [];
  if (unknown.length > 0) {
    throw new UsageError(`'${unknown.join("', '")}' ${unknown.length > 1 ? 'are not metric groups' : 'is not a metric group'}.`, { hint: `Groups: ${[...known].filter((k) => k !== null).join(', ')}.` });
  }
  const order = new Map(catalogue.groups.map((g, i) => [g.key, i]));
  const rows: (MetricRow & { order: number })[] = [];
  for (const m of catalogue.metrics) {
    const columns = m.brandscape_data_columns ?? [];
    const key = metricKeyOf(columns);
    if (key === undefined) continue;
    const groups = groupsOf.get(m.id) ?? [];
    if (wanted && !groups.some((g) => wanted.includes(g.key))) continue;
    rows.push({
      key,
      name: m.name ?? key,
      groups: groups.map((g) => g.key).join(', '),
      group_names: groups.map((g) => g.name).join(', '),
      score_types: columns.map((c) => fromMetricColumn(c).scoreType).join(', '),
      columns: columns.join(', '),
      is_core: m.is_core ?? null,
      is_legacy: m.is_legacy ?? null,
      description: m.description ?? null,
      order: Math.min(...groups.map((g) => order.get(g.key) ?? Infinity), Infinity),
    });
  }
  // Group order (pillars first), catalogue order within a group; metrics of no group last.
  const sorted = rows.map((r, i) => ({ r, i })).sort((a, b) => a.r.order - b.r.order || a.i - b.i).map(({ r: { order: _, ...row } }) => row);
  return toTable<MetricRow>(sorted, {
    source: 'loadMetrics',
    columns: ['key', 'name', 'groups', 'group_names', 'score_types', 'columns', 'is_core', 'is_legacy', 'description'],
    kinds: { key: 'string', name: 'string', groups: 'string', group_names: 'string', score_types: 'string', columns: 'string', is_core: 'bool', is_legacy: 'bool', description: 'string' },
  });
}
