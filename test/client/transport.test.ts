/**
 * The transport against the emulator's scripted faults: what is retried (5xx, 429, reset and
 * truncated connections, hangs past the time limit), what is not (every other 4xx), how errors
 * read, cancellation, and the headers sent. `fetch` is the real one, wrapped only to record the
 * headers it was given.
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { createRateGovernor } from '../../src/client/rate-governor.js';
import { createTransport } from '../../src/client/transport.js';
import type { TransportEvent } from '../../src/client/transport-event.js';
import type { FaultKind } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import {
  AuthenticationError,
  BadRequestError,
  BrandscapeError,
  CancelledError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../../src/errors.js';
import { recordingClient, requestsTo, startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    tokens: ['bsk-emulator-token', { token: 'brands-only-token-123', scopes: ['Brands: Read'] }],
  });
});
afterAll(() => emulator.close());

describe('requests', () => {
  it('sends the bearer token, Accept: application/json and a user agent', async () => {
    const seen: Headers[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    const { client } = recordingClient(emulator, { fetch: recordingFetch });
    await client.years.page();
    expect(seen[0]?.get('authorization')).toBe(`Bearer ${emulator.token}`);
    expect(seen[0]?.get('accept')).toBe('application/json');
    expect(seen[0]?.get('user-agent')).toMatch(/^brandscape-kit\//);
    const custom = recordingClient(emulator, { fetch: recordingFetch, userAgent: 'my-report/2.0' }).client;
    await custom.years.page();
    expect(seen[1]?.get('user-agent')).toBe('my-report/2.0');
  });

  it('calls an async token provider before every attempt', async () => {
    let calls = 0;
    const { client } = recordingClient(emulator, {
      token: async () => {
        calls += 1;
        return emulator.token;
      },
    });
    emulator.faults.add({ path: '/years', kind: 503 });
    await client.years.page();
    expect(calls).toBe(2);
    const failing = recordingClient(emulator, { token: () => Promise.reject(new Error('refresh token expired')) }).client;
    const error = await failing.years.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrandscapeError);
    expect((error as BrandscapeError).code).toBe('token');
    expect((error as Error).message).toMatch(/token provider failed: refresh token expired/);
  });
});

describe('retries per fault kind', () => {
  const kinds: FaultKind[] = [500, 502, 503, 504, 'reset', 'truncate'];
  for (const kind of kinds) {
    it(`retries ${String(kind)} and then succeeds`, async () => {
      const { client, events } = recordingClient(emulator);
      emulator.clearRequests();
      emulator.faults.add({ path: '/brands', nth: 1, times: 2, kind });
      const page = await client.brands.page({ perPage: 50 });
      expect(page.records).toHaveLength(50);
      const requests = requestsTo(emulator, 'brands');
      expect(requests.map((r) => r.fault)).toEqual([String(kind), String(kind), undefined]);
      const retries = events.filter((e) => e.type === 'retry');
      expect(retries).toHaveLength(2);
      expect(retries.map((e) => e.type === 'retry' && e.reason)).toEqual(typeof kind === 'number' ? ['server-error', 'server-error'] : ['network', 'network']);
    });
  }

  it('gives up after the configured retries with an error that names the request, the status and the service message', async () => {
    const { client } = recordingClient(emulator, { retry: { retries: 2, baseDelayMs: 1 } });
    emulator.clearRequests();
    emulator.faults.add({ path: '/sectors', times: Infinity, kind: 503 });
    const error = await client.sectors.page().catch((e: unknown) => e);
    emulator.faults.clear();
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect((error as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/sectors\?page=1&per_page=25 answered 503: Service Unavailable\. The service failed; try again later\.$/);
    expect(requestsTo(emulator, 'sectors')).toHaveLength(3);
  });

  it('retries a hang past the time limit as a timeout, and reports a TimeoutError when it persists', async () => {
    const { client, events } = recordingClient(emulator, { timeoutMs: 300 });
    emulator.faults.add({ path: '/regions', kind: 'hang' });
    const started = Date.now();
    const page = await client.regions.page();
    expect(page.records.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.reason)).toEqual(['timeout']);

    const impatient = recordingClient(emulator, { timeoutMs: 200, retry: { retries: 1, baseDelayMs: 1 } }).client;
    emulator.faults.add({ path: '/regions', times: 2, kind: 'hang' });
    const error = await impatient.regions.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/did not answer within 200 ms/);
  });

  it('gives up after two attempts that time out (not five), and says while it waits that the answer is slow', async () => {
    const { client, events } = recordingClient(emulator, { timeoutMs: 300, slowAfterMs: 100, retry: { baseDelayMs: 1 } });
    emulator.clearRequests();
    emulator.faults.add({ path: '/audiences', times: Infinity, kind: 'hang' });
    try {
      const error = await client.audiences.page().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(requestsTo(emulator, 'audiences')).toHaveLength(2);
      const slow = events.filter((e) => e.type === 'slow');
      expect(slow).toHaveLength(2);
      expect(slow[0]).toMatchObject({ type: 'slow', elapsedMs: 100, timeoutMs: 300, attempt: 1 });
      expect((error as Error).message).toMatch(/--timeout SECONDS or BRANDSCAPE_TIMEOUT/);
    } finally {
      emulator.faults.clear();
    }
  });

  it('reports a network error when nothing listens, after retrying', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const events: string[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'x-token-value', retry: { retries: 2, baseDelayMs: 1 }, onEvent: (e) => events.push(e.type), env: {} });
    const error = await client.brands.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED|fetch failed/);
    expect((error as Error).message).toMatch(/Check the base URL/);
    expect(events.filter((e) => e === 'retry')).toHaveLength(2);
  });
});

describe('no retry for other 4xx', () => {
  it('404: NotFoundError after one request', async () => {
    const { client, events } = recordingClient(emulator);
    emulator.clearRequests();
    const error = await client.brands.get(987654).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/answered 404: No brands record with id '987654'\. Check the id/);
    expect(emulator.requests).toHaveLength(1);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });

  it('400: BadRequestError with the service message (a filter the resource does not have)', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    const error = await client.brands.all({ filter: { colour: 'red' } } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).serviceMessage).toMatch(/colour/);
    expect(emulator.requests).toHaveLength(1);
  });

  it('401: AuthenticationError for a wrong token and for a missing scope (v2), naming the scope', async () => {
    const wrong = recordingClient(emulator, { token: 'not-a-valid-token' }).client;
    emulator.clearRequests();
    const error = await wrong.brands.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/answered 401: Unauthenticated\. Check the token \(BRANDSCAPE_TOKEN\)/);
    const scoped = recordingClient(emulator, { token: 'brands-only-token-123' }).client;
    await expect(scoped.brands.page()).resolves.toBeDefined();
    const scope = await scoped.studies.page().catch((e: unknown) => e);
    expect(scope).toBeInstanceOf(AuthenticationError);
    expect((scope as Error).message).toMatch(/lacks the scope 'Studies: Read'.*\('Studies: Read'\)/);
    expect(emulator.requests).toHaveLength(3);
  });

  it('403 (v1: missing scope), with the v1 error body `data.error` as the service message', async () => {
    const v1 = recordingClient(emulator, { token: 'brands-only-token-123', version: 'v1' }).client;
    const error = await v1.studies.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect((error as PermissionError).serviceMessage).toBe("This token lacks the scope 'Studies: Read'.");
    expect((error as PermissionError).url).toContain('/api/v1/studies');
    for (const status of [403, 409, 422]) {
      const { client } = recordingClient(emulator);
      emulator.clearRequests();
      emulator.faults.add({ path: '/years', kind: status });
      await expect(client.years.page()).rejects.toMatchObject({ status });
      expect(emulator.requests).toHaveLength(1);
    }
  });
});

describe('429', () => {
  it('waits what Retry-After says, then retries', async () => {
    const { client, events } = recordingClient(emulator);
    emulator.faults.add({ path: '/countries', kind: 429, retryAfterS: 1 });
    const started = Date.now();
    const page = await client.countries.page();
    expect(page.records.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ type: 'retry', reason: 'rate-limited', status: 429 });
    expect(retry?.type === 'retry' && retry.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('fails at once with a RateLimitError when the wait asked for is longer than the policy allows', async () => {
    const { client } = recordingClient(emulator, { retry: { maxRetryAfterMs: 5000 } });
    emulator.clearRequests();
    emulator.faults.add({ path: '/countries', kind: 429, retryAfterS: 600 });
    const error = await client.countries.page().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(600_000);
    expect((error as Error).message).toMatch(/answered 429: Too Many Requests\. The service asks to wait 600 s, longer than the retry policy waits \(retry\.maxRetryAfterMs = 5 s\)\. Try again after \d{4}-\d\d-\d\dT[\d:.]+Z, or raise retry\.maxRetryAfterMs\./);
    expect(emulator.requests).toHaveLength(1);
  });

  it('after a 429 that will not be waited for, the next call fails at once too, without a request, naming the wait', async () => {
    const { client } = recordingClient(emulator, { retry: { maxRetryAfterMs: 5000 } });
    emulator.faults.add({ path: '/countries', kind: 429, retryAfterS: 3600 });
    const refused = await client.countries.page().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as Error).message).toMatch(/The service asks to wait 3600 s, longer than the retry policy waits/);
    emulator.clearRequests();
    // Before the governor knew the cap, this call slept for the whole hour the service asked for.
    const controller = new AbortController();
    const guard = setTimeout(() => controller.abort(), 3000);
    const started = Date.now();
    const error = await client.years.page({}, { signal: controller.signal }).catch((e: unknown) => e);
    clearTimeout(guard);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(3_500_000);
    expect((error as Error).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/countries\?page=1&per_page=25 answered 429: Too Many Requests\. The service asks to wait 3\d{3} s more, longer than the retry policy waits \(retry\.maxRetryAfterMs = 5 s\), so GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/years\?page=1&per_page=25 was not sent\./,
    );
    expect(emulator.requests).toHaveLength(0);
  });

  it('paces requests under the real limit: no 429 once the headers are known', async () => {
    const limited = await startEmulator({ rateLimit: 5, rateWindowS: 1 });
    try {
      const { client } = recordingClient(limited, { rateWindowMs: 1000, concurrency: 4 });
      const waits: number[] = [];
      const started = Date.now();
      const result = await client.brands.load({ perPage: 25 }, { onProgress: (p) => waits.push(p.rateLimitWaits) });
      expect(result.records).toHaveLength(300);
      // 12 pages at 5 per second-long window: at least two windows after the first.
      expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
      expect(limited.requests.slice(1).filter((r) => r.status === 429)).toEqual([]);
      expect(result.stats.rateLimitWaits).toBeGreaterThan(0);
      expect(Math.max(...waits)).toBe(result.stats.rateLimitWaits);
    } finally {
      await limited.close();
    }
  });
});

describe('cancellation', () => {
  it('stops a hanging request at once with a CancelledError (not a timeout)', async () => {
    const { client } = recordingClient(emulator, { timeoutMs: 10_000 });
    emulator.faults.add({ path: '/cities', kind: 'hang' });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.cities.page({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    // Well before the 10 s time limit (a loaded machine may take a second or two to get there).
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops during the backoff between retries', async () => {
    const { client } = recordingClient(emulator, { retry: { baseDelayMs: 5000, maxDelayMs: 5000 } });
    emulator.faults.add({ path: '/cities', kind: 500 });
    const controller = new AbortController();
    const started = Date.now();
    const pending = client.cities.page({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not start when the signal is already aborted', async () => {
    const { client } = recordingClient(emulator);
    emulator.clearRequests();
    await expect(client.cities.page({}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect(emulator.requests).toHaveLength(0);
  });
});

describe('event listeners that throw', () => {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  it('break neither the request nor the client: the slot, the timer and the abort listener are released', async () => {
    const governor = createRateGovernor({ now: Date.now, sleep });
    const reported: string[] = [];
    const transport = createTransport({
      baseUrl: emulator.url,
      version: 'v2',
      token: emulator.token,
      governor,
      sleep,
      now: Date.now,
      onEvent: () => {
        throw new Error('log sink failed');
      },
      onListenerError: (error, event) => reported.push(`${event.type}: ${(error as Error).message}`),
    });
    const controller = new AbortController();
    const onProgress = (event: TransportEvent) => {
      if (event.type === 'request') throw new TypeError("Cannot read properties of undefined (reading 'toFixed')");
    };
    const result = await transport.get('years', new URLSearchParams({ per_page: '5' }), { signal: controller.signal, onEvent: onProgress }).catch((e: unknown) => e);
    expect(result).toMatchObject({ status: 200, attempts: 1 });
    expect(governor.state().inFlight).toBe(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // Both listeners are told every event: one failing does not starve the other.
    expect(reported).toEqual(['request: log sink failed', "request: Cannot read properties of undefined (reading 'toFixed')", 'response: log sink failed']);
    // Nothing accumulates over many requests (a leaked slot per request would end in a deadlock
    // once the limit is reached).
    const again = await Promise.all(Array.from({ length: 12 }, () => transport.get('years', new URLSearchParams({ per_page: '1' }), { onEvent: onProgress })));
    expect(again.every((r) => r.status === 200)).toBe(true);
    expect(governor.state().inFlight).toBe(0);
  });

  it('by default, the first listener error is written once to stderr and the rest are ignored', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const client = createClient({
        baseUrl: emulator.url,
        token: emulator.token,
        env: {},
        onEvent: () => {
          throw new Error(`listener bug near ${emulator.token}`);
        },
      });
      await client.years.page();
      await client.regions.page();
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toBe("brandscape-kit: an event listener (onEvent/onProgress) threw on a 'request' event and was ignored: Error: listener bug near ***. Later listener errors are not reported.\n");
  });
});
