/**
 * `compareBrands`: an ad-hoc comparison of a few brands, across markets in one year or across years
 * in one or more markets, as `brandscape compare` runs it and a notebook can: brands by id or name,
 * defaults an analyst expects (All Adults, the latest full year, percentile ranks of the pillars),
 * only the brands' rows of the chosen studies loaded, then the same `crossMarket` / `crossYear`,
 * matrix and chart as the reports.
 */
import type { BrandscapeClient, FetchAllOptions } from '../client/create-client.js';
import { NotFoundError, UsageError } from '../errors.js';
import { linkSignals } from '../link-signals.js';
import type { MissingData } from '../frames/brandscape-input.js';
import { crossMarket, type CrossMarketMeta } from '../frames/cross-market.js';
import { crossYear, type CrossYearMeta } from '../frames/cross-year.js';
import type { FrameTable } from '../frames/frame-table.js';
import { loadComparisonInput, type LoadedQuery } from '../frames/load-comparison-input.js';
import { periodLabel } from '../frames/missing-cells.js';
import { quarterOf } from '../frames/prepare-brandscape.js';
import { foldName, resolveBrands, type ResolvedBrand } from '../frames/resolve-brands.js';
import type { CrossMarketRow, CrossYearRow, TrendDirection } from '../frames/types.js';
import { SCORE_TYPES, fromMetricColumn, toMetricColumn, type ScoreType } from '../schemas/score-types.js';
import { crossMarketTable, crossYearTable, type MarketColumn } from './comparison-tables.js';
import { latestYear, toCalendarYear } from './latest-year.js';
import { sourceOf, type ReportSource } from './report-source.js';
import { listText, missingDataNotes, plural } from './missing-data-notes.js';
import type { AboutItem, ReportTable } from './report-spec.js';
import type { BrandRef, YearValue } from './template-params.js';
import { compareNames } from '../frames/compare-names.js';
import { resolveAudience, toMarketCodes } from '../load/resolve-names.js';
import { groupsText, marketsWithStudies, missingScoreTypeText, nearestKeys, unknownMarketsHint } from './service-hints.js';

/** The axis of a comparison: markets in one year, or years (per market). */
export type CompareBy = 'market' | 'year';

export interface CompareBrandsOptions {
  /** Brands by id or by name (resolved with the service's search, ignoring case and accents). */
  brands: readonly BrandRef[];
  /** Markets by ISO code or name (`'Germany'`). Default: every market where one of the brands is studied in the year(s). */
  markets?: readonly string[];
  /**
   * Years: calendar years, `latest` (the most recent year with released full-year data in every
   * market) or `latest-N`. Default: the latest year (`by: 'market'`), the five years up to it
   * (`by: 'year'`).
   */
  years?: readonly YearValue[];
  /** Audience by id or name (`'Female'`, case and accents ignored); default 1, All Adults. */
  audience?: number | string;
  /** Metric keys (`differentiation`), exact columns (`esteem_c`) or metric names (`Brand Stature`). */
  metrics?: readonly string[];
  /** Metric groups (`pillars`, `imagery`); default `pillars` when no metric is given. */
  metricGroups?: readonly string[];
  /** Score type of the metric keys (default `rank`, or the type of the exact columns given). */
  scoreType?: ScoreType;
  /**
   * Markets across one year, or years per market. Inferred when left out: several years (or one
   * market) compare years; one year (or several markets, or none named) compare markets. One market
   * and one year, or several of each, cannot be inferred (a UsageError says what to add).
   */
  by?: CompareBy;
  /** Compare US quarterly waves as periods of their own (only with `by: 'year'`); default full years only. */
  waves?: boolean;
  /** True when the client talks to an embedded emulator (said in the workbook's and HTML's About). */
  emulated?: boolean;
  signal?: AbortSignal;
  /** Progress of the brandscape rows' load. */
  onProgress?: FetchAllOptions['onProgress'];
}

/** One cell of a comparison in long form (what CSV, JSON and NDJSON outputs carry). */
export interface ComparisonRecordBase {
  brand_id: number;
  /** The brand's local name in that market (its global name where it has no data there). */
  brand_name: string;
  global_name: string;
  country_code: string;
  market: string;
  year: number;
  audience_id: number;
  metric: string;
  metric_name: string;
  score_type: ScoreType;
  /** The brandscape column the value comes from, e.g. `differentiation_rank`. */
  column: string;
  /** Full precision; null where the brand has no data in that market and year. */
  value: number | null;
}

