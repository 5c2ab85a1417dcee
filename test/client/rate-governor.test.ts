/**
 * The governor with a virtual clock: `sleep` advances time, so pacing over minutes runs in
 * milliseconds. The service side is a model of the emulator's limiter (a fixed window that
 * starts at the first counted request), checked after every request.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createRateGovernor, fromRateHeaders } from '../../src/client/rate-governor.js';
import { RateLimitError } from '../../src/errors.js';

function virtualClock() {
  let t = 1_000_000;
  const timers: { at: number; resolve: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        timers.push({ at: t + ms, resolve });
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
    /** Runs pending microtasks, then jumps to the next timer; false when nothing is pending. */
    async step(): Promise<boolean> {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) return false;
      t = Math.max(t, next.at);
      next.resolve();
      return true;
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

/** How a promise stands once pending microtasks have run, without moving the clock. */
async function settledSoon<T>(promise: Promise<T>): Promise<{ settled: false } | { settled: true; value?: T; error?: unknown }> {
  let outcome: { settled: false } | { settled: true; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => (outcome = { settled: true, value }),
    (error: unknown) => (outcome = { settled: true, error }),
  );
  for (let i = 0; i < 50; i++) await Promise.resolve();
  return outcome;
}

/** The emulator's limiter: `limit` per window from the first counted request. */
function serviceWindow(limit: number, windowMs: number) {
  let start = -Infinity;
  let count = 0;
  return (t: number) => {
    if (t >= start + windowMs) {
      start = t;
      count = 0;
    }
    if (count >= limit) return { allowed: false, remaining: 0 };
    count += 1;
    return { allowed: true, remaining: limit - count };
  };
}

