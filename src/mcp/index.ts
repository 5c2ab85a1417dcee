/**
 * `brandscape-kit/mcp`: the toolkit's own MCP server, its analyses as tools for AI assistants,
 * served over stdio (desktop assistants, editors) or Streamable HTTP on a loopback interface. The
 * `brandscape mcp` command runs it; a program can too. Its types name no type of the MCP SDK: the
 * entry compiles wherever the root does.
 *
 * @example
 * import { createClient } from 'brandscape-kit';
 * import { serveMcpStdio } from 'brandscape-kit/mcp';
 * const server = await serveMcpStdio({ client: createClient(), outDir: 'reports' });
 * await server.closed;
 */
export type { ToolkitMcpOptions } from './options.js';
export { serveMcpStdio } from './serve-stdio.js';
export type { McpStdioServer, ServeMcpStdioOptions } from './serve-stdio.js';
export { MCP_HTTP_PATH, MIN_TOKEN_LENGTH, serveMcpHttp } from './serve-http.js';
export type { McpHttpServer, ServeMcpHttpOptions } from './serve-http.js';
export { TOOLKIT_MCP_TOOLS } from './tool-names.js';
export type { ToolkitMcpTool } from './tool-names.js';
