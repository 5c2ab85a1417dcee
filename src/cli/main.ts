/**
 * The `brandscape` command line: `run(argv, io)` maps arguments to a command and every outcome to a
 * documented exit code. Progress and diagnostics go to stderr, data to stdout or files.
 *
 * Each command is a module imported only when it runs: `--version` and `--help` load nothing but
 * this file, and `fetch` never loads the emulator unless it has to start one. Adding a command is
 * one entry in `commands`.
 */
import { EXIT, toTerminalSink, type CliIo, type CommandIo } from './io.js';
import { toolkitVersion } from '../version.js';

/** What a command module provides. */
export interface Command {
  help: string;
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}

/** A command as the registry knows it: a one-line summary and a way to load it. */
export interface CommandEntry {
  summary: string;
  load(): Promise<Command>;
}

const commands: Record<string, CommandEntry> = {
  init: {
    summary: 'Make a new analysis project: notebooks, a report template, scripts',
    load: () => import('./commands/init.js').then((m) => ({ help: m.initHelp, run: m.runInit })),
  },
  notebook: {
    summary: "Register the project's TypeScript kernel and open Jupyter",
    load: () => import('./commands/notebook.js').then((m) => ({ help: m.notebookHelp, run: m.runNotebook })),
  },
  fetch: {
    summary: 'Fetch every record of a resource as JSON, NDJSON or CSV',
    load: () => import('./commands/fetch.js').then((m) => ({ help: m.fetchHelp, run: m.runFetch })),
  },
  compare: {
    summary: 'Compare brands across markets or years: a table, CSV/JSON, or a workbook, chart or page',
    load: () => import('./commands/compare.js').then((m) => ({ help: m.compareHelp, run: m.runCompare })),
  },
  markets: {
    summary: 'List the markets with released studies, their regions and years',
    load: () => import('./commands/discover.js').then((m) => m.discoveryCommand('markets')),
  },
  years: {
    summary: 'List the years with released studies, overall or in some markets',
    load: () => import('./commands/discover.js').then((m) => m.discoveryCommand('years')),
  },
  studies: {
    summary: 'List the released studies of some markets and years',
    load: () => import('./commands/discover.js').then((m) => m.discoveryCommand('studies')),
  },
  audiences: {
    summary: 'List the audiences (All Adults, Female, Age 18-34, ...)',
    load: () => import('./commands/discover.js').then((m) => m.discoveryCommand('audiences')),
  },
  metrics: {
    summary: 'List the metric keys, names, groups, score types and columns',
    load: () => import('./commands/discover.js').then((m) => m.discoveryCommand('metrics')),
  },
  report: {
    summary: 'Build a report (Excel workbook and HTML) from a template',
    load: () => import('./commands/report.js').then((m) => ({ help: m.reportHelp, run: m.runReportCommand })),
  },
  templates: {
    summary: 'List, show and validate report templates',
    load: () => import('./commands/templates.js').then((m) => ({ help: m.templatesHelp, run: m.runTemplates })),
  },
  webhooks: {
    summary: 'Receive the service\'s webhooks and rebuild the reports their data changes',
    load: () => import('./commands/webhooks.js').then((m) => ({ help: m.webhooksHelp, run: m.runWebhooks })),
  },
  mcp: {
    summary: "Serve the toolkit's analyses to AI assistants (MCP, stdio or HTTP)",
    load: () => import('./commands/mcp.js').then((m) => ({ help: m.mcpHelp, run: m.runMcp })),
  },
  health: {
    summary: 'Check whether the service is up',
    load: () => import('./commands/health.js').then((m) => ({ help: m.healthHelp, run: m.runHealth })),
  },
  emulator: {
    summary: 'Serve the embedded Brand Data Service emulator',
    load: () => import('./commands/emulator.js').then((m) => ({ help: m.emulatorHelp, run: m.runEmulator })),
  },
};

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

export async function run(argv: readonly string[], given: CliIo): Promise<number> {
  // Everything any command prints goes through these: text from templates, argv and the service
  // reaches the terminal without the control sequences it may hold.
  const io: CommandIo = { ...given, stdout: toTerminalSink(given.stdout), stderr: toTerminalSink(given.stderr) };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`brandscape-kit ${toolkitVersion()}\n`);
    return EXIT.ok;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) {
    io.stderr.write(`brandscape: unknown command '${name}'. Commands: ${Object.keys(commands).join(', ')}. Run 'brandscape --help'.\n`);
    return EXIT.usage;
  }
  try {
    const command = await entry.load();
    return await command.run(rest, io);
  } catch (error) {
    // The toolkit is loaded by now (the command imported it): this costs nothing more.
    const { reportError } = await import('./report-error.js');
    return reportError(name, error, io);
  }
}