describe('rate governor', () => {
  it('reads the rate-limit headers', () => {
    expect(fromRateHeaders(new Headers({ 'X-RateLimit-Limit': '500', 'X-RateLimit-Remaining': '12' }))).toEqual({ limit: 500, remaining: 12 });
    expect(fromRateHeaders(new Headers({ 'X-RateLimit-Limit': 'lots' }))).toEqual({ limit: undefined, remaining: undefined });
  });

  it('lets everything through until a limit is known', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 1000 });
    const tickets = await Promise.all(Array.from({ length: 20 }, () => governor.acquire()));
    expect(tickets.every((t) => t.waitedMs === 0)).toBe(true);
    expect(governor.state().inFlight).toBe(20);
  });

  it('keeps a long run of concurrent requests under the limit, close to the allowed rate, with no 429', async () => {
    const clock = virtualClock();
    const windowMs = 10_000;
    const limit = 60;
    const service = serviceWindow(limit, windowMs);
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs });
    let refused = 0;
    let sent = 0;
    const hits: number[] = [];
    const latency = 37;
    const worker = async () => {
      while (sent < 300) {
        sent += 1;
        const ticket = await governor.acquire();
        // The request is counted on arrival, half a round trip after it is sent.
        await clock.sleep(latency / 2);
        const decision = service(clock.now());
        hits.push(clock.now());
        if (!decision.allowed) refused += 1;
        await clock.sleep(latency / 2);
        ticket.complete({ limit, remaining: decision.remaining, limited: !decision.allowed, retryAfterMs: decision.allowed ? undefined : 1000 });
      }
    };
    const run = Promise.all(Array.from({ length: 8 }, worker));
    let done = false;
    void run.then(() => (done = true));
    while (!done && (await clock.step()));
    await run;
    expect(refused).toBe(0);
    const span = (hits.at(-1) ?? 0) - (hits[0] ?? 0);
    // 300 requests need five windows: the last can start no earlier than 4 windows after the first.
    const ideal = (Math.ceil(300 / limit) - 1) * windowMs;
    expect(span).toBeGreaterThanOrEqual(ideal);
    expect(ideal / span).toBeGreaterThan(0.98);
  });

  it('holds back every request after a 429 until the time the service named', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 60_000 });
    const first = await governor.acquire();
    first.complete({ limit: 500, remaining: 0, limited: true, retryAfterMs: 5000 });
    const started = clock.now();
    const next = governor.acquire();
    while (await clock.step());
    const ticket = await next;
    expect(clock.now() - started).toBe(5000);
    expect(ticket.waitedMs).toBe(5000);
  });

  it('holds back the share of the limit that other clients of the same user used', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 1000 });
    const first = await governor.acquire();
    // The service counted 8 of 10 although this client sent one request: 7 are someone else's.
    first.complete({ limit: 10, remaining: 2 });
    expect(governor.state().external).toBe(7);
    await governor.acquire();
    await governor.acquire();
    const third = governor.acquire();
    let got = false;
    void third.then(() => (got = true));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(got).toBe(false);
    while (!got && (await clock.step()));
    expect(got).toBe(true);
  });

  it('waits for an answer when every slot is in flight, and frees a slot a window after the answer', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 1000 });
    const a = await governor.acquire();
    a.complete({ limit: 2, remaining: 1 });
    clock.advance(1000);
    // a's answer has left the window: both slots are free, then both in flight.
    const b = await governor.acquire();
    const c = await governor.acquire();
    const pending = governor.acquire();
    let got = false;
    void pending.then(() => (got = true));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(got).toBe(false);
    expect(governor.state()).toMatchObject({ inFlight: 2, recent: 0 });
    const answeredAt = clock.now();
    b.complete({ limit: 2, remaining: 0 });
    c.complete({ limit: 2, remaining: 0 });
    while (!got && (await clock.step()));
    // b's answer leaves the window first, a window after it.
    expect(clock.now() - answeredAt).toBe(1000);
    expect((await pending).waitedMs).toBe(1000);
  });

  it('gives up waiting when the signal aborts, without blocking the requests behind', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 1000 });
    (await governor.acquire()).complete({ limit: 1, remaining: 0 });
    const controller = new AbortController();
    const blocked = governor.acquire(controller.signal);
    const behind = governor.acquire();
    controller.abort(new Error('stop'));
    await expect(blocked).rejects.toThrow('stop');
    while (await clock.step());
    await expect(behind).resolves.toMatchObject({ waitedMs: expect.any(Number) });
  });

  it('fails at once, naming the wait, when a 429 blocks longer than maxBlockMs; requests flow again after it', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 60_000, maxBlockMs: 120_000 });
    const refused = { method: 'GET', url: 'http://service/api/v2/countries' };
    (await governor.acquire()).complete({ limit: 500, remaining: 0, limited: true, retryAfterMs: 3_600_000, refused: { request: refused, serviceMessage: 'Too Many Requests' } });
    const started = clock.now();
    const next = await settledSoon(governor.acquire(undefined, { method: 'GET', url: 'http://service/api/v2/years' }));
    // Not an hour's sleep: an error at once, with no time passed and no slot held.
    expect(next.settled).toBe(true);
    expect(clock.now()).toBe(started);
    const error = next.settled ? next.error : undefined;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect((error as Error).message).toMatch(
      /^GET http:\/\/service\/api\/v2\/countries answered 429: Too Many Requests\. The service asks to wait 3600 s more, longer than the retry policy waits \(retry\.maxRetryAfterMs = 120 s\), so GET http:\/\/service\/api\/v2\/years was not sent\. Try again after \S+Z, or raise retry\.maxRetryAfterMs\.$/,
    );
    expect(governor.state().inFlight).toBe(0);
    // Later, what is left of the block is named; once it is over, nothing is held back.
    clock.advance(3_000_000);
    await expect(governor.acquire()).rejects.toMatchObject({ retryAfterMs: 600_000 });
    clock.advance(600_000);
    await expect(governor.acquire()).resolves.toMatchObject({ waitedMs: 0 });
  });

  it('still waits for a 429 block within maxBlockMs, and holds nothing back when the service named no time (the backoff applies)', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 60_000, maxBlockMs: 5_000 });
    (await governor.acquire()).complete({ limit: 500, remaining: 0, limited: true, retryAfterMs: 4_000 });
    let started = clock.now();
    let next = governor.acquire();
    while (await clock.step());
    expect((await next).waitedMs).toBe(4_000);
    expect(clock.now() - started).toBe(4_000);
    (await next).complete({ limit: 500, remaining: 5, limited: true });
    // No Retry-After (or one that cannot be read): no guessed block; the retry policy's backoff
    // is the wait, as for a 5xx.
    started = clock.now();
    next = governor.acquire();
    while (await clock.step());
    expect((await next).waitedMs).toBe(0);
    expect(clock.now() - started).toBe(0);
  });

  it('says how long it will hold a request back before it does', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 60_000 });
    (await governor.acquire()).complete({ limit: 500, remaining: 0, limited: true, retryAfterMs: 12_000 });
    const told: number[] = [];
    const asked = clock.now();
    // Told at once, when the wait begins, not after it.
    const next = governor.acquire(undefined, undefined, (ms) => told.push(clock.now() === asked ? ms : -1));
    await Promise.resolve();
    while (await clock.step());
    await next;
    expect(told).toEqual([12_000]);
  });

  it('a cancelled acquisition settles at once, even queued behind one that waits for a 429; the queue goes on', async () => {
    const clock = virtualClock();
    const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 60_000 });
    (await governor.acquire()).complete({ limit: 500, remaining: 0, limited: true, retryAfterMs: 300_000 });
    const started = clock.now();
    const first = governor.acquire();
    const controller = new AbortController();
    const cancelled = governor.acquire(controller.signal);
    const behind = governor.acquire();
    controller.abort(new Error('cancelled by the user'));
    const outcome = await settledSoon(cancelled);
    expect(outcome).toEqual({ settled: true, error: new Error('cancelled by the user') });
    expect(clock.now()).toBe(started);
    // The others still get their slots, in order, after the block; the cancelled one holds none.
    while (await clock.step());
    await first;
    await behind;
    expect(clock.now() - started).toBe(300_000);
    expect(governor.state().inFlight).toBe(2);
    // A signal that did not abort keeps no listener once the slot is held.
    const kept = new AbortController();
    await governor.acquire(kept.signal);
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('a slot taken just as the signal aborts is given back', async () => {
    // The abort lands at every point between the end of the wait and the acquisition settling.
    for (let delay = 0; delay < 16; delay++) {
      const clock = virtualClock();
      const governor = createRateGovernor({ now: clock.now, sleep: clock.sleep, windowMs: 1000 });
      (await governor.acquire()).complete({ limit: 1, remaining: 0 });
      const controller = new AbortController();
      const pending = governor.acquire(controller.signal).then(
        (ticket) => ticket,
        () => 'cancelled' as const,
      );
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await clock.step();
      for (let i = 0; i < delay; i++) await Promise.resolve();
      controller.abort();
      const result = await pending;
      expect(governor.state().inFlight, `abort ${delay} microtasks after the wait`).toBe(result === 'cancelled' ? 0 : 1);
    }
  });
});
