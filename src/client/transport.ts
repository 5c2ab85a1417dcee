/**
 * The transport: one GET against the service with what every request needs, and nothing about
 * what the answer means or where else it might come from. Authentication (`Authorization:
 * Bearer`), `Accept: application/json` (without it the service may answer errors in HTML, §8), a
 * user agent, a time limit per attempt (headers and body), cancellation, the shared rate governor,
 * and retries with backoff as decided by the pure retry policy. Caching is a layer above it
 * (`withLoadCache`), parsing a layer above that.
 *
 * It hands back the answer decoded by the caller's `decode` (by default JSON, as `unknown`):
 * giving it a shape is the parser's job (DESIGN.md rule 1). A body cut short or not JSON (a
 * SyntaxError from `decode`) is a network failure and retried, never a shape error. Errors are the
 * toolkit's own (HTTP status via `fromHttpStatus`, NetworkError, TimeoutError, CancelledError);
 * the token is registered as a secret before it is first used, so it never appears in an error,
 * an event or a cache file.
 *
 * Event listeners are the caller's code: what they throw never reaches the request (see
 * `listener-notifier.ts`).
 */
import {
  BrandscapeError,
  CancelledError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  fromHttpStatus,
  createSecrets,
  redact,
  type RequestInfo,
  type Secrets,
} from '../errors.js';
import type { ApiVersion } from '../catalogue/page-limits.js';
import { linkSignals } from '../link-signals.js';
import { fromErrorBody } from '../schemas/envelope.js';
import { fromJsonBytes } from './from-json-bytes.js';
import type { HttpAnswer, HttpGet } from './http-answer.js';
import { createHttpGet } from './http-get.js';
import { createNotifier, type Notify } from './listener-notifier.js';
import { fromRateHeaders, toRateLimitError, type RateGovernor, type RateTicket } from './rate-governor.js';
import { fromRetryHeaders, isRetryableStatus, toRetryDecision, toRetryOptions, type AttemptOutcome, type RetryOptions } from './retry-policy.js';
import type { TransportEvent } from './transport-event.js';

export type TokenSource = string | (() => Promise<string>);

export interface TransportOptions {
  /** Without a trailing slash, e.g. `https://fount.wppbav.com`. */
  baseUrl: string;
  version: ApiVersion;
  /** A token, or an async provider called before every attempt (it should cache and refresh). */
  token?: TokenSource;
  /** The client's secrets, which every error and event of the transport is scrubbed of (default: its own). */
  secrets?: Secrets;
  /** Time limit of one attempt, headers and body, in ms (default 30,000). */
  timeoutMs?: number;
  /** After how long without an answer a `slow` event says so (default 5,000 ms). */
  slowAfterMs?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /** How requests are sent (default: `node:http` with keep-alive, `createHttpGet()`). */
  httpGet?: HttpGet;
  random?: () => number;
  onEvent?: (event: TransportEvent) => void;
  /**
   * Told when an event listener (the client's `onEvent` or a request's, such as a load's progress)
   * throws; the request goes on regardless. Default: the first error is written to stderr, once
   * per transport, and later ones are ignored.
   */
  onListenerError?: (error: unknown, event: TransportEvent) => void;
  /** Calls listeners for the transport (instead of one made from `onListenerError`): one per client. */
  notify?: Notify;
  governor?: RateGovernor;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

export interface TransportRequestOptions<T> {
  signal?: AbortSignal | undefined;
  /** The scope the endpoint needs, named in the advice of a 401/403. */
  scope?: string | undefined;
  /** Events of this request only, in addition to the client's (a load's progress uses this). */
  onEvent?: ((event: TransportEvent) => void) | undefined;
  /**
   * Turns the bytes of a 2xx answer into its `body` (default: JSON, `fromJsonBytes`). The bytes
   * are reused once it returns: keep a copy to keep them. A SyntaxError it throws means the body
   * is not JSON (cut short, most likely) and the attempt is retried; anything else it throws
   * fails the request as is.
   */
  decode?: ((bytes: Buffer) => T) | undefined;
  /**
   * Told when a 2xx answer has arrived, with its bytes (to read during the call only), before it is
   * decoded: a load's page frees its request slot then, and page 1 tells the loader the size of the
   * list. The decode waits for the next turn of the event loop, so whatever request the listener
   * starts is on the wire before the decode begins.
   */
  onAnswer?: ((bytes: Buffer) => void) | undefined;
}

export interface TransportResponse<T> {
  /** The decoded body: unknown until a schema accepts it, unless `decode` said more. */
  body: T;
  status: number;
  /** The URL asked, without secrets. */
  url: string;
  /** Attempts made. */
  attempts: number;
}

export interface Transport {
  /** `GET /api/<version>/<path>?<params>`. */
  get<T = unknown>(path: string, params: URLSearchParams, options?: TransportRequestOptions<T>): Promise<TransportResponse<T>>;
  /** The URL of a request, without secrets, as errors and events name it. */
  urlOf(path: string, params: URLSearchParams): string;
}

export const DEFAULT_USER_AGENT = 'brandscape-kit/0.1.0 (+https://github.com/brandscape-kit)';

type Attempt<T> = { ok: true; body: T; status: number } | { ok: false; outcome: AttemptOutcome; error: BrandscapeError; serviceMessage?: string | undefined };

/** One call of `get`, as its attempts see it. */
interface Call<T> {
  /** The URL sent (it may carry secrets in its query: never shown). */
  url: string;
  /** The request as errors and events name it, without secrets. */
  request: RequestInfo;
  scope: string | undefined;
  signal: AbortSignal | undefined;
  decode: (bytes: Buffer) => T;
  onAnswer: ((bytes: Buffer) => void) | undefined;
  emit: (event: TransportEvent) => void;
  cancelled: () => CancelledError;
  /** Attempts that timed out so far (the policy stops after `maxTimeouts`). */
  timeouts: number;
}

/**
 * The innermost cause's message of a network failure ("other side closed", "ECONNREFUSED", ...).
 *
 * @example
 * describeFailure(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') })) // 'fetch failed (connect ECONNREFUSED 127.0.0.1:9)'
 */
export function describeFailure(error: unknown): string {
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
  const policy = toRetryOptions(options.retry);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const slowAfterMs = options.slowAfterMs ?? 5_000;
  const httpGet = options.httpGet ?? createHttpGet();
  const random = options.random ?? Math.random;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const notify = options.notify ?? createNotifier(options.onListenerError);
  // The client's own secrets: its token, and each token its provider returns.
  const secrets = options.secrets ?? createSecrets();
  if (typeof options.token === 'string') secrets.add(options.token);

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
    secrets.add(token);
    return token;
  }