/** A cell of a comparison across markets. */
export interface CrossMarketRecord extends ComparisonRecordBase {
  /** Mean of the brand's values over the markets with data. */
  cross_market_mean: number | null;
  diff_from_mean: number | null;
  /** 1 = the brand's highest market; null without a value. */
  market_rank: number | null;
  markets_compared: number;
  /** Brandscape rows behind the value (after de-duplication); 0 without data. */
  n_rows: number;
}

/** A cell of a comparison across years. */
export interface CrossYearRecord extends ComparisonRecordBase {
  /** `2024`, or `2024 Q2` for a US quarterly wave. */
  period: string;
  /** Change from the previous period with a value. */
  change: number | null;
  /** Change from the first to the last period with a value (same on every row of a brand, market and metric). */
  change_over_span: number | null;
  trend: TrendDirection | null;
  n_rows: number;
}

/** The columns of the long form, in order. */
export const COMPARISON_RECORD_COLUMNS = {
  market: [
    'brand_id', 'brand_name', 'global_name', 'country_code', 'market', 'year', 'audience_id', 'metric', 'metric_name', 'score_type', 'column',
    'value', 'cross_market_mean', 'diff_from_mean', 'market_rank', 'markets_compared', 'n_rows',
  ],
  year: [
    'brand_id', 'brand_name', 'global_name', 'country_code', 'market', 'year', 'period', 'audience_id', 'metric', 'metric_name', 'score_type', 'column',
    'value', 'change', 'change_over_span', 'trend', 'n_rows',
  ],
} as const satisfies Record<CompareBy, readonly string[]>;

/** A study a comparison read. */
export interface ComparedStudy {
  readonly id: number;
  readonly countryCode: string;
  readonly market: string;
  readonly year: number;
  /** `2024`, or `2024 Q2` for a wave. */
  readonly period: string;
}

interface ComparisonBase {
  /** `Differentiation and Esteem across markets, 2024`. */
  readonly title: string;
  /** `3 brands × 6 markets × 4 metrics, 2024; percentile ranks, All Adults`. */
  readonly summary: string;
  readonly brands: readonly ResolvedBrand[];
  /** Markets in the order given (or by name), with their names. */
  readonly markets: readonly MarketColumn[];
  /** The calendar years compared. */
  readonly years: readonly number[];
  /** The year `latest` stands for in these markets. */
  readonly latestYear: number;
  readonly audience: { readonly id: number; readonly name: string };
  readonly scoreType: ScoreType;
  /** The metric columns compared, e.g. `differentiation_rank`. */
  readonly columns: readonly string[];
  /** The matrix: one row per brand x metric (x market), a column per market or period, then the mean or the change. */
  readonly table: ReportTable;
  /** What to know to read the numbers: what had no data, how waves and duplicates were treated. */
  readonly notes: readonly string[];
  /** What was asked for and had no data (by code and id), as the frames list it. */
  readonly missing: MissingData;
  readonly studies: readonly ComparedStudy[];
  readonly queries: readonly LoadedQuery[];
  readonly source: ReportSource;
  /** What was asked for, as given and as resolved (for the About block). */
  readonly asked: readonly AboutItem[];
}

export interface CrossMarketComparison extends ComparisonBase {
  readonly by: 'market';
  readonly year: number;
  readonly result: FrameTable<CrossMarketRow, CrossMarketMeta>;
  /** Long form: every cell of the table's market columns, values at full precision. */
  readonly records: readonly CrossMarketRecord[];
}

export interface CrossYearComparison extends ComparisonBase {
  readonly by: 'year';
  /** The period columns: years, or with waves also `2024 Q1` ... */
  readonly periods: readonly string[];
  readonly result: FrameTable<CrossYearRow, CrossYearMeta>;
  /** Long form: every cell of the table's period columns, values at full precision. */
  readonly records: readonly CrossYearRecord[];
}

export type Comparison = CrossMarketComparison | CrossYearComparison;

type Client = Pick<BrandscapeClient, 'baseUrl' | 'version' | 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue' | 'audiences' | 'countries'>;

/** Years a `by: 'year'` comparison follows by default: five, up to the latest. */
const DEFAULT_SPAN = 5;

/**
 * The axis from what was given: `markets` and `years` are the counts named (0 when left out).
 * A UsageError when the axis cannot be inferred or contradicts the counts.
 */
