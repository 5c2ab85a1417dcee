/** `verifyWebhook` against the service's documented delivery (examples/webhook.brand-update.json) and its failure modes. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createReplayGuard, verifyWebhook } from '../../src/index.js';

interface Example {
  secret: string;
  headers: Record<string, string>;
  raw_body: string;
}
const example = async () => JSON.parse(await readFile(new URL('../fixtures/api/webhook.brand-update.json', import.meta.url), 'utf8')) as Example;

describe('verifyWebhook', () => {
  it('accepts the documented delivery at its own time, once', async () => {
    const ex = await example();
    const body = Buffer.from(ex.raw_body, 'utf8');
    const at = (JSON.parse(ex.raw_body) as { webhookTimestamp: number }).webhookTimestamp * 1000;
    const seen = createReplayGuard({ now: () => at });
    const verdict = verifyWebhook(body, ex.headers['BAV-Signature'], { secret: ex.secret, now: at + 30_000, seen });
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.event.type).toBe('Brand');
    expect(verifyWebhook(body, ex.headers['BAV-Signature'], { secret: ex.secret, now: at + 31_000, seen })).toMatchObject({ ok: false, reason: 'replayed' });
  });

  it('refuses a changed body, another secret, a missing or short signature, and an old event', async () => {
    const ex = await example();
    const body = Buffer.from(ex.raw_body, 'utf8');
    const at = (JSON.parse(ex.raw_body) as { webhookTimestamp: number }).webhookTimestamp * 1000;
    const fresh = () => ({ secret: ex.secret, now: at, seen: createReplayGuard() });
    const sig = ex.headers['BAV-Signature'] ?? '';
    // Re-serialised JSON is not the raw body: the signature no longer matches.
    expect(verifyWebhook(Buffer.from(JSON.stringify(JSON.parse(ex.raw_body))), sig, fresh())).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(body, sig, { ...fresh(), secret: 'other' })).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(body, undefined, fresh())).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(body, sig.slice(0, 10), fresh())).toMatchObject({ ok: false, reason: 'signature' });
    expect(verifyWebhook(body, sig.toUpperCase(), fresh()).ok).toBe(true);
    expect(verifyWebhook(body, sig, { ...fresh(), now: at + 61_000 })).toMatchObject({ ok: false, reason: 'stale' });
    expect(verifyWebhook(body, sig, { ...fresh(), now: at - 61_000 })).toMatchObject({ ok: false, reason: 'stale' });
  });
});
