/**
 * `brandscape mcp` over stdio, as desktop assistants and editors start it: JSON-RPC messages on
 * stdin and stdout, one per line. Nothing else may be written to stdout: the server's own messages
 * go to the log (stderr).
 */
import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { toContext, type ToolkitMcpOptions } from './options.js';
import { createToolkitServer } from './toolkit-server.js';

export interface ServeMcpStdioOptions extends ToolkitMcpOptions {
  /** Default: the process's stdin. */
  input?: Readable;
  /** Default: the process's stdout. */
  output?: Writable;
}

/** A running stdio server. */
export interface McpStdioServer {
  /** Resolves when the client closes the connection (stdin ends). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the toolkit's tools over stdio until the client closes stdin.
 *
 * @example
 * const server = await serveMcpStdio({ client, emulated: true, outDir: 'reports' });
 * await server.closed;
 */
export async function serveMcpStdio(options: ServeMcpStdioOptions): Promise<McpStdioServer> {
  const context = await toContext(options);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const closed = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
  const handle = serveStdio(() => createToolkitServer(context), {
    transport: new StdioServerTransport(input, output),
    onerror: (error) => context.log(`stdio: ${error.message}`),
  });
  return { closed, close: () => handle.close() };
}