function inferBy(by: CompareBy | undefined, markets: number, years: number, waves: boolean): CompareBy {
  if (by === 'market') {
    if (years > 1) throw new UsageError(`--by market compares markets in one year, but ${years} years were given.`, { hint: 'Give one year (--years 2024), or use --by year to follow each market over the years.' });
    if (markets === 1) throw new UsageError('--by market compares several markets, but one was given.', { hint: 'Add markets (--markets GB,DE,FR), or use --by year to follow this market over the years.' });
    if (waves) throw new UsageError('--waves applies to comparisons across years (--by year): a cross-market comparison uses full-year studies.');
    return 'market';
  }
  if (by === 'year') {
    if (years === 1) throw new UsageError('--by year compares several years, but one was given.', { hint: 'Give several (--years 2021..2024), or leave --years out for the last five years.' });
    return 'year';
  }
  if (markets === 1 && years === 1) {
    throw new UsageError('One market and one year leave nothing to compare across.', {
      hint: 'Add markets (--markets GB,DE,FR) to compare across markets, or years (--years 2021..2024) to follow the market over time.',
    });
  }
  if (markets > 1 && years > 1) {
    throw new UsageError(`Both several markets (${markets}) and several years (${years}) were given, so the comparison's axis is not clear.`, {
      hint: 'Add --by year to follow each market over the years, or give one year to compare the markets.',
    });
  }
  if (years > 1 || markets === 1 || waves) return 'year';
  return 'market';
}

/** What to compare: the columns, their score type, and what to ask the service for. */
interface MetricChoice {
  readonly columns: string[];
  readonly scoreType: ScoreType;
  readonly metricKeys: string[];
  readonly groupKeys: string[];
}

type Catalogue = Awaited<ReturnType<Client['metricCatalogue']>>;

/** The metric group compared when no metric or group is named. */
const DEFAULT_GROUP = 'pillars';

/** Checks metrics, groups and the score type against the catalogue, before any row is loaded. */
function chooseMetrics(catalogue: Catalogue, options: CompareBrandsOptions): MetricChoice {
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
      throw new UsageError(`'${text}' is not a metric: give a metric key (differentiation), an exact column (esteem_c) or a metric's name.`, {
        hint: near.length > 0 ? `Did you mean ${near.join(', ')}?` : `Metric groups and their metrics: ${groupsText(byGroup, true)}.`,
      });
    }
  }
  const groups = [...new Set((options.metricGroups ?? []).map((g) => g.trim().toLowerCase()))];
  for (const g of groups) {
    if (!byGroup.has(g) || byGroup.get(g)!.length === 0) {
      throw new UsageError(`'${g}' is not a metric group.`, { hint: `Groups: ${groupsText(byGroup)}.` });
    }
  }
  if (keys.length === 0 && exact.length === 0 && groups.length === 0) groups.push(DEFAULT_GROUP);

  const exactTypes = [...new Set(exact.map((c) => fromMetricColumn(c).scoreType))];
  if (exactTypes.length > 1) {
    throw new UsageError(`The columns ${listText(exact)} are of different score types (${exactTypes.join(', ')}), whose values are on different scales.`, {
      hint: 'Compare one score type at a time (run compare once per score type).',
    });
  }
  const scoreType = options.scoreType ?? exactTypes[0] ?? 'rank';
  if (exactTypes[0] !== undefined && exactTypes[0] !== scoreType) {
    throw new UsageError(`--score-type ${scoreType} does not fit the column${exact.length > 1 ? 's' : ''} ${listText(exact)} (${exactTypes[0]}).`, {
      hint: `Name the ${scoreType} column${exact.length > 1 ? 's' : ''} instead (${exact.map((c) => toMetricColumn(fromMetricColumn(c).metric, scoreType)).join(', ')}), or leave --score-type out.`,
    });
  }
  const columns: string[] = [];
  for (const key of [...keys, ...groups.flatMap((g) => byGroup.get(g)!)]) {
    const column = toMetricColumn(key, scoreType);
    if (!(byMetric.get(key) ?? []).includes(column)) {
      throw new UsageError(`${missingScoreTypeText(key, scoreType, byMetric.get(key) ?? [])}.`, {
        hint: `Choose one of those with --score-type, or name the column in --metrics.`,
      });
    }
    columns.push(column);
  }
  columns.push(...exact);
  const metricKeys = [...new Set([...keys, ...exact.map((c) => [...byMetric].find(([, cols]) => cols.includes(c))![0])])];
  return { columns: [...new Set(columns)], scoreType, metricKeys, groupKeys: groups };
}

/** A released study as the comparison reads it. */
interface StudyInfo {
  readonly id: number;
  readonly code: string;
  readonly market: string;
  readonly year: number;
  readonly quarter: number | null;
}

type StudyRow = { id: number; name?: string | null; period?: { name?: string | null } | null; country?: { code?: string | null; name?: string | null } | null; year?: { year?: string | number | null } | null };

