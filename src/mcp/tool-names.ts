/**
 * The names of the tools of `brandscape mcp`, in the order `tools/list` gives them. A file of its
 * own: the entry's types must not reach the MCP SDK's (they do not compile under every module
 * resolution a user's project may use).
 */
export const TOOLKIT_MCP_TOOLS = [
  'search',
  'compare_brands',
  'brand_profile',
  'archetypes',
  'turbopitch',
  'list_templates',
  'show_template',
  'build_report',
  'fetch_rows',
] as const;

export type ToolkitMcpTool = (typeof TOOLKIT_MCP_TOOLS)[number];
