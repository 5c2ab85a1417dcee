/**
 * The plan of a comparison, from plain inputs (no client, no I/O): the options checked, the axis
 * (`by`) inferred, the metrics chosen from the metric catalogue, and the markets, years and studies
 * chosen from the released studies. Every choice an analyst may have to correct is a UsageError
 * here (see messages.ts), made before any row is loaded.
 */
import { foldName } from '../frames/fold-name.js';
import { periodLabel } from '../frames/missing-cells.js';
import { quarterOf } from '../frames/prepare-brandscape.js';
import { compareNames } from '../frames/compare-names.js';
import { fromMetricColumn, toMetricColumn, type ScoreType } from '../schemas/score-types.js';
import type { MarketColumn } from '../report/comparison-tables.js';
import { latestYear, toCalendarYear } from '../report/template/latest-year.js';
import { listText } from '../frames/list-text.js';
import { groupsText, missingScoreTypeText, nearestKeys } from '../report/service-hints.js';
import type { YearValue } from '../report/template/template-params.js';
import { COMPARE_ERRORS } from './messages.js';
import type { CompareBrandsOptions, CompareBy } from './types.js';

/** Years a `by: 'year'` comparison follows by default: five, up to the latest. */
export const DEFAULT_SPAN = 5;

/** The metric group compared when no metric or group is named. */
export const DEFAULT_GROUP = 'pillars';

/** The options as given, checked and normalised: what the loads need before anything is known of the service. */
export interface ComparisonRequest {
  /** Brands by id or name, trimmed, without repeats. */
  readonly refs: (number | string)[];
  /** Market codes named (upper case, without repeats), or undefined for wherever the brands are studied. */
  readonly marketsGiven: string[] | undefined;
  readonly yearsGiven: YearValue[] | undefined;
  readonly by: CompareBy;
  readonly waves: boolean;
  readonly audienceId: number;
  /** No metric or group named: the pillars, which need no check against the catalogue. */
  readonly byDefault: boolean;
}

/**
 * The options checked before any request: brands given, markets not an empty list, the axis
 * inferable, the audience an id.
 *
 * @example
 * planRequest({ brands: ['Veros', 6], markets: ['gb', 'de'] }).by; // 'market'
 */
export function planRequest(options: CompareBrandsOptions): ComparisonRequest {
  const refs = [...new Set(options.brands.map((b) => (typeof b === 'string' ? b.trim() : b)))];
  if (refs.length === 0) throw COMPARE_ERRORS.noBrands();
  const marketsGiven = options.markets === undefined ? undefined : [...new Set(options.markets.map((m) => m.trim().toUpperCase()))];
  if (marketsGiven?.length === 0) throw COMPARE_ERRORS.emptyMarkets();
  const yearsGiven = options.years === undefined ? undefined : [...new Set(options.years)];
  const by = inferBy(options.by, marketsGiven?.length ?? 0, yearsGiven?.length ?? 0, options.waves === true);
  // compareBrands has turned an audience name into its id by now.
  const audienceId = Number(options.audience ?? 1);
  if (!Number.isInteger(audienceId) || audienceId < 1) throw COMPARE_ERRORS.badAudience(audienceId);
  const byDefault = (options.metrics ?? []).length === 0 && (options.metricGroups ?? []).length === 0;
  return { refs, marketsGiven, yearsGiven, by, waves: options.waves === true, audienceId, byDefault };
}

/**
 * The axis from what was given: `markets` and `years` are the counts named (0 when left out).
 * A UsageError when the axis cannot be inferred or contradicts the counts.
 *
 * @example
 * inferBy(undefined, 1, 0, false); // 'year': one market, followed over the years
 */
export function inferBy(by: CompareBy | undefined, markets: number, years: number, waves: boolean): CompareBy {
  if (by === 'market') {
    if (years > 1) throw COMPARE_ERRORS.byMarketWithYears(years);
    if (markets === 1) throw COMPARE_ERRORS.byMarketWithOneMarket();
    if (waves) throw COMPARE_ERRORS.byMarketWithWaves();
    return 'market';
  }
  if (by === 'year') {
    if (years === 1) throw COMPARE_ERRORS.byYearWithOneYear();
    return 'year';
  }
  if (markets === 1 && years === 1) throw COMPARE_ERRORS.oneMarketOneYear();
  if (markets > 1 && years > 1) throw COMPARE_ERRORS.severalOfEach(markets, years);
  if (years > 1 || markets === 1 || waves) return 'year';
  return 'market';
}

/** What the plan reads of the metric catalogue (`client.metricCatalogue()` answers it). */
export interface CatalogueView {
  readonly metrics: readonly { readonly name?: string | null; readonly brandscape_data_columns?: readonly string[] | null }[];
  readonly columns: {
    readonly allColumns: readonly string[];
    readonly byMetric: ReadonlyMap<string, readonly string[]>;
    readonly byGroup: ReadonlyMap<string, readonly string[]>;
  };
}

