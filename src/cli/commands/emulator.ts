/**
 * `brandscape emulator`: serves the embedded Brand Data Service until interrupted. Prints the base
 * URL as the first line of stdout and the token to use on the second.
 */
import { createEmulator, fromTokenArg, type EmulatorOptions } from '../../emulator/index.js';
import { UsageError } from '../../client/index.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';

export const emulatorHelp = `Usage: brandscape emulator [options]

Serves the embedded Brand Data Service emulator (seeded, realistic data; no account or network):
the REST API under /api/v2 and the service's MCP servers (Streamable HTTP, the token as a bearer
key) at /v1/bav, /v1/best-countries and /v1/futures.
Prints the base URL on the first line of stdout and the token on the second. Stop with Ctrl-C.

Options:
  --port N              Port to listen on (default 8787; 0 = any free port)
  --host HOST           Interface (default 127.0.0.1)
  --seed N              Dataset seed (default 1): the same seed serves the same data
  --brands N            Brands in the dataset (default 2434)
  --token NAME[:SCOPES] Accepted token, repeatable; SCOPES is a comma-separated list such as
                        'Brands: Read,Studies: Read' (a token without scopes has every scope)
  --latency MS          Time each request takes, its work included (default 0)
  --jitter MS           ± variation of the delay (default 0)
  --fault-rate R        Share of data requests that fail (500/502/503/504, reset, truncated), 0..1
  --rate-limit N        Requests per user per window (default 500; 0 disables)
  --rate-window S       Window length in seconds (default 60)
  --webhook URL         Webhook subscriber, repeatable (needs --webhook-secret)
  --webhook-secret S    Secret for the webhook signatures
  --webhook-events E    Comma-separated events to send (default all: Brand,Study,Audience Export)
  --page-labels KIND    'number' (default) or 'string' labels in meta.links
  -h, --help            Show this help

Admin routes (no token): GET /__emulator, GET /__emulator/requests, POST /__emulator/publish
{"kind":"study"|"brands"}, POST /__emulator/export-audience {"audienceId":20,"format":2}
(formats 1-4: audience_definition, bav_respondent_ids, audience_origin_respondent_ids,
audience_origin_progressive_numbers), POST|DELETE /__emulator/faults, GET /__emulator/webhooks.
`;

export async function runEmulator(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = fromArgv('emulator', argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    brands: { type: 'string' },
    token: { type: 'string', multiple: true },
    latency: { type: 'string' },
    jitter: { type: 'string' },
    'fault-rate': { type: 'string' },
    'rate-limit': { type: 'string' },
    'rate-window': { type: 'string' },
    webhook: { type: 'string', multiple: true },
    'webhook-secret': { type: 'string' },
    'webhook-events': { type: 'string' },
    'page-labels': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(emulatorHelp);
    return EXIT.ok;
  }
  const faultRate = toNumber('fault-rate', values['fault-rate'], { min: 0, max: 1 });
  if (faultRate !== undefined && faultRate > 1) throw new UsageError(`--fault-rate is a share between 0 and 1, got ${faultRate}.`);
  const labels = values['page-labels'];
  if (labels !== undefined && labels !== 'number' && labels !== 'string') throw new UsageError(`--page-labels is 'number' or 'string', got '${labels}'.`);
  const webhooks = values.webhook ?? [];
  if (webhooks.length > 0 && !values['webhook-secret']) throw new UsageError('--webhook needs --webhook-secret to sign the deliveries.');
  const events = values['webhook-events']?.split(',').map((e) => e.trim()).filter((e) => e !== '');

  const options: EmulatorOptions = {
    port: toNumber('port', values.port, { min: 0, max: 65535, integer: true }) ?? 8787,
    host: values.host ?? '127.0.0.1',
    seed: toNumber('seed', values.seed, { integer: true }) ?? 1,
    latencyMs: toNumber('latency', values.latency, { min: 0, max: 60_000 }) ?? 0,
    jitterMs: toNumber('jitter', values.jitter, { min: 0, max: 60_000 }) ?? 0,
    faultRate: faultRate ?? 0,
    rateLimit: toNumber('rate-limit', values['rate-limit'], { min: 0, integer: true }) ?? 500,
    rateWindowS: toNumber('rate-window', values['rate-window'], { min: 1, max: 3600 }) ?? 60,
    pageLabels: labels ?? 'number',
    webhooks: webhooks.map((url) => ({ url, secret: values['webhook-secret'] ?? '', ...(events ? { events } : {}) })),
  };
  const brands = toNumber('brands', values.brands, { min: 1, max: 20_000, integer: true });
  if (brands !== undefined) options.brands = brands;
  if (values.token) options.tokens = values.token.map(fromTokenArg);

  const emulator = await createEmulator(options).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${options.port} is in use.`, { hint: 'Choose another with --port (0 picks a free one).' });
    throw error;
  });
  io.stdout.write(`${emulator.url}\n`);
  io.stdout.write(`token: ${emulator.token}\n`);
  io.stderr.write(
    `Brand Data Service emulator (seed ${options.seed}) at ${emulator.url}/api/v2, MCP servers at ${emulator.url}/v1/bav, /v1/best-countries, /v1/futures. Try:\n  curl -H 'Authorization: Bearer ${emulator.token}' '${emulator.url}/api/v2/brands?per_page=5'\nPress Ctrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await emulator.close();
  return EXIT.ok;
}
