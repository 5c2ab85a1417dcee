/**
 * `brandscape mcp`: the toolkit's MCP server for AI assistants (Claude Desktop, Claude Code, VS Code,
 * ...): over stdio by default, as assistants start it, or over Streamable HTTP on 127.0.0.1 with a
 * token of its own. Its tools answer from the service named by BRANDSCAPE_BASE_URL, or from an
 * embedded emulator when none is set (the server's instructions tell the assistant which).
 */
import { UsageError } from '../../client/index.js';
import { MIN_TOKEN_LENGTH, serveMcpHttp, serveMcpStdio } from '../../mcp/index.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, type CliIo } from '../io.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

/** The variable the HTTP server's token is read from unless --token-env names another. */
export const DEFAULT_TOKEN_ENV = 'BRANDSCAPE_MCP_TOKEN';

export const mcpHelp = `Usage: brandscape mcp [--out DIR] [--http [--port N] [--token-env NAME]]

Serves the toolkit's analyses to AI assistants over the Model Context Protocol: search brands,
markets, years, audiences and metrics; compare brands across markets or years (a table, notes
and the chart); a brand's profile; archetypes; the TurboPitch tools; report templates and
reports; records of any resource, bounded or written to a file.

By default it speaks MCP on stdin and stdout, as an assistant starts it (its log goes to stderr).
The data comes from BRANDSCAPE_BASE_URL with BRANDSCAPE_TOKEN (also from a .env file in the
working folder), or from an embedded emulator with demo data when none is set.

Options:
  --out DIR              The folder reports and row files are written to, and no other (it must
                         exist). Without it, the tools that write files answer with an error
  --http                 Serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio.
                         Prints the URL on the first line of stdout. Stop with Ctrl-C
  --port N               With --http: the port (default 0, a free one)
  --token-env NAME       With --http: the environment variable holding the server's own token
                         (default ${DEFAULT_TOKEN_ENV}; at least ${MIN_TOKEN_LENGTH} characters, e.g. from
                         'openssl rand -hex 24'). Clients send it as Authorization: Bearer <token>.
                         Browser pages of other sites are refused (Origin)
${SERVICE_HELP}
  -h, --help             Show this help

Examples:
  # For a desktop assistant's configuration: stdio, reports into ~/reports
  npx brandscape mcp --out ~/reports

  # Over HTTP on port 8765
  BRANDSCAPE_MCP_TOKEN=$(openssl rand -hex 24) brandscape mcp --http --port 8765

  # Try it with the MCP Inspector's command-line mode
  npx @modelcontextprotocol/inspector --cli npx brandscape mcp --method tools/list

Exit codes: 0 stopped, 2 usage error (an option, a missing folder or token), 1 other.
`;

/** Resolves when the user interrupts. */
const interrupted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export async function runMcp(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = fromArgv('mcp', argv, {
    ...SERVICE_OPTIONS,
    out: { type: 'string' },
    http: { type: 'boolean' },
    port: { type: 'string' },
    'token-env': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  }, true);
  if (values.help) {
    io.stdout.write(mcpHelp);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`mcp takes options only, not '${positionals.join(' ')}'.`, { hint: "Run 'brandscape mcp --help'." });
  if (!values.http && (values.port !== undefined || values['token-env'] !== undefined)) {
    throw new UsageError(`${values.port !== undefined ? '--port' : '--token-env'} applies to --http only: over stdio the assistant that starts the server is its only client.`);
  }
  const port = toNumber('port', values.port, { min: 0, max: 65535, integer: true }) ?? 0;
  const tokenEnv = values['token-env'] ?? DEFAULT_TOKEN_ENV;
  // The token is read from the environment, never from the command line (which other users can see).
  const token = values.http ? io.env[tokenEnv]?.trim() : undefined;
  if (values.http && (token === undefined || token === '')) {
    throw new UsageError(`--http needs the server's own token in ${tokenEnv}, which is not set.`, { hint: `Set it, e.g. ${tokenEnv}=$(openssl rand -hex 24), and give it to the assistant as its bearer token.` });
  }
  const log = (line: string) => io.stderr.write(`brandscape mcp: ${line}\n`);
  const service = await openService(io, values);
  try {
    const common = { client: service.client, emulated: service.emulated, cwd: io.cwd, log, ...(values.out === undefined ? {} : { outDir: values.out }) };
    if (values.http) {
      const server = await serveMcpHttp({ ...common, token: token!, port, host: '127.0.0.1' }).catch((error: unknown) => {
        if ((error as { code?: string }).code === 'EADDRINUSE') throw new UsageError(`Port ${port} is in use.`, { hint: 'Choose another with --port (0 picks a free one).' });
        throw error;
      });
      io.stdout.write(`${server.url}\n`);
      log(`serving MCP at ${server.url} (token from ${tokenEnv}). Press Ctrl-C to stop.`);
      await interrupted(io.signal);
      await server.close();
    } else {
      const server = await serveMcpStdio(common);
      log(`serving MCP on stdio${service.emulated ? ' (embedded emulator, demo data)' : ` (${service.client.baseUrl})`}.`);
      await Promise.race([server.closed, interrupted(io.signal)]);
      await server.close();
    }
  } finally {
    await service.close();
  }
  return EXIT.ok;
}
