/**
 * What the brandscape comparisons read, and how they read it.
 *
 * Frames do no I/O (DESIGN: frames take data): a comparison receives the rows the client loaded
 * and the context that names and places them, all typed here. `loadComparisonInput` shows how to
 * fetch them with the client.
 */
import { DataError } from '../errors.js';
import type { BrandscapeMeta } from '../schemas/brandscape.js';
import type { BrandMetric, BrandMetricGroup, BrandMetricSlim } from '../schemas/metrics.js';
import { SCORE_TYPES, fromMetricColumn, metricKeyOf, toMetricColumn, type ScoreType } from '../schemas/score-types.js';
import { isCategorySpecific, type DedupeInfo, type DedupeMode } from './dedupe.js';
import { FrameTable, INT_NULL, cellOf, type FrameColumn, type FrameMeta } from './frame-table.js';
import { allRows, groupIndex } from './group-index.js';
import { toTable } from './to-table.js';

/** The metric catalogue as `client.metricCatalogue()` returns it (only metrics and groups are read). */
export interface MetricCatalogue {
  readonly metrics: readonly BrandMetric[];
  readonly groups: readonly (BrandMetricGroup & { readonly metrics: readonly BrandMetricSlim[] })[];
}

/**
 * A study with its market and year: `client.studies.all({ include: ['country', 'year'] })`, or the
 * `study` include of brandscape rows (whose slim study carries `period`, `country` and `year`).
 */
export interface StudyRecord {
  readonly id: number;
  readonly name: string | null;
  /** `{ id, name }`, e.g. `Full Year` or `Q2` (shape undocumented, §11.19). */
  readonly period?: { readonly id: number; readonly name: string | null } | null;
  readonly country?: { readonly id: number; readonly name: string | null; readonly code?: string | null } | null;
  /** The slim year documents `year` as a string (`"2024"`), the full one as a number. */
  readonly year?: { readonly id: number; readonly year?: string | number | null } | null;
}

/**
 * A brand with what the comparisons may need: its global name, its share of its company's results,
 * and (with `include: ['company', 'sector']`) its owner and sector.
 */
export interface BrandRecord {
  readonly id: number;
  readonly name: string | null;
  readonly share_of_company?: number | null;
  readonly company?: { readonly id: number; readonly name: string | null } | null;
  readonly sector?: { readonly id: number; readonly name: string | null } | null;
}

/** Brandscape rows and their context. */
export interface BrandscapeInput {
  /**
   * Rows as the client loads them (any includes; `include: ['study']` or `['country', 'year']`
   * make `studies` optional), or a table already made from them with `toTable`.
   */
  readonly rows: readonly BrandscapeMeta[] | FrameTable<object, FrameMeta>;
  /** `client.metricCatalogue()`: metric names and groups for the result rows. */
  readonly catalogue: MetricCatalogue;
  /** Studies with country and year; needed unless the rows carry them (see `rows`). */
  readonly studies?: readonly StudyRecord[];
  /** Brands: global names, `share_of_company`, and company and sector when rows lack those includes. */
  readonly brands?: readonly BrandRecord[];
}

/** Options shared by the comparisons that read brandscape rows. */
export interface BrandscapeSelection {
  /** Metric keys (`differentiation`) or exact columns (`differentiation_rank`). */
  metrics: readonly string[];
  /**
   * Score types to compare for metric keys (default: `rank`, the percentile rank, which is
   * comparable across markets; a metric without one contributes all its columns). Exact columns
   * must be of these types when given.
   */
  scoreTypes?: readonly ScoreType[];
  /** Audience id (default 1, All Adults: without one, every audience would be mixed in). */
  audience?: number;
  /** De-duplication (default `auto`); see `DedupeMode`. */
  dedupe?: DedupeMode;
  /** Brands to keep (ids). */
  brands?: readonly number[];
  /** Keep the brands of these companies (ids). */
  companies?: readonly number[];
  /** Keep the brands of these sectors (ids). */
  sectors?: readonly number[];
  /** Markets to keep: country ids, ISO alpha-2 codes or names (default: every market in the rows). */
  markets?: readonly (number | string)[];
}

