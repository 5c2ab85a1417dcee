/**
 * The transport: one GET against the service, with everything a request needs and nothing about
 * what the answer means. Authentication (`Authorization: Bearer`), `Accept: application/json`
 * (without it the service may answer errors in HTML, §8), a user agent, a time limit per attempt,
 * cancellation, the shared rate governor, the optional answer cache, and retries with backoff as
 * decided by the pure retry policy.
 *
 * It hands back the parsed JSON as `unknown`: giving it a shape is the parser's job (DESIGN.md
 * rule 1). A body cut short or not JSON is a network failure (retried), never a shape error.
 * Errors are the toolkit's own (HTTP status via `fromHttpStatus`, NetworkError, TimeoutError,
 * CancelledError); the token is registered as a secret before it is first used, so it never
 * appears in an error, an event or a cache file.
 */
import {
  BrandscapeError,
  CancelledError,
  NetworkError,
  TimeoutError,
  fromHttpStatus,
  redact,
  redactUrl,
  registerSecret,
  type RequestInfo,
} from '../errors.js';
import type { ResponseCache } from '../loader/cache.js';
import { fromErrorBody } from '../schemas/envelope.js';
import type { ApiVersion } from './endpoints.js';
import { fromRateHeaders, type RateGovernor, type RateTicket } from './rate-governor.js';
import {
  fromRetryHeaders,
  isRetryableStatus,
  toRetryDecision,
  toRetryOptions,
  type AttemptOutcome,
  type RetryOptions,
  type RetryReason,
} from './retry-policy.js';

/** What the transport reports: for logs and progress. URLs carry no secrets; no event carries a header. */
export type TransportEvent =
  | { type: 'request'; method: string; url: string; attempt: number }
  | { type: 'response'; method: string; url: string; attempt: number; status: number; durationMs: number }
  | {
      type: 'retry';
      method: string;
      url: string;
      /** The attempt that failed (1 for the first). */
      attempt: number;
      reason: RetryReason;
      /** The status that caused it, for HTTP failures. */
      status?: number;
      delayMs: number;
      /** What went wrong, in words (the error's message). */
      message: string;
    }
  /** The rate governor held this request back to stay within the limit. */
  | { type: 'rate-limit-wait'; method: string; url: string; waitMs: number }
  | { type: 'cache-hit'; method: string; url: string }
  /** The cache could not be read or written; the request went on without it. */
  | { type: 'cache-error'; method: string; url: string; message: string };

export type TokenSource = string | (() => Promise<string>);

export interface TransportOptions {
  /** Without a trailing slash, e.g. `https://fount.wppbav.com`. */
  baseUrl: string;
  version: ApiVersion;
  /** A token, or an async provider called before every attempt (it should cache and refresh). */
  token?: TokenSource;
  /** Time limit of one attempt, headers and body, in ms (default 30,000). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  cache?: ResponseCache;
  fetch?: typeof fetch;
  random?: () => number;
  onEvent?: (event: TransportEvent) => void;
  governor?: RateGovernor;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

export interface TransportRequestOptions {
  signal?: AbortSignal | undefined;
  /** The scope the endpoint needs, named in the advice of a 401/403. */
  scope?: string | undefined;
  /** Events of this request only, in addition to the client's (a load's progress uses this). */
  onEvent?: ((event: TransportEvent) => void) | undefined;
  /** Ask the service even if the cache holds an answer (the answer still refreshes the cache). */
  refresh?: boolean | undefined;
}

export interface TransportResponse {
  /** The parsed JSON body: unknown until a schema accepts it. */
  body: unknown;
  status: number;
  /** The URL asked, without secrets. */
  url: string;
  /** Attempts made (0 for a cache hit). */
  attempts: number;
  fromCache: boolean;
}

export interface Transport {
  /** `GET /api/<version>/<path>?<params>`. */
  get(path: string, params: URLSearchParams, options?: TransportRequestOptions): Promise<TransportResponse>;
}

export const DEFAULT_USER_AGENT = 'brandscape-kit/0.1.0 (+https://github.com/brandscape-kit)';

type Attempt =
  /** `text` is kept only for the cache: a page's text is as large as its records. */
  | { ok: true; body: unknown; text: string | undefined; status: number }
  | { ok: false; outcome: AttemptOutcome; error: BrandscapeError };

/** The innermost cause's message of a fetch failure ("other side closed", "ECONNREFUSED", ...). */
function describeFailure(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 4 && current instanceof Error && current.cause !== undefined; depth += 1) {
    current = current.cause;
    if (current instanceof Error && current.message) message = `${message} (${current.message})`;
    else if (typeof current === 'object' && current !== null && 'code' in current) message = `${message} (${String(current.code)})`;
  }
  return redact(message);
}

/**
 * Creates the transport of a client.
 *
 * @example
 * const transport = createTransport({ baseUrl: emulator.url, version: 'v2', token: emulator.token, sleep, now: Date.now });
 * const { body } = await transport.get('brands', new URLSearchParams({ per_page: '5' }));
 */
