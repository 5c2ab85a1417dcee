/**
 * `brandscape compare`: an ad-hoc comparison of brands across markets or years, as a table in the
 * terminal (or CSV, JSON, NDJSON on stdout), plus files for a deck (`--out`: a one-sheet workbook,
 * the chart as PNG or SVG, an HTML page, or the long form). The work is `compareBrands` of the
 * library; this file parses the options and writes what it returns.
 */
import { writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { COMPARISON_RECORD_COLUMNS, SCORE_TYPES, UsageError, compareBrands, type CompareBrandsOptions, type Comparison, type FrameTable, type ScoreType } from '../../compare/index.js';
import { toTable } from '../../frames/to-table.js';
import { stageFile, toOutputError, type StagedFile } from '../../io/atomic-file.js';
import { checkOutputPath } from '../../io/output-path.js';
import type { ReportTable } from '../../report/report-spec.js';
import { fromOptionText } from '../../report/template/template-params.js';
import { fromArgv, toNumber } from '../args.js';
import { EXIT, sgr, type CommandIo, type TerminalChunk } from '../io.js';
import { csvCell, shownPath } from '../output.js';
import { createProgressBar } from '../progress.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';
import { trendRuleText } from '../../frames/trend-rule.js';
import { colourModeOf, toTerminalTable } from '../terminal-table.js';
import type { ChartSpec, ReportSpec } from '../../index.js';

/** A paragraph broken into lines of at most `width` characters, at spaces. */
function wrapText(text: string, width = 98): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}

export const compareHelp = `Usage: brandscape compare --brands NAMES|IDS [options]

Compares brands across markets in one year, or across years in one or more markets: a table in
the terminal, CSV or JSON for other tools, and files for a deck (a workbook, a chart, a web page).
Only the brands' rows of the chosen studies are loaded.

Options:
  --brands A,B           Brands by name or id, comma-separated (repeatable). Names ignore case and
                         accents ("emmo cafe" is Emmo Café); a name that fits several brands, or
                         none, stops with the candidates or the nearest names
  --focus NAME|ID        The brand the comparison is about, one of --brands (by name or id): bold
                         and outlined in the heatmap, a thicker line in the line chart of --out
                         .png/.svg/.html/.xlsx. Default: none, every brand alike (the order of
                         --brands says nothing about which one a deck is for)
  --markets GB,DE,FR     Markets by ISO code or name (default: every market where one of the
                         brands is studied in the year); 'brandscape markets' lists them
  --years Y,Y            Years: 2024, ranges (2021..2024), latest, latest-1. Default: the latest
                         full year released in every market named (without --markets, the latest
                         the brands are studied in); with --by year, the 5 years up to it
  --by market|year       market: the markets side by side in one year, with each brand's mean
                         over them; year: each market over the years, with the change and trend.
                         Left out, it follows from what is given: several years, or one market,
                         compare years; one year, or several markets (or none), compare markets.
                         One market and one year, or several of each, need --by or another value
  --metrics A,B          Metric keys (differentiation), exact columns (esteem_c) or names;
                         'brandscape metrics' lists them
  --metric-groups A,B    Every metric of these groups, e.g. pillars (the default), power_grid,
                         imagery, commitment
  --score-type T         For metric keys: rank (percentile rank 0-100, the default), c (construct
                         score), pct, brandscape_index, category_index, value
  --audience ID|NAME     Audience by id or name, e.g. female or "Age 18-34" (default 1, All
                         Adults); 'brandscape audiences' lists them
  --waves                With --by year: US quarterly waves as periods of their own (by default
                         only full-year studies are compared, never mixed with waves)
  --format F             What to print on stdout: table (default), csv, json or ndjson. csv, json
                         and ndjson are the long form: a row per brand x market x year x metric,
                         full precision, empty where there is no data
  --out FILE             Also write FILE, its format from the extension: .csv .json .ndjson
                         .parquet (the long form; Parquet with typed columns for pandas, polars
                         or DuckDB) .xlsx (one sheet: table, colours, chart) .png .svg (the
                         chart) .html (table and chart). Repeatable; each file is written whole or not at all,
                         and none is moved into place before all of them are made
${SERVICE_HELP}
  -h, --help             Show this help

The table shows one row per brand and metric (and market, by year) and one column per market or
year, values rounded for display (ranks whole, construct scores to 2 decimals), '-' where a brand
has no data, and notes saying what had none. Colour when stdout is a terminal, unless NO_COLOR is
set (FORCE_COLOR forces it).

${wrapText(trendRuleText())}

Long-form columns: brand_id, brand_name (the local name in that market), global_name,
country_code, market, year, [period,] audience_id, metric, metric_name, score_type, column, value,
then by market: cross_market_mean, diff_from_mean, market_rank (1 = the brand's best market),
markets_compared, n_rows; by year: change (from the previous year), change_over_span, trend, n_rows.

Examples:
  # The four pillars of three brands across six markets, in the latest year
  brandscape compare --brands Veros,Polora,"Corvaton Motors" --markets GB,DE,FR,IT,ES,US

  # How Veros's esteem and knowledge moved in the UK and the US over five years (construct scores)
  brandscape compare --brands veros --markets GB,US --by year --metrics esteem_c,knowledge_c

  # Brand stature everywhere Polora is studied in 2023, as CSV, plus a workbook and a chart
  brandscape compare --brands Polora --years 2023 --metrics brand_stature \\
    --format csv --out polora-2023.xlsx --out polora-2023.png > polora-2023.csv

  # Three brands' pillars as a heatmap for a Veros deck: Veros's row bold and outlined
  brandscape compare --brands Veros,Polora,"Corvaton Motors" --markets GB,DE,FR \\
    --focus Veros --out veros.png

  # Two brands in the US quarterly waves of 2023 and 2024
  brandscape compare --brands Aurica,Lumell --markets US --years 2023,2024 --waves --metrics esteem

Exit codes: 0 ok, 2 usage error (a brand, market, metric or option to fix), 3 service error, 1 other.
`;

