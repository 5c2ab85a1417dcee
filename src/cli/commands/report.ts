/**
 * `brandscape report TEMPLATE`: builds a report from a template (scheduled runs: cron, CI) and
 * writes its workbook and HTML file. Prints where it wrote and one line per section on stdout;
 * progress goes to stderr.
 */
import { UsageError, loadTemplate, runReport, type OutputFormat } from '../../index.js';
import { fromParameterPairs } from '../../report/template/resolve-template.js';
import { OUTPUT_FORMATS } from '../../report/template/template-schema.js';
import { resolve } from 'node:path';
import { fromArgv } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { shownPath } from '../output.js';
import { createProgressBar } from '../progress.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

export const reportHelp = `Usage: brandscape report TEMPLATE [options]

Builds a report from a template: loads the data, computes each section (tables, charts, notes) and
writes an Excel workbook and a self-contained HTML file. TEMPLATE is the name of a template in
templates/ (see 'brandscape templates list') or the path of a JSON or YAML template file.

Options:
  --out DIR               Folder to write to (default: reports); it must exist
  --format F[,F]          xlsx, html or both (default: the template's output.formats)
  -p, --param KEY=VALUE   Set a template parameter, repeatable; lists are comma-separated and
                          years may be ranges (-p markets=GB,DE,FR -p years=2021..2025)
  --since-last-run        Skip the build (exit 0) when no study behind the report changed since
                          the last successful run (a state file in DIR records it)
${SERVICE_HELP}
  -h, --help              Show this help

Files are written whole or not at all: a failed or interrupted run leaves the previous report as
it was. A bad template or parameter writes nothing.

Examples:
  brandscape report cross-market-brand-health
  brandscape report sector-review -p markets=GB,DE,FR,IT -p year=2024 --format xlsx
  brandscape report templates/cross-year-trends.yaml --out reports --since-last-run

Exit codes: 0 written or up to date, 2 bad template or arguments, 3 service error, 1 other.
`;

export async function runReportCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv(
    'report',
    argv,
    {
      ...SERVICE_OPTIONS,
      out: { type: 'string' },
      format: { type: 'string' },
      param: { type: 'string', short: 'p', multiple: true },
      'since-last-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(reportHelp);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('report takes one template (a name or a file).', { hint: "Run 'brandscape templates list' for the names, or 'brandscape report --help'." });
  let formats: OutputFormat[] | undefined;
  if (values.format !== undefined) {
    const given = values.format.split(',').map((f) => f.trim().toLowerCase()).filter((f) => f !== '');
    const bad = given.find((f) => !(OUTPUT_FORMATS as readonly string[]).includes(f));
    if (bad !== undefined || given.length === 0) throw new UsageError(`--format takes ${OUTPUT_FORMATS.join(', ')} or both (comma-separated), not '${values.format}'.`);
    formats = [...new Set(given)] as OutputFormat[];
  }
  const parameters = fromParameterPairs(values.param ?? []);
  const template = await loadTemplate(positionals[0]!, { cwd: io.cwd });
  const outDir = values.out ?? 'reports';
  const shown = (file: string) => shownPath(io.cwd, file);

  const service = await openService(io, values);
  const bar = createProgressBar(io, 'brandscape-data');
  try {
    const result = await runReport(service.client, template, {
      outDir: resolve(io.cwd, outDir),
      parameters,
      ...(formats ? { formats } : {}),
      ...(values['since-last-run'] ? { sinceLastRun: true } : {}),
      signal: io.signal,
      emulated: service.emulated,
      onProgress: (p) => bar.update(p),
      onStage: (message) => {
        bar.done();
        io.stderr.write(`brandscape report: ${message}.\n`);
      },
    });
    bar.done();
    if (result.status === 'up-to-date') {
      io.stdout.write(`Up to date: no study behind ${template.name} changed since the last run (${result.lastRun ?? 'unknown'}); nothing written.\n`);
      for (const file of result.files) io.stdout.write(`  ${shown(file)}\n`);
      return EXIT.ok;
    }
    for (const file of result.files) io.stdout.write(`Wrote ${shown(file)}\n`);
    for (const section of result.spec?.sections ?? []) io.stdout.write(`  ${section.index}. ${section.title}: ${section.summary}${section.notes.length > 0 ? ` (${section.notes.length} note${section.notes.length > 1 ? 's' : ''})` : ''}\n`);
    return EXIT.ok;
  } finally {
    bar.done();
    await service.close();
  }
}
