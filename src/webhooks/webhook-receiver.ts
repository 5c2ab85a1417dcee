/**
 * An HTTP receiver of the service's webhooks (§15): every POST is verified on its raw body
 * (`verifyWebhook`), acknowledged with 200 at once when good, and its work queued to run one job at
 * a time; a forged, malformed or stale delivery is refused (401/400) and changes nothing. A replay
 * of an accepted `webhookId` is answered 200 and ignored: the service retries a delivery whose
 * answer it did not get, and an error would only make it retry again and disable the webhook.
 *
 * With `audiencesTo`, the receiver is also an audience export destination (§16): an export is
 * checked as one before it is acknowledged (a malformed one is refused with 400 and writes nothing)
 * and its files are written into that folder (audience-export-files.ts).
 *
 * The receiver listens on a port anyone may reach, so everything before the signature check is
 * bounded and refused cheaply, with a status and nothing changed: another method (405), a body
 * that is not JSON or is compressed (415; the service sends `application/json`), a body declared
 * or found larger than `maxBodyBytes` (413, before or as soon as it passes the limit), headers
 * over 16 KB (431, Node's limit), headers or a body that take longer than `timeoutMs` to arrive
 * (408: a slow sender holding connections open), more than `maxConnections` at once (dropped).
 */
import { basename } from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { UsageError } from '../errors.js';
import { listenHttp } from '../listen-http.js';
import { AUDIENCE_EXPORT_EVENT } from '../schemas/audience-export.js';
import { checkAudiencesDir, fromAudienceExportEvent, writeAudienceExport } from './audience-export-files.js';
import { createSerialQueue } from './serial-queue.js';
import { createReplayGuard, verifyWebhook, type WebhookEvent } from './verify-webhook.js';

export interface WebhookReceiverOptions {
  /** The shared secret the service team supplies (never logged). */
  secret: string;
  /** Port to listen on; 0 picks a free one. */
  port?: number;
  host?: string;
  /**
   * The work of one accepted event, run after the 200 went out, one event at a time (audience
   * exports excepted when `audiencesTo` is given: those are written there). At least one of
   * `onEvent` and `audiencesTo` is needed.
   */
  onEvent?: (event: WebhookEvent) => Promise<void>;
  /**
   * A folder (it must exist) where every audience export is written: `audience-<id>-<time>.json`
   * (the definition) and, for respondent formats, `.csv` and `.parquet` (`loadAudienceExport` reads them back).
   */
  audiencesTo?: string;
  /** One line per delivery and per finished job. */
  log(line: string): void;
  now?: () => number;
  /** Seconds an event's time may be from the clock (default 60). */
  toleranceS?: number;
  /** Largest body accepted: default 1 MB, or 64 MiB with `audiencesTo` (an export of a large study's respondents is tens of MB). */
  maxBodyBytes?: number;
  /** How long a delivery's headers, then its body, may take to arrive (default 10 s); slower is answered 408. */
  timeoutMs?: number;
  /** Connections open at once (default 64); more are closed as they come. */
  maxConnections?: number;
}

export interface WebhookReceiver {
  readonly url: string;
  /** Resolves when every queued job has run. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A delivery refused before its signature is checked: the status and the message of the answer. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The body, at most `limit` bytes, arriving within `timeoutMs`. Past the limit or the time the
 * delivery is refused at once (413, 408) instead of being read to its end.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => reject(new Refused(408, `The body did not arrive within ${timeoutMs / 1000} s.`)), timeoutMs);
    const stop = (error: Refused | undefined, body?: Buffer) => {
      clearTimeout(timer);
      req.removeAllListeners('data');
      if (error) reject(error);
      else resolve(body!);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) stop(new Refused(413, `Body too large: at most ${limit} bytes.`));
      else chunks.push(chunk);
    });
    req.on('end', () => stop(undefined, Buffer.concat(chunks)));
    req.on('error', () => stop(new Refused(400, 'Unreadable body.')));
  });
}

/** Text of the sender's, fit for one log line: control characters (a forged line, terminal escapes) replaced, length capped. */
const loggable = (text: string, max = 80) => {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
};

const describe = (e: WebhookEvent) => `${loggable(e.type)}${e.action ? ` ${e.action}` : ''}${typeof e.data?.['id'] === 'number' ? ` #${e.data['id']}` : ''}`;

/** A numeric option: a whole number of at least 1 (NaN would make every timer fire at once), or its default. */
function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new UsageError(`${name} must be a whole number of 1 or more; got ${String(value)}.`);
  return value;
}

/** The checks made before the body is read: method, content type and encoding, declared size. */
function refusedUpFront(req: IncomingMessage, limit: number): Refused | undefined {
  if (req.method !== 'POST') return new Refused(405, 'Webhooks are POSTed.');
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return new Refused(415, `Webhooks are sent as application/json${type ? `, not ${loggable(type, 40)}` : '; the Content-Type header is missing'}.`);
  const encoding = String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') return new Refused(415, 'Webhook bodies are not compressed: the signature is over the bytes as sent.');
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return new Refused(413, `Body too large: at most ${limit} bytes.`);
  return undefined;
}

/**
 * @example
 * const receiver = await createWebhookReceiver({ secret, port: 8080, onEvent: async (e) => rebuild(e), log: console.log });
 */
