/**
 * `createEmulator()`: a faithful local Brand Data Service on a port of its own, with a seeded
 * dataset. Tests start one on port 0; the CLI's `brandscape emulator` serves one until stopped.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { listenHttp } from '../listen-http.js';
import { createDataset } from './dataset/dataset.js';
import type { Dataset, PublishRequest, PublishResult } from './dataset/types.js';
import { createAuth, DEFAULT_TOKEN, type TokenOptions } from './http/auth.js';
import { createFaults, type FaultRule } from './http/faults.js';
import { createIndexes, handle, type HandlerState, type RecordedRequest } from './http/handler.js';
import { BufferPool } from './http/json-bytes.js';
import type { LabelStyle } from './http/paging.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { McpRoutes } from './mcp/serve-mcp.js';
import { createWebhookSender, type SubscriptionState, type WebhookSubscription } from './webhooks.js';
import { buildAudienceExport, checkExportAccess, type AudienceExportRequest } from './audience-export.js';
import { ApiError } from './http/api-error.js';
import { AUDIENCE_EXPORT_EVENT, type AudienceExportFormat } from '../schemas/audience-export.js';

export interface EmulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Dataset seed (default 1): the same seed serves the same bytes. */
  seed?: number;
  /** Number of brands in the dataset (default 2,434). Smaller datasets start faster in tests. */
  brands?: number;
  /** A dataset built earlier with `createDataset()`, shared to save start-up time (publish mutates it). */
  dataset?: Dataset;
  /** Accepted tokens; a plain string or a token without scopes has every scope. Default: one token, `bsk-emulator-token`. */
  tokens?: readonly (string | TokenOptions)[];
  /** How long each API request takes, in ms (default 0): the answer is sent this long after the request arrived, its work done meanwhile. */
  latencyMs?: number;
  /** Deterministic ± variation of the delay, in ms (default 0). */
  jitterMs?: number;
  /** Share of data requests that fail with 500/502/503/504, a reset connection or a truncated body (default 0). */
  faultRate?: number;
  /** Scripted faults, e.g. `{ path: '/brandscape-data', nth: 3, kind: 429 }`. */
  faults?: readonly FaultRule[];
  /** Requests per user per window (default 500); 0 disables the limit. */
  rateLimit?: number;
  /** Window length in seconds (default 60). */
  rateWindowS?: number;
  /** Send `X-RateLimit-Reset` on every answer instead of only on 429s (default false, as documented). */
  rateLimitResetAlways?: boolean;
  webhooks?: readonly WebhookSubscription[];
  /** Waits before webhook retries (default 1 s, 2 s, 4 s). */
  webhookRetryDelaysMs?: readonly number[];
  /** Page labels in `meta.links` as JSON numbers (default) or strings (newer framework releases). */
  pageLabels?: LabelStyle;
  /** Carry the request's other parameters into page URLs (default false: `<path>?page=n` only). */
  carryQueryInLinks?: boolean;
  /** Refuse unknown filter/sort/include/fields keys with 400 (default true). */
  strictParams?: boolean;
  /** Base URL used in `links` and `meta.path` (default: the emulator's own URL). */
  publicUrl?: string;
  /** Clock, in ms since the epoch (default Date.now). */
  now?: () => number;
  /** How many requests `requests` keeps (default 100,000; oldest dropped first). */
  maxRecordedRequests?: number;
}

export interface PublishOutcome extends PublishResult {
  /** Resolves when every webhook delivery of this publication has succeeded or given up. */
  delivered: Promise<void>;
}

export interface AudienceExportOutcome {
  /** The delivery's id (`BAV-Delivery` and `webhookId`). */
  readonly webhookId: string;
  readonly subscriber: string;
  readonly audienceId: number;
  readonly format: AudienceExportFormat;
  /** Respondents sent (0 for the definition, format 1). */
  readonly respondents: number;
  /** The study the respondents come from. */
  readonly studyId: number;
  /** Resolves when the delivery has succeeded or given up (after its retries). */
  readonly delivered: Promise<void>;
}

