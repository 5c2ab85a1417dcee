/**
 * `brandscape webhooks listen`: a receiver of the service's webhooks that rebuilds reports and, with
 * `--audiences-to`, is an audience export destination. Each delivery is verified (signature over
 * the raw body, time, replay), acknowledged at once, and the templates whose markets and years a
 * new or updated study touches are rebuilt one at a time; each exported audience is written as
 * JSON, CSV and Parquet files. A log line per event on stdout.
 */
import { resolve } from 'node:path';
import { UsageError, createWebhookReceiver, loadTemplate, refreshReports, type ReportTarget, type WebhookEvent } from '../../index.js';
import { checkOutputDir } from '../../report/run-report.js';
import { checkAudiencesDir } from '../../webhooks/audience-export-files.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { shownPath } from '../output.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

export const webhooksHelp = `Usage: brandscape webhooks listen --port N --secret-env NAME --on-event TEMPLATE [...] [options]
       brandscape webhooks listen --port N --secret-env NAME --audiences-to DIR [options]

Receives the service's webhooks: rebuilds reports when their data changes (--on-event), and writes
the audiences users export to this application (--audiences-to), or both. Every delivery's
BAV-Signature is checked against the raw body with the shared secret (HMAC-SHA256, compared in
constant time); deliveries more than 60 s from this machine's clock, forged or malformed ones are
refused and change nothing, and a repeated webhookId is ignored. A good delivery is answered 200 at
once; its work waits its turn (one job at a time). A new or updated study rebuilds each template
whose markets include the study's market and whose years include its year.

Audience exports (--audiences-to DIR): each exported audience is written into DIR as
audience-<id>-<export time>.json (its definition and the export's format, time and delivery) and,
for the respondent formats, .csv and .parquet (audience_id, format, respondent_id; one row per
respondent), all three whole or none. A delivery written before writes nothing again; an export too
large (--max-body-mb) or malformed (an unknown format, a respondent id not in its format's form,
an id twice) is refused and writes nothing. loadAudienceExport(path) reads one back as a table.

Options:
  --port N                Port to listen on (0 picks a free one; the address is printed)
  --host HOST             Interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  --secret-env NAME       Environment variable holding the webhook secret (never printed)
  --on-event TEMPLATE     A template to rebuild (name or file), repeatable
  --out DIR               Folder the reports go to (default: reports); it must exist
  --audiences-to DIR      Folder exported audiences are written to; it must exist
  --max-body-mb N         Largest delivery accepted, in MB (default 1, or 64 with --audiences-to)
${SERVICE_HELP}
  -h, --help              Show this help

The service delivers only to public HTTPS URLs: put the receiver behind a TLS proxy. It runs until
interrupted (Ctrl-C).

Examples:
  WEBHOOK_SECRET=... brandscape webhooks listen --port 8080 --secret-env WEBHOOK_SECRET \\
    --on-event cross-market-brand-health --on-event sector-review --out reports
  WEBHOOK_SECRET=... brandscape webhooks listen --port 8080 --secret-env WEBHOOK_SECRET --audiences-to audiences

Exit codes: 130 stopped with Ctrl-C (143 with SIGTERM), 2 usage error, 1 other.
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
      'audiences-to': { type: 'string' },
      'max-body-mb': { type: 'string' },
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
  const audiencesTo = values['audiences-to'] === undefined ? undefined : resolve(io.cwd, values['audiences-to']);
  if (names.length === 0 && audiencesTo === undefined) {
    throw new UsageError('Give at least one --on-event TEMPLATE to rebuild, or --audiences-to DIR to receive audience exports.', { hint: "Run 'brandscape templates list' for the names." });
  }
  if (names.length === 0 && values.out !== undefined) throw new UsageError('--out is the folder of rebuilt reports: give --on-event TEMPLATE too (audience exports go to --audiences-to).');
  const maxBodyMb = toNumber('max-body-mb', values['max-body-mb'], { min: 0.001, max: 1024 });
  // Templates and the output folders are checked before listening: a typo is found now, not at the first event.
  const targets: ReportTarget[] = [];
  for (const name of names) targets.push({ template: await loadTemplate(name, { cwd: io.cwd }) });
  const outDir = resolve(io.cwd, values.out ?? 'reports');
  if (targets.length > 0) await checkOutputDir(outDir);
  if (audiencesTo !== undefined) await checkAudiencesDir(audiencesTo, `--audiences-to ${values['audiences-to'] ?? ''}`);

  const log = (line: string) => io.stdout.write(`${new Date().toISOString()} ${line}\n`);
  // Only rebuilds read the service: a receiver of audience exports alone needs none.
  const service = targets.length > 0 ? await openService(io, values) : undefined;
  const onEvent = async (event: WebhookEvent): Promise<void> => {
    if (!service) return;
    const { study, outcomes } = await refreshReports(service.client, event, targets, { outDir, emulated: service.emulated, signal: io.signal });
    if (!study) {
      log(`webhook ${event.webhookId}: ${event.type} events touch no report; nothing rebuilt`);
      return;
    }
    if (outcomes.length === 0) log(`webhook ${event.webhookId}: study ${study.id} (${study.countryCode} ${study.year}) is in no template's markets and years; nothing rebuilt`);
    for (const o of outcomes) log(`webhook ${event.webhookId}: study ${study.id} (${study.countryCode} ${study.year}) rebuilt ${o.template}: ${o.result.files.map((f) => shownPath(io.cwd, f)).join(', ')}`);
  };
  const receiver = await createWebhookReceiver({
    secret: secret.trim(),
    port,
    ...(values.host ? { host: values.host } : {}),
    ...(audiencesTo === undefined ? {} : { audiencesTo }),
    ...(maxBodyMb === undefined ? {} : { maxBodyBytes: Math.round(maxBodyMb * 1_000_000) }),
    ...(service === undefined ? {} : { onEvent }),
    log,
  });
  const jobs = [
    ...(targets.length > 0 ? [`rebuilding ${targets.map((t) => t.template.name).join(', ')} into ${shownPath(io.cwd, outDir)}`] : []),
    ...(audiencesTo === undefined ? [] : [`writing audience exports into ${shownPath(io.cwd, audiencesTo)}`]),
  ];
  log(`listening on ${receiver.url} for webhooks; ${jobs.join('; ')}`);
  try {
    await new Promise<void>((done) => {
      if (io.signal.aborted) done();
      else io.signal.addEventListener('abort', () => done(), { once: true });
    });
  } finally {
    await receiver.close();
    await service?.close();
    log('stopped');
  }
  return EXIT.ok;
}
