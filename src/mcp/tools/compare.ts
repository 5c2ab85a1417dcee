/**
 * `compare_brands`: brands across markets in one year, or across years per market: the same
 * `compareBrands` the `brandscape compare` command runs, answered as structured rows (the long
 * form, full precision), a compact Markdown table with its notes, and the chart as a PNG.
 */
import * as z from 'zod';
import { renderPng } from '../../charts/render.js';
import { compareBrands } from '../../compare/compare-brands.js';
import type { CompareBrandsOptions, Comparison } from '../../compare/types.js';
import { comparisonChart } from '../../compare/comparison-report.js';
import { SCORE_TYPE_NAMES, type ScoreType } from '../../schemas/score-types.js';
import type { McpContext } from '../context.js';
import { toMarkdownTable } from '../markdown-table.js';
import { MAX_ANSWER_CHARS, boundRows, type ContentBlock, type ToolAnswer } from '../tool-result.js';

const yearValue = z.union([z.number().int().min(1990).max(2100), z.literal('latest'), z.templateLiteral(['latest-', z.number().int().min(1).max(30)])]);

export const compareInput = z.object({
  brands: z
    .array(z.union([z.string().trim().min(1), z.number().int().positive()]))
    .min(1)
    .max(10)
    .describe('Brands by name (case and accents ignored, e.g. "emmo cafe") or id. A name that fits several brands or none is an error listing the candidates or the nearest names.'),
  markets: z.array(z.string().trim().min(2).max(3)).min(1).max(40).optional().describe('ISO alpha-2 market codes, e.g. ["GB", "DE", "FR"]. Default: every market where one of the brands is studied in the year.'),
  years: z.array(yearValue).min(1).max(20).optional().describe('Years: 2024, "latest" or "latest-1". Default: the latest full year released in every market named; with by "year", the five years up to it.'),
  by: z.enum(['market', 'year']).optional().describe('market: the markets side by side in one year; year: each market over the years. Left out, it follows from what is given (several years or one market: year; one year or several markets: market).'),
  metrics: z.array(z.string().trim().min(1)).min(1).max(20).optional().describe('Metric keys (esteem), exact columns (esteem_c) or metric names (Brand Stature). Use search kind "metrics" to find them.'),
  metric_groups: z.array(z.string().trim().min(1)).min(1).max(5).optional().describe('Every metric of these groups, e.g. ["pillars"] (the default), "power_grid", "imagery", "commitment".'),
  score_type: z.enum(SCORE_TYPE_NAMES as [ScoreType, ...ScoreType[]]).optional().describe('For metric keys: rank (percentile rank 0-100, the default), c (construct score), pct, brandscape_index, category_index, value.'),
  audience: z.number().int().positive().optional().describe('Audience id (default 1, All Adults). Use search kind "audiences" to find others.'),
  waves: z.boolean().optional().describe('With by "year": US quarterly waves as periods of their own (default: full years only).'),
  focus: z.union([z.string().trim().min(1), z.number().int().positive()]).optional().describe('One of the brands (name or id) to highlight: outlined in the heatmap, a thick line in line charts, bold in the table. Default: none.'),
  chart: z.boolean().optional().describe('Add the chart as a PNG image (default true). Leave it out (false) to save room when only numbers are needed.'),
});

export const compareTool = {
  name: 'compare_brands',
  title: 'Compare brands across markets or years',
  description:
    "Compares brands across markets in one year, or across years per market (percentile ranks of the four pillars by default, All Adults), exactly as the brandscape compare command does: a Markdown table with notes on what had no data, the chart as a PNG, and the long-form rows (brand x market x year x metric, full precision) as structured content. Use it for 'how does X do across markets' or 'how did X move over the years'. Narrow a large answer with fewer brands, markets, years or metrics.",
  input: compareInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
} as const;

/** The options of `compareBrands` from the tool's arguments (the same ones `brandscape compare` builds from its flags). */
export function toCompareOptions(args: z.infer<typeof compareInput>): CompareBrandsOptions {
  return {
    brands: args.brands,
    ...(args.markets ? { markets: args.markets } : {}),
    ...(args.years ? { years: args.years } : {}),
    ...(args.by ? { by: args.by } : {}),
    ...(args.metrics ? { metrics: args.metrics } : {}),
    ...(args.metric_groups ? { metricGroups: args.metric_groups } : {}),
    ...(args.score_type ? { scoreType: args.score_type } : {}),
    ...(args.audience === undefined ? {} : { audience: args.audience }),
    ...(args.waves ? { waves: true } : {}),
    ...(args.focus === undefined ? {} : { focus: args.focus }),
  };
}

/** The comparison's table with market codes as headers (shorter, as the terminal shows it). */
function compactTable(comparison: Comparison) {
  return { ...comparison.table, columns: comparison.table.columns.map((c) => (c.key.startsWith('market_') ? { ...c, header: c.key.slice('market_'.length) } : c)) };
}

export async function runCompare(context: McpContext, args: z.infer<typeof compareInput>, signal: AbortSignal): Promise<ToolAnswer> {
  const comparison = await compareBrands(context.client, { ...toCompareOptions(args), emulated: context.emulated, signal });
  // The structured rows take most of the room; the Markdown table a third of it.
  const bounded = boundRows(comparison.records as readonly object[], Math.floor(MAX_ANSWER_CHARS * 0.65));
  const table = toMarkdownTable(compactTable(comparison), Math.floor(MAX_ANSWER_CHARS * 0.3));
  const narrow = 'Ask for fewer brands, markets, years or metrics to see everything.';
  const notes = [...comparison.notes];
  if (table.omitted > 0) notes.push(`The table shows ${comparison.table.rows.length - table.omitted} of ${comparison.table.rows.length} rows. ${narrow}`);
  const text = [`**${comparison.title}**`, comparison.summary, '', table.text, ...(notes.length > 0 ? ['Notes:', ...notes.map((n) => `- ${n}`)] : [])].join('\n');
  const content: ContentBlock[] = [{ type: 'text', text }];
  if (args.chart !== false) {
    try {
      const png = await renderPng(comparisonChart(comparison), { scale: 1 });
      content.push({ type: 'image', data: png.toString('base64'), mimeType: 'image/png' });
    } catch (error) {
      // The numbers stand without the picture (a chart with nothing to draw, a missing font).
      notes.push(`No chart: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const structured: Record<string, unknown> = {
    title: comparison.title,
    summary: comparison.summary,
    by: comparison.by,
    brands: comparison.brands.map((b) => ({ id: b.id, name: b.name })),
    markets: comparison.markets.map((m) => m.code),
    years: comparison.years,
    ...(comparison.by === 'year' ? { periods: comparison.periods } : {}),
    audience: comparison.audience,
    scoreType: comparison.scoreType,
    columns: comparison.columns,
    notes,
    total: bounded.total,
    hasMore: bounded.hasMore,
    ...(bounded.hasMore ? { omitted: `${bounded.total - bounded.rows.length} of ${bounded.total} rows are left out. ${narrow}` } : {}),
    rows: bounded.rows,
  };
  return { content, structuredContent: structured };
}
