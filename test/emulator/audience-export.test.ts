/**
 * Audience export from the emulator (§16): a signed delivery per format to the subscriber picked,
 * in the documented payload for formats 2-4 and a full definition for format 1, deterministic from
 * the seed, refused (nothing sent) when the subscriber's access control does not allow it, and
 * retried like every webhook.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceDefinition, exportedAudience } from '../../src/schemas/audience-export.js';
import { createDataset, createEmulator, signWebhookBody, type Dataset, type Emulator } from '../../src/emulator/index.js';
import { call } from '../helpers/http.js';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

async function receiver(statusFor: (n: number) => number = () => 200): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statusFor(received.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((r) => server.close(() => r())) };
}

const SECRET = 'export-secret-value';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let dataset: Dataset;
let hook: Awaited<ReturnType<typeof receiver>>;
let emulator: Emulator;

beforeAll(async () => {
  dataset = createDataset({ seed: 5, brands: 300 });
  hook = await receiver();
  emulator = await createEmulator({ port: 0, dataset, webhooks: [{ url: hook.url, secret: SECRET, events: ['Audience Export'] }] });
});
afterAll(async () => {
  await emulator.close();
  await hook.close();
});

const lastBody = () => {
  const last = hook.received.at(-1)!;
  expect(last.headers['bav-signature']).toBe(signWebhookBody(SECRET, last.raw));
  expect(last.headers['bav-event']).toBe('Audience Export');
  expect(last.headers['user-agent']).toBe('BAV-Webhook');
  const body = JSON.parse(last.raw) as Record<string, unknown>;
  expect(body['webhookId']).toBe(last.headers['bav-delivery']);
  expect(body['type']).toBe('Audience Export');
  expect(body).not.toHaveProperty('action');
  expect(new Date(String(body['webhookDate'])).getTime()).toBe(Number(body['webhookTimestamp']) * 1000);
  return body as { format: string; data: Record<string, unknown>; url: string };
};

describe('audience export (§16)', () => {
  it('sends BAV respondent ids (UUID v4, unique) in the documented slimmed-down payload', async () => {
    const outcome = await emulator.exportAudience({ audienceId: 2, format: 'bav_respondent_ids' });
    await outcome.delivered;
    const body = lastBody();
    expect(body.format).toBe('bav_respondent_ids');
    expect(body.url).toBe('https://fount.wppbav.com/audiences/2');
    expect(Object.keys(body.data)).toEqual(['id', 'name', 'description', 'is_active', 'is_public', 'is_standard', 'deployed_at', 'segments_updated_at', 'created_at', 'updated_at', 'group', 'user', 'respondents']);
    const audience = exportedAudience.parse(body.data);
    expect(audience.name).toBe('Female');
    expect(audience.deployed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(audience.user?.operating_company?.name).toBeTruthy();
    expect(audience.respondents.length).toBe(outcome.respondents);
    const study = dataset.studies.find((s) => s.record.id === outcome.studyId)!;
    // About half the study's respondents are women.
    expect(audience.respondents.length / Number(study.record.respondents)).toBeCloseTo(0.51, 1);
    expect(audience.respondents.every((r) => UUID_V4.test(r))).toBe(true);
    expect(new Set(audience.respondents).size).toBe(audience.respondents.length);
  });

  it('sends Audience Origin ids (UUIDs for recent studies, market-and-year ids before 2022) and progressive numbers', async () => {
    await (await emulator.exportAudience({ audienceId: 4, format: 'audience_origin_respondent_ids' })).delivered;
    const recent = exportedAudience.parse(lastBody().data).respondents;
    expect(recent.every((r) => UUID_V4.test(r))).toBe(true);
    const old = dataset.studies.find((s) => s.released && s.yearNumber === 2019 && s.quarter === null)!;
    const code = dataset.countries.find((c) => c.record.id === old.countryId)!.record.code;
    await (await emulator.exportAudience({ audienceId: 4, format: 'audience_origin_respondent_ids', studyId: old.record.id })).delivered;
    expect(exportedAudience.parse(lastBody().data).respondents.every((r) => new RegExp(`^${code}19-\\d{6}$`).test(r))).toBe(true);
    await (await emulator.exportAudience({ audienceId: 1, format: 'audience_origin_progressive_numbers', studyId: old.record.id })).delivered;
    const numbers = exportedAudience.parse(lastBody().data).respondents;
    expect(numbers).toHaveLength(Number(old.record.respondents));
    expect(numbers[3]).toBe(`${800 + (old.record.id % 200)}_1x_4`);
    expect(numbers.every((r) => /^\d+_\d+x_\d+$/.test(r))).toBe(true);
  });

  it('sends the full definition in the Audiences API shape for format 1', async () => {
    await (await emulator.exportAudience({ audienceId: 20, format: 'audience_definition' })).delivered;
    const body = lastBody();
    expect(body.format).toBe('audience_definition');
    const definition = audienceDefinition.parse(body.data);
    const served = (await call(emulator, '/api/v2/audiences/20')).json as { data: Record<string, unknown> };
    expect(body.data).toMatchObject(served.data);
    expect(definition.segments.length).toBe(3);
    expect(definition.logic).toBe('1 AND 2 AND 3');
    expect(definition.is_standard).toBe(false);
    expect(definition.user?.email).toBe('analyst@example.com');
    expect(definition.metrics.map((m) => m.key)).toEqual(['sample_size', 'population_share']);
    expect(body.data).not.toHaveProperty('respondents');
  });

  it('is deterministic from the seed', async () => {
    const hook2 = await receiver();
    const other = await createEmulator({ port: 0, dataset: createDataset({ seed: 5, brands: 300 }), webhooks: [{ url: hook2.url, secret: SECRET }] });
    try {
      await (await emulator.exportAudience({ audienceId: 5, format: 'bav_respondent_ids' })).delivered;
      await (await other.exportAudience({ audienceId: 5, format: 'bav_respondent_ids' })).delivered;
      const a = JSON.parse(hook.received.at(-1)!.raw) as { data: unknown; webhookId: string };
      const b = JSON.parse(hook2.received.at(-1)!.raw) as { data: unknown; webhookId: string };
      expect(b.data).toEqual(a.data);
      expect(b.webhookId).not.toBe(a.webhookId);
    } finally {
      await other.close();
      await hook2.close();
    }
  });

  it('exports through the admin route, and refuses (sending nothing) what access control or the data do not allow', async () => {
    const allowed = await receiver();
    const other = await createEmulator({
      port: 0,
      dataset,
      webhooks: [
        { url: allowed.url, secret: SECRET, audienceExport: { formats: ['audience_definition', 'bav_respondent_ids'], operatingCompanies: [3] } },
        { url: 'http://127.0.0.1:9/nobody', secret: SECRET, events: ['Brand'] },
      ],
    });
    try {
      const ok = await call(other, '/__emulator/export-audience', { method: 'POST', token: null, body: { audienceId: 1, format: 2 } });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ event: 'Audience Export', subscriber: allowed.url, format: 'bav_respondent_ids', audienceId: 1 });
      await other.webhooksIdle();
      expect(allowed.received).toHaveLength(1);
      const refusals: [unknown, number, RegExp][] = [
        // Format 4 is not approved for this application.
        [{ audienceId: 1, format: 4 }, 403, /not approved/],
        // The analyst is at the BAV Group, under VML (3); someone else's agency is not allowed.
        [{ audienceId: 21, format: 1, user: 'someone-else' }, 403, /may not export to/],
        // A private audience of another user.
        [{ audienceId: 21, format: 1 , user: 'analyst' }, 403, /private/],
        [{ audienceId: 999, format: 1 }, 404, /No audience/],
        [{ audienceId: 1, format: 1, subscriber: 'http://127.0.0.1:9/nobody' }, 409, /does not take/],
        [{ audienceId: 1, format: 'csv' }, 400, /unknown format/],
        [{ audienceId: 1 }, 400, /format/],
      ];
      for (const [body, status, message] of refusals) {
        const answer = await call(other, '/__emulator/export-audience', { method: 'POST', token: null, body });
        expect([answer.status, answer.text]).toEqual([status, expect.stringMatching(message)]);
      }
      await other.webhooksIdle();
      expect(allowed.received).toHaveLength(1);
    } finally {
      await other.close();
      await allowed.close();
    }
  });

  it('retries a failed export with backoff, the same signed body each time, then disables the subscription', async () => {
    const failing = await receiver(() => 503);
    const other = await createEmulator({ port: 0, dataset, webhookRetryDelaysMs: [20, 40], webhooks: [{ url: failing.url, secret: SECRET }] });
    try {
      await (await other.exportAudience({ audienceId: 3, format: 'bav_respondent_ids' })).delivered;
      expect(failing.received).toHaveLength(3);
      expect(new Set(failing.received.map((r) => r.raw)).size).toBe(1);
      expect(other.webhooks[0]?.disabled).toBe(true);
      expect(other.webhooks[0]?.deliveries[0]).toMatchObject({ event: 'Audience Export', action: 'export', recordId: 3, delivered: false });
      await expect(other.exportAudience({ audienceId: 3, format: 'bav_respondent_ids' })).rejects.toThrow(/disabled/);
    } finally {
      await other.close();
      await failing.close();
    }
  });
});
