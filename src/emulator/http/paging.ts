/**
 * Page parameters and the list envelope, as the service's framework (Laravel's length-aware
 * paginator) produces them: REFERENCE §6, with the emulator's choices of §20 for values the service
 * does not document.
 */

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PagingLimits {
  default: number;
  max: number;
}

/**
 * Reads `page` and `per_page`. A `page` below 1 or not an integer means page 1; a `per_page` below 1
 * or not an integer means the default; above the maximum it is clamped (§20).
 */
export function fromPageParams(page: string | null, perPage: string | null, limits: PagingLimits): PageRequest {
  const asInt = (v: string | null) => (v !== null && /^\s*-?\d+\s*$/.test(v) ? Number.parseInt(v, 10) : Number.NaN);
  const p = asInt(page);
  const n = asInt(perPage);
  return {
    page: Number.isFinite(p) && p >= 1 ? p : 1,
    perPage: Number.isFinite(n) && n >= 1 ? Math.min(n, limits.max) : limits.default,
  };
}

export type LabelStyle = 'number' | 'string';

export interface EnvelopeOptions {
  /** Absolute URL of the endpoint without query string (`meta.path`). */
  path: string;
  /** Query parameters carried into page URLs, in request order (§20 option; default none). */
  carriedQuery?: string;
  labels: LabelStyle;
}

export interface PagerEntry {
  url: string | null;
  label: string | number;
  active: boolean;
}

/**
 * The page numbers shown between "Previous" and "Next" (`null` = the "..." gap): every page below
 * 14 pages, else the first ten or last ten with the two pages at the other end, or a window of
 * three pages either side of the current one (§6.4; reproduces the documented example).
 */
export function pageWindow(current: number, lastPage: number): (number | null)[] {
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  if (lastPage < 14) return range(1, lastPage);
  if (current <= 7) return [...range(1, 10), null, lastPage - 1, lastPage];
  if (current > lastPage - 7) return [1, 2, null, ...range(lastPage - 9, lastPage)];
  return [1, 2, null, ...range(current - 3, current + 3), null, lastPage - 1, lastPage];
}

export interface ListPage<T> {
  data: T;
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PagerEntry[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/** Builds `links` and `meta` for one page of `total` records holding `count` of them. */
export function toEnvelope<T>(data: T, count: number, total: number, request: PageRequest, options: EnvelopeOptions): ListPage<T> {
  const lastPage = Math.max(Math.ceil(total / request.perPage), 1);
  const current = request.page;
  const url = (page: number) =>
    `${options.path}?${options.carriedQuery ? `${options.carriedQuery}&` : ''}page=${page}`;
  const label = (page: number): string | number => (options.labels === 'string' ? String(page) : page);
  const prev = current > 1 ? url(current - 1) : null;
  const next = current < lastPage ? url(current + 1) : null;
  const from = count > 0 ? (current - 1) * request.perPage + 1 : null;
  const links: PagerEntry[] = [{ url: prev, label: '&laquo; Previous', active: false }];
  for (const page of pageWindow(current, lastPage)) {
    links.push(page === null ? { url: null, label: '...', active: false } : { url: url(page), label: label(page), active: page === current });
  }
  links.push({ url: next, label: 'Next &raquo;', active: false });
  return {
    data,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: current,
      from,
      last_page: lastPage,
      links,
      path: options.path,
      per_page: request.perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}