/** Market, calendar year and wave of a study. */
export interface StudyInfo {
  readonly studyId: number;
  readonly name: string;
  readonly countryId: number;
  readonly market: string;
  readonly countryCode: string;
  readonly year: number;
  /** 1-4 for US quarterly waves, null for full-year studies. */
  readonly quarter: number | null;
}

/** A metric column with its catalogue names. */
export interface MetricInfo {
  readonly column: string;
  readonly metric: string;
  readonly metricName: string;
  readonly group: string;
  readonly scoreType: ScoreType;
  /** Differs between a brand's category rows (kept per category by `auto` de-duplication). */
  readonly categorySpecific: boolean;
}

/** The brandscape rows as typed columns plus the lookups every comparison needs. */
export interface PreparedBrandscape {
  readonly table: FrameTable<object, FrameMeta>;
  readonly n: number;
  readonly studyId: Int32Array;
  readonly brandId: Int32Array;
  readonly categoryId: Int32Array;
  readonly audienceId: Int32Array;
  readonly studies: ReadonlyMap<number, StudyInfo>;
  /** Metric columns present in the rows. */
  readonly metrics: ReadonlyMap<string, MetricInfo>;
  /** 1 where a row counts for category-agnostic columns (not a duplicate). */
  readonly agnosticRow: Uint8Array;
  readonly dedupeBasis: DedupeInfo['basis'];
  readonly brands: ReadonlyMap<number, BrandRecord>;
}

const intColumn = (table: FrameTable<object, FrameMeta>, name: string): Int32Array | undefined => {
  const column = table.has(name) ? table.column(name) : undefined;
  if (!column) return undefined;
  if (column.kind === 'int') return column.values;
  if (column.kind === 'float') return Int32Array.from(column.values, (v) => (Number.isInteger(v) ? v : INT_NULL));
  return undefined;
};

const textAt = (column: FrameColumn | undefined, row: number): string | null => {
  if (!column) return null;
  const v = cellOf(column, row);
  return v === null ? null : String(v);
};

/** The quarter of a US wave, from its period (`Q2`) or its name (`US - Adults 2024 Q2`). */
export function quarterOf(periodName: string | null | undefined, studyName: string | null | undefined): number | null {
  for (const text of [periodName, studyName]) {
    if (!text) continue;
    const m = /\bQ([1-4])\b/i.exec(text) ?? /\bquarter\s*([1-4])\b/i.exec(text);
    if (m) return Number(m[1]);
  }
  return null;
}

const yearNumber = (v: string | number | null | undefined): number | null => {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isInteger(n) ? n : null;
};

function studyInfos(table: FrameTable<object, FrameMeta>, studyId: Int32Array, studies: readonly StudyRecord[] | undefined): Map<number, StudyInfo> {
  const given = new Map((studies ?? []).map((s) => [s.id, s]));
  const first = groupIndex([studyId], allRows(table.length));
  const countryIds = intColumn(table, 'country_id');
  const years = intColumn(table, 'year');
  const col = (name: string) => (table.has(name) ? table.column(name) : undefined);
  const countryName = col('country_name');
  const countryCode = col('country_code');
  const studyName = col('study_name');
  const periodName = col('period_name');
  const out = new Map<number, StudyInfo>();
  const missing: string[] = [];
  for (let g = 0; g < first.count; g++) {
    const row = first.firstRow[g]!;
    const id = studyId[row]!;
    const s = given.get(id);
    const countryId = s?.country?.id ?? (countryIds ? countryIds[row]! : INT_NULL);
    const year = yearNumber(s?.year?.year) ?? (years && years[row] !== INT_NULL ? years[row]! : null);
    const market = s?.country?.name ?? textAt(countryName, row);
    if (countryId === INT_NULL || year === null || market === null) {
      missing.push(`study ${id}`);
      continue;
    }
    const name = s?.name ?? textAt(studyName, row) ?? `Study ${id}`;
    out.set(id, {
      studyId: id,
      name,
      countryId,
      market,
      countryCode: s?.country?.code ?? textAt(countryCode, row) ?? '',
      year,
      quarter: quarterOf(s?.period?.name ?? textAt(periodName, row), name),
    });
  }
  if (missing.length > 0) {
    throw new DataError(
      'The market or year of some studies is not known.',
      missing,
      [...given.keys()].map((id) => `study ${id}`),
      {
        hint: "Pass studies loaded with client.studies.all({ include: ['country', 'year'] }), or load the rows with include: ['study'] (or ['country', 'year']).",
      },
    );
  }
  return out;
}

