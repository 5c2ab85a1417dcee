/**
 * The service's three MCP servers (REFERENCE §18), served by the emulator over Streamable HTTP at
 * their documented paths (`/v1/bav`, `/v1/best-countries`, `/v1/futures`) on its own port, with the
 * official SDK's web-standard handler (stateless: each request is answered on its own, which is
 * what the 2025 `initialize` flow of a Streamable HTTP client needs and the 2026 revision assumes).
 *
 * In front of the SDK, as the MCP specification's security rules ask:
 * - `Origin` is validated: a browser page of another site gets a 403 (DNS rebinding, CSRF);
 * - the key is the emulator's token as `Authorization: Bearer <key>` (the documented API-key way
 *   in); none or a wrong one is a 401 with a `WWW-Authenticate: Bearer` challenge naming the
 *   protected-resource metadata (RFC 9728), which the emulator serves pointing at no real
 *   authorization server (its choice: the service's OAuth flow signs users in with WPP's Okta).
 *
 * Loaded on the first MCP request only: sessions that never use MCP never load the SDK.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer, createMcpHandler, localhostAllowedOrigins, originValidationResponse, type CallToolResult, type McpHttpHandler } from '@modelcontextprotocol/server';
import {
  BAV_DATA_INPUT,
  BAV_DATA_TOOLS,
  BAV_METADATA_TOOLS,
  BC_CITY_INPUT,
  BC_COUNTRY_INPUT,
  BC_TOOLS,
  FUTURES_INPUT,
  FUTURES_TOOLS,
  MCP_SERVERS,
  type BavDataToolName,
  type BavMetadataInput,
  type BavMetadataToolName,
  type BcToolName,
  type FuturesToolName,
  type McpServerKey,
} from '../../catalogue/mcp-servers.js';
import { BodyTooLargeError, sendWebResponse, toWebRequest } from '../../serve-fetch.js';
import { toolkitVersion } from '../../version.js';
import { ApiError } from '../http/api-error.js';
import type { Ctx } from '../http/bindings.js';
import type { HandlerState } from '../http/handler.js';
import { bavData, bavMetadata } from './bav.js';
import { bcCityData, bcCountryData } from './best-countries.js';
import { futuresData } from './futures.js';
import { ToolInputError, type Json } from './lookup.js';

/** Where the RFC 9728 document of a server is: the well-known prefix before the server's path. */
export const PROTECTED_RESOURCE_PREFIX = '/.well-known/oauth-protected-resource';

/** The address of no authorization server (`.invalid` never resolves): the emulator signs no one in. */
export const NO_AUTHORIZATION_SERVER = 'https://authorization.emulator.invalid';

