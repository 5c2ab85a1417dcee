import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  backoffDelay,
  fromRetryHeaders,
  isRetryableStatus,
  toRetryDecision,
  toRetryOptions,
} from '../../src/client/retry-policy.js';

describe('retry policy (pure)', () => {
  it('retries 5xx and 429 only', () => {
    for (const status of [500, 502, 503, 504, 429]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 405, 409, 422, 200, 301]) expect(isRetryableStatus(status)).toBe(false);
  });

  it('never retries other 4xx, whatever the attempt', () => {
    for (const status of [400, 401, 403, 404, 422]) {
      expect(toRetryDecision({ kind: 'status', status }, 1, DEFAULT_RETRY, 0.5)).toEqual({ retry: false, reason: 'not-retryable' });
    }
  });

  it('retries network failures and timeouts with exponential backoff and jitter', () => {
    const options = toRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000, retries: 5 });
    const delays = [1, 2, 3, 4, 5].map((n) => toRetryDecision({ kind: 'network' }, n, options, 1));
    expect(delays.map((d) => (d.retry ? d.delayMs : -1))).toEqual([100, 200, 400, 800, 1000]);
    const low = toRetryDecision({ kind: 'timeout' }, 3, options, 0);
    expect(low).toEqual({ retry: true, delayMs: 200, reason: 'timeout' });
    // Jitter spreads retries between half and all of the exponential delay.
    for (const r of [0, 0.25, 0.5, 0.99]) {
      const d = backoffDelay(2, options, r);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(200);
    }
  });

  it('stops after the configured number of retries', () => {
    const options = toRetryOptions({ retries: 2 });
    expect(toRetryDecision({ kind: 'status', status: 503 }, 2, options, 0).retry).toBe(true);
    expect(toRetryDecision({ kind: 'status', status: 503 }, 3, options, 0)).toEqual({ retry: false, reason: 'exhausted' });
    expect(toRetryDecision({ kind: 'network' }, 1, toRetryOptions({ retries: 0 }), 0)).toEqual({ retry: false, reason: 'exhausted' });
  });

  it('honours the wait a 429 asks for, plus a little jitter, and refuses waits that are too long', () => {
    const d = toRetryDecision({ kind: 'status', status: 429, retryAfterMs: 2000 }, 1, DEFAULT_RETRY, 0);
    expect(d).toEqual({ retry: true, delayMs: 2000, reason: 'rate-limited' });
    const jittered = toRetryDecision({ kind: 'status', status: 429, retryAfterMs: 2000 }, 1, DEFAULT_RETRY, 1);
    expect(jittered.retry && jittered.delayMs).toBe(2200);
    // Without a header, a 429 backs off like any other retryable failure.
    expect(toRetryDecision({ kind: 'status', status: 429 }, 1, DEFAULT_RETRY, 0)).toEqual({ retry: true, delayMs: 125, reason: 'rate-limited' });
    expect(toRetryDecision({ kind: 'status', status: 429, retryAfterMs: 3_600_000 }, 1, DEFAULT_RETRY, 0)).toEqual({ retry: false, reason: 'wait-too-long' });
    // A 503 with Retry-After waits what it says too.
    expect(toRetryDecision({ kind: 'status', status: 503, retryAfterMs: 1000 }, 1, DEFAULT_RETRY, 0)).toEqual({ retry: true, delayMs: 1000, reason: 'server-error' });
  });

  it('reads Retry-After (seconds or a date), else X-RateLimit-Reset', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(fromRetryHeaders({ retryAfter: '3', rateLimitReset: '999' }, now)).toBe(3000);
    expect(fromRetryHeaders({ retryAfter: 'Wed, 01 Jan 2025 12:00:05 GMT', rateLimitReset: null }, now)).toBe(5000);
    expect(fromRetryHeaders({ retryAfter: null, rateLimitReset: String(now / 1000 + 7) }, now)).toBe(7000);
    // A reset in the past means "now".
    expect(fromRetryHeaders({ retryAfter: null, rateLimitReset: String(now / 1000 - 7) }, now)).toBe(0);
    // Small values are delays, as some gateways send them.
    expect(fromRetryHeaders({ retryAfter: null, rateLimitReset: '12' }, now)).toBe(12_000);
    expect(fromRetryHeaders({ retryAfter: 'soon', rateLimitReset: null }, now)).toBeUndefined();
    expect(fromRetryHeaders({ retryAfter: null, rateLimitReset: null }, now)).toBeUndefined();
  });

  it('checks its options', () => {
    expect(toRetryOptions()).toEqual(DEFAULT_RETRY);
    expect(() => toRetryOptions({ retries: -1 })).toThrow(/retry.retries/);
    expect(() => toRetryOptions({ baseDelayMs: Number.NaN })).toThrow(/baseDelayMs/);
  });
});
