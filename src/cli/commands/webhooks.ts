/**
 * `brandscape webhooks listen`: a receiver of the service's webhooks that rebuilds reports. Each
 * delivery is verified (signature over the raw body, time, replay), acknowledged at once, and the
 * templates whose markets and years a new or updated study touches are rebuilt one at a time, with
 * a log line per event on stdout.
 */
import { resolve } from 'node:path';
import { UsageError, checkOutputDir, createWebhookReceiver, loadTemplate, refreshReports, type ReportTarget } from '../../index.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { shownPath } from '../output.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

export const webhooksHelp = `Usage: brandscape webhooks listen --port N --secret-env NAME --on-event TEMPLATE [...] [options]

Receives the service's webhooks and rebuilds reports when their data changes. Every delivery's
BAV-Signature is checked against the raw body with the shared secret (HMAC-SHA256, compared in
constant time); deliveries more than 60 s from this machine's clock, forged or malformed ones are
refused and change nothing, and a repeated webhookId is ignored. A good delivery is answered 200 at
once; its work waits its turn (one rebuild at a time). A new or updated study rebuilds each
template whose markets include the study's market and whose years include its year.

Options:
  --port N                Port to listen on (0 picks a free one; the address is printed)
  --host HOST             Interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --secret-env NAME       Environment variable holding the webhook secret (never printed)
  --on-event TEMPLATE     A template to rebuild (name or file), repeatable
  --out DIR               Folder the reports go to (default: reports); it must exist
${SERVICE_HELP}
  -h, --help              Show this help

The service delivers only to public HTTPS URLs: put the receiver behind a TLS proxy. It runs until
interrupted (Ctrl-C).

Example:
  WEBHOOK_SECRET=... brandscape webhooks listen --port 8080 --secret-env WEBHOOK_SECRET \\
    --on-event cross-market-brand-health --on-event sector-review --out reports

Exit codes: 0 stopped, 2 usage error, 1 other.
`;

export async function runWebhooks(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv(
    'webhooks',
    argv,
    {
      ...SERVICE_OPTIONS,
      port: { type: 'string' },
      host: { type: 'string' },
      'secret-env': { type: 'string' },
      'on-event': { type: 'string', multiple: true },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(webhooksHelp);
    return EXIT.ok;
  }
  if (positionals.length !== 1 || positionals[0] !== 'listen') throw new UsageError("webhooks has one subcommand: 'listen'.", { hint: "Run 'brandscape webhooks --help'." });
  const port = toNumber('port', values.port, { min: 0, max: 65535, integer: true });
  if (port === undefined) throw new UsageError('--port is required (0 picks a free port).');
  const secretName = values['secret-env'];
  if (secretName === undefined) throw new UsageError('--secret-env is required: the name of the environment variable that holds the webhook secret.');
  const secret = io.env[secretName];
  if (secret === undefined || secret.trim() === '') throw new UsageError(`The environment variable ${secretName} (--secret-env) is not set or empty.`, { hint: 'Set it to the secret the service team gave for this webhook.' });
  const names = values['on-event'] ?? [];
  if (names.length === 0) throw new UsageError('Give at least one --on-event TEMPLATE to rebuild.', { hint: "Run 'brandscape templates list' for the names." });
  // Templates and the output folder are checked before listening: a typo is found now, not at the first event.
  const targets: ReportTarget[] = [];
  for (const name of names) targets.push({ template: await loadTemplate(name, { cwd: io.cwd }) });
  const outDir = resolve(io.cwd, values.out ?? 'reports');
  await checkOutputDir(outDir);

  const log = (line: string) => io.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const service = await openService(io, values);
  const receiver = await createWebhookReceiver({
    secret: secret.trim(),
    port,
    ...(values.host ? { host: values.host } : {}),
    log,
    onEvent: async (event) => {
      const { study, outcomes } = await refreshReports(service.client, event, targets, { outDir, emulated: service.emulated, signal: io.signal });
      if (!study) {
        log(`webhook ${event.webhookId}: ${event.type} events touch no report; nothing rebuilt`);
        return;
      }
      if (outcomes.length === 0) log(`webhook ${event.webhookId}: study ${study.id} (${study.countryCode} ${study.year}) is in no template's markets and years; nothing rebuilt`);
      for (const o of outcomes) log(`webhook ${event.webhookId}: study ${study.id} (${study.countryCode} ${study.year}) rebuilt ${o.template}: ${o.result.files.map((f) => shownPath(io.cwd, f)).join(', ')}`);
    },
  });
  log(`listening on ${receiver.url} for webhooks; rebuilding ${targets.map((t) => t.template.name).join(', ')} into ${shownPath(io.cwd, outDir)}`);
  try {
    await new Promise<void>((done) => {
      if (io.signal.aborted) done();
      else io.signal.addEventListener('abort', () => done(), { once: true });
    });
  } finally {
    await receiver.close();
    await service.close();
    log('stopped');
  }
  return EXIT.ok;
}
