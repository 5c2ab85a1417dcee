/**
 * `buildReport`: a resolved template and its loaded data to a `ReportSpec`: sections (tables,
 * charts, notes), the About block (provenance) and the Data sheet (tidy rows). Pure: no I/O, no
 * clock unless none is given; the same inputs give the same spec.
 */
import { archetypeMatrix } from '../frames/archetype-matrix.js';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { toTidy } from '../frames/to-tidy.js';
import { SCORE_TYPES, type ScoreType } from '../schemas/score-types.js';
import { trendRuleText } from '../frames/trend-rule.js';

const ALL_SCORE_TYPES: readonly ScoreType[] = ['rank', 'pct', 'c', 'brandscape_index', 'category_index', 'value'];
import { toolkitVersion } from '../version.js';
import { buildSection } from './build-sections.js';
import type { LoadedQuery } from '../load/load-comparison-input.js';
import type { ReportData, ReportSource } from './load-report-data.js';
import type { AboutItem, CellFormat, ReportCell, ReportColumn, ReportSection, ReportSpec, ReportTable } from './report-spec.js';
import { fillDataTokens, type ResolvedTemplate } from './template/resolve-template.js';
import { parameterText } from './template/template-params.js';

export interface BuildReportOptions {
  /** When the report is made (default: now). */
  generatedAt?: Date;
}

/** The Data sheet's columns: `toTidy`'s, in its order, with their formats. */
const DATA_COLUMNS: readonly (readonly [string, CellFormat])[] = [
  ['study_id', 'integer'], ['country_id', 'integer'], ['market', 'text'], ['country_code', 'text'], ['year', 'integer'],
  ['audience_id', 'integer'], ['brand_id', 'integer'], ['brand_name', 'text'], ['global_name', 'text'], ['category_id', 'integer'],
  ['category_name', 'text'], ['sector_id', 'integer'], ['sector_name', 'text'], ['company_id', 'integer'], ['company_name', 'text'],
  ['is_duplicate', 'bool'], ['metric', 'text'], ['metric_name', 'text'], ['metric_group', 'text'], ['score_type', 'text'],
  ['column', 'text'], ['value', 'general'],
];

/**
 * The tidy rows behind the report: every loaded brandscape row x metric column of the template's
 * audience, duplicates included (their `is_duplicate` says which rows aggregates leave out), of
 * the template's sectors and companies when it names them. The service cannot filter brandscape
 * rows by sector or company, so the load brings every brand of the studies; the sections narrow
 * to the template's, and so does the Data sheet (sector-review: 5 of 23 sectors).
 */
function dataTable(data: ReportData, audience: number, scope: ResolvedTemplate['data']): ReportTable {
  if (data.input.rows.length === 0) return archetypeData(data, audience);
  const tidy = toTidy(data.input, { audience, dedupe: 'none' });
  const table = fromFrameTable(tidy, DATA_COLUMNS);
  const keep: [number, Set<number>][] = [];
  if (scope.sectors) keep.push([DATA_COLUMNS.findIndex(([k]) => k === 'sector_id'), new Set(scope.sectors)]);
  if (scope.companies) keep.push([DATA_COLUMNS.findIndex(([k]) => k === 'company_id'), new Set(scope.companies)]);
  if (keep.length === 0) return table;
  return { ...table, rows: table.rows.filter((row) => keep.every(([c, ids]) => ids.has(row[c] as number))) };
}

/** A report without brandscape rows (archetypes only): the archetype entries behind it. */
function archetypeData(data: ReportData, audience: number): ReportTable {
  const tables = data.archetypes.map((a) =>
    archetypeMatrix({ cultural: a.cultural, competitive: a.competitive }, { set: { type: a.set.type, id: a.set.id }, study: a.studyId, audience }),
  );
  const parts = tables.map((t) => fromFrameTable(t, ARCHETYPE_COLUMNS));
  return { columns: parts[0]?.columns ?? ARCHETYPE_COLUMNS.map(([key, format]) => ({ key, header: key, format })), rows: parts.flatMap((p) => p.rows), keyColumns: 0, colourScales: [] };
}

