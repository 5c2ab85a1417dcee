/**
 * The rate governor: one per client, shared by every request it sends (single pages, full loads,
 * concurrent loads), so that together they stay under the service's rate limit (REFERENCE §10).
 *
 * The service allows `X-RateLimit-Limit` requests per user per window (500 per 60 s) and says
 * how many are left (`X-RateLimit-Remaining`); `X-RateLimit-Reset` comes only with a 429. The
 * window starts at the first counted request, at a moment the client cannot observe exactly.
 *
 * The rule used here needs neither the window's start nor the reset header: a request may be
 * sent only while fewer than `limit` of our requests were answered within the last window length
 * or are still in flight. Proof that no service window ever counts more than `limit` of them: a
 * request is counted at some instant between its send and its answer, so every request counted
 * in a window [a, a + W) was in flight or answered at or after `a`; when each of them was sent,
 * the rule saw the others that were in flight or answered within W before, which includes all of
 * them. Long loads thus run at `limit` per (window + one round trip): 99% of the allowed rate
 * for the service's 60 s window, with no 429 once the limit is known.
 *
 * `X-RateLimit-Remaining` below what our own requests explain reveals other traffic of the same
 * user (another process, another token); that share is held back for a window. A 429 stops every
 * request until the time the service named; a request that would have to wait longer than
 * `maxBlockMs` for it (the retry policy's `maxRetryAfterMs`) fails at once instead.
 */
import { RateLimitError, type RequestInfo } from '../errors.js';
import { onAbort } from '../link-signals.js';

export interface RateGovernorOptions {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Length of the service's rate-limit window in ms (default 60,000, as documented in §10). */
  windowMs?: number;
  /**
   * The longest a request waits for a 429's block, in ms (default: no limit). The client passes
   * its retry policy's `maxRetryAfterMs`: a request the policy would not let wait that long fails
   * at once with a RateLimitError saying how long the service asks to wait, rather than sleeping
   * for it (an hour's `Retry-After` must not stall every later call of the client).
   */
  maxBlockMs?: number;
}

/** The request a 429 refused, and what the service said: named by the errors of requests held back. */
export interface Refusal {
  request: RequestInfo;
  serviceMessage: string | undefined;
}

/** What the governor reads from an answer. */
export interface RateHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  /** A 429's wait, in ms, when the service said (Retry-After, else X-RateLimit-Reset). */
  retryAfterMs?: number | undefined;
  /** True for a 429. */
  limited?: boolean;
  /** For a 429: the request refused (for the errors of requests held back by it). */
  refused?: Refusal | undefined;
}

/** One slot of the budget, held by a request from its send until its answer. */
export interface RateTicket {
  /** Time spent waiting for the slot, in ms (0 when it was free). */
  readonly waitedMs: number;
  /** Releases the slot with what the answer said; a failed request calls it with nothing. */
  complete(headers?: RateHeaders): void;
}

export interface RateGovernor {
  /**
   * Waits until a request may be sent, then holds a slot for it until `complete()`. Rejects with
   * the signal's reason as soon as it aborts (even while earlier acquisitions still wait), and with
   * a RateLimitError when a 429's block outlasts `maxBlockMs`; `request` is named in that error.
   */
  acquire(signal?: AbortSignal, request?: RequestInfo, onWait?: (waitMs: number) => void): Promise<RateTicket>;
  /** The governor's view, for logs and tests. */
  state(): { limit: number | undefined; inFlight: number; recent: number; blockedUntil: number; external: number };
}

/**
 * Reads the rate-limit headers of an answer.
 *
 * @example
 * fromRateHeaders(new Headers({ 'X-RateLimit-Limit': '500', 'X-RateLimit-Remaining': '499' }))
 * // { limit: 500, remaining: 499 }
 */
