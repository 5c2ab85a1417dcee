/**
 * The on-disk cache: a hit makes no request (the emulator's log stays empty), entries are keyed
 * by version, path and parameters and expire; files are written atomically and never hold the
 * token.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { createDiskCache, toCacheFileName } from '../../src/loader/cache.js';
import { recordingClient, startEmulator } from '../helpers/client-harness.js';

const TOKEN = 'cache-test-token-7d1e9b2f';
let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await startEmulator({ tokens: [TOKEN] });
});
afterAll(() => emulator.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('on-disk cache', () => {
  it('answers a repeated load from disk, without a single request', async () => {
    const { client, events } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    const first = await client.brands.all({ include: ['sector'], perPage: 100 });
    expect(emulator.requests.length).toBeGreaterThan(0);
    emulator.clearRequests();
    const again = await client.brands.all({ include: ['sector'], perPage: 100 });
    expect(emulator.requests).toHaveLength(0);
    expect(again).toEqual(first);
    expect(events.filter((e) => e.type === 'cache-hit')).toHaveLength(3);
    // A second client on the same directory (a later run) hits too.
    const later = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } }).client;
    emulator.clearRequests();
    expect(await later.brands.all({ include: ['sector'], perPage: 100 })).toEqual(first);
    expect(emulator.requests).toHaveLength(0);
  });

  it('keys by version, path and parameters', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await client.brands.page({ perPage: 5 });
    emulator.clearRequests();
    await client.brands.page({ perPage: 6 });
    await client.brands.page({ perPage: 5, filter: { is_core: true } });
    await client.sectors.page({ perPage: 5 });
    await recordingClient(emulator, { token: TOKEN, version: 'v1', cache: { dir, ttlMs: 60_000 } }).client.brands.page({ perPage: 5 });
    expect(emulator.requests).toHaveLength(4);
    const key = (path: string, query: string) => ({ origin: new URL(emulator.url).origin, version: 'v2', path, query });
    expect(toCacheFileName(key('brands', 'page=1&per_page=5'))).not.toBe(toCacheFileName(key('brands', 'page=1&per_page=6')));
    expect(toCacheFileName(key('brands', 'page=1&per_page=5'))).not.toBe(toCacheFileName({ ...key('brands', 'page=1&per_page=5'), version: 'v1' }));
  });

  it('serves an entry only within its time-to-live', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 40 } });
    await client.years.page();
    emulator.clearRequests();
    await client.years.page();
    expect(emulator.requests).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await client.years.page();
    expect(emulator.requests).toHaveLength(1);
  });

  it('never writes the token, leaves no temporary files, and ignores a damaged entry', async () => {
    const { client } = recordingClient(emulator, { token: TOKEN, cache: { dir, ttlMs: 60_000 } });
    await client.brands.all({ perPage: 50, include: ['company'] });
    const files = await readdir(dir);
    expect(files.length).toBe(6);
    expect(files.every((f) => /^[0-9a-f]{40}\.json$/.test(f))).toBe(true);
    for (const file of files) expect(await readFile(join(dir, file), 'utf8')).not.toContain(TOKEN);
    await writeFile(join(dir, files[0] ?? ''), '{"key": broken');
    await writeFile(join(dir, files[1] ?? ''), '');
    emulator.clearRequests();
    const again = await client.brands.all({ perPage: 50, include: ['company'] });
    expect(again).toHaveLength(300);
    expect(emulator.requests).toHaveLength(2);
  });

  it('stores bodies with secrets redacted', async () => {
    const cache = createDiskCache({ dir, ttlMs: 60_000 });
    const key = { origin: 'http://x', version: 'v2', path: 'brands', query: '' };
    const { registerSecret } = await import('../../src/errors.js');
    registerSecret('echoed-secret-value-123');
    await cache.set(key, '{"data":{"message":"token echoed-secret-value-123 refused"}}');
    expect(await cache.get(key)).toBe('{"data":{"message":"token *** refused"}}');
  });
});