  const urlOf = (path: string, params: URLSearchParams) => {
    const query = params.toString();
    return `${baseUrl}/api/${options.version}/${path}${query === '' ? '' : `?${query}`}`;
  };

  const retryAfterOf = (answer: HttpAnswer) =>
    answer.status === 429 || isRetryableStatus(answer.status)
      ? fromRetryHeaders({ retryAfter: answer.headers.get('retry-after'), rateLimitReset: answer.headers.get('x-ratelimit-reset') }, options.now())
      : undefined;

  /** What an answer says: its body (2xx) or the error it stands for. Gives the bytes back. */
  async function readAnswer<T>(call: Call<T>, answer: HttpAnswer): Promise<Attempt<T>> {
    try {
      const status = answer.status;
      if (status >= 200 && status < 300) {
        if (call.onAnswer) {
          call.onAnswer(answer.body);
          await new Promise((resolve) => setImmediate(resolve));
        }
        try {
          return { ok: true, body: call.decode(answer.body), status };
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          // A web page (a login page, a proxy's notice, the site instead of the API) is not a body
          // cut short: another attempt would get the same page.
          const type = answer.headers.get('content-type') ?? '';
          if (type !== '' && !/json/i.test(type)) {
            const start = answer.body.subarray(0, 60).toString('utf8').replace(/\s+/g, ' ').trim();
            const problem = `${type.split(';')[0]} instead of JSON (it starts "${start}")`;
            return { ok: false, outcome: { kind: 'status', status }, error: new ResponseShapeError(call.request.url, '(root)', problem) };
          }
          // A body cut short arrives as invalid JSON when the connection closed cleanly: the
          // next attempt usually gets all of it.
          const detail = `the answer (${status}, ${answer.body.length} bytes) was cut short or is not JSON`;
          return { ok: false, outcome: { kind: 'network' }, error: new NetworkError(call.request, detail) };
        }
      }
      let serviceMessage: string | undefined;
      try {
        serviceMessage = fromErrorBody(JSON.parse(answer.body.toString('utf8')));
      } catch {
        serviceMessage = undefined;
      }
      const retryAfterMs = retryAfterOf(answer);
      const location = answer.headers.get('location');
      const error = fromHttpStatus(call.request, status, serviceMessage, {
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        ...(location ? { location } : {}),
        ...(call.scope === undefined ? {} : { scope: call.scope }),
        version: options.version,
      });
      return { ok: false, outcome: { kind: 'status', status, retryAfterMs }, error, serviceMessage };
    } finally {
      answer.release();
    }
  }