/** What to compare: the columns, their score type, and what to ask the service for. */
export interface MetricChoice {
  readonly columns: string[];
  readonly scoreType: ScoreType;
  readonly metricKeys: string[];
  readonly groupKeys: string[];
}

/**
 * Checks metrics, groups and the score type against the catalogue, before any row is loaded.
 *
 * @example
 * chooseMetrics(catalogue, { metrics: ['Esteem', 'differentiation_c'] }).columns; // ['esteem_c', 'differentiation_c']
 */
export function chooseMetrics(catalogue: CatalogueView, options: Pick<CompareBrandsOptions, 'metrics' | 'metricGroups' | 'scoreType'>): MetricChoice {
  const { byMetric, byGroup, allColumns } = catalogue.columns;
  const columnSet = new Set(allColumns);
  const keyByName = new Map<string, string>();
  for (const m of catalogue.metrics) {
    const key = [...byMetric].find(([, cols]) => cols.some((c) => (m.brandscape_data_columns ?? []).includes(c)))?.[0];
    if (key && m.name) keyByName.set(foldName(m.name), key);
  }
  const keys: string[] = [];
  const exact: string[] = [];
  for (const given of options.metrics ?? []) {
    const text = given.trim();
    const lower = text.toLowerCase();
    if (byMetric.has(lower)) keys.push(lower);
    else if (columnSet.has(lower)) exact.push(lower);
    else if (keyByName.has(foldName(text))) keys.push(keyByName.get(foldName(text))!);
    else {
      const near = nearestKeys(lower, [...byMetric.keys()]);
      throw COMPARE_ERRORS.notAMetric(text, near.length > 0 ? `Did you mean ${near.join(', ')}?` : `Metric groups and their metrics: ${groupsText(byGroup, true)}.`);
    }
  }
  const groups = [...new Set((options.metricGroups ?? []).map((g) => g.trim().toLowerCase()))];
  for (const g of groups) {
    if (!byGroup.has(g) || byGroup.get(g)!.length === 0) throw COMPARE_ERRORS.notAGroup(g, groupsText(byGroup));
  }
  if (keys.length === 0 && exact.length === 0 && groups.length === 0) groups.push(DEFAULT_GROUP);

  const exactTypes = [...new Set(exact.map((c) => fromMetricColumn(c).scoreType))];
  if (exactTypes.length > 1) throw COMPARE_ERRORS.mixedScoreTypes(exact, exactTypes);
  const scoreType = options.scoreType ?? exactTypes[0] ?? 'rank';
  if (exactTypes[0] !== undefined && exactTypes[0] !== scoreType) {
    throw COMPARE_ERRORS.scoreTypeMismatch(scoreType, exact, exactTypes[0], exact.map((c) => toMetricColumn(fromMetricColumn(c).metric, scoreType)));
  }
  const columns: string[] = [];
  for (const key of [...keys, ...groups.flatMap((g) => byGroup.get(g)!)]) {
    const column = toMetricColumn(key, scoreType);
    if (!(byMetric.get(key) ?? []).includes(column)) throw COMPARE_ERRORS.missingScoreType(missingScoreTypeText(key, scoreType, byMetric.get(key) ?? []));
    columns.push(column);
  }
  columns.push(...exact);
  const metricKeys = [...new Set([...keys, ...exact.map((c) => [...byMetric].find(([, cols]) => cols.includes(c))![0])])];
  return { columns: [...new Set(columns)], scoreType, metricKeys, groupKeys: groups };
}

/** A released study as the comparison reads it. */
export interface StudyInfo {
  readonly id: number;
  readonly code: string;
  readonly market: string;
  readonly year: number;
  readonly quarter: number | null;
}

/** A study record as the service answers it with its country and year included. */
export type StudyRow = { id: number; name?: string | null; period?: { name?: string | null } | null; country?: { code?: string | null; name?: string | null } | null; year?: { year?: string | number | null } | null };

/** The studies a comparison can read: those with a market and a calendar year. */
export function fromStudyRows(rows: readonly StudyRow[]): StudyInfo[] {
  return rows
    .map((s) => ({ id: s.id, code: s.country?.code ?? '', market: s.country?.name ?? s.country?.code ?? '', year: Number(s.year?.year ?? NaN), quarter: quarterOf(s.period?.name, s.name) }))
    .filter((s) => s.code !== '' && Number.isInteger(s.year));
}

/** The label of a study's period: `2024`, or `2024 Q2`. */
export const periodOf = (s: Pick<StudyInfo, 'year' | 'quarter'>): string => periodLabel(s.year * 10 + (s.quarter ?? 0));

/** Period columns of a comparison with waves: each study's period, in time order, full years before waves. */
export function periodsOf(studies: readonly StudyInfo[]): string[] {
  const sorted = [...studies].sort((a, b) => a.year - b.year || (a.quarter ?? 0) - (b.quarter ?? 0));
  return [...new Set(sorted.map(periodOf))];
}

