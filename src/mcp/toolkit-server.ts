/**
 * The MCP server of `brandscape mcp`: the toolkit's analyses as tools (a thin adapter over the use
 * cases: `compareBrands`, `runReport`, the client's fetchers), prompts for the three common
 * questions, and the report templates as resources. Built per connection (stdio) or per request
 * (stateless Streamable HTTP) by the serving entries.
 */
import { readFile } from 'node:fs/promises';
import { McpServer, ResourceTemplate, type CallToolResult, type ServerContext, type ToolCallback } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { redactUrl } from '../errors.js';
import { listTemplates } from '../report/template/load-template.js';
import { toolkitVersion } from '../version.js';
import type { McpContext } from './context.js';
import type { ToolkitMcpTool } from './tool-names.js';
import { fromError, type ToolAnswer } from './tool-result.js';
import { archetypesTool, runArchetypes } from './tools/archetypes.js';
import { profileTool, runProfile } from './tools/brand-profile.js';
import { compareTool, runCompare } from './tools/compare.js';
import { fetchRowsTool, runFetchRows } from './tools/fetch-rows.js';
import { runSearch, searchTool } from './tools/search.js';
import { buildReportTool, listTemplatesTool, runBuildReport, runListTemplates, runShowTemplate, showTemplateTool } from './tools/templates.js';
import { runTurboPitch, turboPitchTool } from './tools/turbopitch.js';

function instructions(context: McpContext): string {
  const source = context.emulated
    ? 'This server answers from an EMBEDDED EMULATOR with seeded demo data (BRANDSCAPE_BASE_URL is not set): the brands and numbers are not real; say so when you report them.'
    : `This server answers from the Brand Data Service at ${redactUrl(context.client.baseUrl)} (live BAV data).`;
  const files = context.outDir === undefined ? 'It writes no file (started without --out).' : `Reports and row files are written to ${context.outDir} and nowhere else.`;
  return [
    'Brandscape Kit: BAV brand-perception data (brands across markets and years, pillars, Power Grid, archetypes, TurboPitch tools, reports).',
    source,
    files,
    'Start with search when a brand, market, year or metric is not certain. compare_brands answers most "across markets" and "over the years" questions; brand_profile one brand in one market. Markets are ISO alpha-2 codes; audience 1 is All Adults; scores are percentile ranks (0-100) unless asked otherwise.',
    'Answers are bounded: when one says hasMore, narrow the question (fewer brands, markets, years or metrics) or write the rows to a file with fetch_rows.',
  ].join(' ');
}

/** A tool's run, turned into an answer whatever happens: errors are `isError` results, never protocol errors. */
function guarded<A>(context: McpContext, run: (args: A, signal: AbortSignal) => Promise<ToolAnswer>) {
  return async (args: A, ctx: ServerContext): Promise<CallToolResult> => {
    try {
      return await run(args, ctx.mcpReq.signal);
    } catch (error) {
      return fromError(error, context.log);
    }
  };
}

/**
 * The toolkit's MCP server over one client.
 *
 * @example
 * const server = createToolkitServer({ client, emulated: true, outDir: '/tmp/reports', cwd: process.cwd(), log: (l) => process.stderr.write(`${l}\n`) });
 */
