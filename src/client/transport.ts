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
 *
 * Event listeners are the caller's code (a notebook's `onProgress`, a log line): what they throw
 * never reaches the request. The first such error of a client is reported through
 * `onListenerError` (by default one line on stderr, so the bug is seen); later ones are ignored,
 * so a listener that throws on every event does not flood the output.
 */
import { createHash } from 'node:crypto';
import {
  BrandscapeError,
  CancelledError,
  NetworkError,
  TimeoutError,
  LoadError,
  fromHttpStatus,
  redact,
  redactUrl,
  registerSecret,
  type RequestInfo,
} from '../errors.js';
import type { CacheEntry, CacheKey, ResponseCache } from '../loader/cache.js';
import type { LoadCacheState } from '../loader/types.js';
import { fromErrorBody } from '../schemas/envelope.js';
import type { ApiVersion } from './endpoints.js';
import { fromRateHeaders, toRateLimitError, type RateGovernor, type RateTicket } from './rate-governor.js';
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
  /**
   * Told when an event listener (the client's `onEvent` or a request's, such as a load's progress)
   * throws; the request goes on regardless. Default: the first error is written to stderr, once
   * per transport, and later ones are ignored.
   */
  onListenerError?: (error: unknown, event: TransportEvent) => void;
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
  /**
   * The request is one page of a load: the load's cache state (decided by page 1, followed by the
   * rest) and the parameters of any page of the same load (to check what the cache holds).
   */
  load?: { cache: LoadCacheState; paramsOfPage: (page: number) => URLSearchParams } | undefined;
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
  | { ok: false; outcome: AttemptOutcome; error: BrandscapeError; serviceMessage?: string | undefined };

/**
 * Who asks, as a cache key says it: a truncated SHA-256 of the token under a fixed prefix. It
 * tells tokens apart, so one user never reads another's cached answers, yet cannot be turned back
 * into the token (tokens are long and random), so it may be written to disk.
 *
 * @example
 * toCredentialId('my-token') // 16 hex digits
 * toCredentialId(undefined) // 'anonymous'
 */
export function toCredentialId(token: string | undefined): string {
  if (token === undefined || token === '') return 'anonymous';
  return createHash('sha256').update(`brandscape-kit/cache-credential\n${token}`).digest('hex').slice(0, 16);
}