export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const origin = new URL(baseUrl).origin;
  const policy = toRetryOptions(options.retry);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const fetchFn = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  if (typeof options.token === 'string') registerSecret(options.token);

  async function tokenNow(): Promise<string | undefined> {
    if (typeof options.token !== 'function') return options.token;
    let token: string;
    try {
      token = await options.token();
    } catch (error) {
      throw new BrandscapeError('token', `The token provider failed: ${error instanceof Error ? error.message : String(error)}.`, {
        hint: 'Check the provider passed as `token` (it is called before every request).',
        cause: error,
      });
    }
    registerSecret(token);
    return token;
  }

  return {
    async get(path, params, requestOptions = {}) {
      const { signal, scope } = requestOptions;
      const query = params.toString();
      const url = `${baseUrl}/api/${options.version}/${path}${query === '' ? '' : `?${query}`}`;
      const shown = redactUrl(url);
      const request: RequestInfo = { method: 'GET', url: shown };
      const emit = (event: TransportEvent) => {
        options.onEvent?.(event);
        requestOptions.onEvent?.(event);
      };
      const cancelled = () => new CancelledError(`GET ${shown}`);
      if (signal?.aborted) throw cancelled();

      const cacheKey = { origin, version: options.version, path, query };
      if (options.cache && !requestOptions.refresh) {
        try {
          const text = await options.cache.get(cacheKey);
          if (text !== undefined) {
            const body: unknown = JSON.parse(text);
            emit({ type: 'cache-hit', method: 'GET', url: shown });
            return { body, status: 200, url: shown, attempts: 0, fromCache: true };
          }
        } catch (error) {
          emit({ type: 'cache-error', method: 'GET', url: shown, message: describeFailure(error) });
        }
      }

      async function attemptOnce(attempt: number): Promise<Attempt> {
        const token = await tokenNow();
        let ticket: RateTicket | undefined;
        if (options.governor) {
          try {
            ticket = await options.governor.acquire(signal);
          } catch (error) {
            if (signal?.aborted) throw cancelled();
            throw error;
          }
          if (ticket.waitedMs > 0) emit({ type: 'rate-limit-wait', method: 'GET', url: shown, waitMs: ticket.waitedMs });
        }
        const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': userAgent };
        if (token !== undefined && token !== '') headers['Authorization'] = `Bearer ${token}`;
        const controller = new AbortController();
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
        const onAbort = () => controller.abort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const started = options.now();
        emit({ type: 'request', method: 'GET', url: shown, attempt });
        let res: Response;
        let text: string;
        try {
          res = await fetchFn(url, { method: 'GET', headers, signal: controller.signal });
          // The time limit covers the body too: a service that stalls mid-body is a timeout.
          text = await res.text();
        } catch (error) {
          ticket?.complete();
          if (signal?.aborted) throw cancelled();
          if (timedOut) return { ok: false, outcome: { kind: 'timeout' }, error: new TimeoutError(request, timeoutMs) };
          return { ok: false, outcome: { kind: 'network' }, error: new NetworkError(request, describeFailure(error), { cause: error }) };
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        }
        const status = res.status;
        const rate = fromRateHeaders(res.headers);
        const retryAfterMs =
          status === 429 || isRetryableStatus(status)
            ? fromRetryHeaders({ retryAfter: res.headers.get('retry-after'), rateLimitReset: res.headers.get('x-ratelimit-reset') }, options.now())
            : undefined;
        ticket?.complete({ ...rate, limited: status === 429, retryAfterMs: status === 429 ? retryAfterMs : undefined });
        emit({ type: 'response', method: 'GET', url: shown, attempt, status, durationMs: options.now() - started });
        let body: unknown;
        let parsed = true;
        try {
          body = JSON.parse(text);
        } catch {
          parsed = false;
        }
        if (status >= 200 && status < 300) {
          if (!parsed) {
            // A body cut short arrives as invalid JSON when the connection closed cleanly: the
            // next attempt usually gets all of it.
            const detail = `the answer (${status}, ${text.length} characters) was cut short or is not JSON`;
            return { ok: false, outcome: { kind: 'network' }, error: new NetworkError(request, detail) };
          }
          return { ok: true, body, text: options.cache ? text : undefined, status };
        }
        const error = fromHttpStatus(request, status, parsed ? fromErrorBody(body) : undefined, {
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          ...(scope === undefined ? {} : { scope }),
          version: options.version,
        });
        return { ok: false, outcome: { kind: 'status', status, retryAfterMs }, error };
      }

      for (let attempt = 1; ; attempt += 1) {
        const result = await attemptOnce(attempt);
        if (result.ok) {
          if (options.cache && result.text !== undefined) {
            try {
              await options.cache.set(cacheKey, result.text);
            } catch (error) {
              emit({ type: 'cache-error', method: 'GET', url: shown, message: describeFailure(error) });
            }
          }
          return { body: result.body, status: result.status, url: shown, attempts: attempt, fromCache: false };
        }
        const decision = toRetryDecision(result.outcome, attempt, policy, random());
        if (!decision.retry) throw result.error;
        emit({
          type: 'retry',
          method: 'GET',
          url: shown,
          attempt,
          reason: decision.reason,
          ...(result.outcome.kind === 'status' ? { status: result.outcome.status } : {}),
          delayMs: decision.delayMs,
          message: result.error.message,
        });
        if (signal?.aborted) throw cancelled();
        try {
          await options.sleep(decision.delayMs, signal);
        } catch (error) {
          if (signal?.aborted) throw cancelled();
          throw error;
        }
        if (signal?.aborted) throw cancelled();
      }
    },
  };
}
