/**
 * `fetch_rows`: records of any resource of the service with a filter, as `brandscape fetch` gets
 * them: a bounded first page in the answer (a row limit, the total, `hasMore`), or every record
 * written to a CSV or Parquet file in the server's output folder, with the path returned. The file
 * is for the rows an answer cannot hold: an assistant hands the path to pandas, DuckDB or Excel.
 */
import { stat, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import * as z from 'zod';
import { RESOURCES, type ResourceName } from '../../catalogue/endpoints.js';
import type { DynamicListParams, ResourcePath } from '../../client/brandscape-client.js';
import type { BrandscapeParams } from '../../client/params.js';
import { UsageError } from '../../errors.js';
import type { FrameTable } from '../../frames/frame-table.js';
import { toTable } from '../../frames/to-table.js';
import { writeFileAtomically } from '../../io/atomic-file.js';
import { writeParquet } from '../../io/parquet.js';
import type { McpContext } from '../context.js';
import { MAX_ANSWER_CHARS, boundRows, jsonAnswer, type ToolAnswer } from '../tool-result.js';
import { checkInside, outDirOf } from './templates.js';

/** Resources fetched by their own name (sub-resources of a study need its id in the path: not offered). */
const FETCHABLE = (Object.keys(RESOURCES) as ResourceName[]).filter((r) => r !== 'study-brands' && r !== 'study-categories');

/** The largest page the answer asks for: the service's maximum (v2). */
const MAX_LIMIT = 1000;

const filterValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);

export const fetchRowsInput = z.object({
  resource: z.enum(FETCHABLE as [ResourceName, ...ResourceName[]]).describe('The resource, e.g. brands, studies, companies, brandscape-data (brand scores: needs a filter of studies, or brands, or country_code with year_number).'),
  filter: z
    .record(z.string(), filterValue)
    .optional()
    .describe('Filters by name, e.g. {"country_codes": "GB", "year_numbers": 2024} or {"studies": [12], "audiences": 1, "brands": [305, 23]}; lists are any-of. Unknown names are refused with the ones that exist.'),
  search: z.string().trim().min(1).optional().describe('Full-text search (resources that support it: brands, categories, studies, ...).'),
  fields: z.array(z.string()).min(1).optional().describe('Only these fields (or brandscape columns), e.g. ["id", "name"]: smaller answers.'),
  include: z.array(z.string()).min(1).optional().describe('Related records to include, e.g. ["country", "year"] for studies, ["brand"] for brandscape-data.'),
  sort: z.array(z.string()).min(1).optional().describe('Sort keys, "-" for descending, e.g. ["-esteem_rank"].'),
  metric_keys: z.array(z.string()).min(1).optional().describe('brandscape-data: only these metrics\' columns, e.g. ["esteem", "differentiation"].'),
  metric_group_keys: z.array(z.string()).min(1).optional().describe('brandscape-data: only these groups\' columns, e.g. ["pillars"].'),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Rows in the answer (default 50, at most ${MAX_LIMIT}; fewer when they would not fit). Ignored with file.`),
  file: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_. -]*\.(csv|parquet)$/i, { error: 'file is a file name ending in .csv or .parquet, without folders (it goes into the server\'s output folder).' })
    .optional()
    .describe('Write every matching record to this file (a name ending in .csv or .parquet) in the server\'s output folder instead of answering rows; the answer gives its path and row count. An existing file is not replaced.'),
});

export const fetchRowsTool = {
  name: 'fetch_rows',
  title: 'Fetch records of any resource',
  description:
    "Fetches records of any resource of the Brand Data Service with filters: a first page in the answer (limit rows, with the total and hasMore), or every matching record written to a CSV or Parquet file in the server's output folder (file). Use it when the other tools do not cover a question, or to hand a large table to another program; narrow with filter, fields or metric_group_keys.",
  input: fetchRowsInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
} as const;

type Args = z.infer<typeof fetchRowsInput>;

/** The query of the call, as the client's dynamic fetchers take it. */
function paramsOf(args: Args): DynamicListParams & Pick<BrandscapeParams, 'metricKeys' | 'metricGroupKeys'> {
  const isBrandscape = args.resource === 'brandscape-data';
  if (!isBrandscape && (args.metric_keys || args.metric_group_keys)) throw new UsageError('metric_keys and metric_group_keys apply to brandscape-data only.');
  if (args.search !== undefined && RESOURCES[args.resource].search === false) throw new UsageError(`${args.resource} does not support search.`, { hint: 'Use a filter on a text field instead.' });
  const filter = Object.fromEntries(Object.entries(args.filter ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));
  return {
    filter,
    ...(args.search === undefined ? {} : { search: args.search }),
    ...(args.fields ? { fields: args.fields } : {}),
    ...(args.include ? { include: args.include } : {}),
    ...(args.sort ? { sort: args.sort } : {}),
    ...(args.metric_keys ? { metricKeys: args.metric_keys } : {}),
    ...(args.metric_group_keys ? { metricGroupKeys: args.metric_group_keys } : {}),
  };
}

const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The table as CSV: the toolkit's flattened columns, as the Parquet file has them. */
function toCsv(table: FrameTable): string {
  const names = table.columnNames;
  const lines = [names.map(csvCell).join(',')];
  for (const row of table.rows() as Record<string, unknown>[]) lines.push(names.map((n) => csvCell(row[n])).join(','));
  return `${lines.join('\n')}\n`;
}

export async function runFetchRows(context: McpContext, args: Args, signal: AbortSignal): Promise<ToolAnswer> {
  const params = paramsOf(args);
  const { client } = context;
  if (args.file !== undefined) {
    const dir = outDirOf(context);
    const path = join(dir, basename(args.file));
    if (await stat(path).then(() => true, () => false)) throw new UsageError(`${basename(args.file)} exists in the output folder already; it is not replaced.`, { hint: 'Give another file name.' });
    const records: Record<string, unknown>[] =
      args.resource === 'brandscape-data'
        ? await client.brandscape.all(params as BrandscapeParams, { signal })
        : await client.resource(args.resource as ResourcePath).all(params, { signal });
    const table = toTable(records, { source: `fetch_rows ${args.resource}` });
    if (extname(path).toLowerCase() === '.parquet') await writeParquet(table, path);
    else await writeFileAtomically(path, (temp) => writeFile(temp, toCsv(table), 'utf8'));
    await checkInside(dir, [path]);
    return jsonAnswer({ resource: args.resource, file: path, rows: table.length, columns: table.columnNames });
  }
  const limit = args.limit ?? 50;
  const page =
    args.resource === 'brandscape-data'
      ? await client.brandscape.page({ ...(params as BrandscapeParams), perPage: limit }, { signal })
      : await client.resource(args.resource as ResourcePath).page({ ...params, perPage: limit }, { signal });
  const bounded = boundRows(page.records as readonly unknown[], MAX_ANSWER_CHARS - 600, limit, page.total);
  return jsonAnswer({
    resource: args.resource,
    total: bounded.total,
    returned: bounded.rows.length,
    hasMore: bounded.hasMore,
    ...(bounded.hasMore
      ? { note: `${bounded.total} records match; ${bounded.rows.length} are here. Narrow with filter or fields${args.resource === 'brandscape-data' ? ' or metric_group_keys' : ''}, or write them all to a file (file: "rows.csv").` }
      : {}),
    rows: bounded.rows,
  });
}
