/**
 * `page`, `pages`, `all` and `load`, written once for every listable resource: each fetcher only
 * says how a call's parameters become a page function (`FetchPage`), and the loader does the rest.
 */
import type { ApiVersion } from '../catalogue/page-limits.js';
import { iteratePages } from '../loader/iterate-pages.js';
import { checkInteger } from '../option-checks.js';
import { loadAll, loadInto } from '../loader/load-all.js';
import type { FetchPage, LoadOptions, LoadResult, LoadSummary, ParsedPage, RecordSink } from '../loader/types.js';
import type { FetchAllOptions, RequestOptions } from './brandscape-client.js';

/** The part of a call's parameters the list methods read themselves. */
export type PagingParams = { page?: number | undefined; perPage?: number | undefined } | undefined;

export interface ListMethods<P extends PagingParams, T> {
  page(params: P, options?: RequestOptions): Promise<ParsedPage<T>>;
  pages(params: P, options?: FetchAllOptions): AsyncGenerator<ParsedPage<T>, void, undefined>;
  all(params: P, options?: FetchAllOptions): Promise<T[]>;
  load(params: P, options?: FetchAllOptions): Promise<LoadResult<T>>;
  loadInto(params: P, sink: RecordSink<T>, options?: FetchAllOptions): Promise<LoadSummary>;
}

export interface ListSettings {
  /** Requests in flight during full loads, unless a call says otherwise. */
  concurrency: number;
  version: ApiVersion;
  limits: { default: number; max: number };
}

/**
 * The list methods over a function from a call's parameters to its page function. That function
 * checks the parameters (and may throw a UsageError); it is called when a method's work starts,
 * so its errors arrive as the method's rejection (or the first `next()` of `pages`).
 *
 * @example
 * const brands = toListMethods((params) => pageFunctionOf('brands', params), { concurrency: 8, version: 'v2', limits: PAGE_LIMITS.v2 });
 * const all = await brands.all({ filter: { country_codes: 'GB' } });
 */
export function toListMethods<P extends PagingParams, T>(pageFunctionOf: (params: P) => FetchPage<T>, settings: ListSettings): ListMethods<P, T> {
  const loadOptions = (params: P, options: FetchAllOptions | undefined): LoadOptions => ({
    concurrency: settings.concurrency,
    version: settings.version,
    ...(params?.perPage === undefined ? {} : { perPage: params.perPage }),
    ...options,
  });
  return {
    async page(params, options) {
      const perPage = params?.perPage === undefined ? settings.limits.default : checkInteger('perPage', params.perPage, { min: 1, max: settings.limits.max });
      const page = params?.page === undefined ? 1 : checkInteger('page', params.page, { min: 1, max: Number.POSITIVE_INFINITY });
      const fetchPage = pageFunctionOf(params);
      return fetchPage(page, perPage, options?.signal ?? new AbortController().signal);
    },
    async *pages(params, options) {
      yield* iteratePages(pageFunctionOf(params), loadOptions(params, options));
    },
    async all(params, options) {
      return (await loadAll(pageFunctionOf(params), loadOptions(params, options))).records;
    },
    async load(params, options) {
      return loadAll(pageFunctionOf(params), loadOptions(params, options));
    },
    async loadInto(params, sink, options) {
      return loadInto(pageFunctionOf(params), sink, loadOptions(params, options));
    },
  };
}
