/**
 * Which brandscape columns a query returns, from the metric catalogue (`brand-metrics` with their
 * `brandscape_data_columns`, and `brand-metric-groups` with their member metrics). The client
 * needs this to validate rows with a schema that lists every column (the fast path) and to refuse
 * unknown metric keys before sending a request.
 */
import { UsageError } from '../errors.js';
import type { BrandMetric, BrandMetricGroup, BrandMetricSlim } from '../schemas/metrics.js';
import { metricKeyOf } from '../schemas/score-types.js';

export interface MetricColumnIndex {
  /** Every metric column, in catalogue order. */
  readonly allColumns: readonly string[];
  /** Metric key -> its columns. */
  readonly byMetric: ReadonlyMap<string, readonly string[]>;
  /** Group key -> metric keys. */
  readonly byGroup: ReadonlyMap<string, readonly string[]>;
  /** The columns selected by metric keys and group keys (all columns when neither is given). */
  columnsFor(metricKeys?: readonly string[], groupKeys?: readonly string[]): string[];
}

export type MetricGroupWithMetrics = BrandMetricGroup & { metrics: BrandMetricSlim[] };

const closest = (word: string, options: readonly string[]) => {
  const w = word.toLowerCase();
  return options.filter((o) => o.includes(w) || w.includes(o)).slice(0, 5);
};

export function fromMetricCatalogue(metrics: readonly BrandMetric[], groups: readonly MetricGroupWithMetrics[]): MetricColumnIndex {
  const byMetric = new Map<string, readonly string[]>();
  const keyById = new Map<number, string>();
  const allColumns: string[] = [];
  for (const metric of metrics) {
    const columns = metric.brandscape_data_columns ?? [];
    const key = metricKeyOf(columns);
    if (key === undefined) continue;
    byMetric.set(key, columns);
    keyById.set(metric.id, key);
    allColumns.push(...columns);
  }
  const byGroup = new Map<string, readonly string[]>();
  for (const group of groups) {
    if (group.key === null) continue;
    byGroup.set(
      group.key,
      group.metrics.map((m) => keyById.get(m.id)).filter((k): k is string => k !== undefined),
    );
  }
  return {
    allColumns,
    byMetric,
    byGroup,
    columnsFor(metricKeys, groupKeys) {
      if ((metricKeys === undefined || metricKeys.length === 0) && (groupKeys === undefined || groupKeys.length === 0)) return [...allColumns];
      const keys = new Set<string>();
      for (const key of metricKeys ?? []) {
        if (!byMetric.has(key)) {
          const near = closest(key, [...byMetric.keys()]);
          throw new UsageError(`Unknown metric key '${key}'.`, {
            hint: near.length > 0 ? `Did you mean ${near.join(', ')}?` : `List the keys with client.metricCatalogue().`,
          });
        }
        keys.add(key);
      }
      for (const groupKey of groupKeys ?? []) {
        const members = byGroup.get(groupKey);
        if (!members) throw new UsageError(`Unknown metric group key '${groupKey}'.`, { hint: `Known groups: ${[...byGroup.keys()].join(', ')}.` });
        for (const key of members) keys.add(key);
      }
      const wanted = new Set([...keys].flatMap((key) => byMetric.get(key) ?? []));
      // Catalogue order, like the service's columns.
      return allColumns.filter((column) => wanted.has(column));
    },
  };
}