const toStudyInfo = (s: StudyRow): StudyInfo => ({
  id: s.id,
  code: s.country?.code ?? '',
  market: s.country?.name ?? s.country?.code ?? '',
  year: Number(s.year?.year ?? NaN),
  quarter: quarterOf(s.period?.name, s.name),
});

/** Markets named by code that have no released study: a UsageError listing the codes there are. */
async function checkMarkets(client: Client, given: readonly string[], studies: readonly StudyInfo[], signal: AbortSignal | undefined): Promise<void> {
  const unknown = given.filter((code) => !studies.some((s) => s.code === code));
  if (unknown.length === 0) return;
  throw new UsageError(`No released study for ${unknown.length > 1 ? 'markets' : 'market'} ${unknown.join(', ')}.`, { hint: unknownMarketsHint(unknown, await marketsWithStudies(client, signal)) });
}

/** The released studies any of the brands is in. */
async function studiesOfBrands(client: Client, brands: readonly ResolvedBrand[], released: ReadonlyMap<number, StudyInfo>, signal: AbortSignal | undefined): Promise<{ studied: StudyInfo[]; query: LoadedQuery }> {
  const ids = [...new Set(brands.map((b) => b.id))];
  const params = { filter: { id: ids }, fields: ['id'], include: ['studies'] } as const;
  const records = await client.brands.all(params, signal ? { signal } : {});
  const studied: StudyInfo[] = [];
  for (const b of records) for (const s of b.studies ?? []) if (released.has(s.id)) studied.push(released.get(s.id)!);
  return { studied, query: { resource: 'brands', params: { filter: params.filter, include: [...params.include] }, records: records.length } };
}

const fullYearsOf = (studies: readonly StudyInfo[]) => studies.map((s) => ({ countryCode: s.code, year: s.year, fullYear: s.quarter === null }));

/** The label of a study's period: `2024`, or `2024 Q2`. */
const periodOf = (s: StudyInfo) => periodLabel(s.year * 10 + (s.quarter ?? 0));

/**
 * Compares brands across markets (one year) or years (per market), loading only the brands' rows
 * of the chosen studies: by default full-year studies only, US quarterly waves left out unless
 * `waves` is set. Brand names that fit several brands or none, unknown markets, metrics, groups or
 * score types, and axes that cannot be inferred are UsageErrors, raised before the rows are
 * loaded; markets, years and brands without data are listed in `notes` and `missing`.
 *
 * @example
 * const c = await compareBrands(client, { brands: ['Veros', 'polora', 6], markets: ['GB', 'DE', 'FR'] });
 * c.by; // 'market' (several markets, one year: the latest)
 * c.table; // Brand, Metric, United Kingdom, Germany, France, Mean
 * c.records[0]; // { brand_id: 305, market: 'United Kingdom', column: 'differentiation_rank', value: 71.25, cross_market_mean: ..., ... }
 * const us = await compareBrands(client, { brands: ['Veros'], markets: ['US'], metrics: ['esteem_c'] }); // by year, the last five years
 */