const INSTRUCTIONS: Readonly<Record<McpServerKey, string>> = {
  bav: 'BAV brand data (the emulated service, seeded demo data). Find brands, markets and audiences with the get-brands, get-markets and get-audiences tools, then ask a data tool for brands in markets and years. Countries are ISO alpha-2 codes; without a year the latest is answered; without an audience, All Adults.',
  'best-countries': 'Best Countries data (the emulated service): how countries and cities are perceived. Countries are ISO alpha-2 codes; without a year the latest ranking is answered.',
  futures: 'Financial data of listed companies behind BAV brands (the emulated service). Every tool needs a ticker with its exchange suffix, e.g. AAPL.US.',
};

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A tool's answer: the JSON as structured content and, for clients that read only text, as text. */
function toResult(run: () => Record<string, Json>): CallToolResult {
  try {
    const answer = run();
    return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
  } catch (error) {
    if (error instanceof ToolInputError || error instanceof ApiError) return { content: [{ type: 'text', text: error.message }], isError: true };
    process.stderr.write(`emulator: MCP tool failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return { content: [{ type: 'text', text: 'The emulator failed to answer this tool call (a bug: its stderr has the details).' }], isError: true };
  }
}

function createServer(key: McpServerKey, ctx: () => Ctx): McpServer {
  const server = new McpServer({ name: `brandscape-kit emulator: ${MCP_SERVERS[key].name}`, version: toolkitVersion() }, { instructions: INSTRUCTIONS[key] });
  if (key === 'bav') {
    for (const [name, tool] of Object.entries(BAV_DATA_TOOLS) as [BavDataToolName, (typeof BAV_DATA_TOOLS)[BavDataToolName]][]) {
      server.registerTool(name, { title: tool.title, description: tool.description, inputSchema: BAV_DATA_INPUT, annotations: { title: tool.title, ...READ_ONLY } }, (args) => toResult(() => bavData(ctx(), name, args)));
    }
    for (const [name, tool] of Object.entries(BAV_METADATA_TOOLS) as [BavMetadataToolName, (typeof BAV_METADATA_TOOLS)[BavMetadataToolName]][]) {
      server.registerTool(name, { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { title: tool.title, ...READ_ONLY } }, (args: BavMetadataInput) =>
        toResult(() => bavMetadata(ctx(), name, args)),
      );
    }
  } else if (key === 'best-countries') {
    for (const [name, tool] of Object.entries(BC_TOOLS) as [BcToolName, (typeof BC_TOOLS)[BcToolName]][]) {
      const city = tool.source.level === 'city';
      server.registerTool(name, { title: tool.title, description: tool.description, inputSchema: city ? BC_CITY_INPUT : BC_COUNTRY_INPUT, annotations: { title: tool.title, ...READ_ONLY } }, (args) =>
        toResult(() => (city ? bcCityData(ctx(), name, args) : bcCountryData(ctx(), name, args))),
      );
    }
  } else {
    for (const [name, tool] of Object.entries(FUTURES_TOOLS) as [FuturesToolName, (typeof FUTURES_TOOLS)[FuturesToolName]][]) {
      server.registerTool(name, { title: tool.title, description: tool.description, inputSchema: FUTURES_INPUT, annotations: { title: tool.title, ...READ_ONLY } }, (args) => toResult(() => futuresData(ctx(), name, args)));
    }
  }
  return server;
}

const serverOfPath = (path: string): McpServerKey | undefined => (Object.keys(MCP_SERVERS) as McpServerKey[]).find((k) => MCP_SERVERS[k].path === path);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });

export interface McpRoutes {
  /** Answers a request to a server's path or its protected-resource metadata; never throws. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function createMcpRoutes(state: HandlerState): McpRoutes {
  const handlers = new Map<McpServerKey, McpHttpHandler>();
  const handlerOf = (key: McpServerKey, user: () => string) => {
    let handler = handlers.get(key);
    if (!handler) {
      // Stateless: the factory runs for every request, with that request's caller.
      handler = createMcpHandler((request) => createServer(key, () => ({ ds: state.ds, idx: state.idx, user: request.authInfo?.clientId ?? user() })), {
        onerror: (error) => process.stderr.write(`emulator: MCP: ${error.message}\n`),
      });
      handlers.set(key, handler);
    }
    return handler;
  };

  const answer = async (req: IncomingMessage, path: string, setUser: (user: string) => void): Promise<Response> => {
    const origin = state.publicUrl();
    if (path.startsWith(`${PROTECTED_RESOURCE_PREFIX}/`)) {
      const key = serverOfPath(path.slice(PROTECTED_RESOURCE_PREFIX.length));
      if (!key || (req.method !== 'GET' && req.method !== 'HEAD')) return json(404, { error: 'not_found', error_description: `No protected-resource metadata at ${path}.` });
      return json(200, {
        resource: `${origin}${MCP_SERVERS[key].path}`,
        authorization_servers: [NO_AUTHORIZATION_SERVER],
        bearer_methods_supported: ['header'],
        resource_name: `${MCP_SERVERS[key].name} MCP server (Brand Data Service emulator)`,
        resource_documentation: `${origin}/__emulator`,
        // RFC 9728 allows extra members: this one says what is not the service's.
        emulator_choice:
          "The emulator's choice: the service signs users in with OAuth 2.0 (WPP Okta). The emulator has no authorization server; send one of its tokens as `Authorization: Bearer <key>`, as the service accepts personal API keys.",
      });
    }
    const key = serverOfPath(path);
    if (!key) return json(404, { error: 'not_found', error_description: `No MCP server at ${path}. Servers: ${Object.values(MCP_SERVERS).map((s) => s.path).join(', ')}.` });
    const request = await toWebRequest(req, 'http://emulator.invalid');
    // A browser page of another site: refused before anything else (the MCP spec's MUST).
    const allowed = [...localhostAllowedOrigins(), new URL(origin).hostname];
    const refused = originValidationResponse(request, allowed);
    if (refused) return refused;
    const header = req.headers.authorization;
    const principal = state.auth.authenticate(header);
    if (!principal) {
      const given = header !== undefined && header.trim() !== '';
      const challenge = `Bearer realm="${MCP_SERVERS[key].name}", resource_metadata="${origin}${PROTECTED_RESOURCE_PREFIX}${MCP_SERVERS[key].path}"${given ? ', error="invalid_token", error_description="The key is not valid."' : ''}`;
      return json(401, { error: given ? 'invalid_token' : 'unauthorized', error_description: given ? 'The key is not valid.' : 'Send your API key as Authorization: Bearer <key>.' }, { 'WWW-Authenticate': challenge });
    }
    setUser(principal.user);
    // The token is in memory only for the SDK's request context; nothing writes it anywhere.
    const token = /^Bearer\s+(\S+)/i.exec(header ?? '')?.[1] ?? '';
    return handlerOf(key, () => principal.user).fetch(request, { authInfo: { token, clientId: principal.user, scopes: [], expiresAt: Math.floor(state.now() / 1000) + 3600 } });
  };

  return {
    async handle(req, res) {
      const started = state.now();
      const url = new URL(req.url ?? '/', 'http://emulator.invalid');
      let user: string | undefined;
      let response: Response;
      try {
        response = await answer(req, url.pathname, (u) => (user = u));
      } catch (error) {
        if (error instanceof BodyTooLargeError) response = json(413, { error: 'payload_too_large', error_description: error.message });
        else {
          process.stderr.write(`emulator: MCP: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
          response = json(500, { error: 'server_error', error_description: 'The emulator failed (its stderr has the details).' });
        }
      }
      state.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1), status: response.status, user, fault: undefined, at: started, durationMs: state.now() - started });
      if (state.requests.length > state.maxRecorded) state.requests.splice(0, state.requests.length - state.maxRecorded);
      await sendWebResponse(res, response);
    },
    async close() {
      await Promise.all([...handlers.values()].map((h) => h.close()));
    },
  };
}
