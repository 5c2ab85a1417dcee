/**
 * A client's options, and the settings they resolve to: explicit options first, then the
 * environment (`BRANDSCAPE_BASE_URL`, `BRANDSCAPE_TOKEN`, `BRANDSCAPE_API_VERSION`), then defaults.
 * Checked here, once, before anything is sent.
 */
import { PAGE_LIMITS, type ApiVersion } from '../catalogue/page-limits.js';
import { UsageError } from '../errors.js';
import { checkInteger, checkNumber } from '../option-checks.js';
import { sleep as abortableSleep } from '../link-signals.js';
import type { RetryOptions } from './retry-policy.js';
import type { TransportEvent } from './transport-event.js';
import type { TokenSource } from './transport.js';

export interface ClientOptions {
  /** Service base URL, e.g. `https://fount.wppbav.com` (default: `BRANDSCAPE_BASE_URL`). */
  baseUrl?: string;
  /** Personal access token, or an async provider for OAuth tokens that expire (default: `BRANDSCAPE_TOKEN`). */
  token?: string | (() => Promise<string>);
  /** API version (default: `BRANDSCAPE_API_VERSION`, else `v2`). */
  version?: ApiVersion;
  /** Requests in flight during full loads (default 8). */
  concurrency?: number;
  /**
   * Time limit of one attempt of a request, in ms (default 30 s; 1 ms to 10 min). A request gives up
   * after two attempts that time out, or after its retries (4; see `retry`): a request that keeps
   * failing takes at most 2 x timeoutMs + the retry waits (0.25-8 s each, or what a 429 asks for,
   * at most `retry.maxRetryAfterMs`, 120 s).
   */
  timeoutMs?: number;
  /** After how long without an answer an `onEvent` `slow` event says so (default 5 s). */
  slowAfterMs?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /**
   * On-disk cache of list pages (single pages and loads): a directory and a time-to-live. Single
   * records (`get`) and tool answers are always asked of the service.
   */
  cache?: { dir: string; ttlMs: number };
  /** Rate-limit window of the service (default 60 s, as documented). */
  rateWindowMs?: number;
  /**
   * Sends the requests instead of the built-in `node:http` keep-alive transport (a proxy-aware
   * fetch, or one wrapped to watch requests).
   */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /** Requests, retries and rate-limit waits, for logs and progress; never carries the token. */
  onEvent?: (event: TransportEvent) => void;
  /**
   * Told when an event listener (`onEvent`, a load's `onProgress`) throws; the request goes on
   * regardless. Default: the first such error is written to stderr once, later ones are ignored.
   */
  onListenerError?: (error: unknown, event: TransportEvent) => void;
  /** Where defaults come from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** What the options resolve to. */
export interface ClientSettings {
  /** Without a trailing slash. */
  baseUrl: string;
  version: ApiVersion;
  token: TokenSource | undefined;
  concurrency: number;
  /** Page sizes of the version. */
  limits: (typeof PAGE_LIMITS)[ApiVersion];
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const envVersion = (value: string | undefined): ApiVersion | undefined => {
  if (value === undefined || value === '') return undefined;
  if (value === 'v1' || value === 'v2') return value;
  throw new UsageError(`BRANDSCAPE_API_VERSION must be 'v1' or 'v2', not '${value}'.`);
};

/** Concurrency the client allows: more would only meet the service's burst protection (§10). */
export const MAX_CONCURRENCY = 64;
/** Per-request time limits the client allows, in ms. */
export const TIMEOUT_RANGE_MS = { min: 1, max: 600_000 } as const;

/**
 * The base URL, checked: a URL of http or https, without credentials (the token goes in
 * BRANDSCAPE_TOKEN, where it is masked, not in a URL that ends up in messages and logs).
 */
function checkBaseUrl(baseUrl: string, source: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`${source} '${baseUrl}' is not a valid URL.`, { hint: 'Give the service address, e.g. https://fount.wppbav.com (no spaces).' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${source} '${baseUrl}' must start with http:// or https://.`);
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${source} carries credentials in the URL.`, { hint: 'Remove them from the URL and put the token in BRANDSCAPE_TOKEN (or the token option).' });
  }
  if (url.search !== '' || url.hash !== '') throw new UsageError(`${source} '${baseUrl}' must not have a query or a fragment.`);
  return baseUrl.replace(/\/+$/, '');
}

/**
 * The token as sent: surrounding whitespace (a pasted token, a line end in a file) is dropped, so
 * the token masked in messages is exactly the token sent; whitespace inside is a usage error.
 */
export function toTokenText(token: string, source: string): string | undefined {
  const trimmed = token.trim();
  if (trimmed === '') return undefined;
  if (/[\s\u0000-\u001f\u007f]/.test(trimmed)) throw new UsageError(`${source} contains spaces or control characters inside it.`, { hint: 'Copy the token again from your profile page (profile?tab=api).' });
  return trimmed;
}

/**
 * Resolves a client's options; a missing or malformed base URL, and numbers out of range, are
 * UsageErrors naming the option (or variable) and its valid range.
 *
 * @example
 * fromClientOptions({ env: { BRANDSCAPE_BASE_URL: 'http://127.0.0.1:8787/', BRANDSCAPE_TOKEN: 't0ken-value' } }).baseUrl // 'http://127.0.0.1:8787'
 */
export function fromClientOptions(options: ClientOptions): ClientSettings {
  const env = options.env ?? process.env;
  const source = options.baseUrl !== undefined ? 'The baseUrl option' : 'BRANDSCAPE_BASE_URL';
  const given = (options.baseUrl ?? env['BRANDSCAPE_BASE_URL'] ?? '').trim();
  if (given === '') {
    throw new UsageError('No service base URL.', {
      hint: "Set BRANDSCAPE_BASE_URL or pass baseUrl; to try the toolkit without an account, start the emulator (createEmulator() or 'brandscape emulator').",
    });
  }
  const baseUrl = checkBaseUrl(given, source);
  const version = options.version ?? envVersion(env['BRANDSCAPE_API_VERSION']) ?? 'v2';
  if (version !== 'v1' && version !== 'v2') throw new UsageError(`version must be 'v1' or 'v2', not '${String(version)}'.`);
  const rawToken = options.token ?? env['BRANDSCAPE_TOKEN'];
  const token = typeof rawToken === 'string' ? toTokenText(rawToken, options.token !== undefined ? 'The token option' : 'BRANDSCAPE_TOKEN') : rawToken;
  if (options.timeoutMs !== undefined) checkNumber('timeoutMs', options.timeoutMs, { ...TIMEOUT_RANGE_MS, unit: 'ms' });
  if (options.rateWindowMs !== undefined) checkNumber('rateWindowMs', options.rateWindowMs, { min: 1, max: 3_600_000, unit: 'ms' });
  return {
    baseUrl,
    version,
    token,
    concurrency: options.concurrency === undefined ? 8 : checkInteger('concurrency', options.concurrency, { min: 1, max: MAX_CONCURRENCY }),
    limits: PAGE_LIMITS[version],
    now: options.now ?? Date.now,
    sleep: options.sleep ?? abortableSleep,
  };
}