export async function compareBrands(client: Client, options: CompareBrandsOptions): Promise<Comparison> {
  const signal = options.signal;
  const signalOption = signal ? { signal } : {};
  const refs = [...new Set(options.brands.map((b) => (typeof b === 'string' ? b.trim() : b)))];
  if (refs.length === 0) throw new UsageError('No brand to compare.', { hint: 'Give brands by id or name, e.g. --brands Veros,Polora.' });
  // Markets by name become codes (one request, only when a name is given).
  const marketsGiven = options.markets === undefined ? undefined : [...new Set(await toMarketCodes(client, options.markets, signalOption))];
  if (marketsGiven?.length === 0) throw new UsageError('The list of markets is empty.', { hint: 'Give market codes, e.g. --markets GB,DE,FR, or leave them out for every market where the brands are studied.' });
  const yearsGiven = options.years === undefined ? undefined : [...new Set(options.years)];
  const by = inferBy(options.by, marketsGiven?.length ?? 0, yearsGiven?.length ?? 0, options.waves === true);
  const waves = options.waves === true;
  // An audience by name is looked up first (one short list); an id is checked with the loads below.
  const namedAudience = typeof options.audience === 'string' && !/^\s*\d+\s*$/.test(options.audience) ? await resolveAudience(client, options.audience, signalOption) : undefined;
  const audienceId = namedAudience?.id ?? Number(options.audience ?? 1);
  if (!Number.isInteger(audienceId) || audienceId < 1) throw new UsageError(`The audience is an id (a positive whole number), not ${audienceId}.`, { hint: '1 is All Adults.' });

  // Brands, studies, the metric catalogue and the audience at once: each can fail the command for
  // a reason the user must fix, and none needs another. Metrics or groups named are checked
  // against the metric catalogue before any row is asked for; the default (the pillars) needs no
  // check, so then the rows' request does not wait for the catalogue, which answered last of
  // these (on the emulator that wait was ~10-15 ms of a ~190 ms comparison). The catalogue is
  // still read before any row is used, and its failure cancels the rows' request.
  //
  // Whole studies: `fields[studies]` would cut the answer by ~60%, but no documented example
  // combines sparse fields with a one-to-one include whose linking keys (country_id, year_id) are
  // not asked for, and a service that needs them would answer studies without country and year.
  const studyParams = { filter: { ...(marketsGiven ? { country_codes: marketsGiven } : {}), released: true }, include: ['country', 'year'] as const };
  const brandsLoad = resolveBrands(client, refs, signalOption);
  const studiesLoad = client.studies.all(studyParams, signalOption);
  // Asked after those, which the rows' request waits for (a service answers in turn).
  const catalogueLoad = client.metricCatalogue(signalOption);
  // Awaited below, wherever the command goes on; a failure before then is reported there.
  catalogueLoad.catch(() => {});
  // Nothing named: the pillars, which need no check before the rows are asked for.
  const byDefault = (options.metrics ?? []).length === 0 && (options.metricGroups ?? []).length === 0;
  const [brands, studyRecords, named, audienceName] = await Promise.all([
    brandsLoad,
    studiesLoad,
    byDefault ? undefined : catalogueLoad.then((catalogue) => chooseMetrics(catalogue, options)),
    audienceId === 1 || namedAudience
      ? Promise.resolve(namedAudience?.name ?? 'All Adults')
      : client.audiences.get(audienceId, {}, signalOption).then(
          (a) => a.name ?? `Audience ${audienceId}`,
          (error: unknown) => {
            if (error instanceof NotFoundError) throw new UsageError(`There is no audience ${audienceId}.`, { hint: "List the audiences with 'brandscape audiences'." });
            throw error;
          },
        ),
  ]);
  const queries: LoadedQuery[] = [{ resource: 'studies', params: { filter: studyParams.filter, include: [...studyParams.include] }, records: studyRecords.length }];
  const requested = named ?? { metricKeys: [], groupKeys: [DEFAULT_GROUP] };
  const studies = studyRecords.map(toStudyInfo).filter((s) => s.code !== '' && Number.isInteger(s.year));
  const brandIds = [...new Set(brands.map((b) => b.id))];
  const brandName = (id: number) => brands.find((b) => b.id === id)?.name ?? `brand ${id}`;

  // Markets: as given (each must have studies), or wherever one of the brands is studied.
  let candidates: string[];
  let studiedByBrands: StudyInfo[] = [];
  if (marketsGiven) {
    await checkMarkets(client, marketsGiven, studies, signal);
    candidates = marketsGiven;
  } else {
    const found = await studiesOfBrands(client, brands, new Map(studies.map((s) => [s.id, s])), signal);
    queries.push(found.query);
    studiedByBrands = found.studied;
    candidates = [...new Set(studiedByBrands.map((s) => s.code))];
    if (candidates.length === 0) throw new UsageError(`${listText(brands.map((b) => b.name))} ${brands.length > 1 ? 'are' : 'is'} in no released study.`);
  }
  // 'latest': the most recent year released in every market named; without markets named, the most
  // recent year any of the brands is in a released full-year study (its markets follow from it).
  const brandYears = studiedByBrands.filter((s) => s.quarter === null).map((s) => s.year);
  const latest = marketsGiven ? latestYear(fullYearsOf(studies), candidates) : { year: brandYears.length > 0 ? Math.max(...brandYears) : undefined, notes: [] };
  if (latest.year === undefined) throw new UsageError(`No released full-year study in ${candidates.join(', ')}.`, { hint: 'Check the market codes, or add --waves to compare quarterly waves.' });
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

  // The studies: each market-year's full-year study, or (with waves) its quarterly waves.
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
  if (onlyWaves.length > 0) notes.push(`${listText(onlyWaves)} ${onlyWaves.length > 1 ? 'have' : 'has'} only quarterly waves so far, left out: add --waves (with --by year) to compare waves.`);
  if (chosen.length === 0) {
    const have = [...new Set(studies.filter((s) => codes.includes(s.code) && s.quarter === null).map((s) => s.year))].sort((a, b) => a - b);
    throw new UsageError(`No released full-year study of ${listText(markets.map((m) => m.code))} in ${listText(years.map(String))}.`, {
      hint: have.length > 0 ? `Years with studies: ${have[0]}–${have[have.length - 1]}.` : 'Check the market codes.',
    });
  }

  let input: Awaited<ReturnType<typeof loadComparisonInput>>;
  const link = linkSignals(signal);
  catalogueLoad.catch((error: unknown) => link.abort(error));
  try {
    input = await loadComparisonInput(client, {
      countryCodes: markets.map((m) => m.code),
      years,
      audience: audienceId,
      ...(requested.metricKeys.length > 0 ? { metricKeys: requested.metricKeys } : {}),
      ...(requested.groupKeys.length > 0 ? { metricGroupKeys: requested.groupKeys } : {}),
      only: { brands: brandIds, studies: chosen.map((s) => s.id) },
      // The released studies loaded above cover the chosen ones; the rows carry the brands' names,
      // sectors and companies (their includes), so neither is asked for again.
      studies: studyRecords,
      brandRecords: false,
      load: { signal: link.signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
    });
  } catch (error) {
    // The catalogue's verdict comes first (a service without the pillars), and its own failure
    // (it cancelled the load) is the cause: awaiting it throws either.
    if (byDefault) chooseMetrics(await catalogueLoad, options);
    throw error;
  } finally {
    link.dispose();
  }
  const catalogue = await catalogueLoad;
  const metrics = named ?? chooseMetrics(catalogue, options);
  queries.push(...input.queries);
  const where = `${listText(markets.map((m) => m.code))} in ${listText(years.map(String))}`;
  const span = years.length > 1 ? `${years[0]}–${years[years.length - 1]}` : String(years[0]);
  if (input.rows.length === 0) {
    throw new UsageError(`${listText(brands.map((b) => b.name))} ${brands.length > 1 ? 'have' : 'has'} no data in ${where} (audience ${audienceId}).`, {
      hint: marketsGiven ? 'Leave --markets out to compare every market where the brands are studied.' : `Check the audience (${audienceId}); 1 is All Adults.`,
    });
  }

  const selection = {
    metrics: metrics.columns,
    scoreTypes: [metrics.scoreType],
    audience: audienceId,
    markets: markets.map((m) => m.code),
    brands: brandIds,
    missing: 'note' as const,
  };
  const names = { market: (code: string) => nameOf.get(code) ?? code, brand: brandName };
  // Only the brands' rows are loaded: a market or year without rows has no released study (said
  // here), or has one without these brands (said cell by cell, by `gapNotes`).
  const chosenIn = (code: string | undefined, year: number | undefined) => chosen.some((s) => (code === undefined || s.code === code) && (year === undefined || s.year === year));
  const study = waves ? 'study' : 'full-year study';
  const absentNotes = (missing: MissingData): string[] => {
    const out: string[] = [];
    const unreleased = missing.markets.map(String).filter((c) => !chosenIn(c, undefined));
    if (unreleased.length > 0) out.push(`No released ${study} for ${listText(unreleased.map(names.market))} in ${span}: not released yet, or not studied then.`);
    const noStudyYears = missing.years.filter((y) => !chosenIn(undefined, y));
    if (noStudyYears.length > 0) out.push(`No released ${study} in ${listText(noStudyYears.map(String))} for ${listText(markets.map((m) => m.name))}.`);
    return [...out, ...missingDataNotes({ ...missing, markets: [], years: [] }, names)];
  };
  const hasStudy = (code: string, period: string) => chosen.some((s) => s.code === code && periodOf(s) === period);
  // The frames' own notes on what had no data name markets by code and cells only where some brand has rows.
  const ownNotes = (frames: readonly string[]) => frames.filter((n) => !n.startsWith('No data for '));
  const metricNames = metrics.columns.map((c) => catalogueName(catalogue, c));
  const scoreText = `${SCORE_TYPES[metrics.scoreType].label.toLowerCase()}s`;
  const audienceText = `${audienceName}${audienceId === 1 ? '' : ` (audience ${audienceId})`}`;
  const base = {
    brands,
    markets,
    years,
    latestYear: latestValue,
    audience: { id: audienceId, name: audienceName },
    scoreType: metrics.scoreType,
    columns: metrics.columns,
    studies: chosen.map((s) => ({ id: s.id, countryCode: s.code, market: s.market, year: s.year, period: periodOf(s) })),
    queries,
    source: sourceOf(client, options.emulated === true),
  };
  const asked = (extra: AboutItem[]): AboutItem[] => [
    { label: 'Brands', value: brands.map((b) => (typeof b.ref === 'number' || b.ref === b.name ? `${b.name} (${b.id})` : `${b.name} (${b.id}, given as '${b.ref}')`)).join(', ') },
    { label: 'Markets', value: `${markets.map((m) => `${m.name} (${m.code})`).join(', ')}${marketsGiven ? '' : ' (where the brands are studied)'}` },
    { label: 'Compared by', value: by === 'market' ? 'market, in one year' : 'year, per market' },
    ...extra,
    { label: 'Audience', value: audienceText },
    { label: 'Metrics', value: `${metrics.columns.join(', ')} (${scoreText})` },
  ];
  if (by === 'market') {
    const year = years[0]!;
    const result = crossMarket(input, { ...selection, year });
    const rows = result.rows();
    const records = crossMarketRecords(rows, markets, brandIds, metrics.columns, year, audienceId);
    notes.push(...absentNotes(result.meta.missing), ...gapNotes(records, hasStudy, 'market'), ...ownNotes(result.meta.notes));
    const shown = new Set(rows.map((r) => r.entity_id)).size;
    return {
      ...base,
      by,
      year,
      result,
      title: `${listText(metricNames)} across markets, ${year}`,
      summary: `${plural(shown, 'brand')} × ${plural(markets.length, 'market')} × ${plural(metrics.columns.length, 'metric')}, ${year}; ${scoreText}, ${audienceText}`,
      table: crossMarketTable(result, { markets, entityOrder: brandIds }),
      records,
      notes,
      missing: result.meta.missing,
      asked: asked([{ label: 'Year', value: `${year}${yearsGiven ? '' : ` (the latest full year studied in every market)`}` }]),
    };
  }

  const result = crossYear(input, { ...selection, years, ...(waves ? { waves: true } : {}) });
  const rows = result.rows();
  const periods = waves ? periodsOf(chosen) : years.map(String);
  const records = crossYearRecords(rows, markets, brandIds, metrics.columns, waves ? chosen : undefined, years, audienceId);
  notes.push(...absentNotes(result.meta.missing), ...gapNotes(records, hasStudy, 'year'), ...ownNotes(result.meta.notes));
  const table = crossYearTable(result, { periods, markets, entityOrder: brandIds });
  if (table.columns.some((c) => c.header === 'Change')) notes.push(`Change: from each row's first to its last ${waves ? 'period' : 'year'} with data.`);
  const oneMarket = markets.length === 1 ? `, ${markets[0]!.name}` : '';
  return {
    ...base,
    by,
    periods,
    result,
    title: `${listText(metricNames)} over time, ${span}${oneMarket}`,
    summary: `${plural(new Set(rows.map((r) => r.entity_id)).size, 'brand')} × ${plural(markets.length, 'market')} × ${plural(years.length, 'year')} × ${plural(metrics.columns.length, 'metric')}; ${scoreText}, ${audienceText}`,
    table,
    records,
    notes,
    missing: result.meta.missing,
    asked: asked([{ label: 'Years', value: `${span}${waves ? ' (quarterly waves as periods of their own)' : ''}${yearsGiven ? '' : ` (the ${DEFAULT_SPAN} years up to the latest full year studied in every market)`}` }]),
  };
}

/**
 * A note on the cells of the table without a value where there was a study (a brand not studied in
 * that market or year), brand by brand: the reader sees which dashes mean what.
 */
function gapNotes(records: readonly (CrossMarketRecord | CrossYearRecord)[], hasStudy: (code: string, period: string) => boolean, by: CompareBy): string[] {
  // Brand -> market -> periods without a value.
  const gaps = new Map<string, Map<string, string[]>>();
  for (const r of records) {
    const period = 'period' in r ? r.period : String(r.year);
    if (r.value !== null || !hasStudy(r.country_code, period)) continue;
    const markets = gaps.get(r.global_name) ?? new Map<string, string[]>();
    const periods = markets.get(r.market) ?? [];
    if (!periods.includes(period)) periods.push(period);
    markets.set(r.market, periods);
    gaps.set(r.global_name, markets);
  }
  if (gaps.size === 0) return [];
  const parts = [...gaps].map(([brand, markets]) => {
    const places = [...markets].map(([market, periods]) => (by === 'market' ? market : `${market} (${listText(periods)})`));
    const shown = places.slice(0, 8);
    return `${brand} in ${listText(places.length > shown.length ? [...shown, `${places.length - shown.length} more markets`] : shown)}`;
  });
  return [`No ${by === 'market' ? `${records[0]!.year} ` : ''}data for ${parts.join('; ')}.`];
}

/** A column's metric name from the catalogue (`Differentiation`), its key when unnamed. */
function catalogueName(catalogue: Catalogue, column: string): string {
  return catalogue.metrics.find((m) => (m.brandscape_data_columns ?? []).includes(column))?.name ?? fromMetricColumn(column).metric;
}

/** Period columns of a comparison with waves: each study's period, in time order, full years before waves. */
function periodsOf(studies: readonly StudyInfo[]): string[] {
  const sorted = [...studies].sort((a, b) => a.year - b.year || (a.quarter ?? 0) - (b.quarter ?? 0));
  return [...new Set(sorted.map(periodOf))];
}

/** Fields of a cell without data, for a brand and metric that have data elsewhere. */
function emptyCell(head: CrossMarketRow | CrossYearRow, market: MarketColumn, year: number, audienceId: number): ComparisonRecordBase {
  return {
    brand_id: head.entity_id,
    brand_name: head.global_name,
    global_name: head.global_name,
    country_code: market.code,
    market: market.name,
    year,
    audience_id: audienceId,
    metric: head.metric,
    metric_name: head.metric_name,
    score_type: head.score_type,
    column: head.column,
    value: null,
  };
}

const cellOf = (r: CrossMarketRow | CrossYearRow, audienceId: number): ComparisonRecordBase => ({
  brand_id: r.entity_id,
  brand_name: r.entity_name,
  global_name: r.global_name,
  country_code: r.country_code,
  market: r.market,
  year: r.year,
  audience_id: audienceId,
  metric: r.metric,
  metric_name: r.metric_name,
  score_type: r.score_type,
  column: r.column,
  value: r.value,
});

/** The long form of a cross-market comparison: each brand x metric with data, in every market (null where it has none). */
function crossMarketRecords(rows: readonly CrossMarketRow[], markets: readonly MarketColumn[], brandIds: readonly number[], columns: readonly string[], year: number, audienceId: number): CrossMarketRecord[] {
  const byKey = new Map(rows.map((r) => [`${r.entity_id}:${r.column}:${r.country_code}`, r]));
  const out: CrossMarketRecord[] = [];
  for (const id of brandIds) {
    for (const column of columns) {
      const ofPair = rows.filter((r) => r.entity_id === id && r.column === column);
      const head = ofPair[0];
      if (!head) continue;
      for (const m of markets) {
        const r = byKey.get(`${id}:${column}:${m.code}`);
        out.push(
          r
            ? { ...cellOf(r, audienceId), cross_market_mean: r.cross_market_mean, diff_from_mean: r.diff_from_mean, market_rank: r.market_rank, markets_compared: r.markets_compared, n_rows: r.n_rows }
            : { ...emptyCell(head, m, year, audienceId), cross_market_mean: head.cross_market_mean, diff_from_mean: null, market_rank: null, markets_compared: head.markets_compared, n_rows: 0 },
        );
      }
    }
  }
  return out;
}

/**
 * The long form of a cross-year comparison: each brand x market x metric with data, in every period
 * of that market (null where it has none): every year asked for, or with waves the market's studies.
 */
function crossYearRecords(
  rows: readonly CrossYearRow[],
  markets: readonly MarketColumn[],
  brandIds: readonly number[],
  columns: readonly string[],
  waveStudies: readonly StudyInfo[] | undefined,
  years: readonly number[],
  audienceId: number,
): CrossYearRecord[] {
  const byKey = new Map(rows.map((r) => [`${r.entity_id}:${r.column}:${r.country_code}:${r.period}`, r]));
  const out: CrossYearRecord[] = [];
  for (const id of brandIds) {
    for (const m of markets) {
      const periods = waveStudies
        ? periodsOf(waveStudies.filter((s) => s.code === m.code)).map((label) => ({ label, year: Number(label.slice(0, 4)) }))
        : years.map((y) => ({ label: String(y), year: y }));
      for (const column of columns) {
        const head = rows.find((r) => r.entity_id === id && r.column === column && r.country_code === m.code);
        if (!head) continue;
        for (const p of periods) {
          const r = byKey.get(`${id}:${column}:${m.code}:${p.label}`);
          out.push(
            r
              ? { ...cellOf(r, audienceId), period: r.period, change: r.change, change_over_span: r.change_over_span, trend: r.trend, n_rows: r.n_rows }
              : { ...emptyCell(head, { code: m.code, name: head.market }, p.year, audienceId), period: p.label, change: null, change_over_span: head.change_over_span, trend: head.trend, n_rows: 0 },
          );
        }
      }
    }
  }
  return out;
}