export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:8787`; the API is under `/api/v2`. */
  readonly url: string;
  /** The first accepted token. */
  readonly token: string;
  readonly dataset: Dataset;
  /** Requests served so far, oldest first (tokens are never recorded). */
  readonly requests: readonly RecordedRequest[];
  clearRequests(): void;
  readonly faults: { add(rule: FaultRule): void; clear(): void };
  /** Releases new data and notifies webhook subscribers (§15). */
  publish(request: PublishRequest): Promise<PublishOutcome>;
  /**
   * Exports an audience to a subscriber, as a user of The Fount does (§16): a signed delivery in
   * the chosen format, retried like every webhook. Rejects (sending nothing) for an unknown
   * audience or subscriber, an audience the user may not see, or an export the subscriber's access
   * control does not allow.
   */
  exportAudience(request: AudienceExportRequest): Promise<AudienceExportOutcome>;
  readonly webhooks: readonly SubscriptionState[];
  /** Resolves when no webhook delivery is under way. */
  webhooksIdle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an emulator and resolves once it listens.
 *
 * @example
 * const emulator = await createEmulator({ port: 0, seed: 7 });
 * const res = await fetch(`${emulator.url}/api/v2/brands?per_page=5`, {
 *   headers: { Authorization: `Bearer ${emulator.token}`, Accept: 'application/json' },
 * });
 * await emulator.close();
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const seed = options.seed ?? 1;
  const ds = options.dataset ?? createDataset({ seed, ...(options.brands === undefined ? {} : { brands: options.brands }) });
  const tokens = (options.tokens ?? [DEFAULT_TOKEN]).map((t) => (typeof t === 'string' ? { token: t } : t));
  if (tokens.length === 0) throw new Error('createEmulator needs at least one token.');
  const now = options.now ?? Date.now;
  let baseUrl = '';
  const webhooks = createWebhookSender({
    subscriptions: options.webhooks ?? [],
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
    now,
  });
  const state: HandlerState = {
    ds,
    idx: createIndexes(ds),
    seed,
    auth: createAuth(tokens, now),
    limiter: createRateLimiter({ limit: options.rateLimit ?? 500, windowS: options.rateWindowS ?? 60, now }),
    faults: createFaults({ seed, rate: options.faultRate ?? 0, rules: options.faults ?? [] }),
    webhooks,
    latencyMs: options.latencyMs ?? 0,
    jitterMs: options.jitterMs ?? 0,
    labels: options.pageLabels ?? 'number',
    carryQueryInLinks: options.carryQueryInLinks ?? false,
    strictParams: options.strictParams ?? true,
    resetHeaderAlways: options.rateLimitResetAlways ?? false,
    publicUrl: () => options.publicUrl?.replace(/\/+$/, '') ?? baseUrl,
    requests: [],
    maxRecorded: options.maxRecordedRequests ?? 100_000,
    now,
    hanging: new Set(),
    pageBuffers: new BufferPool(),
  };

  const publish = async (request: PublishRequest): Promise<PublishOutcome> => {
    const result = ds.publish(request, new Date(now()).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'));
    state.idx = createIndexes(ds);
    const delivered = Promise.all(result.records.map((r) => webhooks.notify(result.event, result.action, r))).then(() => undefined);
    return { ...result, delivered };
  };

  const exportAudience = async (request: AudienceExportRequest): Promise<AudienceExportOutcome> => {
    const takes = (s: SubscriptionState) => !s.events || s.events.includes(AUDIENCE_EXPORT_EVENT);
    const takers = webhooks.subscriptions.filter(takes);
    const sub = request.subscriber === undefined ? (takers.length === 1 ? takers[0] : undefined) : webhooks.subscriptions.find((s) => s.url === request.subscriber);
    if (!sub) {
      throw new ApiError(
        409,
        request.subscriber === undefined
          ? `Name the subscriber: ${takers.length === 0 ? 'no webhook subscription takes audience exports' : `${takers.length} subscriptions take audience exports (${takers.map((s) => s.url).join(', ')})`}.`
          : `No webhook subscription at ${request.subscriber}.`,
      );
    }
    if (!takes(sub)) throw new ApiError(409, `The subscription at ${sub.url} does not take '${AUDIENCE_EXPORT_EVENT}' events (it takes ${sub.events?.join(', ') ?? 'every event'}).`);
    if (sub.disabled) throw new ApiError(409, `The subscription at ${sub.url} is disabled after failed deliveries; re-enable it first.`);
    const built = buildAudienceExport(ds, request);
    checkExportAccess(sub.audienceExport, sub.url, request.format, built.user);
    const { id, delivered } = webhooks.send(sub, AUDIENCE_EXPORT_EVENT, built.data, { format: request.format });
    return { webhookId: id, subscriber: sub.url, audienceId: request.audienceId, format: request.format, respondents: built.respondents, studyId: built.studyId, delivered };
  };

  // The service's MCP servers (§18) live on another host under /v1/...; the emulator serves them
  // on its own port. Their module (and the MCP SDK) loads on the first MCP request.
  let mcp: Promise<McpRoutes> | undefined;
  const isMcpPath = (url: string | undefined) => /^\/(v1\/|\.well-known\/oauth-protected-resource(\/|$|\?))/.test(url ?? '/');

  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (isMcpPath(req.url)) {
      mcp ??= import('./mcp/serve-mcp.js').then((m) => m.createMcpRoutes(state));
      void mcp.then((routes) => routes.handle(req, res));
      return;
    }
    void handle(state, req, res, {
      publish: async (request) => {
        const outcome = await publish(request);
        return { event: outcome.event, action: outcome.action, data: outcome.records };
      },
      exportAudience: async (request) => {
        const { delivered: _delivered, ...outcome } = await exportAudience(request);
        return { event: AUDIENCE_EXPORT_EVENT, ...outcome };
      },
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  baseUrl = await listenHttp(server, options.port ?? 0, options.host ?? '127.0.0.1');

  return {
    url: baseUrl,
    token: tokens[0]?.token ?? DEFAULT_TOKEN,
    dataset: ds,
    get requests() {
      return state.requests;
    },
    clearRequests: () => {
      state.requests.length = 0;
    },
    faults: { add: (rule) => state.faults.add(rule), clear: () => state.faults.clear() },
    publish,
    exportAudience,
    webhooks: webhooks.subscriptions,
    webhooksIdle: () => webhooks.idle(),
    close: async () => {
      if (mcp) await (await mcp).close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