function metricIndex(table: FrameTable<object, FrameMeta>, catalogue: MetricCatalogue): Map<string, MetricInfo> {
  const groupOf = new Map<number, string>();
  for (const group of catalogue.groups) for (const m of group.metrics) if (group.key !== null) groupOf.set(m.id, group.key);
  const known = new Map<string, { metric: string; name: string; group: string }>();
  for (const metric of catalogue.metrics) {
    const columns = metric.brandscape_data_columns ?? [];
    const key = metricKeyOf(columns);
    if (key === undefined) continue;
    for (const column of columns) known.set(column, { metric: key, name: metric.name ?? key, group: groupOf.get(metric.id) ?? '' });
  }
  const out = new Map<string, MetricInfo>();
  for (const [column, c] of table.entries()) {
    const k = known.get(column);
    // Every float column of a brandscape table is a metric (metadata and includes are ids, text and flags).
    if (!k && c.kind !== 'float') continue;
    const { metric, scoreType } = fromMetricColumn(column);
    const info = k ?? { metric, name: metric, group: '' };
    out.set(column, {
      column,
      metric: info.metric,
      metricName: info.name,
      group: info.group,
      scoreType,
      categorySpecific: isCategorySpecific({ metric: info.metric, group: info.group, scoreType }),
    });
  }
  return out;
}

/** Required metadata columns of brandscape rows. */
const REQUIRED = ['study_id', 'brand_id', 'category_id', 'audience_id'] as const;

/**
 * Tables already made from record arrays: several comparisons on the same loaded rows flatten them
 * once (about 2 s per 1,000,000 rows). A hit needs the same array with the same length and the same
 * first and last record, so rows appended or replaced since are noticed.
 */
const tables = new WeakMap<readonly object[], { length: number; first: object | undefined; last: object | undefined; table: FrameTable<object, FrameMeta> }>();

function tableOf(rows: readonly object[]): FrameTable<object, FrameMeta> {
  const cached = tables.get(rows);
  if (cached && cached.length === rows.length && cached.first === rows[0] && cached.last === rows[rows.length - 1]) return cached.table;
  const table = toTable(rows, { source: 'brandscape' });
  tables.set(rows, { length: rows.length, first: rows[0], last: rows[rows.length - 1], table });
  return table;
}

