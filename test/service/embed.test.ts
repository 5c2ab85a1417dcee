/**
 * Embedding: the embed URL's encoding (indexed arrays always, raw brackets, encoded values, UI
 * options), and auto-login against the emulator: the token it returns reads data until the next
 * 00:00 UTC and not after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import { embedUrl } from '../../src/client/embed.js';
import { AuthenticationError, UsageError } from '../../src/errors.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { sharedDataset } from '../helpers/client-harness.js';

describe('embedUrl', () => {
  it('sends every tool parameter in indexed array form, brackets raw, values encoded', () => {
    const url = embedUrl('turbopitch/brand360', { brands: [998, 999], studies: 381, comparisonName: 'Cars & vans' }, { accessToken: 'tok/en+1', showStepsUi: false });
    expect(url).toBe(
      'https://fount.wppbav.com/embed/turbopitch/brand360?access_token=tok%2Fen%2B1&brands[0]=998&brands[1]=999&studies[0]=381&comparisonName[0]=Cars%20%26%20vans&showStepsUi=false',
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('brands[1]')).toBe('999');
    expect(parsed.searchParams.get('access_token')).toBe('tok/en+1');
  });

  it('refuses what would make a broken URL', () => {
    expect(() => embedUrl('../admin', {}, { accessToken: 't' })).toThrow(UsageError);
    expect(() => embedUrl('turbopitch/brand360', {}, { accessToken: '' })).toThrow(/access token/);
    expect(() => embedUrl('turbopitch/brand360', { 'brands]': 1 }, { accessToken: 't' })).toThrow(/parameter name/);
    expect(embedUrl('/embed/turbopitch/brand360/', { brands: 1 }, { accessToken: 't', appUrl: 'https://example.test/' })).toBe('https://example.test/embed/turbopitch/brand360?access_token=t&brands[0]=1');
  });
});

describe('autoLogin against the emulator', () => {
  let emulator: Emulator;
  let clock = Date.UTC(2026, 10, 25, 21, 30);
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, dataset: sharedDataset(), now: () => clock });
  });
  afterAll(() => emulator.close());

  it('returns a user token that reads data until the next 00:00 UTC', async () => {
    const client = createClient({ baseUrl: emulator.url, token: emulator.token, env: {}, now: () => clock });
    const login = await client.autoLogin({ email: 'ana@example.org', firstName: 'Ana', lastName: 'Silva' });
    expect(login.expiresAt.toISOString()).toBe('2026-11-26T00:00:00.000Z');
    expect(login.accessToken).not.toBe(emulator.token);
    expect(emulator.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/v1/auto-login', status: 200 });
    const asUser = createClient({ baseUrl: emulator.url, token: login.accessToken, env: {}, retry: { retries: 0 } });
    expect((await asUser.brands.page({ perPage: 1 })).records).toHaveLength(1);
    clock = Date.UTC(2026, 10, 26, 0, 0, 1);
    await expect(asUser.brands.page({ perPage: 1 })).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('checks the user before the request and reports the service refusing the key', async () => {
    const client = createClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    await expect(client.autoLogin({ email: 'not-an-email', firstName: 'A', lastName: 'B' })).rejects.toBeInstanceOf(UsageError);
    const stranger = createClient({ baseUrl: emulator.url, token: 'wrong-token', env: {} });
    await expect(stranger.autoLogin({ email: 'a@example.org', firstName: 'A', lastName: 'B' })).rejects.toBeInstanceOf(AuthenticationError);
  });
});