export function createToolkitServer(context: McpContext): McpServer {
  const server = new McpServer({ name: 'brandscape-kit', title: 'Brandscape Kit', version: toolkitVersion() }, { instructions: instructions(context) });
  // Data tools reach the Brand Data Service: the open world, unless an embedded emulator answers.
  const world = { openWorldHint: !context.emulated };
  const tool = <S extends z.ZodObject>(
    spec: { name: ToolkitMcpTool; title: string; description: string; input: S; annotations: Record<string, boolean> },
    run: (args: z.infer<S>, signal: AbortSignal) => Promise<ToolAnswer>,
  ) => {
    // The SDK types a tool's callback with a conditional type over its schema, which TypeScript
    // cannot resolve for a generic S: the callback is exactly ToolCallback<S> for each concrete tool.
    const callback = guarded(context, run) as ToolCallback<S>;
    server.registerTool(spec.name, { title: spec.title, description: spec.description, inputSchema: spec.input, annotations: { title: spec.title, ...world, ...spec.annotations } }, callback);
  };
  tool(searchTool, (args, signal) => runSearch(context, args, signal));
  tool(compareTool, (args, signal) => runCompare(context, args, signal));
  tool(profileTool, (args, signal) => runProfile(context, args, signal));
  tool(archetypesTool, (args, signal) => runArchetypes(context, args, signal));
  tool(turboPitchTool, (args, signal) => runTurboPitch(context, args, signal));
  tool(listTemplatesTool, () => runListTemplates(context));
  tool(showTemplateTool, (args) => runShowTemplate(context, args));
  tool(buildReportTool, (args, signal) => runBuildReport(context, args, signal));
  tool(fetchRowsTool, (args, signal) => runFetchRows(context, args, signal));

  // Prompts: the three questions analysts ask most, worded so the assistant picks the right tools.
  const text = (t: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text: t } }] });
  server.registerPrompt(
    'brand_across_markets',
    {
      title: 'A brand across markets',
      description: 'How one or more brands stand on the four pillars across markets in one year.',
      argsSchema: z.object({
        brands: z.string().describe('Brands, comma-separated, e.g. "Veros, Polora"'),
        markets: z.string().optional().describe('ISO codes, comma-separated, e.g. "GB, DE, FR" (default: every market where they are studied)'),
        year: z.string().optional().describe('A year, e.g. 2024 (default: the latest)'),
      }),
    },
    ({ brands, markets, year }) =>
      text(
        `Compare ${brands} across ${markets ?? 'every market where they are studied'}${year ? ` in ${year}` : ' in the latest year'} with compare_brands (by "market"). Show the table, point out each brand's strongest and weakest markets against its mean, and mention the notes on missing data.`,
      ),
  );
  server.registerPrompt(
    'brand_over_years',
    {
      title: 'A brand over the years',
      description: 'How a brand moved on the four pillars over the years in one or more markets.',
      argsSchema: z.object({
        brand: z.string().describe('The brand, e.g. "Veros"'),
        markets: z.string().describe('ISO codes, comma-separated, e.g. "GB, US"'),
        years: z.string().optional().describe('Years, e.g. "2020, 2021, 2022, 2023, 2024" (default: the last five)'),
      }),
    },
    ({ brand, markets, years }) =>
      text(
        `Show how ${brand} moved in ${markets}${years ? ` over ${years}` : ' over the last five years'} with compare_brands (by "year"). Describe the trend of each pillar, the largest changes, and whether the movement is consistent across markets.`,
      ),
  );
  server.registerPrompt(
    'build_a_report',
    {
      title: 'Build a report',
      description: 'Build a report (Excel workbook and HTML page) from a template.',
      argsSchema: z.object({
        template: z.string().optional().describe('Template name (default: ask list_templates and choose)'),
        about: z.string().optional().describe('What the report is about: brands, markets, year'),
      }),
    },
    ({ template, about }) =>
      text(
        `${template ? `Show the template ${template} with show_template` : 'List the report templates with list_templates and pick the one that fits'}${about ? ` for: ${about}` : ''}. Fill its parameters, build it with build_report, then give the file paths and summarise each section.`,
      ),
  );

  // Templates as resources: an assistant can read a template before building from it.
  server.registerResource(
    'templates',
    new ResourceTemplate('brandscape-template://{name}', {
      list: async () => ({
        resources: (await listTemplates({ cwd: context.cwd })).map((t) => ({ uri: `brandscape-template://${t.name}`, name: t.name, title: `${t.name} (${t.origin} template)`, mimeType: 'application/yaml' })),
      }),
    }),
    { title: 'Report templates', description: "The report templates (YAML): the project's and the toolkit's.", mimeType: 'application/yaml' },
    async (uri, variables) => {
      const name = String(Array.isArray(variables['name']) ? variables['name'][0] : variables['name']);
      const entry = (await listTemplates({ cwd: context.cwd })).find((t) => t.name === name);
      if (!entry) throw new Error(`There is no template named '${name}'.`);
      return { contents: [{ uri: uri.href, mimeType: 'application/yaml', text: await readFile(entry.path, 'utf8') }] };
    },
  );
  return server;
}