const ARCHETYPE_COLUMNS: readonly (readonly [string, CellFormat])[] = [
  ['study_id', 'integer'], ['audience_id', 'integer'], ['brand_id', 'integer'], ['brand_name', 'text'], ['archetype', 'text'], ['archetype_name', 'text'],
  ['cultural_score', 'general'], ['cultural_rank', 'general'], ['competitive_score', 'general'], ['competitive_rank', 'general'], ['comparison_name', 'text'], ['comparison_type', 'text'],
];

/** Named columns of a frame table as report rows: column by column (typed arrays), then rows, no row objects. */
function fromFrameTable(table: FrameTable<object, FrameMeta>, spec: readonly (readonly [string, CellFormat])[]): ReportTable {
  const columns: ReportColumn[] = spec.map(([key, format]) => ({ key, header: key, format }));
  const values = spec.map(([name]) => table.values(name));
  const rows = new Array<ReportCell[]>(table.length);
  for (let i = 0; i < table.length; i++) {
    const row = new Array<ReportCell>(values.length);
    for (let c = 0; c < values.length; c++) {
      const v = values[c]![i]!;
      row[c] = v instanceof Date ? v.toISOString() : v;
    }
    rows[i] = row;
  }
  return { columns, rows, keyColumns: 0, colourScales: [] };
}

/** `filter[country_code]=GB,DE; include=brand,sector`: a query's parameters in one line. */
export function queryText(params: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const text = (v: unknown): string => (Array.isArray(v) ? v.map(text).join(',') : String(v));
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (key === 'filter' && typeof value === 'object' && value !== null) {
      for (const [f, v] of Object.entries(value)) if (v !== undefined) parts.push(`filter[${f}]=${text(v)}`);
    } else parts.push(`${key}=${text(value)}`);
  }
  return parts.join('; ');
}

/** The About block's table of the queries behind a report, with their filters and record counts. */
export function queriesTable(queries: readonly LoadedQuery[]): ReportTable {
  return {
    columns: [
      { key: 'resource', header: 'Resource', format: 'text' },
      { key: 'parameters', header: 'Parameters', format: 'text' },
      { key: 'records', header: 'Records', format: 'integer' },
    ],
    rows: queries.map((q) => [q.resource, queryText(q.params), q.records]),
    keyColumns: 1,
    colourScales: [],
  };
}

/** Where the data came from, as the About block says it: the host, and when emulated, that it is demo data. */
export const sourceText = (source: ReportSource): string => (source.emulated ? `${source.host} (embedded emulator: seeded demo data, not real survey results)` : source.host);

/** The score types of the tables with a Trend column, for the trend rule's text. */
export function trendScoreTypes(tables: readonly ReportTable[]): ScoreType[] {
  const types = new Set<ScoreType>();
  for (const table of tables) {
    if (!table.columns.some((c) => c.key === 'trend')) continue;
    for (const c of table.columns) for (const t of ALL_SCORE_TYPES) if (c.format === `change-${t}`) types.add(t);
  }
  return [...types];
}

/** Notes every report carries: how to read the scores. */
export function readingNotes(spec: Pick<ReportSpec, 'sections'>, audience: number): string[] {
  const notes = [
    `Audience ${audience}${audience === 1 ? ' (All Adults)' : ''}: every number is for this audience.`,
    `${SCORE_TYPES.rank.label}s (0–100) place a brand among all brands of its market and year; they compare across markets. Construct scores (_c) are less comparable across markets; index scores are against the whole brandscape (100 = average) or the brand's category.`,
    "A brand studied in several categories has a row per category; all but one are marked is_duplicate. Category-agnostic scores count each brand once; usage, preference and recommendation keep a value per category.",
  ];
  const trendTypes = trendScoreTypes(spec.sections.map((s) => s.table));
  if (trendTypes.length > 0) notes.push(trendRuleText(trendTypes));
  if (spec.sections.some((s) => s.kind === 'company-rollup')) {
    notes.push("Company values are the mean of the company's brands, weighted by share_of_company when every brand has one, else equally (the Weighting column says which).");
  }
  return notes;
}

/**
 * The About line of the focus brand (`focus_brand`), as resolved: `first` names the brand it was.
 * Sections on other brands may have another; each is named.
 */