/** Turns the input into typed columns and lookups; throws a DataError naming what is missing. */
export function prepareBrandscape(input: BrandscapeInput): PreparedBrandscape {
  const table = input.rows instanceof FrameTable ? input.rows : tableOf(input.rows);
  const missing = REQUIRED.filter((name) => !table.has(name));
  if (missing.length > 0) {
    throw new DataError('The brandscape rows lack metadata the comparisons need.', missing, table.columnNames, {
      hint: 'Load the rows without narrowing fields[brandscape_data] to metric columns only.',
    });
  }
  const [studyId, brandId, categoryId, audienceId] = REQUIRED.map((name) => {
    const values = intColumn(table, name);
    if (!values) throw new DataError(`Column '${name}' does not hold ids.`, [name], table.columnNames);
    return values;
  }) as [Int32Array, Int32Array, Int32Array, Int32Array];
  const n = table.length;
  const agnosticRow = new Uint8Array(n);
  let basis: DedupeInfo['basis'];
  const duplicate = table.has('is_duplicate') ? table.column('is_duplicate') : undefined;
  if (duplicate?.kind === 'bool') {
    basis = 'is_duplicate';
    // A missing flag counts as "not a duplicate": dropping the row would lose the brand.
    for (let i = 0; i < n; i++) agnosticRow[i] = duplicate.values[i] === 1 ? 0 : 1;
  } else {
    basis = 'first row per study, audience and brand';
    const firsts = groupIndex([studyId, audienceId, brandId], allRows(n)).firstRow;
    for (let g = 0; g < firsts.length; g++) agnosticRow[firsts[g]!] = 1;
  }
  const brands = new Map((input.brands ?? []).map((b) => [b.id, b]));
  return {
    table,
    n,
    studyId,
    brandId,
    categoryId,
    audienceId,
    studies: studyInfos(table, studyId, input.studies),
    metrics: metricIndex(table, input.catalogue),
    agnosticRow,
    dedupeBasis: basis,
    brands,
  };
}

/**
 * The metric columns a selection names. Metric keys take the requested score types; exact columns
 * are taken as they are. Throws a DataError for a metric or score type the rows do not have, and
 * for selections that mix score types without asking for it (values on different scales).
 */
export function resolveColumns(prep: PreparedBrandscape, metrics: readonly string[], scoreTypes: readonly ScoreType[] | undefined): MetricInfo[] {
  const byMetric = new Map<string, MetricInfo[]>();
  for (const info of prep.metrics.values()) byMetric.set(info.metric, [...(byMetric.get(info.metric) ?? []), info]);
  if (metrics.length === 0) throw new DataError('No metrics selected.', ['metrics'], [...byMetric.keys()]);
  const out: MetricInfo[] = [];
  for (const wanted of metrics) {
    const exact = prep.metrics.get(wanted);
    if (exact) {
      if (scoreTypes && !scoreTypes.includes(exact.scoreType)) {
        throw new DataError(
          `Column '${wanted}' is a ${SCORE_TYPES[exact.scoreType].label.toLowerCase()} score, not one of the requested score types (${scoreTypes.join(', ')}); values of different score types are on different scales.`,
          scoreTypes.map((t) => toMetricColumn(exact.metric, t)),
          (byMetric.get(exact.metric) ?? []).map((m) => m.column),
        );
      }
      out.push(exact);
      continue;
    }
    const columns = byMetric.get(wanted);
    if (!columns) {
      throw new DataError(`Metric '${wanted}' is not in the data.`, [wanted], [...byMetric.keys()], {
        hint: 'Load it with metricKeys (or metricGroupKeys) in the brandscape query, or pick one of the available metrics.',
      });
    }
    const types = scoreTypes ?? (columns.some((c) => c.scoreType === 'rank') ? ['rank' as const] : columns.map((c) => c.scoreType));
    for (const type of types) {
      const info = columns.find((c) => c.scoreType === type);
      if (!info) {
        throw new DataError(
          `Metric '${wanted}' has no ${SCORE_TYPES[type].label.toLowerCase()} score (${toMetricColumn(wanted, type)}) in the data.`,
          [toMetricColumn(wanted, type)],
          columns.map((c) => c.column),
        );
      }
      out.push(info);
    }
  }
  const types = new Set(out.map((c) => c.scoreType));
  if (!scoreTypes && types.size > 1) {
    const [first] = types;
    const off = out.filter((c) => c.scoreType !== first);
    throw new DataError(
      `The selected columns mix score types (${[...types].join(', ')}), whose values are on different scales.`,
      off.map((c) => c.column),
      out.filter((c) => c.scoreType === first).map((c) => c.column),
      { hint: `Pick columns of one score type, or pass scoreTypes: [${[...types].map((t) => `'${t}'`).join(', ')}] to compare them side by side deliberately.` },
    );
  }
  return [...new Map(out.map((c) => [c.column, c])).values()];
}

