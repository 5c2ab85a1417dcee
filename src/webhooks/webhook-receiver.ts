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
  onEvent?(event: WebhookEvent): Promise<void>;
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
}

export interface WebhookReceiver {
  readonly url: string;
  /** Resolves when every queued job has run. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new TooLarge());
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const describe = (e: WebhookEvent) => `${e.type}${e.action ? ` ${e.action}` : ''}${typeof e.data?.['id'] === 'number' ? ` #${e.data['id']}` : ''}`;

/**
 * @example
 * const receiver = await createWebhookReceiver({ secret, port: 8080, onEvent: async (e) => rebuild(e), log: console.log });
 */
export async function createWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const { onEvent, audiencesTo } = options;
  if (!onEvent && audiencesTo === undefined) throw new UsageError('createWebhookReceiver needs onEvent, audiencesTo, or both: otherwise no delivery would do anything.');
  if (audiencesTo !== undefined) await checkAudiencesDir(audiencesTo);
  const maxBodyBytes = options.maxBodyBytes ?? (audiencesTo === undefined ? 1_000_000 : 64 * 1024 * 1024);
  const now = options.now ?? Date.now;
  const seen = createReplayGuard({ keepMs: 2 * 1000 * (options.toleranceS ?? 60), now });
  const queue = createSerialQueue((error) => options.log(`job failed: ${error instanceof Error ? error.message : String(error)}`));
  const answer = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message }));
  };
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') {
      answer(res, 405, 'Webhooks are POSTed.');
      return;
    }
    readBody(req, maxBodyBytes).then(
      (body) => {
        const given = String(req.headers['bav-delivery'] ?? '');
        // The header is the sender's text: only a UUID-like value goes into the log.
        const delivery = /^[0-9a-fA-F-]{1,64}$/.test(given) ? given : '(no valid BAV-Delivery)';
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
          options.log(`webhook ${event.webhookId}: ${describe(event)} accepted; nothing to do for it (no onEvent)`);
          return;
        }
        options.log(`webhook ${event.webhookId}: ${describe(event)} accepted, queued`);
        queue.push(() => onEvent(event));
      },
      (error: unknown) => {
        options.log(`delivery: rejected, ${error instanceof TooLarge ? `the body is larger than ${maxBodyBytes} bytes` : 'the body could not be read'}`);
        answer(res, error instanceof TooLarge ? 413 : 400, error instanceof TooLarge ? `Body too large: at most ${maxBodyBytes} bytes.` : 'Unreadable body.');
      },
    );
  });
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
