/**
 * connect(): the live service when BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN are set, otherwise an
 * embedded emulator (one per process, reused), saying which. showProgress(): a load's progress as
 * one line (in a notebook it updates in place; test/notebooks/ executes that), the final line
 * written outside a notebook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError, connect, loadComparisonInput, showProgress, type Connection, type LoadProgress } from '../../src/index.js';
import { progressLine } from '../../src/notebook/show-progress.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

describe('connect', () => {
  let live: Emulator;
  const opened: Connection[] = [];

  beforeAll(async () => {
    live = await createEmulator({ port: 0, brands: 200, seed: 5 });
  });

  afterAll(async () => {
    for (const c of opened) await c.close();
    await live.close();
  });

  it('without a service configured, starts an embedded emulator and says so', async () => {
    const said: string[] = [];
    const connection = await connect({ env: {}, say: (line) => said.push(line) });
    opened.push(connection);
    expect(connection.emulated).toBe(true);
    expect(connection.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(said).toEqual([expect.stringMatching(/^Using an embedded emulator of the Brand Data Service at http:\/\/127\.0\.0\.1:\d+ .*BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN/)]);
    expect((await connection.client.health()).status).toBe('up');
    // Running the cell again reuses the kernel's emulator.
    const again = await connect({ env: {}, say: () => {} });
    expect(again.baseUrl).toBe(connection.baseUrl);
  }, 60_000);

  it('with BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN, uses that service and says so (never the token)', async () => {
    const said: string[] = [];
    const connection = await connect({ env: { BRANDSCAPE_BASE_URL: live.url, BRANDSCAPE_TOKEN: live.token }, say: (line) => said.push(line) });
    expect(connection.emulated).toBe(false);
    expect(said).toEqual([`Connected to the Brand Data Service at ${live.url} (API v2).`]);
    expect(said.join('')).not.toContain(live.token);
    const before = live.requests.length;
    await connection.client.brands.page({});
    expect(live.requests.length).toBe(before + 1);
  });

  it('a base URL without a token is a UsageError saying what to set', async () => {
    const error = await connect({ env: { BRANDSCAPE_BASE_URL: live.url }, say: () => {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(/BRANDSCAPE_TOKEN is not/);
    expect((error as UsageError).message).toMatch(/unset BRANDSCAPE_BASE_URL/);
  });

  it('showProgress reports a real load: pages and records, then the totals once', async () => {
    const lines: string[] = [];
    const { client } = await connect({ env: { BRANDSCAPE_BASE_URL: live.url, BRANDSCAPE_TOKEN: live.token }, say: () => {} });
    const input = await loadComparisonInput(client, {
      countryCodes: ['GB'],
      years: [2024],
      metricKeys: ['esteem'],
      audience: 1,
      load: { onProgress: showProgress('GB 2024', { write: (line) => lines.push(line) }), perPage: 50 },
    });
    expect(lines).toHaveLength(1);
    const records = input.rows.length;
    expect(lines[0]).toMatch(new RegExp(`^GB 2024 \\[#{24}\\] (\\d+)/\\1 pages, ${records.toLocaleString('en')} of ${records.toLocaleString('en')} records, \\d+\\.\\d s$`));
  });
});

describe('progressLine', () => {
  const progress = (p: Partial<LoadProgress>): LoadProgress => ({ pagesDone: 0, pagesTotal: 0, records: 0, total: 0, retries: 0, rateLimitWaits: 0, etaMs: undefined, elapsedMs: 0, reloads: 0, ...p });

  it('draws the share of pages done, with retries, waits and the time left', () => {
    expect(progressLine('Load', progress({ pagesDone: 3, pagesTotal: 12, records: 3000, total: 11500, retries: 2, rateLimitWaits: 1, etaMs: 4200 }))).toBe(
      `Load [${'#'.repeat(6)}${'-'.repeat(18)}] 3/12 pages, 3,000 of 11,500 records, 2 retries, 1 rate-limit wait, about 5 s left`,
    );
    expect(progressLine('Load', progress({ pagesDone: 12, pagesTotal: 12, records: 11500, total: 11500, elapsedMs: 2345 }))).toBe(`Load [${'#'.repeat(24)}] 12/12 pages, 11,500 of 11,500 records, 2.3 s`);
  });
});
