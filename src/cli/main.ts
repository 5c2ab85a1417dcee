/**
 * The `brandscape` command line: `run(argv, io)` maps arguments to a command and every outcome to a
 * documented exit code. Progress and diagnostics go to stderr, data to stdout or files.
 */
import {
  BrandscapeError,
  HttpError,
  LoadError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  UsageError,
  redact,
} from '../errors.js';
import { compareHelp, runCompare } from './commands/compare.js';
import { emulatorHelp, runEmulator } from './commands/emulator.js';
import { fetchHelp, runFetch } from './commands/fetch.js';
import { healthHelp, runHealth } from './commands/health.js';
import { reportHelp, runReportCommand } from './commands/report.js';
import { runTemplates, templatesHelp } from './commands/templates.js';
import { EXIT, type CliIo } from './io.js';
import { toolkitVersion } from '../version.js';

interface Command {
  summary: string;
  help: string;
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

const commands: Record<string, Command> = {
  fetch: { summary: 'Fetch every record of a resource as JSON, NDJSON or CSV', help: fetchHelp, run: runFetch },
  compare: { summary: 'Compare brands across markets or years: a table, CSV/JSON, or a workbook, chart or page', help: compareHelp, run: runCompare },
  report: { summary: 'Build a report (Excel workbook and HTML) from a template', help: reportHelp, run: runReportCommand },
  templates: { summary: 'List, show and validate report templates', help: templatesHelp, run: runTemplates },
  health: { summary: 'Check whether the service is up', help: healthHelp, run: runHealth },
  emulator: { summary: 'Serve the embedded Brand Data Service emulator', help: emulatorHelp, run: runEmulator },
};

/** Registers a command; the command modules of later layers call this at import time. */
export function registerCommand(name: string, command: Command): void {
  commands[name] = command;
}

export function mainHelp(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const list = Object.entries(commands)
    .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
    .join('\n');
  return `Usage: brandscape <command> [options]

Brandscape Kit: typed access to the Brand Data Service, dataframes, charts and reports.

Commands:
${list}

Run 'brandscape <command> --help' for a command's options.

Environment:
  BRANDSCAPE_BASE_URL     Service base URL (default: an in-process emulator)
  BRANDSCAPE_TOKEN        Personal access token (never printed or stored)
  BRANDSCAPE_API_VERSION  v2 (default) or v1

Exit codes: 0 ok, 1 other error, 2 usage error, 3 service error (HTTP, network, timeout,
incomplete load), 4 permission problem (health).
`;
}

/** The exit code of an error (DESIGN.md rule 6). */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (
    error instanceof HttpError ||
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    error instanceof LoadError ||
    error instanceof ResponseShapeError
  ) {
    return EXIT.service;
  }
  return EXIT.other;
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`brandscape-kit ${toolkitVersion()}\n`);
    return EXIT.ok;
  }
  const command = commands[name];
  if (!command) {
    io.stderr.write(`brandscape: unknown command '${name}'. Commands: ${Object.keys(commands).join(', ')}. Run 'brandscape --help'.\n`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`brandscape ${name}: ${redact(message)}\n`);
    if (!(error instanceof BrandscapeError) && error instanceof Error && error.stack && io.env['BRANDSCAPE_DEBUG']) {
      io.stderr.write(`${redact(error.stack)}\n`);
    }
    return exitCodeOf(error);
  }
}
