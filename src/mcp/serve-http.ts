/**
 * `brandscape mcp --http`: the toolkit's MCP server over Streamable HTTP at `/mcp`, for assistants
 * that connect to a URL. It listens on the loopback interface only and, as the MCP specification's
 * security rules ask of a local server:
 *
 * - refuses a request without this server's own bearer token (never the service's token: that one
 *   stays with the client), compared in constant time;
 * - refuses a `Host` that is not a loopback name, and an `Origin` of another site (403): a web page
 *   in the user's browser must not reach the server (DNS rebinding, CSRF).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames, localhostAllowedOrigins, originValidationResponse } from '@modelcontextprotocol/server';
import { UsageError } from '../errors.js';
import { listenHttp } from '../listen-http.js';
import { BodyTooLargeError, sendWebResponse, toWebRequest } from '../serve-fetch.js';
import { toContext, type ToolkitMcpOptions } from './options.js';
import { createToolkitServer } from './toolkit-server.js';

/** The path the server answers MCP at. */
export const MCP_HTTP_PATH = '/mcp';

/** Tokens shorter than this are refused: the token is all that stands between the server and other local users. */
export const MIN_TOKEN_LENGTH = 16;

export interface ServeMcpHttpOptions extends ToolkitMcpOptions {
  /** The bearer token clients must send (`Authorization: Bearer <token>`); at least 16 characters. */
  token: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** Loopback interface to listen on: 127.0.0.1 (default), ::1 or localhost. */
  host?: '127.0.0.1' | '::1' | 'localhost';
  /** Browser origins allowed besides localhost ones (hostnames, e.g. `my-tool.internal`). */
  allowedOrigins?: readonly string[];
}

/** A running HTTP server. */
export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });

/** Equal tokens, in time that does not depend on where they differ. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Serves the toolkit's tools over Streamable HTTP on a loopback interface.
 *
 * @example
 * const server = await serveMcpHttp({ client, token: process.env['BRANDSCAPE_MCP_TOKEN']!, port: 8765, outDir: 'reports' });
 * console.log(server.url); // http://127.0.0.1:8765/mcp
 */
export async function serveMcpHttp(options: ServeMcpHttpOptions): Promise<McpHttpServer> {
  const token = options.token.trim();
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new UsageError(`The MCP server's token has ${token.length} characters; it needs at least ${MIN_TOKEN_LENGTH}.`, { hint: 'Make one with: openssl rand -hex 24' });
  }
  const host = options.host ?? '127.0.0.1';
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) throw new UsageError(`The MCP server listens on a loopback interface only (127.0.0.1, ::1, localhost), not ${String(host)}.`);
  // The server's token is masked in every line it logs.
  const context = await toContext(options, [token]);
  const handler = createMcpHandler(() => createToolkitServer(context), { onerror: (error) => context.log(`http: ${error.message}`) });
  const origins = [...localhostAllowedOrigins(), ...(options.allowedOrigins ?? [])];
  const hostnames = localhostAllowedHostnames();

  const answer = async (request: Request): Promise<Response> => {
    const wrongHost = hostHeaderValidationResponse(request, hostnames);
    if (wrongHost) return wrongHost;
    const foreign = originValidationResponse(request, origins);
    if (foreign) return foreign;
    if (new URL(request.url).pathname !== MCP_HTTP_PATH) return json(404, { error: 'not_found', error_description: `The MCP endpoint is ${MCP_HTTP_PATH}.` });
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (given === undefined || !sameToken(given, token)) {
      const challenge = `Bearer realm="brandscape-kit"${given === undefined ? '' : ', error="invalid_token"'}`;
      return json(401, { error: given === undefined ? 'unauthorized' : 'invalid_token', error_description: "Send the server's token (the one in the variable --token-env names) as Authorization: Bearer <token>." }, { 'WWW-Authenticate': challenge });
    }
    return handler.fetch(request, { authInfo: { token: '***', clientId: 'local', scopes: [] } });
  };

  const sockets = new Set<Socket>();
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      let response: Response;
      try {
        response = await answer(await toWebRequest(req, origin));
      } catch (error) {
        if (error instanceof BodyTooLargeError) response = json(413, { error: 'payload_too_large', error_description: error.message });
        else {
          context.log(`http: ${error instanceof Error ? error.message : String(error)}`);
          response = json(500, { error: 'server_error', error_description: 'The server failed; its log (stderr) has the details.' });
        }
      }
      await sendWebResponse(res, response);
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  origin = await listenHttp(server, options.port ?? 0, host);
  return {
    url: `${origin}${MCP_HTTP_PATH}`,
    close: async () => {
      await handler.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