export async function createWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const { onEvent, audiencesTo } = options;
  if (!onEvent && audiencesTo === undefined) throw new UsageError('createWebhookReceiver needs onEvent, audiencesTo, or both: otherwise no delivery would do anything.');
  if (audiencesTo !== undefined) await checkAudiencesDir(audiencesTo);
  if (typeof options.secret !== 'string' || options.secret.trim() === '') throw new UsageError('createWebhookReceiver needs the webhook secret (secret); got none.', { hint: 'Use the secret the service team gave for this webhook.' });
  const now = options.now ?? Date.now;
  const seen = createReplayGuard({ keepMs: 2 * 1000 * (options.toleranceS ?? 60), now });
  const queue = createSerialQueue((error) => options.log(`job failed: ${error instanceof Error ? error.message : String(error)}`));
  // An audience export carries every respondent id: a larger default than an event's.
  const limit = positive('maxBodyBytes', options.maxBodyBytes, audiencesTo === undefined ? 1_000_000 : 64 * 1024 * 1024);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 10_000);
  const maxConnections = positive('maxConnections', options.maxConnections, 64);
  const answer = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify({ message }));
  };
  /** The sender's delivery id, for the log: only a UUID-like value (the header is the sender's text). */
  const deliveryOf = (req: IncomingMessage) => {
    const given = String(req.headers['bav-delivery'] ?? '');
    return /^[0-9a-fA-F-]{1,64}$/.test(given) ? given : '(no valid BAV-Delivery)';
  };
  /**
   * Refuses a delivery and ends its connection: whatever the sender still sends is not read (a
   * 100 MB body declared, a body trickling in). The answer goes out first.
   */
  const refuse = (req: IncomingMessage, res: ServerResponse, refusal: Refused) => {
    options.log(`delivery ${deliveryOf(req)}: refused (${refusal.status}), ${refusal.message}`);
    answer(res, refusal.status, refusal.message, { Connection: 'close', ...(refusal.status === 405 ? { Allow: 'POST' } : {}) });
    res.on('finish', () => req.socket.end());
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const early = refusedUpFront(req, limit);
    if (early) {
      refuse(req, res, early);
      return;
    }
    readBody(req, limit, timeoutMs).then(
      (body) => {
        const delivery = deliveryOf(req);
        const verdict = verifyWebhook(body, req.headers['bav-signature'] as string | undefined, {
          secret: options.secret,
          now: now(),
          ...(options.toleranceS === undefined ? {} : { toleranceS: options.toleranceS }),
          seen,
        });
        if (!verdict.ok) {
          if (verdict.reason === 'replayed') {
            options.log(`delivery ${delivery}: ignored, ${verdict.message}`);
            answer(res, 200, 'Already received.');
            return;
          }
          options.log(`delivery ${delivery}: rejected, ${verdict.message}`);
          answer(res, verdict.reason === 'signature' ? 401 : 400, `Rejected: ${verdict.message}.`);
          return;
        }
        const event = verdict.event;
        if (event.type === AUDIENCE_EXPORT_EVENT && audiencesTo !== undefined) {
          // Checked before the 200: a malformed export is refused while the service can still hear it.
          const checked = fromAudienceExportEvent(event);
          if (!checked.ok) {
            options.log(`delivery ${delivery}: rejected, ${checked.message}`);
            answer(res, 400, `Rejected: ${checked.message}.`);
            return;
          }
          const exported = checked.value;
          answer(res, 200, 'Queued.');
          const what = `audience ${exported.audienceId} (${exported.format}${exported.format === 'audience_definition' ? '' : `, ${exported.respondents.length} respondents`})`;
          options.log(`webhook ${event.webhookId}: ${AUDIENCE_EXPORT_EVENT} of ${what} accepted, queued`);
          queue.push(async () => {
            const written = await writeAudienceExport(audiencesTo, exported);
            const names = written.files.map((f) => basename(f)).join(', ');
            options.log(`webhook ${event.webhookId}: ${what} ${written.status === 'written' ? `written: ${names}` : `was written before (${basename(written.files[0] ?? '')}); nothing written`}`);
          });
          return;
        }
        answer(res, 200, 'Queued.');
        if (!onEvent) {
          options.log(`webhook ${loggable(event.webhookId)}: ${describe(event)} accepted; nothing to do for it (no onEvent)`);
          return;
        }
        options.log(`webhook ${loggable(event.webhookId)}: ${describe(event)} accepted, queued`);
        queue.push(() => onEvent(event));
      },
      (error: unknown) => refuse(req, res, error instanceof Refused ? error : new Refused(400, 'Unreadable body.')),
    );
  };
  const server: Server = createServer(
    {
      // Node answers 408 to headers slower than this, counted from the connection (so a
      // connection that sends nothing is closed too; checked every connectionsCheckingInterval),
      // and 431 to headers over 16 KB; a body slower than timeoutMs is readBody's 408.
      headersTimeout: timeoutMs,
      requestTimeout: timeoutMs * 2,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, timeoutMs / 4)),
      maxHeaderSize: 16 * 1024,
    },
    handle,
  );
  server.maxConnections = maxConnections;
  const url = await listenHttp(server, options.port ?? 0, options.host ?? '127.0.0.1');
  return {
    url,
    idle: () => queue.idle(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue.idle();
    },
  };
}
