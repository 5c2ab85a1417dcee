/**
 * Checks a webhook delivery as §15.5 asks: `BAV-Signature` is the HMAC-SHA256 of the raw body
 * bytes with the shared secret (lowercase hex), compared in constant time; the event's time is
 * within a minute of the receiver's clock; its `webhookId` has not been seen before.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { UsageError } from '../errors.js';

/** The body of a webhook (§15.4); `action` only on data-change events, `format` only on audience exports (§16). */
export const webhookEvent = z.object({
  action: z.enum(['create', 'update', 'delete']).optional(),
  format: z.string().max(100).optional(),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  // Bounded: these go into log lines and the replay guard's memory (the service sends a resource
  // name, a URL, a date and a UUID).
  type: z.string().max(100),
  url: z.string().max(2048).optional(),
  webhookDate: z.string().max(64).optional(),
  webhookTimestamp: z.number().int().optional(),
  webhookId: z.string().min(1).max(200),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;

export type WebhookVerdict =
  | { readonly ok: true; readonly event: WebhookEvent }
  | { readonly ok: false; readonly reason: 'signature' | 'stale' | 'replayed' | 'malformed'; readonly message: string };

export interface VerifyWebhookOptions {
  secret: string;
  /** Receiver's clock in ms (default Date.now). */
  now?: number;
  /** Largest accepted distance between the event's time and the clock, in seconds (default 60). */
  toleranceS?: number;
  /** Remembers delivered ids; a second delivery with one of them is a replay. */
  seen: { has(id: string): boolean; add(id: string, atMs: number): void };
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * @example
 * const verdict = verifyWebhook(rawBody, req.headers['bav-signature'], { secret, seen: createReplayGuard() });
 * if (verdict.ok) queue(verdict.event);
 */
export function verifyWebhook(rawBody: Uint8Array, signature: string | undefined, options: VerifyWebhookOptions): WebhookVerdict {
  if (typeof options.secret !== 'string' || options.secret === '') throw new UsageError('verifyWebhook needs the webhook secret (options.secret); got none.', { hint: 'Use the secret the service team gave for this webhook.' });
  if (!(rawBody instanceof Uint8Array)) throw new UsageError('verifyWebhook checks the raw body as bytes (a Buffer or Uint8Array), as it arrived: parsed and re-serialised JSON would not match the signature.');
  const expected = createHmac('sha256', options.secret).update(rawBody).digest();
  // A header given twice arrives joined or as an array: either way, not one signature.
  const given = typeof signature === 'string' ? signature.trim().toLowerCase() : '';
  // Compared as bytes of equal length, in constant time; a malformed header simply fails.
  if (!HEX_SIGNATURE.test(given) || !timingSafeEqual(Buffer.from(given, 'hex'), expected)) {
    return { ok: false, reason: 'signature', message: signature === undefined ? 'no BAV-Signature header' : 'BAV-Signature does not match the body' };
  }
  let parsed: WebhookEvent;
  try {
    const result = webhookEvent.safeParse(JSON.parse(Buffer.from(rawBody).toString('utf8')));
    if (!result.success) return { ok: false, reason: 'malformed', message: `the body is not a webhook event (${result.error.issues[0]?.path.join('.') ?? ''}: ${result.error.issues[0]?.message ?? ''})` };
    parsed = result.data;
  } catch {
    return { ok: false, reason: 'malformed', message: 'the body is not JSON' };
  }
  const now = options.now ?? Date.now();
  const atMs = parsed.webhookTimestamp !== undefined ? parsed.webhookTimestamp * 1000 : parsed.webhookDate !== undefined ? Date.parse(parsed.webhookDate) : Number.NaN;
  const tolerance = (options.toleranceS ?? 60) * 1000;
  if (!Number.isFinite(atMs)) return { ok: false, reason: 'malformed', message: 'the event has no webhookTimestamp or webhookDate' };
  if (Math.abs(now - atMs) > tolerance) {
    return { ok: false, reason: 'stale', message: `the event is ${Math.round(Math.abs(now - atMs) / 1000)} s from this clock (at most ${tolerance / 1000} s accepted)` };
  }
  if (options.seen.has(parsed.webhookId)) return { ok: false, reason: 'replayed', message: `webhook ${parsed.webhookId} was delivered before` };
  options.seen.add(parsed.webhookId, atMs);
  return { ok: true, event: parsed };
}

/**
 * Ids of accepted webhooks, kept as long as a replay of them could pass the time check (twice the
 * tolerance), so memory stays bounded however long the receiver runs.
 */
export function createReplayGuard(options: { keepMs?: number; now?: () => number } = {}) {
  const keepMs = options.keepMs ?? 120_000;
  const now = options.now ?? Date.now;
  const ids = new Map<string, number>();
  const prune = () => {
    const cutoff = now() - keepMs;
    for (const [id, at] of ids) if (at < cutoff) ids.delete(id);
  };
  return {
    has: (id: string) => {
      prune();
      return ids.has(id);
    },
    add: (id: string, atMs: number) => {
      ids.set(id, Math.max(atMs, now()));
    },
  };
}
