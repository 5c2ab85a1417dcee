/**
 * `loadComparisonInput`: the recipe for loading what the comparisons read, with the client.
 *
 * This is the one file of `frames/` that does I/O, and only through the client it is given; the
 * comparisons themselves take data (DESIGN: frames do no I/O), so they can run on rows from a
 * cache, a file, or a test.
 */
import type { BrandscapeClient, FetchAllOptions } from '../client/brandscape-client.js';
import type { BrandscapeInput, StudyRecord } from '../frames/brandscape-input.js';
import type { CompanyInput } from '../frames/company-rollup.js';
import { chunkIds, idsFitUrl } from '../client/url-budget.js';
import type { RecordSink } from '../loader/types.js';
import { TableBuilder } from '../frames/to-table.js';
import { resolveBrands } from './resolve-brands.js';

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
  /**
   * Load only the rows of these brands, or of the brands of these companies or sectors (the
   * service's `filter[brands]`, `filter[companies]`, `filter[sectors]`), instead of every brand of
   * the studies: a comparison of three brands needs three brands' rows. Several narrow together.
   * `studies` loads the rows of these studies (`filter[studies]`) instead of every study of the
   * markets and years: the full-year studies alone, say, without the US quarterly waves of the
   * same years (the studies are given by id; the markets and years still name their context).
   * Brands may be given by name, as `resolveBrands` takes them (`['Veros', 'Polora']`).
   */
  only?: { brands?: readonly (number | string)[]; companies?: readonly number[]; sectors?: readonly number[]; studies?: readonly number[] };
  /**
   * Studies already loaded with their country and year (`client.studies.all({ include: ['country',
   * 'year'] })`) that cover the studies of the rows: given, they are not asked for again. A caller
   * that chose the studies from such a list (as `compareBrands` does) saves a request.
   */
  studies?: readonly StudyRecord[];
  /**
   * Load the brands' own records (default true): `share_of_company`, which `companyRollup` weights
   * by. The rows are loaded with their brand, sector and company included, so the comparisons need
   * nothing else from them; `false` saves a request (always loaded with `companies`).
   */
  brandRecords?: boolean;
  /** Also load these companies with their annual results and stock prices (for `companyRollup`). */
  companies?: readonly number[];
  /** Loader options for the brandscape rows (progress, signal, concurrency). */
  load?: FetchAllOptions;
}

/** One request `loadComparisonInput` made, for provenance (a report's About sheet lists them). */
export interface LoadedQuery {
  /** The resource, as the service's path names it, e.g. `brandscape-data`. */
  readonly resource: string;
  /** What it asked for, e.g. `{ filter: { country_code: ['GB'], ... }, include: [...] }`. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Records it returned. */
  readonly records: number;
}

/** What `loadComparisonInput` returns besides the data: the queries behind it. */
export interface LoadedProvenance {
  readonly queries: readonly LoadedQuery[];
}

type Client = Pick<BrandscapeClient, 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue'>;