function focusItem(sections: readonly Pick<ReportSection, 'focus'>[], brands: ReportData['brands']): AboutItem[] {
  const ids = [...new Set(sections.flatMap((s) => (s.focus === undefined ? [] : [s.focus])))];
  if (ids.length === 0) return [];
  const names = ids.map((id) => `${brands.find((b) => b.id === id)?.name ?? 'brand'} (${id})`);
  return [{ label: 'Focus brand', value: `${names.join(', ')}: outlined or drawn thick in the charts, in bold in the tables` }];
}

/**
 * Builds the report: each section from its frames and chart builders, the About block, the notes
 * and the Data sheet.
 *
 * @example
 * const resolved = resolveTemplate(await loadTemplate('cross-market-brand-health'), { year: '2024' });
 * const spec = buildReport(resolved, await loadReportData(client, resolved));
 * spec.sections.map((s) => s.summary); // ['3 brands × 6 markets × 4 metrics, 2024', ...]
 * await writeXlsx(spec, 'reports/brand-health.xlsx');
 */
export function buildReport(template: ResolvedTemplate, data: ReportData, options: BuildReportOptions = {}): ReportSpec {
  const generatedAt = (options.generatedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const marketName = (code: string) => data.markets.find((m) => m.code === code)?.name ?? code;
  const fill = (text: string) => fillDataTokens(text, template.parameters, { latest: data.latestYear, marketName });
  const sections = template.sections
    .map((section, index) => buildSection({ template, data, index }, section))
    .map((s) => ({ ...s, title: fill(s.title), description: s.description === null ? null : fill(s.description) }));
  const title = fill(template.title);
  const description = template.description === null ? null : fill(template.description);
  const audience = template.data.audience ?? 1;
  const sectionNotes = [...new Set(sections.flatMap((s) => s.notes))];
  const notes = [...readingNotes({ sections }, audience), ...data.notes, ...sectionNotes];
  const marketText = data.markets.map((m) => (m.name === m.code ? m.code : `${m.name} (${m.code})`)).join(', ');
  const items: AboutItem[] = [
    { label: 'Report', value: title },
    ...(description ? [{ label: 'Description', value: description }] : []),
    { label: 'Generated', value: generatedAt },
    { label: 'Template', value: template.name },
    { label: 'Toolkit', value: `brandscape-kit ${toolkitVersion()}` },
    { label: 'Data source', value: sourceText(data.source) },
    { label: 'API version', value: data.source.apiVersion },
    { label: 'Markets', value: marketText },
    { label: 'Years', value: `${data.years.join(', ')} ('latest' = ${data.latestYear})` },
    { label: 'Audience', value: `${audience}${audience === 1 ? ' (All Adults)' : ''}` },
    ...(data.brands.length > 0 ? [{ label: 'Brands', value: data.brands.map((b) => `${b.name} (${b.id})`).join(', ') }] : []),
    ...focusItem(sections, data.brands),
    ...(template.data.companies ? [{ label: 'Companies', value: template.data.companies.join(', ') }] : []),
    ...(template.data.metrics || template.data.metric_groups
      ? [{ label: 'Metrics', value: [...(template.data.metric_groups ?? []).map((g) => `${g} (group)`), ...(template.data.metrics ?? [])].join(', ') }]
      : []),
    { label: 'Studies', value: data.studies.map((s) => `${s.id} ${s.market} ${s.year}${s.period && s.period !== 'Full Year' ? ` ${s.period}` : ''}`).join('; ') },
  ];
  const parameters: ReportTable = {
    columns: [
      { key: 'name', header: 'Parameter', format: 'text' },
      { key: 'value', header: 'Value', format: 'text' },
      { key: 'default', header: 'Default', format: 'text' },
      { key: 'given', header: 'Set by', format: 'text' },
      { key: 'description', header: 'Description', format: 'text' },
    ],
    rows: template.parameters.map((p) => [p.name, parameterText(p.value), parameterText(p.default), p.given ? 'the run (-p)' : 'the template', p.description]),
    keyColumns: 1,
    colourScales: [],
  };
  return {
    title,
    description,
    template: template.name,
    generatedAt,
    about: { items, parameters, queries: queriesTable(data.queries) },
    notes,
    sections,
    data: dataTable(data, audience, template.data),
  };
}