const FORMATS = ['table', 'csv', 'json', 'ndjson'] as const;
type StdoutFormat = (typeof FORMATS)[number];
const FILE_KINDS = { '.csv': 'csv', '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.xlsx': 'xlsx', '.png': 'png', '.svg': 'svg', '.html': 'html', '.htm': 'html', '.parquet': 'parquet' } as const;
type FileKind = (typeof FILE_KINDS)[keyof typeof FILE_KINDS];

/** Several occurrences of a list option, as one comma-separated text. */
const joined = (values: readonly string[] | undefined) => (values === undefined ? undefined : values.join(','));

function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`${option} is ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}, not '${value}'.`);
  return v as T;
}

/** The kind of file an --out path names, from its extension. */
function fileKind(path: string): FileKind {
  const ext = extname(path).toLowerCase() as keyof typeof FILE_KINDS | '';
  const kind = ext === '' ? undefined : FILE_KINDS[ext];
  if (kind === undefined) throw new UsageError(`--out ${path}: the format comes from the extension, and ${ext === '' ? 'the file has none' : `'${ext}' is not one`}.`, { hint: 'Use .csv, .json, .ndjson, .parquet, .xlsx, .png, .svg or .html.' });
  return kind;
}

/** The comparison's long form in a text format: every cell, full precision. */
export function recordsText(comparison: Comparison, format: 'csv' | 'json' | 'ndjson'): string {
  const records = comparison.records as readonly object[];
  const columns: readonly string[] = COMPARISON_RECORD_COLUMNS[comparison.by];
  const ordered = records.map((r) => Object.fromEntries(columns.map((c) => [c, (r as Record<string, unknown>)[c] ?? null])) as Record<string, string | number | null>);
  // JSON: an array with one record a line, readable and still one document.
  if (format === 'json') return ordered.length === 0 ? '[]\n' : `[\n${ordered.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
  if (format === 'ndjson') return ordered.map((r) => `${JSON.stringify(r)}\n`).join('');
  return `${columns.join(',')}\n${ordered.map((r) => `${columns.map((c) => csvCell(r[c])).join(',')}\n`).join('')}`;
}

/** The comparison's long form as a table (the columns of the CSV, typed: ids and years integers, values floats). */
export function recordsTable(comparison: Comparison): FrameTable {
  const columns: readonly string[] = COMPARISON_RECORD_COLUMNS[comparison.by];
  const records = (comparison.records as readonly object[]).map((r) => Object.fromEntries(columns.map((c) => [c, (r as Record<string, unknown>)[c] ?? null])));
  return toTable(records, { columns, source: 'compare', kinds: { market_rank: 'int', markets_compared: 'int', n_rows: 'int' } });
}

/**
 * The table as the terminal shows it: market codes as column headers (the files keep the names),
 * ordered by what is shown: by code when the markets were not given (the comparison orders them by
 * name), else as given. The by-year Market column keeps the names, which order its rows.
 */
function terminalTable(comparison: Comparison, marketsGiven: boolean): ReportTable {
  const columns = comparison.table.columns.map((c, i) => ({ c: c.key.startsWith('market_') ? { ...c, header: c.key.slice('market_'.length) } : c, i }));
  if (!marketsGiven) {
    const market = columns.filter((x) => x.c.key.startsWith('market_'));
    const sorted = [...market].sort((a, b) => (a.c.header < b.c.header ? -1 : a.c.header > b.c.header ? 1 : 0));
    let k = 0;
    for (let j = 0; j < columns.length; j++) if (columns[j]!.c.key.startsWith('market_')) columns[j] = sorted[k++]!;
  }
  const order = columns.map((x) => x.i);
  const unchanged = order.every((from, to) => from === to);
  return {
    ...comparison.table,
    columns: columns.map((x) => x.c),
    rows: unchanged ? comparison.table.rows : comparison.table.rows.map((row) => order.map((from) => row[from] ?? null)),
    colourScales: unchanged ? comparison.table.colourScales : comparison.table.colourScales.map((scale) => ({ ...scale, fromColumn: Math.min(...range(scale).map((c) => order.indexOf(c))), toColumn: Math.max(...range(scale).map((c) => order.indexOf(c))) })),
  };
}

const range = (scale: { fromColumn: number; toColumn: number }) => Array.from({ length: scale.toColumn - scale.fromColumn + 1 }, (_, i) => scale.fromColumn + i);

/** The table with its title, what it shows, and the notes (colours as controls beside the text). */
function tableText(comparison: Comparison, io: CommandIo, marketsGiven: boolean): TerminalChunk {
  const colour = colourModeOf(io.stdout, io.env);
  const title = colour ? [sgr(1), comparison.title, sgr(22)] : [comparison.title];
  const notes = comparison.notes.length === 0 ? '' : `\nNotes:\n${comparison.notes.map((n) => `- ${n}\n`).join('')}`;
  return [...title, `\n${comparison.summary}\n\n`, ...toTerminalTable(terminalTable(comparison, marketsGiven), { colour }), notes];
}

/** Writes every --out file to a temporary file, then moves them all into place (or none, on failure). */
async function writeOutputs(comparison: Comparison, outs: readonly { path: string; kind: FileKind }[]): Promise<void> {
  // The chart and report builders and the file writers (exceljs, vega, resvg, Parquet) are loaded
  // only when a file needs them: a table on stdout loads none of them.
  const writers = () => import('../../index.js');
  let spec: ReportSpec | undefined;
  let chart: ChartSpec | undefined;
  const reportOf = async () => (spec ??= (await writers()).comparisonReport(comparison));
  const chartOf = async () => (chart ??= (await writers()).comparisonChart(comparison));
  const staged: StagedFile[] = [];
  try {
    for (const out of outs) {
      const file = stageFile(out.path);
      staged.push(file);
      if (out.kind === 'xlsx') await (await writers()).writeXlsx(await reportOf(), file.tempPath, { sheets: { about: false, data: false } });
      else if (out.kind === 'html') await writeFile(file.tempPath, await (await writers()).toHtml(await reportOf()), 'utf8');
      else if (out.kind === 'png') await writeFile(file.tempPath, await (await writers()).renderPng(await chartOf(), { scale: 2 }));
      else if (out.kind === 'svg') await writeFile(file.tempPath, await (await writers()).renderSvg(await chartOf()), 'utf8');
      else if (out.kind === 'parquet') await writeFile(file.tempPath, await (await writers()).toParquet(recordsTable(comparison)));
      else await writeFile(file.tempPath, recordsText(comparison, out.kind), 'utf8');
    }
    for (const file of staged) await file.commit();
  } catch (error) {
    await Promise.all(staged.map((f) => f.discard()));
    throw toOutputError(error, outs[staged.length - 1]?.path ?? '');
  }
}

export async function runCompare(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv(
    'compare',
    argv,
    {
      ...SERVICE_OPTIONS,
      brands: { type: 'string', multiple: true },
      markets: { type: 'string', multiple: true },
      years: { type: 'string', multiple: true },
      by: { type: 'string' },
      metrics: { type: 'string', multiple: true },
      'metric-groups': { type: 'string', multiple: true },
      'score-type': { type: 'string' },
      audience: { type: 'string' },
      waves: { type: 'boolean' },
      focus: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(compareHelp);
    return EXIT.ok;
  }
  if (positionals.length > 0) {
    throw new UsageError(`compare takes options only, not '${positionals.join(' ')}'.`, { hint: `Give brands with --brands (e.g. --brands ${positionals[0]}); quote names with spaces.` });
  }
  if (values.brands === undefined) throw new UsageError('compare needs --brands.', { hint: "e.g. --brands Veros,Polora. Run 'brandscape compare --help'." });
  const scoreType = oneOf('--score-type', values['score-type'], Object.keys(SCORE_TYPES) as ScoreType[]);
  const by = oneOf('--by', values.by, ['market', 'year'] as const);
  const format: StdoutFormat = oneOf('--format', values.format, FORMATS) ?? 'table';
  // An id, or a name (resolved by compareBrands).
  const audience = values.audience === undefined ? undefined : /^\s*-?\d/.test(values.audience) ? toNumber('audience', values.audience, { min: 1, integer: true }) : values.audience.trim();
  const list = (v: readonly string[] | undefined) => joined(v)?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const options: CompareBrandsOptions = {
    brands: fromOptionText('brands', joined(values.brands)!, '--brands'),
    // Codes or names ("United Kingdom"): compareBrands resolves names and checks codes.
    ...(values.markets ? { markets: list(values.markets)! } : {}),
    ...(values.years ? { years: fromOptionText('years', joined(values.years)!, '--years') } : {}),
    ...(by ? { by } : {}),
    ...(values.metrics ? { metrics: list(values.metrics)! } : {}),
    ...(values['metric-groups'] ? { metricGroups: list(values['metric-groups'])! } : {}),
    ...(scoreType ? { scoreType } : {}),
    ...(audience === undefined ? {} : { audience }),
    ...(values.waves ? { waves: true } : {}),
    // An id, or a name, checked against the brands by compareBrands.
    ...(values.focus === undefined ? {} : { focus: /^\s*\d+\s*$/.test(values.focus) ? Number(values.focus) : values.focus.trim() }),
  };
  // Files are checked before anything is loaded: a typo in a path should not cost a load.
  const outs = (values.out ?? []).map((path) => ({ path: resolve(io.cwd, path), given: path, kind: fileKind(path) }));
  for (const out of outs) await checkOutputPath(out.path, { extensions: Object.keys(FILE_KINDS), option: '--out', shownAs: out.given });
  if (new Set(outs.map((o) => o.path)).size < outs.length) throw new UsageError('--out names the same file twice.');

  const service = await openService(io, values);
  const bar = createProgressBar(io, 'brandscape-data');
  let comparison: Comparison;
  try {
    comparison = await compareBrands(service.client, { ...options, emulated: service.emulated, signal: io.signal, onProgress: (p) => bar.update(p) });
  } finally {
    bar.done();
    await service.close();
  }

  if (format === 'table') io.stdout.write(tableText(comparison, io, values.markets !== undefined));
  else {
    io.stdout.write(recordsText(comparison, format));
    for (const note of comparison.notes) io.stderr.write(`Note: ${note}\n`);
  }
  if (outs.length > 0) {
    await writeOutputs(comparison, outs);
    for (const out of outs) io.stderr.write(`Wrote ${shownPath(io.cwd, out.path)}\n`);
  }
  return EXIT.ok;
}
