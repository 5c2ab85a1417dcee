/**
 * The types of the endpoints the service lists without documenting a response (undocumented-lists.ts
 * has the fetchers): a file of types only, so that the client's public types can name them without
 * importing the fetchers' code.
 */
import type { LoadOptions, LoadResult, LoadSummary, ParsedPage, RecordSink } from '../loader/types.js';

type Page<T> = ParsedPage<T>;
type FetchAllOptions = Omit<LoadOptions, 'version'>;
interface RequestOptions {
  signal?: AbortSignal;
}

/** A record whose shape the service does not document: an object, its values `unknown` until checked. */
export type UndocumentedRecord = Record<string, unknown>;

/** Paging of a one-page request (`page`) or the page size of a full load. */
export interface PagingQuery {
  /** 1-based page (one-page requests). */
  page?: number;
  /** Page size; defaults to the largest the version allows for full loads, 25 for one page. */
  perPage?: number;
}

/** The list methods of an undocumented list: the same as every fetcher's. */
export interface UndocumentedList<P> {
  page(params: P, options?: RequestOptions): Promise<Page<UndocumentedRecord>>;
  pages(params: P, options?: FetchAllOptions): AsyncIterable<Page<UndocumentedRecord>>;
  /** Every record; throws rather than return fewer than `meta.total`. */
  all(params: P, options?: FetchAllOptions): Promise<UndocumentedRecord[]>;
  load(params: P, options?: FetchAllOptions): Promise<LoadResult<UndocumentedRecord>>;
  /** Every record handed to `sink` page by page (`loadTable(client.bestCountries.raw, query)`). */
  loadInto(params: P, sink: RecordSink<UndocumentedRecord>, options?: FetchAllOptions): Promise<LoadSummary>;
}

/**
 * A country's indicators (`/countries/{id}/indicators`): one record per year in the emulator
 * (`country_id`, `year_id`, `year`, population, GDP, inflation, ...; the service's fields are not
 * documented).
 */
export interface CountryIndicatorsFetcher extends UndocumentedList<PagingQuery | undefined> {
  page(params?: PagingQuery, options?: RequestOptions): Promise<Page<UndocumentedRecord>>;
  pages(params?: PagingQuery, options?: FetchAllOptions): AsyncIterable<Page<UndocumentedRecord>>;
  all(params?: PagingQuery, options?: FetchAllOptions): Promise<UndocumentedRecord[]>;
  load(params?: PagingQuery, options?: FetchAllOptions): Promise<LoadResult<UndocumentedRecord>>;
  /** The indicators of one year (`/countries/{id}/indicators/{yearId}`); `yearId` is a year's system id (see `client.years`), not the calendar year. */
  get(yearId: number, options?: RequestOptions): Promise<UndocumentedRecord>;
}

/** Best Countries raw respondent data of a year, filtered like the calculated data. */
export interface BestCountriesRawQuery extends PagingQuery {
  /** Calendar year, e.g. 2024. */
  year: number;
  /** ISO alpha-2 codes of the countries rated. */
  countryCodes?: string | readonly string[];
  countries?: number | readonly number[];
  /** Fields of the record, or `country.name` (the collection's example), `-` for descending. */
  sort?: string | readonly string[];
}

