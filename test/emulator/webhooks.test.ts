import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDataset, createEmulator, signWebhookBody, type Dataset } from '../../src/emulator/index.js';
import { call, fixture } from '../helpers/http.js';

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  at: number;
}

async function receiver(statusFor: (n: number) => number): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.writeHead(statusFor(received.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((r) => server.close(() => r())) };
}

let dataset: Dataset;
beforeAll(() => {
  dataset = createDataset({ seed: 4, brands: 300 });
});

describe('webhooks (§15)', () => {
  it('signs the documented example exactly', async () => {
    const example = await fixture<{ secret: string; raw_body: string; headers: Record<string, string> }>('webhook.brand-update.json');
    expect(signWebhookBody(example.secret, example.raw_body)).toBe(example.headers['BAV-Signature']);
  });

  it('delivers signed data-change events for updated brands and released studies', async () => {
    const hook = await receiver(() => 200);
    const emulator = await createEmulator({ port: 0, dataset, webhooks: [{ url: hook.url, secret: 'test-secret-value' }] });
    try {
      const before = Date.now();
      const outcome = await emulator.publish({ kind: 'brands', count: 2 });
      await outcome.delivered;
      expect(outcome.records).toHaveLength(2);
      expect(hook.received).toHaveLength(2);
      for (const delivery of hook.received) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['accept-charset']).toBe('utf-8');
        expect(delivery.headers['user-agent']).toBe('BAV-Webhook');
        expect(delivery.headers['bav-event']).toBe('Brand');
        expect(delivery.headers['bav-signature']).toBe(signWebhookBody('test-secret-value', delivery.raw));
        const body = JSON.parse(delivery.raw) as Record<string, unknown>;
        expect(body['action']).toBe('update');
        expect(body['type']).toBe('Brand');
        expect(body['webhookId']).toBe(delivery.headers['bav-delivery']);
        expect(String(body['webhookId'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        const ts = body['webhookTimestamp'] as number;
        expect(ts * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
        expect(new Date(String(body['webhookDate'])).getTime()).toBe(ts * 1000);
        const data = body['data'] as { id: number; name: string };
        expect(body['url']).toBe(`https://fount.wppbav.com/brands/${data.id}`);
        // The payload is the full record, as GET /brands/{id} now serves it.
        const served = await call(emulator, `/api/v2/brands/${data.id}`);
        expect((served.json as { data: unknown }).data).toEqual(data);
      }
      const studies = await emulator.publish({ kind: 'study' });
      await studies.delivered;
      const last = JSON.parse(hook.received.at(-1)?.raw ?? '{}') as { type: string; data: { id: number } };
      expect(last.type).toBe('Study');
      expect(last.data.id).toBe(studies.records[0]?.id);
    } finally {
      await emulator.close();
      await hook.close();
    }
  });

  it('retries with exponential backoff, then disables the subscription', async () => {
    const failing = await receiver(() => 500);
    const emulator = await createEmulator({
      port: 0,
      dataset,
      webhookRetryDelaysMs: [60, 120, 240],
      webhooks: [{ url: failing.url, secret: 's3cret-value', events: ['Brand'] }],
    });
    try {
      await (await emulator.publish({ kind: 'brands', count: 1 })).delivered;
      expect(failing.received).toHaveLength(4);
      const gaps = failing.received.slice(1).map((r, i) => r.at - (failing.received[i]?.at ?? 0));
      expect(gaps[0]).toBeGreaterThanOrEqual(55);
      expect(gaps[1]).toBeGreaterThanOrEqual(115);
      expect(gaps[2]).toBeGreaterThanOrEqual(235);
      const subscription = emulator.webhooks[0];
      expect(subscription?.disabled).toBe(true);
      expect(subscription?.deliveries[0]?.attempts.map((a) => a.outcome)).toEqual([500, 500, 500, 500]);
      expect(subscription?.notices[0]).toMatch(/disabled/);
      // A disabled webhook receives nothing more.
      await (await emulator.publish({ kind: 'brands', count: 1 })).delivered;
      expect(failing.received).toHaveLength(4);
    } finally {
      await emulator.close();
      await failing.close();
    }
  });

  it('publishes through the admin route', async () => {
    const emulator = await createEmulator({ port: 0, dataset: createDataset({ seed: 4, brands: 300 }) });
    try {
      const before = await call(emulator, '/api/v2/studies?filter[released]=1&per_page=1');
      const total = (before.json as { meta: { total: number } }).meta.total;
      const published = await call(emulator, '/__emulator/publish', { method: 'POST', body: { kind: 'study' }, token: null });
      expect(published.status).toBe(200);
      const after = await call(emulator, '/api/v2/studies?filter[released]=1&per_page=1');
      expect((after.json as { meta: { total: number } }).meta.total).toBe(total + 1);
    } finally {
      await emulator.close();
    }
  });
});