/** Market codes named that have no released study. */
export const unknownMarkets = (given: readonly string[], studies: readonly StudyInfo[]): string[] => given.filter((code) => !studies.some((s) => s.code === code));

/** The released studies (of `released`) that brand records (with their studies included) are in. */
export function studiedBy(brands: readonly { studies?: readonly { id: number }[] | null }[], released: readonly StudyInfo[]): StudyInfo[] {
  const byId = new Map(released.map((s) => [s.id, s]));
  return brands.flatMap((b) => (b.studies ?? []).flatMap((s) => (byId.has(s.id) ? [byId.get(s.id)!] : [])));
}

/** Where and when a comparison looks, and the studies it reads. */
export interface Scope {
  /** The year `latest` stands for. */
  readonly latestYear: number;
  readonly years: number[];
  /** In the order given, or by name when none were given. */
  readonly markets: MarketColumn[];
  /** Each market-year's full-year study, or (with waves) its quarterly waves. */
  readonly chosen: StudyInfo[];
  /** On how `latest` was chosen and which markets have only waves. */
  readonly notes: string[];
}

/**
 * The years, markets and studies of a comparison, from the released studies (and, without markets
 * named, the studies the brands are in): `latest` is the most recent year released in every market
 * named, or without markets the most recent year any of the brands is in a full-year study.
 *
 * @example
 * chooseScope(request, released, { brandNames: ['Veros'], studiedByBrands: [] }).years; // [2024]
 */
export function chooseScope(request: ComparisonRequest, studies: readonly StudyInfo[], brands: { readonly brandNames: readonly string[]; readonly studiedByBrands: readonly StudyInfo[] }): Scope {
  const { marketsGiven, yearsGiven, by, waves } = request;
  const { studiedByBrands } = brands;
  const candidates = marketsGiven ?? [...new Set(studiedByBrands.map((s) => s.code))];
  if (candidates.length === 0) throw COMPARE_ERRORS.brandsInNoStudy(brands.brandNames);
  const brandYears = studiedByBrands.filter((s) => s.quarter === null).map((s) => s.year);
  const fullYears = studies.map((s) => ({ countryCode: s.code, year: s.year, fullYear: s.quarter === null }));
  const latest = marketsGiven ? latestYear(fullYears, candidates) : { year: brandYears.length > 0 ? Math.max(...brandYears) : undefined, notes: [] };
  if (latest.year === undefined) throw COMPARE_ERRORS.noFullYearStudy(candidates);
  const latestValue = latest.year;
  const years = yearsGiven
    ? [...new Set(yearsGiven.map((y) => toCalendarYear(y, latestValue)))].sort((a, b) => a - b)
    : by === 'market'
      ? [latestValue]
      : Array.from({ length: DEFAULT_SPAN }, (_, i) => latestValue - DEFAULT_SPAN + 1 + i);
  const inYears = studies.filter((s) => years.includes(s.year));
  // Without markets named: those where one of the brands is in a study of the years compared.
  const codes = marketsGiven ?? candidates.filter((code) => studiedByBrands.some((s) => s.code === code && years.includes(s.year) && (waves || s.quarter === null)));
  const nameOf = new Map(studies.map((s) => [s.code, s.market]));
  const markets: MarketColumn[] = codes.map((code) => ({ code, name: nameOf.get(code) ?? code }));
  if (!marketsGiven) markets.sort((a, b) => compareNames(a.name, b.name));
  const notes: string[] = [...(yearsGiven && !yearsGiven.some((y) => typeof y === 'string') ? [] : latest.notes)];

  const chosen: StudyInfo[] = [];
  const onlyWaves: string[] = [];
  for (const m of markets) {
    for (const y of years) {
      const here = inYears.filter((s) => s.code === m.code && s.year === y);
      const full = here.filter((s) => s.quarter === null);
      const quarters = here.filter((s) => s.quarter !== null).sort((a, b) => a.quarter! - b.quarter!);
      if (waves && quarters.length > 0) chosen.push(...quarters);
      else if (full.length > 0) chosen.push(...full);
      else if (quarters.length > 0) onlyWaves.push(`${m.name} ${y}`);
    }
  }
  if (onlyWaves.length > 0) notes.push(`${listText(onlyWaves)} ${onlyWaves.length > 1 ? 'have' : 'has'} only quarterly waves so far, left out: compare by year with waves to see them (--by year --waves on the command line; by: 'year', waves: true from code or MCP).`);
  if (chosen.length === 0) {
    const have = [...new Set(studies.filter((s) => codes.includes(s.code) && s.quarter === null).map((s) => s.year))].sort((a, b) => a - b);
    throw COMPARE_ERRORS.noStudyInYears(markets.map((m) => m.code), years, have);
  }
  return { latestYear: latestValue, years, markets, chosen, notes };
}
