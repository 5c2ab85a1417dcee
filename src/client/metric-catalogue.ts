/**
 * The metric catalogue of a client: every brand metric and metric group, and from them which
 * brandscape columns each metric and group stands for. Fetched once per client (both lists at
 * once); a failed fetch is not remembered, so the next call tries again.
 */
import type { MetricCatalogueRecords, RequestOptions, ResourceFetcher } from './brandscape-client.js';
import { fromMetricCatalogue } from './metric-columns.js';

/**
 * The memoised catalogue call of a client.
 *
 * @example
 * const metricCatalogue = createMetricCatalogue(client.brandMetrics, client.brandMetricGroups);
 * const { columns } = await metricCatalogue();
 * columns.columnsFor(['esteem']); // ['esteem_c', 'esteem_rank', ...]
 */
export function createMetricCatalogue(
  brandMetrics: ResourceFetcher<'brand-metrics'>,
  brandMetricGroups: ResourceFetcher<'brand-metric-groups'>,
): (options?: RequestOptions) => Promise<MetricCatalogueRecords> {
  let catalogue: Promise<MetricCatalogueRecords> | undefined;
  return (options) => {
    catalogue ??= (async () => {
      const signal = options?.signal ? { signal: options.signal } : {};
      const [metrics, groups] = await Promise.all([brandMetrics.all({}, signal), brandMetricGroups.all({ include: ['metrics'] }, signal)]);
      return { metrics, groups, columns: fromMetricCatalogue(metrics, groups) };
    })();
    catalogue.catch(() => (catalogue = undefined));
    return catalogue;
  };
}
