/**
 * What `serveMcpStdio` and `serveMcpHttp` are given, checked once at start-up: the output folder
 * must exist and be writable before the first tool call, and is kept as an absolute path so that
 * no tool call can move it.
 */
import { resolve } from 'node:path';
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { createSecrets } from '../errors.js';
import { checkOutputDir } from '../report/run-report.js';
import type { McpContext } from './context.js';

export interface ToolkitMcpOptions {
  /** The client the tools use: the live service, or an embedded emulator's. */
  client: BrandscapeClient;
  /** True when the client talks to an embedded emulator (the server's instructions say so). Default false. */
  emulated?: boolean;
  /** The one folder reports and row files are written to. Left out, the tools that write answer with an error. */
  outDir?: string;
  /** The project folder whose `templates/` come before the toolkit's (default: the working directory). */
  cwd?: string;
  /** Where the server's own messages go (default: stderr; never stdout, the stdio protocol channel). */
  log?: (line: string) => void;
}

/**
 * The tools' context from the options, the output folder checked. `secrets` (the HTTP server's own
 * token) are masked in every line the server logs.
 */
export async function toContext(options: ToolkitMcpOptions, secrets: readonly string[] = []): Promise<McpContext> {
  const masked = createSecrets(secrets);
  const log = options.log ?? ((line: string) => process.stderr.write(`brandscape mcp: ${line}\n`));
  const cwd = resolve(options.cwd ?? process.cwd());
  const outDir = options.outDir === undefined ? undefined : resolve(cwd, options.outDir);
  if (outDir !== undefined) await checkOutputDir(outDir);
  return {
    client: options.client,
    emulated: options.emulated ?? false,
    outDir,
    cwd,
    log: (line) => log(masked.redact(line)),
  };
}
