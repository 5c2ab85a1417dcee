/**
 * The shape of a comparison, from loaded data (no client, no I/O): the frames' analysis
 * (`crossMarket` / `crossYear`) of the brands' rows, the long-form records (a record for every cell,
 * null where there is no data), the notes on what had no data and why, the matrix, and the title,
 * summary and About items.
 */
import type { BrandscapeInput, MissingData } from '../frames/brandscape-input.js';
import { crossMarket } from '../frames/cross-market.js';
import { crossYear } from '../frames/cross-year.js';
import { trendRuleText } from '../frames/trend-rule.js';
import type { CrossMarketRow, CrossYearRow } from '../frames/types.js';
import type { LoadedQuery } from '../load/load-comparison-input.js';
import type { ResolvedBrand } from '../load/resolve-brands.js';
import { SCORE_TYPES, fromMetricColumn } from '../schemas/score-types.js';
import { crossMarketTable, crossYearTable, type MarketColumn } from '../report/comparison-tables.js';
import { missingDataNotes, plural } from '../report/missing-data-notes.js';
import { listText } from '../frames/list-text.js';
import type { ReportSource } from '../report/report-source.js';
import type { AboutItem } from '../report/report-spec.js';
import { COMPARE_ERRORS } from './messages.js';
import { DEFAULT_SPAN, periodOf, periodsOf, type CatalogueView, type ComparisonRequest, type MetricChoice, type Scope, type StudyInfo } from './plan.js';
import type { CompareBy, Comparison, ComparisonRecordBase, CrossMarketRecord, CrossYearRecord } from './types.js';

/** Everything a comparison's shape is made of: the plan, and what the loads answered. */
export interface ShapeInput {
  readonly request: Pick<ComparisonRequest, 'marketsGiven' | 'yearsGiven' | 'by' | 'waves' | 'audienceId'>;
  readonly scope: Scope;
  readonly brands: readonly ResolvedBrand[];
  readonly metrics: MetricChoice;
  readonly catalogue: Pick<CatalogueView, 'metrics'>;
  readonly audienceName: string;
  readonly input: BrandscapeInput;
  readonly queries: readonly LoadedQuery[];
  readonly source: ReportSource;
  /** The focus brand's id: its rows of the table in bold. */
  readonly focus?: number;
}

/**
 * The comparison of loaded rows: a UsageError when the brands have no row at all there, else the
 * table, records and notes.
 *
 * @example
 * shapeComparison({ request, scope, brands, metrics, catalogue, audienceName: 'All Adults', input, queries: [], source }).table;
 */