/** A per-row id column for companies or sectors: from the rows' includes, else from `brands`. */
export function entityIds(prep: PreparedBrandscape, kind: 'company' | 'sector'): Int32Array {
  const fromRows = intColumn(prep.table, `${kind}_id`);
  const ids = fromRows ? Int32Array.from(fromRows) : new Int32Array(prep.n).fill(INT_NULL);
  let unknown = 0;
  for (let i = 0; i < prep.n; i++) {
    if (ids[i] !== INT_NULL) continue;
    const brand = prep.brands.get(prep.brandId[i]!);
    const id = kind === 'company' ? brand?.company?.id : brand?.sector?.id;
    if (id === undefined) unknown++;
    else ids[i] = id;
  }
  if (unknown === prep.n && prep.n > 0) {
    throw new DataError(`The ${kind} of the brands is not known.`, [`${kind}_id`], prep.table.columnNames, {
      hint: `Load the rows with include: ['${kind}'], or pass brands loaded with include: ['${kind}'].`,
    });
  }
  return ids;
}

/** Names for ids of a per-row entity column: from a `<kind>_name` column, else from `brands`. */
export function entityNames(prep: PreparedBrandscape, kind: 'company' | 'sector'): (row: number) => string {
  const names = prep.table.has(`${kind}_name`) ? prep.table.column(`${kind}_name`) : undefined;
  return (row) => {
    const fromRow = textAt(names, row);
    if (fromRow !== null) return fromRow;
    const brand = prep.brands.get(prep.brandId[row]!);
    const entity = kind === 'company' ? brand?.company : brand?.sector;
    return entity?.name ?? `${kind === 'company' ? 'Company' : 'Sector'} ${entity?.id ?? '?'}`;
  };
}

/** A brand's local name on a row, and its global name (brands input, brand include, else the local name). */
export function brandNames(prep: PreparedBrandscape): { local: (row: number) => string; global: (row: number) => string } {
  const local = prep.table.has('brand_name') ? prep.table.column('brand_name') : undefined;
  const global = prep.table.has('global_brand_name') ? prep.table.column('global_brand_name') : undefined;
  const localOf = (row: number) => textAt(local, row) ?? prep.brands.get(prep.brandId[row]!)?.name ?? `Brand ${prep.brandId[row]!}`;
  return {
    local: localOf,
    global: (row) => prep.brands.get(prep.brandId[row]!)?.name ?? textAt(global, row) ?? localOf(row),
  };
}

/** Resolves market filters (ids, ISO codes or names) to country ids, naming the ones without rows. */
export function resolveMarkets(prep: PreparedBrandscape, markets: readonly (number | string)[] | undefined, rows: Int32Array, context: string): Set<number> | undefined {
  if (markets === undefined) return undefined;
  if (markets.length === 0) throw new DataError(`No markets selected${context}.`, ['markets'], availableMarkets(prep, rows));
  const present = new Map<number, StudyInfo>();
  for (let k = 0; k < rows.length; k++) {
    const s = prep.studies.get(prep.studyId[rows[k]!]!)!;
    present.set(s.countryId, s);
  }
  const out = new Set<number>();
  const missing: string[] = [];
  for (const m of markets) {
    const match = [...present.values()].find((s) =>
      typeof m === 'number' ? s.countryId === m : s.countryCode.toUpperCase() === m.toUpperCase() || s.market.toLowerCase() === m.toLowerCase(),
    );
    if (match) out.add(match.countryId);
    else missing.push(String(m));
  }
  if (missing.length > 0) throw new DataError(`No rows for market${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${context}.`, missing, availableMarkets(prep, rows));
  return out;
}

