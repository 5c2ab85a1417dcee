/**
 * The token never appears in an error, an event or a cache file (DESIGN.md rule 2): every
 * failure kind the client can meet is provoked, and every message, hint, stack, event and cache
 * file is scanned for the token (and for a wrong token, which is a secret too).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportEvent } from '../../src/client/transport-event.js';
import type { Emulator } from '../../src/emulator/index.js';
import { BrandscapeError } from '../../src/errors.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';

const TOKEN = 'sEcReT-token-4f9a2c71e0';
const WRONG = 'wrong-SeCrEt-88d1c0a7';
const SCOPED = 'scoped-SeCrEt-51b2e9';

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN, { token: SCOPED, scopes: ['Brands: Read'] }] });
  dir = await mkdtemp(join(tmpdir(), 'bsk-redact-'));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('token redaction', () => {
  it('keeps every token out of errors, events and cache files', async () => {
    const events: TransportEvent[] = [];
    const texts: string[] = [];
    const errors: unknown[] = [];
    const capture = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        errors.push(error);
      }
    };
    const make = (token: string | (() => Promise<string>), extra = {}) =>
      recordingClient(emulator, { token, cache: { dir, ttlMs: 60_000 }, timeoutMs: 300, retry: { retries: 1, baseDelayMs: 1 }, onEvent: (e) => events.push(e), ...extra }).client;
    const client = make(TOKEN);

    await capture(() => client.brands.all({ include: ['sector'], perPage: 100 }));
    for (const kind of [500, 503, 'reset', 'truncate', 'hang', 429] as const) {
      emulator.faults.add({ path: '/sectors', times: 2, kind, retryAfterS: 1 });
      await capture(() => client.sectors.page({ perPage: 3 }));
    }
    emulator.faults.add({ path: '/brands', nth: 2, times: Infinity, kind: 502 });
    await capture(() => make(TOKEN).brands.all({ perPage: 20, filter: { is_core: true } }));
    emulator.faults.clear();
    await capture(() => make(WRONG).brands.page());
    await capture(() => make(async () => WRONG).brands.page());
    await capture(() => make(SCOPED).studies.page());
    await capture(() => make(SCOPED, { version: 'v1' }).studies.page());
    await capture(() => client.brands.get(424242));
    await capture(() => client.brands.all({ filter: { colour: TOKEN } } as never));
    await capture(() => recordingClient(emulator, { baseUrl: 'http://127.0.0.1:9', token: TOKEN, retry: { retries: 0 }, onEvent: (e) => events.push(e) }).client.years.page());
    await capture(() => client.years.page({}, { signal: AbortSignal.abort() }));
    await capture(() => client.brandscape.all({ filter: { audiences: 1 } }));

    expect(errors.length).toBeGreaterThanOrEqual(9);
    for (const error of errors) {
      expect(error).toBeInstanceOf(BrandscapeError);
      const e = error as BrandscapeError;
      texts.push(e.message, String(e.hint), String(e.stack), String(e), JSON.stringify(e));
      if (e.cause instanceof Error) texts.push(e.cause.message, String(e.cause.stack));
    }
    expect(events.length).toBeGreaterThan(20);
    texts.push(...events.map((e) => JSON.stringify(e)));
    for (const file of await readdir(dir)) texts.push(await readFile(join(dir, file), 'utf8'));
    for (const text of texts) {
      for (const secret of [TOKEN, WRONG, SCOPED]) expect(text).not.toContain(secret);
    }
    // The filter value that was the token itself was sent, but is shown as *** in the error.
    expect(texts.some((t) => t.includes('filter%5Bcolour%5D=***') || t.includes('filter[colour]=***') || t.includes("'colour'"))).toBe(true);
  }, 60_000);
});