export function shapeComparison(shape: ShapeInput): Comparison {
  const { request, scope, brands, metrics, catalogue, audienceName, input, queries, source } = shape;
  const { marketsGiven, yearsGiven, by, waves, audienceId } = request;
  const { years, markets, chosen } = scope;
  const notes = [...scope.notes];
  const brandIds = [...new Set(brands.map((b) => b.id))];
  const focusOption = shape.focus === undefined ? {} : { focus: shape.focus };
  const brandName = (id: number) => brands.find((b) => b.id === id)?.name ?? `brand ${id}`;
  const where = `${listText(markets.map((m) => m.code))} in ${listText(years.map(String))}`;
  const span = years.length > 1 ? `${years[0]}–${years[years.length - 1]}` : String(years[0]);
  if (input.rows.length === 0) throw COMPARE_ERRORS.noData(brands.map((b) => b.name), where, audienceId, marketsGiven !== undefined);

  const selection = {
    metrics: metrics.columns,
    scoreTypes: [metrics.scoreType],
    audience: audienceId,
    markets: markets.map((m) => m.code),
    brands: brandIds,
    missing: 'note' as const,
  };
  const absent = (missing: MissingData) => absentNotes(missing, { markets, chosen, waves, span, brandName });
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
    latestYear: scope.latestYear,
    audience: { id: audienceId, name: audienceName },
    scoreType: metrics.scoreType,
    columns: metrics.columns,
    studies: chosen.map((s) => ({ id: s.id, countryCode: s.code, market: s.market, year: s.year, period: periodOf(s) })),
    queries,
    source,
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
    notes.push(...absent(result.meta.missing), ...gapNotes(records, hasStudy, 'market'), ...ownNotes(result.meta.notes));
    const shown = new Set(rows.map((r) => r.entity_id)).size;
    return {
      ...base,
      by,
      year,
      result,
      title: `${listText(metricNames)} across markets, ${year}`,
      summary: `${plural(shown, 'brand')} × ${plural(markets.length, 'market')} × ${plural(metrics.columns.length, 'metric')}, ${year}; ${scoreText}, ${audienceText}`,
      table: crossMarketTable(result, { markets, entityOrder: brandIds, ...focusOption }),
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
  notes.push(...absent(result.meta.missing), ...gapNotes(records, hasStudy, 'year'), ...ownNotes(result.meta.notes));
  const table = crossYearTable(result, { periods, markets, entityOrder: brandIds, ...focusOption });
  if (table.columns.some((c) => c.header === 'Change')) notes.push(`Change: from each row's first to its last ${waves ? 'period' : 'year'} with data.`);
  if (table.columns.some((c) => c.key === 'trend')) notes.push(trendRuleText([...new Set(rows.map((r) => r.score_type))]));
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
 * Notes on what had no data, as the frames list it: only the brands' rows are loaded, so a market or
 * year without rows has no released study (said here), or has one without these brands (said cell
 * by cell, by `gapNotes`); brands and metrics without data as the frames' notes say.
 *
 * @example
 * absentNotes({ markets: ['FR'], years: [], ... }, { markets, chosen, waves: false, span: '2024', brandName });
 * // ['No released full-year study for France in 2024: not released yet, or not studied then.']
 */
export function absentNotes(
  missing: MissingData,
  context: { readonly markets: readonly MarketColumn[]; readonly chosen: readonly StudyInfo[]; readonly waves: boolean; readonly span: string; readonly brandName: (id: number) => string },
): string[] {
  const { markets, chosen, waves, span } = context;
  const nameOf = new Map(markets.map((m) => [m.code, m.name]));
  const names = { market: (code: string) => nameOf.get(code) ?? code, brand: context.brandName };
  const chosenIn = (code: string | undefined, year: number | undefined) => chosen.some((s) => (code === undefined || s.code === code) && (year === undefined || s.year === year));
  const study = waves ? 'study' : 'full-year study';
  const out: string[] = [];
  const unreleased = missing.markets.map(String).filter((c) => !chosenIn(c, undefined));
  if (unreleased.length > 0) out.push(`No released ${study} for ${listText(unreleased.map(names.market))} in ${span}: not released yet, or not studied then.`);
  const noStudyYears = missing.years.filter((y) => !chosenIn(undefined, y));
  if (noStudyYears.length > 0) out.push(`No released ${study} in ${listText(noStudyYears.map(String))} for ${listText(markets.map((m) => m.name))}.`);
  return [...out, ...missingDataNotes({ ...missing, markets: [], years: [] }, names)];
}

/**
 * A note on the cells of the table without a value where there was a study (a brand not studied in
 * that market or year), brand by brand: the reader sees which dashes mean what.
 */
export function gapNotes(records: readonly (CrossMarketRecord | CrossYearRecord)[], hasStudy: (code: string, period: string) => boolean, by: CompareBy): string[] {
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
export function catalogueName(catalogue: Pick<CatalogueView, 'metrics'>, column: string): string {
  return catalogue.metrics.find((m) => (m.brandscape_data_columns ?? []).includes(column))?.name ?? fromMetricColumn(column).metric;
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
export function crossMarketRecords(rows: readonly CrossMarketRow[], markets: readonly MarketColumn[], brandIds: readonly number[], columns: readonly string[], year: number, audienceId: number): CrossMarketRecord[] {
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
export function crossYearRecords(
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