export function fromRateHeaders(headers: { get(name: string): string | null }): { limit: number | undefined; remaining: number | undefined } {
  const int = (name: string) => {
    const text = headers.get(name);
    if (text === null || !/^\s*\d+\s*$/.test(text)) return undefined;
    return Number(text);
  };
  return { limit: int('x-ratelimit-limit'), remaining: int('x-ratelimit-remaining') };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * The RateLimitError of a 429 that will not be waited for: it says how long the service asks to
 * wait and until when, so a script can report it or schedule itself, and what to change.
 * `notSent` is a later request held back by the 429 (the governor's error), `retryAfterMs` what is
 * left of the wait.
 *
 * @example
 * toRateLimitError({ request: { method: 'GET', url }, serviceMessage: 'Too Many Requests' }, 3_600_000, { maxWaitMs: 120_000, nowMs: Date.now() })
 * // GET … answered 429: Too Many Requests. The service asks to wait 3600 s, longer than the retry policy waits (retry.maxRetryAfterMs = 120 s). Try again after 2025-…Z, or raise retry.maxRetryAfterMs.
 */
export function toRateLimitError(
  refusal: Refusal,
  retryAfterMs: number | undefined,
  context: { maxWaitMs: number; nowMs: number; notSent?: RequestInfo | undefined },
): RateLimitError {
  let hint: string;
  if (retryAfterMs === undefined) {
    hint = 'Lower the concurrency or wait for the rate-limit window to reset.';
  } else {
    const until = new Date(context.nowMs + retryAfterMs).toISOString();
    const asks = `The service asks to wait ${seconds(retryAfterMs)} s${context.notSent ? ' more' : ''}`;
    if (retryAfterMs > context.maxWaitMs) {
      const notSent = context.notSent ? `, so ${context.notSent.method} ${context.notSent.url} was not sent` : '';
      hint = `${asks}, longer than the retry policy waits (retry.maxRetryAfterMs = ${Math.round(context.maxWaitMs / 1000)} s)${notSent}. Try again after ${until}, or raise retry.maxRetryAfterMs.`;
    } else {
      hint = `${asks}; lower the concurrency, or try again after ${until}.`;
    }
  }
  return new RateLimitError(refusal.request, refusal.serviceMessage, retryAfterMs, { hint });
}

/**
 * Creates the governor of one client.
 *
 * @example
 * const governor = createRateGovernor({ now: Date.now, sleep, windowMs: 60_000, maxBlockMs: 120_000 });
 * const ticket = await governor.acquire(signal, { method: 'GET', url });
 * const res = await fetch(url);
 * ticket.complete({ ...fromRateHeaders(res.headers), limited: res.status === 429 });
 */
export function createRateGovernor(options: RateGovernorOptions): RateGovernor {
  const { now, sleep } = options;
  const windowMs = options.windowMs ?? 60_000;
  const maxBlockMs = options.maxBlockMs ?? Number.POSITIVE_INFINITY;
  let limit: number | undefined;
  let inFlight = 0;
  /** Answer times of our requests within the last window, oldest first (the clock never goes back). */
  const answered: number[] = [];
  let head = 0;
  /** Requests of the same user that are not ours, held back until `externalUntil`. */
  let external = 0;
  let externalUntil = 0;
  /** No request before this time (a 429 named it). */
  let blockedUntil = 0;
  /** The 429 that set `blockedUntil`. */
  let blockedBy: Refusal | undefined;
  /** Waiters for a slot freed by an answer (when every slot is in flight). */
  let onAnswer: (() => void)[] = [];
  /** Acquisitions queue up in order: a request never overtakes an earlier one. */
  let queue: Promise<unknown> = Promise.resolve();
  /** Counts the times any acquisition had to wait: a change during an acquisition means it waited too. */
  let waits = 0;

  const prune = (t: number) => {
    while (head < answered.length && (answered[head] ?? 0) <= t - windowMs) head += 1;
    if (head > 1024 && head * 2 > answered.length) {
      answered.splice(0, head);
      head = 0;
    }
    if (t >= externalUntil) external = 0;
  };
  const recent = () => answered.length - head;

  const waitForAnswer = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const stop = onAbort(signal, (reason) => {
        onAnswer = onAnswer.filter((w) => w !== done);
        reject(reason);
      });
      const done = () => {
        stop();
        resolve();
      };
      onAnswer.push(done);
    });

  async function waitForSlot(signal: AbortSignal | undefined, request: RequestInfo | undefined, onWait: ((waitMs: number) => void) | undefined): Promise<void> {
    /** Waits `ms`, saying so first (a long wait is announced before it starts, not after). */
    const hold = async (ms: number) => {
      onWait?.(ms);
      await sleep(ms, signal);
    };
    for (;;) {
      signal?.throwIfAborted();
      const t = now();
      prune(t);
      if (blockedUntil > t) {
        if (blockedUntil - t > maxBlockMs) {
          // The retry policy would not wait this long for the 429 itself: neither does this request.
          const refusal = blockedBy ?? { request: request ?? { method: 'GET', url: '(a request of this client)' }, serviceMessage: undefined };
          throw toRateLimitError(refusal, blockedUntil - t, { maxWaitMs: maxBlockMs, nowMs: t, notSent: request });
        }
        waits += 1;
        await hold(blockedUntil - t);
        continue;
      }
      // Until the first answer says what the limit is, nothing is held back.
      if (limit === undefined || inFlight + recent() + external < limit) {
        // Taken here, synchronously with the check, so the next waiter sees it.
        inFlight += 1;
        return;
      }
      waits += 1;
      if (recent() > 0) {
        // The oldest answer leaves the window at answered[head] + windowMs.
        const expiry = (answered[head] ?? t) + windowMs;
        const wake = external > 0 ? Math.min(expiry, externalUntil) : expiry;
        await hold(Math.max(1, wake - t));
      } else if (external > 0 && inFlight < limit) {
        await hold(Math.max(1, externalUntil - t));
      } else {
        await waitForAnswer(signal);
      }
    }
  }

  function complete(headers: RateHeaders | undefined) {
    inFlight -= 1;
    const t = now();
    answered.push(t);
    prune(t);
    if (headers?.limit !== undefined && headers.limit > 0) limit = headers.limit;
    if (headers?.limited) {
      // The service refused: nothing more until the time it named. A named time longer than a
      // request may wait is kept as said: requests fail fast until then (see waitForSlot) instead
      // of asking the service for another 429. A time it did not name (no Retry-After, or one that
      // cannot be read) holds nothing back: the retry policy's backoff applies, as for a 5xx,
      // rather than a guessed minute-long block per retry.
      const until = headers.retryAfterMs === undefined ? t : t + headers.retryAfterMs;
      if (until > blockedUntil) {
        blockedUntil = until;
        blockedBy = headers.refused;
      }
    } else if (limit !== undefined && headers?.remaining !== undefined) {
      // Requests the service counted beyond all of ours it could have counted: someone else's.
      const others = limit - headers.remaining - (recent() + inFlight);
      if (others > external || (others > 0 && t >= externalUntil)) {
        external = others;
        externalUntil = t + windowMs;
      }
    }
    wakeWaiters();
  }

  function wakeWaiters() {
    const waiters = onAnswer;
    onAnswer = [];
    for (const wake of waiters) wake();
  }

  /** Gives back a slot that was taken for a request never sent: it is not an answer. */
  function release() {
    inFlight -= 1;
    wakeWaiters();
  }

  /**
   * The turn, or the signal's abort if it comes first: a cancelled acquisition settles at once
   * rather than when every earlier one got its slot (minutes, behind a 429). A turn that takes its
   * slot anyway (it was taking it as the signal aborted) gives it back.
   */
  function untilAborted(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return turn;
    return new Promise<void>((resolve, reject) => {
      let abandoned = false;
      const stop = onAbort(signal, (reason) => {
        abandoned = true;
        reject(reason);
        turn.then(release, () => undefined);
      });
      turn.then(
        () => {
          stop();
          if (!abandoned) resolve();
        },
        (error: unknown) => {
          stop();
          if (!abandoned) reject(error);
        },
      );
    });
  }

  return {
    acquire(signal, request, onWait) {
      const started = now();
      const waitsBefore = waits;
      const turn = queue.then(() => waitForSlot(signal, request, onWait));
      // The queue chains on the turn itself, so order is kept; an aborted acquisition's turn passes
      // at once (waitForSlot checks the signal first), and a failed one does not stall the rest.
      queue = turn.catch(() => undefined);
      return untilAborted(turn, signal).then(() => {
        let released = false;
        return {
          // Only real holds count: the time to get through the queue is not a wait.
          waitedMs: waits === waitsBefore ? 0 : Math.max(1, now() - started),
          complete: (headers?: RateHeaders) => {
            if (released) return;
            released = true;
            complete(headers);
          },
        };
      });
    },
    state: () => {
      prune(now());
      return { limit, inFlight, recent: recent(), blockedUntil, external };
    },
  };
}
