import type { RetryReason } from './retry-policy.js';

/**
 * What a client reports: for logs and progress. URLs carry no secrets; no event carries a header.
 * The transport sends the request, response, retry and rate-limit events; the client's answer
 * cache sends the cache events.
 */
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
  /** The rate governor is about to hold this request back for `waitMs` (said before the wait). */
  | { type: 'waiting'; method: string; url: string; waitMs: number; reason: 'rate-limit' }
  /** No answer yet after `elapsedMs` (sent once per attempt, when it passes the client's `slowAfterMs`). */
  | { type: 'slow'; method: string; url: string; attempt: number; elapsedMs: number; timeoutMs: number }
  | { type: 'cache-hit'; method: string; url: string }
  /** The cache could not be read or written; the request went on without it. */
  | { type: 'cache-error'; method: string; url: string; message: string };
