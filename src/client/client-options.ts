/**
 * A client's options, and the settings they resolve to: explicit options first, then the
 * environment (`BRANDSCAPE_BASE_URL`, `BRANDSCAPE_TOKEN`, `BRANDSCAPE_API_VERSION`), then defaults.
 * Checked here, once, before anything is sent.
 */
import { PAGE_LIMITS, type ApiVersion } from '../catalogue/page-limits.js';
import { UsageError } from '../errors.js';
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
  /** Per-request time limit in ms (default 30 s). */
  timeoutMs?: number;
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

/**
 * Resolves a client's options; a missing or malformed base URL is a UsageError.
 *
 * @example
 * fromClientOptions({ env: { BRANDSCAPE_BASE_URL: 'http://127.0.0.1:8787/', BRANDSCAPE_TOKEN: 't0ken-value' } }).baseUrl // 'http://127.0.0.1:8787'
 */
export function fromClientOptions(options: ClientOptions): ClientSettings {
  const env = options.env ?? process.env;
  const baseUrl = (options.baseUrl ?? env['BRANDSCAPE_BASE_URL'] ?? '').replace(/\/+$/, '');
  if (baseUrl === '') {
    throw new UsageError('No service base URL.', {
      hint: "Set BRANDSCAPE_BASE_URL or pass baseUrl; to try the toolkit without an account, start the emulator (createEmulator() or 'brandscape emulator').",
    });
  }
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`The base URL '${baseUrl}' must start with http:// or https://.`);
  const version = options.version ?? envVersion(env['BRANDSCAPE_API_VERSION']) ?? 'v2';
  return {
    baseUrl,
    version,
    token: options.token ?? env['BRANDSCAPE_TOKEN'],
    concurrency: options.concurrency ?? 8,
    limits: PAGE_LIMITS[version],
    now: options.now ?? Date.now,
    sleep: options.sleep ?? abortableSleep,
  };
}
