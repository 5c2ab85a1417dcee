/**
 * `loadComparisonInput`: the recipe for loading what the comparisons read, with the client.
 *
 * This is the one file of `frames/` that does I/O, and only through the client it is given; the
 * comparisons themselves take data (DESIGN: frames do no I/O), so they can run on rows from a
 * cache, a file, or a test.
 */
import type { BrandscapeClient, FetchAllOptions } from '../client/create-client.js';
import type { BrandscapeInput } from './brandscape-input.js';
import type { CompanyInput } from './company-rollup.js';
import { toTable } from './to-table.js';

export interface LoadComparisonOptions {
  /** Markets (ISO alpha-2 codes), e.g. `['GB', 'DE', 'US']`. */
  countryCodes: readonly string[];
  /** Calendar years, e.g. `[2023, 2024]`. */
  years: readonly number[];
  /** Metric keys to load (with `metricGroupKeys`, or neither for every metric: about 350 columns). */
  metricKeys?: readonly string[];
  metricGroupKeys?: readonly string[];
  /** Audience (default 1, All Adults). */
  audience?: number;
  /** Also load these companies with their annual results and stock prices (for `companyRollup`). */
  companies?: readonly number[];
  /** Loader options for the brandscape rows (progress, signal, concurrency). */
  load?: FetchAllOptions;
}

type Client = Pick<BrandscapeClient, 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue'>;

/**
 * Loads brandscape rows (country x year x audience, with brand, sector and company included; returned
 * as a `FrameTable`, so the records themselves can be collected), the studies with their country and year, the brands (global names, `share_of_company`) and the metric
 * catalogue; with `companies`, also those companies' annual results and stock prices. The loads run
 * concurrently; when one fails, or `load.signal` aborts, the others are aborted and the first error is thrown.
 *
 * @example
 * const client = createClient({ baseUrl: emulator.url, token: emulator.token });
 * const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE', 'FR'], years: [2024], metricKeys: ['differentiation'] });
 * crossMarket(input, { year: 2024, metrics: ['differentiation'] });
 * const withCompanies = await loadComparisonInput(client, { countryCodes: ['GB'], years: [2022, 2023, 2024], metricKeys: ['esteem'], companies: [1520] });
 * companyRollup(withCompanies, { companies: [1520], metrics: ['esteem'] });
 */
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions & { companies: readonly number[] }): Promise<CompanyInput>;
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions): Promise<BrandscapeInput>;
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions): Promise<BrandscapeInput | CompanyInput> {
  const codes = [...options.countryCodes];
  const years = [...options.years];
  // Every load gets one signal, aborted when the caller's is or when any load fails: the loads run
  // concurrently, and without it the others would go on fetching pages nobody will read.
  const controller = new AbortController();
  const caller = options.load?.signal;
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const { signal } = controller;
  const settle = <T>(load: Promise<T>): Promise<T> =>
    load.catch((error: unknown) => {
      controller.abort(error);
      throw error;
    });
  try {
    const [catalogue, rows, studies, brands] = await Promise.all([
      settle(client.metricCatalogue({ signal })),
      settle(
        client.brandscape.all(
          {
            filter: { country_code: codes, year_number: years, audiences: options.audience ?? 1 },
            ...(options.metricKeys ? { metricKeys: options.metricKeys } : {}),
            ...(options.metricGroupKeys ? { metricGroupKeys: options.metricGroupKeys } : {}),
            include: ['brand', 'sector', 'company'],
          },
          { ...options.load, signal },
        ),
      ),
      settle(client.studies.all({ filter: { country_codes: codes, year_numbers: years }, include: ['country', 'year'] }, { signal })),
      settle(client.brands.all({ filter: { country_codes: codes, year_numbers: years }, include: ['company', 'sector'] }, { signal })),
    ]);
    // The rows become a table at once: the comparisons read tables, and 1,000,000 loaded records
    // left on the heap make every later garbage collection slower (see group-index.ts).
    const input: BrandscapeInput = { rows: toTable(rows, { metricColumns: catalogue.columns.allColumns, source: 'brandscape' }), catalogue, studies, brands };
    if (!options.companies) return input;
    const ids = [...options.companies];
    const [companies, stockPrices] = await Promise.all([
      settle(client.companies.all({ filter: { id: ids }, include: ['financials'] }, { signal })),
      settle(client.stockPrices.all({ filter: { companies: ids }, include: ['company', 'stock_exchange'] }, { signal })),
    ]);
    return { ...input, companies, stockPrices };
  } finally {
    caller?.removeEventListener('abort', onCallerAbort);
  }
}
