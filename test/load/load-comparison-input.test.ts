/**
 * loadComparisonInput runs its loads concurrently: one failing (or the caller aborting) must abort
 * the others rather than let them fetch pages nobody will read. A stand-in client records the signal
 * each load was given; a load that does not fail waits until its signal aborts.
 */
import { describe, expect, it } from 'vitest';
import { loadComparisonInput } from '../../src/load/load-comparison-input.js';

type Client = Parameters<typeof loadComparisonInput>[0];
type LoadName = 'catalogue' | 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices';

function standIn(failing: LoadName | undefined, answers: Partial<Record<LoadName, unknown>> = {}) {
  const signals = new Map<LoadName, AbortSignal | undefined>();
  const loadOptions = new Map<LoadName, object | undefined>();
  const load = (name: LoadName, options?: { signal?: AbortSignal }): Promise<unknown> => {
    const signal = options?.signal;
    signals.set(name, signal);
    loadOptions.set(name, options);
    if (name === failing) return Promise.reject(new Error(`${name} failed`));
    if (name in answers) return Promise.resolve(answers[name]);
    return new Promise((_, reject) => {
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  const client = {
    metricCatalogue: (options?: { signal?: AbortSignal }) => load('catalogue', options),
    // The rows are loaded into a table page by page: the stand-in hands its answer over as one page.
    brandscape: {
      loadInto: async (_params: unknown, sink: { start(total: number): void; append(records: readonly object[]): void }, options?: { signal?: AbortSignal }) => {
        const records = (await load('brandscape', options)) as object[];
        sink.start(records.length);
        sink.append(records);
        return { total: records.length, complete: true };
      },
    },
    studies: { all: (_params: unknown, options?: { signal?: AbortSignal }) => load('studies', options) },
    brands: { all: (_params: unknown, options?: { signal?: AbortSignal }) => load('brands', options) },
    companies: { all: (_params: unknown, options?: { signal?: AbortSignal }) => load('companies', options) },
    stockPrices: { all: (_params: unknown, options?: { signal?: AbortSignal }) => load('stockPrices', options) },
  };
  // Only the methods loadComparisonInput calls, with the signal handling under test.
  return { client: client as unknown as Client, signals, loadOptions };
}

const options = { countryCodes: ['GB'], years: [2024], metricKeys: ['esteem'] };

describe('loadComparisonInput', () => {
  it('aborts the other loads when one fails, and throws that failure', async () => {
    const { client, signals } = standIn('brands');
    await expect(loadComparisonInput(client, options)).rejects.toThrow('brands failed');
    expect([...signals.keys()].sort()).toEqual(['brands', 'brandscape', 'catalogue', 'studies']);
    for (const name of ['catalogue', 'brandscape', 'studies'] as const) expect(signals.get(name)?.aborted, name).toBe(true);
  });

  it("aborts every load when the caller's signal aborts, keeping the caller's other load options", async () => {
    const { client, signals, loadOptions } = standIn(undefined);
    const caller = new AbortController();
    const onProgress = () => {};
    const loading = loadComparisonInput(client, { ...options, load: { signal: caller.signal, concurrency: 2, onProgress } });
    expect(signals.get('brandscape')?.aborted).toBe(false);
    caller.abort(new Error('stopped by the caller'));
    await expect(loading).rejects.toThrow('stopped by the caller');
    expect(signals.size).toBe(4);
    for (const [name, signal] of signals) expect(signal?.aborted, name).toBe(true);
    expect(loadOptions.get('brandscape')).toMatchObject({ concurrency: 2, onProgress });
  });

  it('aborts the stock prices when the companies fail to load', async () => {
    const catalogue = { metrics: [], groups: [], columns: { allColumns: [] } };
    const { client, signals } = standIn('companies', { catalogue, brandscape: [], studies: [], brands: [] });
    await expect(loadComparisonInput(client, { ...options, companies: [500] })).rejects.toThrow('companies failed');
    expect(signals.get('stockPrices')?.aborted).toBe(true);
  });
});