  /** One attempt: a slot of the rate governor, the request within the time limit, its answer read. */
  async function attemptOnce<T>(call: Call<T>, attempt: number, token: string | undefined): Promise<Attempt<T>> {
    const { request, signal, emit } = call;
    let ticket: RateTicket | undefined;
    if (options.governor) {
      try {
        ticket = await options.governor.acquire(signal, request, (waitMs) => emit({ type: 'waiting', method: 'GET', url: request.url, waitMs, reason: 'rate-limit' }));
      } catch (error) {
        if (signal?.aborted) throw call.cancelled();
        throw error;
      }
    }
    // The slot is held from here: every way out gives it back. complete() is idempotent, so the
    // call with the answer's headers below is the one that counts.
    try {
      if (ticket && ticket.waitedMs > 0) emit({ type: 'rate-limit-wait', method: 'GET', url: request.url, waitMs: ticket.waitedMs });
      const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': userAgent };
      if (token !== undefined && token !== '') headers['Authorization'] = `Bearer ${token}`;
      emit({ type: 'request', method: 'GET', url: request.url, attempt });
      const started = options.now();
      const link = linkSignals(signal);
      let timedOut = false;
      // The time limit covers the body too: a service that stalls mid-body is a timeout.
      const timer = setTimeout(() => {
        timedOut = true;
        link.abort();
      }, timeoutMs);
      // A slow answer is said while it is awaited, so a long wait is never silent.
      const slow = slowAfterMs < timeoutMs ? setTimeout(() => emit({ type: 'slow', method: 'GET', url: request.url, attempt, elapsedMs: slowAfterMs, timeoutMs }), slowAfterMs) : undefined;
      let answer: HttpAnswer;
      try {
        answer = await httpGet(call.url, headers, link.signal);
      } catch (error) {
        if (signal?.aborted) throw call.cancelled();
        if (timedOut) return { ok: false, outcome: { kind: 'timeout', timeouts: ++call.timeouts }, error: new TimeoutError(request, timeoutMs) };
        return { ok: false, outcome: { kind: 'network' }, error: new NetworkError(request, describeFailure(error), { cause: error }) };
      } finally {
        clearTimeout(timer);
        clearTimeout(slow);
        link.dispose();
      }
      const status = answer.status;
      emit({ type: 'response', method: 'GET', url: request.url, attempt, status, durationMs: options.now() - started });
      const rate = fromRateHeaders(answer.headers);
      const retryAfterMs = status === 429 ? retryAfterOf(answer) : undefined;
      // The governor hears the answer's rate headers before its body is read: a load's page 1
      // tells the loader the list's size from its bytes (onAnswer), and the pages that starts must
      // be paced by what page 1's headers said. A 429 waits for the service's message.
      if (status !== 429) ticket?.complete({ ...rate, limited: false, retryAfterMs });
      const result = await readAnswer(call, answer);
      if (status === 429) ticket?.complete({ ...rate, limited: true, retryAfterMs, refused: { request, serviceMessage: result.ok ? undefined : result.serviceMessage } });
      return result;
    } finally {
      ticket?.complete();
    }
  }

  async function get<T>(path: string, params: URLSearchParams, requestOptions: TransportRequestOptions<T>): Promise<TransportResponse<T>> {
      const url = urlOf(path, params);
      const shown = secrets.redact(url);
      const { signal } = requestOptions;
      const call: Call<T> = {
        url,
        request: { method: 'GET', url: shown },
        scope: requestOptions.scope,
        signal,
        decode: requestOptions.decode ?? ((bytes: Buffer) => fromJsonBytes(bytes) as T),
        onAnswer: requestOptions.onAnswer,
        emit: (event) => {
          notify(options.onEvent, event);
          notify(requestOptions.onEvent, event);
        },
        cancelled: () => new CancelledError(`GET ${shown}`),
        timeouts: 0,
      };
      if (signal?.aborted) throw call.cancelled();
      for (let attempt = 1; ; attempt += 1) {
        const result = await attemptOnce(call, attempt, await tokenNow());
        if (result.ok) return { body: result.body, status: result.status, url: shown, attempts: attempt };
        const decision = toRetryDecision(result.outcome, attempt, policy, random());
        if (!decision.retry) {
          const { outcome } = result;
          if (outcome.kind === 'status' && outcome.status === 429) {
            // Say how long the service asks to wait, and until when, whatever the policy decided.
            throw toRateLimitError({ request: call.request, serviceMessage: result.serviceMessage }, outcome.retryAfterMs, {
              maxWaitMs: policy.maxRetryAfterMs,
              nowMs: options.now(),
            });
          }
          throw result.error;
        }
        call.emit({
          type: 'retry',
          method: 'GET',
          url: shown,
          attempt,
          reason: decision.reason,
          ...(result.outcome.kind === 'status' ? { status: result.outcome.status } : {}),
          delayMs: decision.delayMs,
          message: secrets.redact(result.error.message),
        });
        try {
          if (signal?.aborted) throw call.cancelled();
          await options.sleep(decision.delayMs, signal);
        } catch (error) {
          if (signal?.aborted) throw call.cancelled();
          throw error;
        }
        if (signal?.aborted) throw call.cancelled();
      }
  }

  return {
    urlOf: (path, params) => secrets.redact(urlOf(path, params)),
    async get<T>(path: string, params: URLSearchParams, requestOptions: TransportRequestOptions<T> = {}): Promise<TransportResponse<T>> {
      try {
        return await get(path, params, requestOptions);
      } catch (error) {
        // Every error leaves the client with its secrets masked, whatever the service echoed.
        throw secrets.scrub(error);
      }
    },
  };
}
