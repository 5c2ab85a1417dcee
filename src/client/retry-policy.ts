/**
 * Retry decisions, as pure functions (DESIGN.md rule 3): given what one attempt produced, the
 * attempt number, the policy and a random number, say whether to try again and after how long.
 * The transport performs the waits; these functions never sleep, read the clock or throw.
 *
 * Only failures that another attempt can cure are retried: network errors (refused or reset
 * connections, a body cut short or not JSON), timeouts, 5xx and 429. Every other 4xx is the
 * caller's problem and fails at once (REFERENCE §8, §21).
 */

import { checkInteger, checkNumber } from '../option-checks.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 4: five attempts in all). */
  retries: number;
  /** Delay before the first retry, in ms, doubled for each further one (default 250). */
  baseDelayMs: number;
  /** Cap of one backoff delay, in ms (default 8,000). */
  maxDelayMs: number;
  /**
   * The longest wait the service may ask for (`Retry-After`, `X-RateLimit-Reset`) that is still
   * honoured, in ms (default 120,000). A longer wait fails at once with a RateLimitError that says
   * how long to wait, rather than blocking a script for an hour.
   */
  maxRetryAfterMs: number;
  /**
   * Attempts that may time out before the request gives up (default 2): a service that does not
   * answer at all fails after two time limits, not five.
   */
  maxTimeouts: number;
}

/** The default policy. */
export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  retries: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 120_000,
  maxTimeouts: 2,
});

/** The range of each retry option. */
const RETRY_RANGES: Readonly<Record<keyof RetryOptions, { min: number; max: number; integer: boolean }>> = {
  retries: { min: 0, max: 10, integer: true },
  baseDelayMs: { min: 0, max: 60_000, integer: false },
  maxDelayMs: { min: 0, max: 600_000, integer: false },
  maxRetryAfterMs: { min: 0, max: 86_400_000, integer: false },
  maxTimeouts: { min: 1, max: 10, integer: true },
};

/**
 * A policy from partial options, each value checked.
 *
 * @example
 * toRetryOptions({ retries: 2 }) // { retries: 2, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 120000, maxTimeouts: 2 }
 */
export function toRetryOptions(partial: Partial<RetryOptions> = {}): RetryOptions {
  const merged = { ...DEFAULT_RETRY, ...partial };
  for (const [key, range] of Object.entries(RETRY_RANGES) as [keyof RetryOptions, (typeof RETRY_RANGES)[keyof RetryOptions]][]) {
    const check = range.integer ? checkInteger : checkNumber;
    check(`retry.${key}`, merged[key], range);
  }
  return merged;
}

/** What one attempt produced, as far as retrying is concerned. */
export type AttemptOutcome =
  /** The service answered with this status (2xx never reaches the policy). */
  | { kind: 'status'; status: number; retryAfterMs?: number | undefined }
  /** No usable answer: refused or reset connection, DNS, a body cut short or not JSON. */
  | { kind: 'network' }
  /** No answer within the per-request time limit; `timeouts` counts this one and earlier ones. */
  | { kind: 'timeout'; timeouts?: number };

export type RetryDecision =
  | { retry: true; delayMs: number; reason: RetryReason }
  | { retry: false; reason: 'not-retryable' | 'exhausted' | 'wait-too-long' };

export type RetryReason = 'server-error' | 'rate-limited' | 'network' | 'timeout';

/**
 * Statuses another attempt may cure: 5xx and 429.
 *
 * @example
 * isRetryableStatus(503) // true
 * isRetryableStatus(404) // false
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * How long the service asked to wait, in ms: `Retry-After` (seconds or an HTTP date), else
 * `X-RateLimit-Reset` (Unix seconds; a small value is read as seconds from now, which some
 * gateways send). Undefined when neither header says anything usable.
 *
 * @example
 * fromRetryHeaders({ retryAfter: '2', rateLimitReset: null }, 0) // 2000
 * fromRetryHeaders({ retryAfter: null, rateLimitReset: '1700000010' }, 1_700_000_000_000) // 10000
 */
export function fromRetryHeaders(headers: { retryAfter: string | null; rateLimitReset: string | null }, nowMs: number): number | undefined {
  const retryAfter = headers.retryAfter?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - nowMs);
  }
  const reset = headers.rateLimitReset?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    // Epoch seconds are > 1e9 since 2001; anything smaller is a delay in seconds.
    return value > 1e9 ? Math.max(0, Math.round(value * 1000 - nowMs)) : Math.round(value * 1000);
  }
  return undefined;
}

/**
 * Exponential backoff with "equal jitter": half the exponential delay is fixed, half random, so
 * concurrent requests that failed together do not retry together, yet every retry waits a while.
 *
 * @example
 * backoffDelay(1, DEFAULT_RETRY, 0.5) // 188 (250 * 0.5 + 250 * 0.5 * 0.5)
 */
export function backoffDelay(retry: number, options: RetryOptions, random: number): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  const r = Math.min(1, Math.max(0, random));
  return Math.round(exponential / 2 + (exponential / 2) * r);
}

/**
 * Whether to retry after an attempt, and after how long.
 *
 * `retry` is the number of the retry being considered (1 for the first). A 429 waits what the
 * service asked for (plus a little jitter so concurrent requests spread out), or the backoff
 * when it said nothing; a wait longer than `maxRetryAfterMs` is not retried.
 *
 * @example
 * toRetryDecision({ kind: 'status', status: 503 }, 1, DEFAULT_RETRY, 0) // { retry: true, delayMs: 125, reason: 'server-error' }
 * toRetryDecision({ kind: 'status', status: 404 }, 1, DEFAULT_RETRY, 0) // { retry: false, reason: 'not-retryable' }
 */
export function toRetryDecision(outcome: AttemptOutcome, retry: number, options: RetryOptions, random: number): RetryDecision {
  let reason: RetryReason;
  if (outcome.kind === 'status') {
    if (!isRetryableStatus(outcome.status)) return { retry: false, reason: 'not-retryable' };
    reason = outcome.status === 429 ? 'rate-limited' : 'server-error';
  } else {
    reason = outcome.kind;
  }
  const asked = outcome.kind === 'status' ? outcome.retryAfterMs : undefined;
  if (asked !== undefined && asked > options.maxRetryAfterMs) return { retry: false, reason: 'wait-too-long' };
  if (retry > options.retries) return { retry: false, reason: 'exhausted' };
  if (outcome.kind === 'timeout' && (outcome.timeouts ?? 1) >= options.maxTimeouts) return { retry: false, reason: 'exhausted' };
  if (asked !== undefined) {
    // What the service asked for, plus up to 10% (at most 1 s) so a crowd does not return at once.
    return { retry: true, delayMs: Math.round(asked + Math.min(1000, asked * 0.1) * Math.min(1, Math.max(0, random))), reason };
  }
  return { retry: true, delayMs: backoffDelay(retry, options, random), reason };
}