/**
 * Loads brandscape rows (country x year x audience, or only some brands' rows; with brand, sector and company included; returned
 * as a `FrameTable`, so the records themselves can be collected), the studies with their country and year, the brands (global names, `share_of_company`) and the metric
 * catalogue; with `companies`, also those companies' annual results and stock prices. The loads run
 * concurrently; when one fails, or `load.signal` aborts, the others are aborted and the first error is thrown.
 *
 * @example
 * const client = createClient({ baseUrl: emulator.url, token: emulator.token });
 * const input = await loadComparisonInput(client, { countryCodes: ['GB', 'DE', 'FR'], years: [2024], metricKeys: ['differentiation'] });
 * crossMarket(input, { year: 2024, metrics: ['differentiation'] });
 * const three = await loadComparisonInput(client, { countryCodes: ['GB', 'DE'], years: [2024], metricGroupKeys: ['pillars'], only: { brands: [6, 23, 305] } });
 * three.queries; // [{ resource: 'brandscape-data', params: {...}, records: 6 }, ...]
 * const fullYears = await loadComparisonInput(client, { countryCodes: ['US'], years: [2024], metricKeys: ['esteem'], only: { studies: [523], brands: [23] } });
 * const withCompanies = await loadComparisonInput(client, { countryCodes: ['GB'], years: [2022, 2023, 2024], metricKeys: ['esteem'], companies: [1520] });
 * companyRollup(withCompanies, { companies: [1520], metrics: ['esteem'] });
 */
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions & { companies: readonly number[] }): Promise<CompanyInput & LoadedProvenance>;
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions): Promise<BrandscapeInput & LoadedProvenance>;
export async function loadComparisonInput(client: Client, options: LoadComparisonOptions): Promise<(BrandscapeInput | CompanyInput) & LoadedProvenance> {
  const codes = [...options.countryCodes];
  const years = [...options.years];
  // A narrowing by ids that would not fit in a URL (see url-budget.ts) is left out: the
  // comparisons select the same brands, companies or sectors from the rows, so the result is the
  // same, from a larger load; the load itself could not be asked for.
  const fitting = (ids: readonly number[] | undefined) => (ids === undefined || !idsFitUrl(ids) ? undefined : [...ids]);
  // Brands by name are looked up first (a search each).
  const given = options.only?.brands;
  const brandRefs = given?.some((b) => typeof b === 'string') ? (await resolveBrands(client, given, options.load?.signal ? { signal: options.load.signal } : {})).map((b) => b.id) : (given as readonly number[] | undefined);
  const only = { ...options.only, brands: fitting(brandRefs), companies: fitting(options.only?.companies), sectors: fitting(options.only?.sectors) };
  const brandIds = only.brands;
  // Every load gets one signal, aborted when the caller's is or when any load fails: the loads run
  // concurrently, and without it the others would go on fetching pages nobody will read.
  const controller = new AbortController();
  const caller = options.load?.signal;
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const { signal } = controller;
  const queries: LoadedQuery[] = [];
  /** Runs one load, records it, and aborts the others when it fails. */
  const rowBuilder = new TableBuilder({ source: 'brandscape' });
  const settle = <T extends { readonly length: number }>(resource: string, params: Record<string, unknown>, load: Promise<T>): Promise<T> =>
    load.then(
      (records) => {
        queries.push({ resource, params, records: records.length });
        return records;
      },
      (error: unknown) => {
        controller.abort(error);
        throw error;
      },
    );
  try {
    const rowParams = {
      filter: {
        // Study -> audience -> brand is one of the service's qualifying chains (REFERENCE §12.6).
        ...(only.studies ? { studies: [...only.studies] } : { country_code: codes, year_number: years }),
        audiences: options.audience ?? 1,
        ...(brandIds ? { brands: brandIds } : {}),
        ...(only.companies ? { companies: [...only.companies] } : {}),
        ...(only.sectors ? { sectors: [...only.sectors] } : {}),
      },
      ...(options.metricKeys ? { metricKeys: options.metricKeys } : {}),
      ...(options.metricGroupKeys ? { metricGroupKeys: options.metricGroupKeys } : {}),
      include: ['brand', 'sector', 'company'] as const,
    };
    const studyParams = { filter: { country_codes: codes, year_numbers: years }, include: ['country', 'year'] as const };
    const brandParams = { filter: { country_codes: codes, year_numbers: years, ...(brandIds ? { id: brandIds } : {}) }, include: ['company', 'sector'] as const };
    const loadBrands = options.brandRecords !== false || options.companies !== undefined;
    const [catalogue, rows, studies, brands] = await Promise.all([
      client.metricCatalogue({ signal }).catch((error: unknown) => {
        controller.abort(error);
        throw error;
      }),
      // The rows go straight into a table as the pages arrive (no million record objects kept).
      settle('brandscape-data', rowParams, client.brandscape.loadInto(rowParams, rowBuilder as RecordSink<never>, { ...options.load, signal }).then(() => rowBuilder)),
      options.studies ?? settle('studies', studyParams, client.studies.all(studyParams, { signal })),
      loadBrands ? settle('brands', brandParams, client.brands.all(brandParams, { signal })) : undefined,
    ]);
    // The comparisons read tables, and 1,000,000 loaded records left on the heap would make every
    // later garbage collection slower (see group-index.ts): the rows were built into one as they came.
    const input: BrandscapeInput = { rows: rows.finishWith({ metricColumns: catalogue.columns.allColumns }), catalogue, studies, ...(brands ? { brands } : {}) };
    if (!options.companies) return { ...input, queries };
    const ids = [...options.companies];
    const companyParams = { filter: { id: ids }, include: ['financials'] as const };
    const priceParams = { filter: { companies: ids }, include: ['company', 'stock_exchange'] as const };
    // Each in requests whose URLs fit, should the companies be many.
    const inChunks = async <T>(load: (chunk: number[]) => Promise<T[]>): Promise<T[]> => {
      const out: T[] = [];
      for (const chunk of chunkIds(ids)) out.push(...(await load(chunk)));
      return out;
    };
    const [companies, stockPrices] = await Promise.all([
      settle('companies', companyParams, inChunks((chunk) => client.companies.all({ ...companyParams, filter: { id: chunk } }, { signal }))),
      settle('stock-prices', priceParams, inChunks((chunk) => client.stockPrices.all({ ...priceParams, filter: { companies: chunk } }, { signal }))),
    ]);
    return { ...input, companies, stockPrices, queries };
  } finally {
    caller?.removeEventListener('abort', onCallerAbort);
  }
}