/** The first listener error of a transport, on stderr; the rest are ignored (see the file comment). */
function reportFirstListenerError(): (error: unknown, event: TransportEvent) => void {
  let reported = false;
  return (error, event) => {
    if (reported) return;
    reported = true;
    const said = redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    process.stderr.write(`brandscape-kit: an event listener (onEvent/onProgress) threw on a '${event.type}' event and was ignored: ${said}. Later listener errors are not reported.\n`);
  };
}

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
  const onListenerError = options.onListenerError ?? reportFirstListenerError();
  if (typeof options.token === 'string') registerSecret(options.token);
  /** A new load's id: unique enough to tell two loads of one query apart. */
  const newLoadId = () => `${options.now().toString(36)}-${Math.floor(random() * 2 ** 40).toString(36)}`;

  /** Calls a listener; what it throws stays out of the request (see the file comment). */
  const notify = (listener: ((event: TransportEvent) => void) | undefined, event: TransportEvent) => {
    if (!listener) return;
    try {
      listener(event);
    } catch (error) {
      try {
        onListenerError(error, event);
      } catch {
        // A failing reporter is a listener too.
      }
    }
  };

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
        notify(options.onEvent, event);
        notify(requestOptions.onEvent, event);
      };
      const cancelled = () => new CancelledError(`GET ${shown}`);
      if (signal?.aborted) throw cancelled();

      const cache = options.cache;
      // The cache key names who asks, so the token is known before the cache is read; the first
      // attempt uses it too (a provider is still called once per attempt).
      let token = cache ? await tokenNow() : undefined;
      let tokenIsFresh = cache !== undefined;
      const keyOf = (q: string, credential: string): CacheKey => ({ origin, credential, version: options.version, path, query: q });
      const load = requestOptions.load;
      const loadCache = load?.cache;
      /** The load an answer of the service is stored under. */
      let storeAs: string | undefined;

      if (cache) {
        const key = keyOf(query, toCredentialId(token));
        const read = async (): Promise<{ entry: CacheEntry; body: unknown } | undefined> => {
          try {
            const entry = await cache.get(key);
            return entry && { entry, body: JSON.parse(entry.body) as unknown };
          } catch (error) {
            emit({ type: 'cache-error', method: 'GET', url: shown, message: describeFailure(error) });
            return undefined;
          }
        };
        const hit = (body: unknown): TransportResponse => {
          emit({ type: 'cache-hit', method: 'GET', url: shown });
          return { body, status: 200, url: shown, attempts: 0, fromCache: true };
        };
        /** Page 1 came from the cache: every page of the load must, stored by the same load. */
        const decideFromCache = (of: NonNullable<TransportRequestOptions['load']>, loadId: string, credential: string) => {
          of.cache.mode = 'cache';
          of.cache.loadId = loadId;
          of.cache.verify = async (pages) => {
            for (const page of pages) {
              if (signal?.aborted) return false;
              const info = await cache.peek(keyOf(of.paramsOfPage(page).toString(), credential)).catch(() => undefined);
              if (info?.loadId !== loadId) return false;
            }
            return true;
          };
        };
        if (loadCache === undefined || loadCache.mode === 'undecided') {
          // A lone request, or page 1 of a load: the entry's own time-to-live decides.
          const found = requestOptions.refresh ? undefined : await read();
          if (found) {
            if (load) decideFromCache(load, found.entry.loadId, key.credential);
            return hit(found.body);
          }
          if (loadCache) loadCache.mode = 'network';
        } else if (loadCache.mode === 'cache') {
          // Page 1 came from the cache: so must this page, stored by the same load. The loader
          // checked that before the load began; another run may have rewritten it since.
          const found = await read();
          if (found && found.entry.loadId === loadCache.loadId) return hit(found.body);
          throw new LoadError('data_changed', `The cache no longer holds the answers of the load that page 1 came from (GET ${shown} was rewritten or removed since).`, [], {
            hint: 'Load again: the whole load will come from the service.',
          });
        }
        if (loadCache?.mode === 'network') storeAs = loadCache.loadId ??= newLoadId();
      }

      async function attemptOnce(attempt: number, token: string | undefined): Promise<Attempt> {
        let ticket: RateTicket | undefined;
        if (options.governor) {
          try {
            ticket = await options.governor.acquire(signal, request);
          } catch (error) {
            if (signal?.aborted) throw cancelled();
            throw error;
          }
        }
        // The slot is held from here: every way out gives it back. complete() is idempotent, so
        // the call with the answer's headers below is the one that counts.
        try {
          if (ticket && ticket.waitedMs > 0) emit({ type: 'rate-limit-wait', method: 'GET', url: shown, waitMs: ticket.waitedMs });
          const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': userAgent };
          if (token !== undefined && token !== '') headers['Authorization'] = `Bearer ${token}`;
          emit({ type: 'request', method: 'GET', url: shown, attempt });
          const started = options.now();
          const controller = new AbortController();
          let timedOut = false;
          const timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs);
          const onAbort = () => controller.abort();
          signal?.addEventListener('abort', onAbort, { once: true });
          let res: Response;
          let text: string;
          try {
            res = await fetchFn(url, { method: 'GET', headers, signal: controller.signal });
            // The time limit covers the body too: a service that stalls mid-body is a timeout.
            text = await res.text();
          } catch (error) {
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
          let body: unknown;
          let parsed = true;
          try {
            body = JSON.parse(text);
          } catch {
            parsed = false;
          }
          const serviceMessage = status >= 200 && status < 300 ? undefined : parsed ? fromErrorBody(body) : undefined;
          ticket?.complete({
            ...rate,
            limited: status === 429,
            retryAfterMs: status === 429 ? retryAfterMs : undefined,
            ...(status === 429 ? { refused: { request, serviceMessage } } : {}),
          });
          emit({ type: 'response', method: 'GET', url: shown, attempt, status, durationMs: options.now() - started });
          if (status >= 200 && status < 300) {
            if (!parsed) {
              // A body cut short arrives as invalid JSON when the connection closed cleanly: the
              // next attempt usually gets all of it.
              const detail = `the answer (${status}, ${text.length} characters) was cut short or is not JSON`;
              return { ok: false, outcome: { kind: 'network' }, error: new NetworkError(request, detail) };
            }
            return { ok: true, body, text: cache ? text : undefined, status };
          }
          const error = fromHttpStatus(request, status, serviceMessage, {
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
            ...(scope === undefined ? {} : { scope }),
            version: options.version,
          });
          return { ok: false, outcome: { kind: 'status', status, retryAfterMs }, error, serviceMessage };
        } finally {
          ticket?.complete();
        }
      }

      for (let attempt = 1; ; attempt += 1) {
        if (!tokenIsFresh) token = await tokenNow();
        tokenIsFresh = false;
        const result = await attemptOnce(attempt, token);
        if (result.ok) {
          if (cache && result.text !== undefined) {
            try {
              // Keyed by the token that got this answer (a provider may have refreshed it).
              await cache.set(keyOf(query, toCredentialId(token)), result.text, { loadId: storeAs ?? newLoadId() });
            } catch (error) {
              emit({ type: 'cache-error', method: 'GET', url: shown, message: describeFailure(error) });
            }
          }
          return { body: result.body, status: result.status, url: shown, attempts: attempt, fromCache: false };
        }
        const decision = toRetryDecision(result.outcome, attempt, policy, random());
        if (!decision.retry) {
          const { outcome } = result;
          if (outcome.kind === 'status' && outcome.status === 429) {
            // Say how long the service asks to wait, and until when, whatever the policy decided.
            throw toRateLimitError({ request, serviceMessage: result.serviceMessage }, outcome.retryAfterMs, {
              maxWaitMs: policy.maxRetryAfterMs,
              nowMs: options.now(),
            });
          }
          throw result.error;
        }
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