/** `Market (CODE)` labels of the markets with rows among `rows`. */
export function availableMarkets(prep: PreparedBrandscape, rows: Int32Array): string[] {
  const seen = new Map<number, string>();
  for (let k = 0; k < rows.length; k++) {
    const s = prep.studies.get(prep.studyId[rows[k]!]!)!;
    if (!seen.has(s.countryId)) seen.set(s.countryId, s.countryCode ? `${s.market} (${s.countryCode})` : s.market);
  }
  return [...seen.values()].sort();
}

/** Rows of one audience, with a DataError naming the audiences there are when it has none. */
export function audienceRows(prep: PreparedBrandscape, audience: number): Int32Array {
  const out: number[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < prep.n; i++) {
    const a = prep.audienceId[i]!;
    seen.add(a);
    if (a === audience) out.push(i);
  }
  if (out.length === 0) {
    throw new DataError(`No rows for audience ${audience}${audience === 1 ? ' (All Adults)' : ''}.`, [`audience ${audience}`], [...seen].sort((a, b) => a - b).map((a) => `audience ${a}`), {
      hint: 'Load the rows with filter: { audiences: <id> }, or pass the audience the rows have.',
    });
  }
  return Int32Array.from(out);
}

/** Keeps rows whose brand, company and sector pass the selection's filters. */
export function entityFilter(prep: PreparedBrandscape, rows: Int32Array, selection: Pick<BrandscapeSelection, 'brands' | 'companies' | 'sectors'>): Int32Array {
  const tests: ((row: number) => boolean)[] = [];
  const check = (name: string, ids: readonly number[] | undefined, perRow: () => Int32Array) => {
    if (ids === undefined) return;
    if (ids.length === 0) throw new DataError(`The selection of ${name} is empty.`, [name], []);
    const wanted = new Set(ids);
    const values = perRow();
    const present = new Set<number>();
    for (let k = 0; k < rows.length; k++) present.add(values[rows[k]!]!);
    const absent = ids.filter((id) => !present.has(id));
    if (absent.length > 0) {
      throw new DataError(`No rows for the selected ${name} ${absent.join(', ')}.`, absent.map(String), [...present].filter((v) => v !== INT_NULL).sort((a, b) => a - b).map(String));
    }
    tests.push((row) => wanted.has(values[row]!));
  };
  check('brands', selection.brands, () => prep.brandId);
  check('companies', selection.companies, () => entityIds(prep, 'company'));
  check('sectors', selection.sectors, () => entityIds(prep, 'sector'));
  if (tests.length === 0) return rows;
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (tests.every((t) => t(row))) out.push(row);
  }
  return Int32Array.from(out);
}

/** The de-duplication record of a result. */
export function dedupeInfo(prep: PreparedBrandscape, rows: Int32Array, columns: readonly MetricInfo[], mode: DedupeMode): DedupeInfo {
  let dropped = 0;
  if (mode !== 'none') for (let k = 0; k < rows.length; k++) if (prep.agnosticRow[rows[k]!] === 0) dropped++;
  return {
    mode,
    basis: prep.dedupeBasis,
    categorySpecificColumns: mode === 'auto' ? columns.filter((c) => c.categorySpecific).map((c) => c.column) : [],
    rowsDropped: columns.every((c) => mode === 'auto' && c.categorySpecific) ? 0 : dropped,
  };
}

/** Years with rows among `rows`, ascending. */
export function availableYears(prep: PreparedBrandscape, rows: Int32Array): number[] {
  const years = new Set<number>();
  for (let k = 0; k < rows.length; k++) years.add(prep.studies.get(prep.studyId[rows[k]!]!)!.year);
  return [...years].sort((a, b) => a - b);
}

/**
 * The rows a comparison works on: one audience, the given years (each must have rows), the given
 * markets (each must have rows in those years) and the entity filters. Every step that empties the
 * selection throws a DataError naming what is missing and what there is.
 */
