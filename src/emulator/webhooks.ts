/**
 * Webhook deliveries as the service makes them (§15): a JSON POST signed with HMAC-SHA256 of the
 * exact body bytes, retried with exponential backoff on anything but 200, and the subscription
 * disabled after the last retry fails (it then needs re-enabling by hand).
 */
import { createHmac, randomUUID } from 'node:crypto';

export interface WebhookSubscription {
  url: string;
  /** Shared secret for `BAV-Signature`. */
  secret: string;
  /** Event types to receive (`Brand`, `Study`, ...); omitted = every event. */
  events?: readonly string[];
}

export interface DeliveryAttempt {
  at: string;
  /** HTTP status, or the network error's message. */
  outcome: number | string;
}

export interface Delivery {
  id: string;
  event: string;
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

const PATHS: Readonly<Record<string, string>> = { Brand: 'brands', Study: 'studies', Audience: 'audiences', Collection: 'collections', 'Brand Metric': 'brand-metrics' };

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

  return {
    subscriptions: subscriptions as readonly SubscriptionState[],
    /** Notifies every enabled subscriber of the event; resolves when each delivery has ended. */
    notify(event: string, action: 'create' | 'update' | 'delete', record: { id: number }): Promise<void> {
      const at = now();
      const tasks: Promise<void>[] = [];
      for (const sub of subscriptions) {
        if (sub.disabled || (sub.events && !sub.events.includes(event))) continue;
        const id = randomUUID();
        const body = {
          action,
          data: record,
          type: event,
          url: `${appUrl}/${PATHS[event] ?? 'records'}/${record.id}`,
          webhookDate: new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
          webhookTimestamp: Math.floor(at / 1000),
          webhookId: id,
        };
        const delivery: Delivery = { id, event, action, recordId: record.id, attempts: [], delivered: false };
        sub.deliveries.push(delivery);
        const task = deliver(sub, delivery, JSON.stringify(body));
        pending.add(task);
        void task.finally(() => pending.delete(task));
        tasks.push(task);
      }
      return Promise.all(tasks).then(() => undefined);
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
