/**
 * Webhook deliveries as the service makes them (§15): a JSON POST signed with HMAC-SHA256 of the
 * exact body bytes, retried with exponential backoff on anything but 200, and the subscription
 * disabled after the last retry fails (it then needs re-enabling by hand). Data-change events go
 * to every subscriber of the event (`notify`); an audience export to the one application the user
 * picked (`send`), through the same delivery, signing and retries.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { AudienceExportAccess } from './audience-export.js';

export interface WebhookSubscription {
  url: string;
  /** Shared secret for `BAV-Signature`. */
  secret: string;
  /** Event types to receive (`Brand`, `Study`, `Audience Export`, ...); omitted = every event. */
  events?: readonly string[];
  /** Who may export audiences to this application, and in which formats (§16.2); omitted = anyone, any format. */
  audienceExport?: AudienceExportAccess;
}

export interface DeliveryAttempt {
  at: string;
  /** HTTP status, or the network error's message. */
  outcome: number | string;
}

export interface Delivery {
  id: string;
  event: string;
  /** `create`, `update` or `delete` for data-change events; `export` for an audience export. */
  action: string;
  recordId: number;
  attempts: DeliveryAttempt[];
  delivered: boolean;
}

export interface SubscriptionState extends WebhookSubscription {
  disabled: boolean;
  deliveries: Delivery[];
  /** Notices the service sends its team, e.g. that the webhook was disabled. */
  notices: string[];
}

export interface WebhookSenderOptions {
  subscriptions: readonly WebhookSubscription[];
  /** Waits before each retry (default 1 s, 2 s, 4 s: exponential, three retries). */
  retryDelaysMs?: readonly number[];
  /** Base URL of the service's web app, for the `url` of each event. */
  appUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** HMAC-SHA256 of the raw body with the secret, lowercase hex (§15.5). */
export function signWebhookBody(secret: string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

const PATHS: Readonly<Record<string, string>> = { Brand: 'brands', Study: 'studies', Audience: 'audiences', 'Audience Export': 'audiences', Collection: 'collections', 'Brand Metric': 'brand-metrics' };

export function createWebhookSender(options: WebhookSenderOptions) {
  const subscriptions: SubscriptionState[] = options.subscriptions.map((s) => ({ ...s, disabled: false, deliveries: [], notices: [] }));
  const retryDelays = options.retryDelaysMs ?? [1000, 2000, 4000];
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const appUrl = options.appUrl ?? 'https://fount.wppbav.com';
  const pending = new Set<Promise<void>>();

  async function deliver(sub: SubscriptionState, delivery: Delivery, rawBody: string): Promise<void> {
    for (let attempt = 0; attempt <= retryDelays.length; attempt++) {
      if (attempt > 0) await sleep(retryDelays[attempt - 1] ?? 0);
      let outcome: number | string;
      try {
        const res = await doFetch(sub.url, {
          method: 'POST',
          body: rawBody,
          headers: {
            'Accept-Charset': 'utf-8',
            'Content-Type': 'application/json',
            'BAV-Delivery': delivery.id,
            'BAV-Event': delivery.event,
            'BAV-Signature': signWebhookBody(sub.secret, rawBody),
            'User-Agent': 'BAV-Webhook',
          },
          signal: AbortSignal.timeout(10_000),
        });
        outcome = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch (error) {
        outcome = error instanceof Error ? error.message : String(error);
      }
      delivery.attempts.push({ at: new Date(now()).toISOString(), outcome });
      // Only 200 is documented as success (§15.2).
      if (outcome === 200) {
        delivery.delivered = true;
        return;
      }
    }
    sub.disabled = true;
    sub.notices.push(`Webhook to ${sub.url} disabled after ${retryDelays.length + 1} failed attempts (delivery ${delivery.id}); re-enable it manually.`);
  }

  /** The envelope's time fields (§15.4): the same second as a date and as a Unix timestamp. */
  const timeFields = (at: number) => ({
    webhookDate: new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    webhookTimestamp: Math.floor(at / 1000),
  });

  /** Starts one delivery to one subscriber; the body is built around its id (`webhookId` = `BAV-Delivery`). */
  const start = (sub: SubscriptionState, event: string, action: string, recordId: number, bodyOf: (id: string) => object): { id: string; task: Promise<void> } => {
    const id = randomUUID();
    const delivery: Delivery = { id, event, action, recordId, attempts: [], delivered: false };
    sub.deliveries.push(delivery);
    const task = deliver(sub, delivery, JSON.stringify(bodyOf(id)));
    pending.add(task);
    void task.finally(() => pending.delete(task));
    return { id, task };
  };

  return {
    subscriptions: subscriptions as readonly SubscriptionState[],
    /** Notifies every enabled subscriber of the event; resolves when each delivery has ended. */
    notify(event: string, action: 'create' | 'update' | 'delete', record: { id: number }): Promise<void> {
      const at = now();
      const tasks: Promise<void>[] = [];
      for (const sub of subscriptions) {
        if (sub.disabled || (sub.events && !sub.events.includes(event))) continue;
        const { task } = start(sub, event, action, record.id, (id) => ({
          action,
          data: record,
          type: event,
          url: `${appUrl}/${PATHS[event] ?? 'records'}/${record.id}`,
          ...timeFields(at),
          webhookId: id,
        }));
        tasks.push(task);
      }
      return Promise.all(tasks).then(() => undefined);
    },
    /**
     * Sends one event to one subscriber (an audience export goes to the application the user
     * picked): the envelope of §15.4 without `action`, with `extra` members (the export's `format`).
     * `delivered` resolves when the delivery has succeeded or given up.
     */
    send(sub: SubscriptionState, event: string, record: { id: number }, extra: Readonly<Record<string, unknown>>): { id: string; delivered: Promise<void> } {
      const at = now();
      const { id, task } = start(sub, event, 'export', record.id, (webhookId) => ({
        type: event,
        ...extra,
        data: record,
        url: `${appUrl}/${PATHS[event] ?? 'records'}/${record.id}`,
        ...timeFields(at),
        webhookId,
      }));
      return { id, delivered: task };
    },
    /** Resolves when no delivery is under way. */
    async idle(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    /** Re-enables a disabled subscription, as the service team would. */
    enable(url: string) {
      for (const sub of subscriptions) if (sub.url === url) sub.disabled = false;
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