export function selectRows(
  prep: PreparedBrandscape,
  selection: Pick<BrandscapeSelection, 'audience' | 'markets' | 'brands' | 'companies' | 'sectors'>,
  years: readonly number[] | undefined,
): { rows: Int32Array; audience: number; notes: string[] } {
  const notes: string[] = [];
  const audience = selection.audience ?? 1;
  if (selection.audience === undefined) {
    const audiences = new Set(prep.audienceId);
    if (audiences.size > 1) notes.push(`Audience 1 (All Adults) was used; the rows also hold audiences ${[...audiences].filter((a) => a !== 1).sort((a, b) => a - b).join(', ')}.`);
  }
  let rows = audienceRows(prep, audience);
  let context = '';
  if (years !== undefined) {
    if (years.length === 0) throw new DataError('No years selected.', ['years'], availableYears(prep, rows).map(String));
    const wanted = new Set(years);
    const present = availableYears(prep, rows);
    const absent = years.filter((y) => !present.includes(y));
    if (absent.length > 0) {
      throw new DataError(`No rows for ${absent.length > 1 ? 'years' : 'year'} ${absent.join(', ')} (audience ${audience}).`, absent.map(String), present.map(String));
    }
    const out: number[] = [];
    for (let k = 0; k < rows.length; k++) if (wanted.has(prep.studies.get(prep.studyId[rows[k]!]!)!.year)) out.push(rows[k]!);
    rows = Int32Array.from(out);
    context = ` in ${years.join(', ')}`;
  }
  const markets = resolveMarkets(prep, selection.markets, rows, context);
  if (markets) {
    const out: number[] = [];
    for (let k = 0; k < rows.length; k++) if (markets.has(prep.studies.get(prep.studyId[rows[k]!]!)!.countryId)) out.push(rows[k]!);
    rows = Int32Array.from(out);
  }
  rows = entityFilter(prep, rows, selection);
  if (rows.length === 0) {
    throw new DataError('The selection has no rows: no brand passes every filter in the selected markets and years.', ['rows'], availableMarkets(prep, audienceRows(prep, audience)));
  }
  return { rows, audience, notes };
}

/** Per column: the rows mask de-duplication applies (undefined = every row counts). */
export function keepMask(prep: PreparedBrandscape, info: MetricInfo, mode: DedupeMode): Uint8Array | undefined {
  return mode === 'none' || (mode === 'auto' && info.categorySpecific) ? undefined : prep.agnosticRow;
}

/** Caveats of comparing a score type across markets (DESIGN domain notes). */
export function scoreTypeNotes(columns: readonly MetricInfo[], acrossMarkets: boolean): string[] {
  const notes: string[] = [];
  const types = new Set(columns.map((c) => c.scoreType));
  if (acrossMarkets && types.has('c')) notes.push('Construct scores (_c) are less comparable across markets than percentile ranks (_rank).');
  if (types.has('category_index')) notes.push("Category indexes (_category_index) compare a brand with its category's brands, which differ by market and year.");
  return notes;
}

/** The entity of each row for a comparison's row grain, with its display and global names. */
export function entityOf(prep: PreparedBrandscape, by: 'brand' | 'company' | 'sector'): { ids: Int32Array; name: (row: number) => string; globalName: (row: number) => string } {
  if (by === 'brand') {
    const names = brandNames(prep);
    return { ids: prep.brandId, name: names.local, globalName: names.global };
  }
  const names = entityNames(prep, by);
  return { ids: entityIds(prep, by), name: names, globalName: names };
}

/** Rows whose entity is known (an `INT_NULL` id drops the row, with a note). */
export function withKnownEntity(rows: Int32Array, ids: Int32Array, kind: string, notes: string[]): Int32Array {
  let unknown = 0;
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    if (ids[rows[k]!] === INT_NULL) unknown++;
    else out.push(rows[k]!);
  }
  if (unknown === 0) return rows;
  notes.push(`${unknown} rows were left out: their brand's ${kind} is not known.`);
  return Int32Array.from(out);
}
