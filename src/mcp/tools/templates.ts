/**
 * `list_templates`, `show_template` and `build_report`: the report templates there are (the
 * project's own, then the toolkit's), what one asks for, and a report built from one into the
 * folder fixed when the server started: the only place a tool of this server writes to.
 */
import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import * as z from 'zod';
import { UsageError } from '../../errors.js';
import { listTemplates, loadTemplate } from '../../report/template/load-template.js';
import { runReport } from '../../report/run-report.js';
import { parameterText } from '../../report/template/template-params.js';
import { OUTPUT_FORMATS } from '../../report/template/template-schema.js';
import type { McpContext } from '../context.js';
import { jsonAnswer, type ToolAnswer } from '../tool-result.js';

export const listTemplatesInput = z.object({});

export const listTemplatesTool = {
  name: 'list_templates',
  title: 'List report templates',
  description: "The report templates there are (the project's templates/ folder first, then the toolkit's), each with its title and parameters. Use it before build_report.",
  input: listTemplatesInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

/** A template by name only: a path could read any file the server's user may read. */
const templateName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { error: 'A template is named, e.g. "cross-market-brand-health" (list_templates lists them); paths are not taken.' })
  .describe('The template\'s name, e.g. "cross-market-brand-health" (list_templates lists them).');

export const showTemplateInput = z.object({ name: templateName });

export const showTemplateTool = {
  name: 'show_template',
  title: 'Show a report template',
  description: "A report template's title, description, parameters (type, default, meaning), sections and output formats: what build_report needs to know.",
  input: showTemplateInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
} as const;

async function load(context: McpContext, name: string) {
  if (/\.(ya?ml|json)$/i.test(name)) throw new UsageError(`Give the template's name without an extension ('${name.replace(/\.(ya?ml|json)$/i, '')}').`);
  return loadTemplate(name, { cwd: context.cwd });
}

export async function runListTemplates(context: McpContext): Promise<ToolAnswer> {
  const entries = await listTemplates({ cwd: context.cwd });
  const templates = await Promise.all(
    entries.map(async (entry) => {
      try {
        const t = await loadTemplate(entry.path, { cwd: context.cwd });
        return { name: entry.name, origin: entry.origin, title: t.title, description: t.description, parameters: Object.keys(t.parameters) };
      } catch (error) {
        return { name: entry.name, origin: entry.origin, problem: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return jsonAnswer({ templates });
}

export async function runShowTemplate(context: McpContext, args: z.infer<typeof showTemplateInput>): Promise<ToolAnswer> {
  const t = await load(context, args.name);
  const body = t.body as { sections?: { kind?: string; title?: string }[]; output?: { formats?: string[] } };
  return jsonAnswer({
    name: t.name,
    title: t.title,
    description: t.description,
    parameters: Object.entries(t.parameters).map(([name, p]) => ({ name, type: p.type, default: parameterText(p.default), description: p.description ?? null })),
    sections: (Array.isArray(body.sections) ? body.sections : []).map((s) => ({ kind: s.kind ?? null, title: s.title ?? null })),
    formats: body.output?.formats ?? [...OUTPUT_FORMATS],
  });
}

const parameterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);

export const buildReportInput = z.object({
  template: templateName,
  parameters: z
    .record(z.string(), parameterValue)
    .optional()
    .describe('Parameter values by name, e.g. {"brands": ["Veros", "Polora"], "markets": ["GB", "DE"], "year": "latest"}; left out, the template\'s defaults. show_template lists them.'),
  formats: z.array(z.enum(OUTPUT_FORMATS)).min(1).optional().describe('xlsx (an Excel workbook) and/or html (a web page); default: the template\'s.'),
});

export const buildReportTool = {
  name: 'build_report',
  title: 'Build a report from a template',
  description:
    "Builds a report (an Excel workbook and/or an HTML page, with tables, charts and notes) from a template and parameters, into the server's output folder (set when the server started; a report of the same template and day replaces the earlier one). Returns the files' paths and what each section holds. Check the parameters with show_template first.",
  input: buildReportInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
} as const;

/** The folder files go to, or a tool error saying how to set it. */
export function outDirOf(context: McpContext): string {
  if (context.outDir === undefined) {
    throw new UsageError('This server was started without an output folder, so it writes no file.', { hint: "Start it with --out DIR (brandscape mcp --out ./reports), then ask again." });
  }
  return context.outDir;
}

/** Every path inside the folder (after links are followed): what the server promises. */
export async function checkInside(dir: string, paths: readonly string[]): Promise<void> {
  const root = await realpath(dir);
  for (const path of paths) {
    const rel = relative(root, await realpath(path));
    if (rel.startsWith(`..${sep}`) || rel === '..' || rel.startsWith(sep)) throw new UsageError(`${path} is outside the output folder ${dir}; nothing outside it is written.`);
  }
}

export async function runBuildReport(context: McpContext, args: z.infer<typeof buildReportInput>, signal: AbortSignal): Promise<ToolAnswer> {
  const outDir = outDirOf(context);
  const template = await load(context, args.template);
  const result = await runReport(context.client, template, {
    outDir,
    ...(args.parameters ? { parameters: args.parameters } : {}),
    ...(args.formats ? { formats: args.formats } : {}),
    emulated: context.emulated,
    signal,
  });
  await checkInside(outDir, result.files);
  const spec = result.spec;
  return jsonAnswer({
    template: template.name,
    title: spec?.title ?? template.title,
    files: [...result.files],
    sections: (spec?.sections ?? []).map((s) => ({ index: s.index, kind: s.kind, title: s.title, summary: s.summary, rows: s.table.rows.length, chart: s.chart !== null, notes: s.notes })),
    ...(context.emulated ? { note: 'Built from the embedded emulator\'s demo data (BRANDSCAPE_BASE_URL is not set).' } : {}),
  });
}
