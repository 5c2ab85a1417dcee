/**
 * One builder per section kind: frames compute the numbers, a table shows them, a chart builder
 * draws them. Pure: everything comes from the resolved template and the loaded `ReportData`.
 */
import { archetypeHeatmap } from '../charts/archetype-heatmap.js';
import type { ChartSpec } from '../charts/chart-spec.js';
import { companyView } from '../charts/company-view.js';
import { crossMarketBars } from '../charts/cross-market-bars.js';
import { crossMarketHeatmap, crossMarketHeatmapOrder } from '../charts/cross-market-heatmap.js';
import { crossYearLines } from '../charts/cross-year-lines.js';
import { pillarsProfile } from '../charts/pillars-profile.js';
import { POWER_GRID_QUADRANTS, powerGrid } from '../charts/power-grid.js';
import { sectorDistribution } from '../charts/sector-distribution.js';
import { slopeChart } from '../charts/slope-chart.js';
import { BrandscapeError, UsageError } from '../errors.js';
import { foldName } from '../frames/fold-name.js';
import { archetypeMatrix } from '../frames/archetype-matrix.js';
import type { MissingData } from '../frames/brandscape-input.js';
import { companyRollup, type CompanyInput } from '../frames/company-rollup.js';
import { crossMarket } from '../frames/cross-market.js';
import { crossYear } from '../frames/cross-year.js';
import { sectorSummary, sectorValues } from '../frames/sector-summary.js';
import type { CrossMarketRow, CrossYearRow } from '../frames/types.js';
import { metricKeyOf, type ScoreType } from '../schemas/score-types.js';
import { crossMarketTable, crossYearTable, metricLabel, scaleOf, type MarketColumn } from './comparison-tables.js';
import { toCalendarYear } from './template/latest-year.js';
import { framesNotes, missingDataNotes, plural } from './missing-data-notes.js';
import { listText } from '../frames/list-text.js';
import { sectionBrandRefs, type ReportData } from './load-report-data.js';
import type { ReportCell, ReportColumn, ReportSection, ReportTable } from './report-spec.js';
import { yearsText, type ResolvedTemplate } from './template/resolve-template.js';
import type { YearValue } from './template/template-params.js';
import type { SectionSpec } from './template/template-schema.js';

const PILLARS = ['differentiation', 'relevance', 'esteem', 'knowledge'] as const;

/** What every section builder reads. */
export interface SectionContext {
  readonly template: ResolvedTemplate;
  readonly data: ReportData;
  /** 0-based position of the section in the template. */
  readonly index: number;
}

type Built = Omit<ReportSection, 'index' | 'kind' | 'description'>;

const year = (ctx: SectionContext, value: YearValue | undefined): number =>
  value === undefined ? Math.max(...ctx.data.years) : toCalendarYear(value, ctx.data.latestYear);
const years = (ctx: SectionContext, values: readonly YearValue[] | undefined): number[] =>
  values === undefined ? [...ctx.data.years] : [...new Set(values.map((v) => toCalendarYear(v, ctx.data.latestYear)))].sort((a, b) => a - b);
const audience = (ctx: SectionContext) => ctx.template.data.audience ?? 1;

/** The market codes of a section, with their names, in the order the template lists them. */
function marketsOf(ctx: SectionContext, codes: readonly string[] | undefined): MarketColumn[] {
  return (codes ?? ctx.template.data.markets).map((code) => ({ code, name: ctx.data.markets.find((m) => m.code === code)?.name ?? code }));
}

/** The brand ids a section shows (its own brands, else the template's), in the order given. */
function brandIdsOf(ctx: SectionContext, section: SectionSpec): number[] | undefined {
  const refs = sectionBrandRefs(section, ctx.template.data);
  if (refs === undefined) return undefined;
  return [...new Set(refs.map((ref) => ctx.data.brands.find((b) => b.ref === ref)!.id))];
}

/**
 * The id of a section's focus brand (`focus:`, from a `focus_brand` parameter): `first` is the
 * first of the section's brands, `none` (or no focus) none; else one of the section's brands, by
 * id or name (as given, or the resolved brand's name, ignoring case and accents), or a UsageError.
 */
function focusOf(ctx: SectionContext, focus: string | number | undefined, brandIds: readonly number[] | undefined): number | undefined {
  if (focus === undefined || brandIds === undefined) return undefined;
  const word = typeof focus === 'string' ? foldName(focus) : undefined;
  if (word === 'none') return undefined;
  if (word === 'first') return brandIds[0];
  const brands = ctx.data.brands.filter((b) => brandIds.includes(b.id));
  const found = brands.find((b) => (typeof focus === 'number' ? b.id === focus : foldName(b.name) === word || (typeof b.ref === 'string' && foldName(b.ref) === word)));
  if (found === undefined) {
    throw new UsageError(`The focus brand ${typeof focus === 'number' ? focus : `'${focus}'`} is not one of the brands of section ${ctx.index + 1} (${listText([...new Set(brands.map((b) => b.name))])}).`, {
      hint: 'Name one of them (-p focus_brand=NAME), first for the first of them, or none.',
    });
  }
  return found.id;
}

/** Metric keys of a section: its own, else the template's metrics and the metrics of its groups. */
function metricsOf(ctx: SectionContext, section: { metrics?: readonly string[] | undefined }): string[] {
  if (section.metrics) return [...section.metrics];
  const { catalogue } = ctx.data.input;
  const keys = [...(ctx.template.data.metrics ?? [])];
  const groups = ctx.template.data.metric_groups ?? (keys.length === 0 ? ['pillars'] : []);
  for (const key of groups) {
    const group = catalogue.groups.find((g) => g.key === key);
    for (const slim of group?.metrics ?? []) {
      const metric = catalogue.metrics.find((m) => m.id === slim.id);
      const k = metricKeyOf(metric?.brandscape_data_columns ?? []);
      if (k !== undefined && !keys.includes(k)) keys.push(k);
    }
  }
  return keys;
}

/** The template's companies and sectors, which narrow every comparison to their brands. */
const entityScope = (ctx: SectionContext) => ({
  ...(ctx.template.data.companies ? { companies: ctx.template.data.companies } : {}),
  ...(ctx.template.data.sectors ? { sectors: ctx.template.data.sectors } : {}),
});

const scoreTypesOf = (section: { score_type?: ScoreType | undefined }): ScoreType[] => [section.score_type ?? 'rank'];

/** Draws a chart; a chart that cannot be drawn from the data leaves a note instead of failing the report. */
function tryChart(draw: () => ChartSpec, notes: string[]): ChartSpec | null {
  try {
    return draw();
  } catch (error) {
    if (!(error instanceof BrandscapeError)) throw error;
    notes.push(`${CANNOT_DRAW}${error.message}`);
    return null;
  }
}

const CANNOT_DRAW = 'The chart could not be drawn: ';
const NO_CHART = /^No (slope )?chart: /;

/** Notes on what the section asked for and found no data for, with market and brand names. */
function missingNotes(ctx: SectionContext, missing: MissingData): string[] {
  const section = ctx.template.sections[ctx.index];
  const brandIds = section === undefined ? undefined : brandIdsOf(ctx, section);
  const markets = (section !== undefined && 'markets' in section && Array.isArray(section.markets) ? section.markets : undefined) ?? ctx.template.data.markets;
  return missingDataNotes(missing, {
    market: (code) => ctx.data.markets.find((x) => x.code === code)?.name ?? code,
    brand: (id) => ctx.data.brands.find((b) => b.id === id)?.name ?? `brand ${id}`,
    // A year without data names the brands not in a study that exists (the About block lists it).
    studies: {
      markets,
      brands: (brandIds ?? ctx.data.brands.map((b) => b.id)).map((id) => ctx.data.brands.find((b) => b.id === id)?.name ?? `brand ${id}`),
      has: (code, y) => ctx.data.studies.some((st) => st.countryCode === code && st.year === y),
    },
  });
}

function crossMarketSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'cross-market' }>): Built {
  const y = year(ctx, s.year);
  const markets = marketsOf(ctx, s.markets);
  const brands = s.by === undefined || s.by === 'brand' ? brandIdsOf(ctx, s) : undefined;
  const result = crossMarket(ctx.data.input, {
    year: y,
    metrics: metricsOf(ctx, s),
    scoreTypes: scoreTypesOf(s),
    audience: audience(ctx),
    markets: markets.map((m) => m.code),
    ...(brands ? { brands } : {}),
    ...entityScope(ctx),
    ...(s.by ? { by: s.by } : {}),
    missing: 'note',
  });
  const notes = [...missingNotes(ctx, result.meta.missing), ...framesNotes(result.meta.notes)];
  const rows = result.rows();
  const heatmap = s.chart !== 'none' && s.chart !== 'bars';
  const focus = focusOf(ctx, s.focus, brands);
  const chart =
    s.chart === 'none' ? null : tryChart(() => (s.chart === 'bars' ? crossMarketBars(rows) : crossMarketHeatmap(rows, { markets: markets.map((m) => m.name), ...(focus === undefined ? {} : { focus }) })), notes);
  const metrics = [...new Set(rows.map((r) => r.metric_name))];
  const entities = new Set(rows.map((r) => r.entity_id)).size;
  // Beside a heatmap, the table shows its rows in the heatmap's order: one order per section.
  const entityOrder = heatmap && chart !== null ? crossMarketHeatmapOrder(rows) : brands;
  return {
    title: s.title ?? `${listText(metrics)} across markets, ${y}`,
    table: crossMarketTable(result, { markets, ...(entityOrder ? { entityOrder } : {}), ...(focus === undefined ? {} : { focus }) }),
    chart,
    ...(focus === undefined ? {} : { focus }),
    notes,
    summary: `${plural(entities, result.meta.by)} × ${plural(markets.length, 'market')} × ${plural(metrics.length, 'metric')}, ${y}`,
  };
}

function crossYearSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'cross-year' }>): Built {
  const ys = years(ctx, s.years);
  const markets = marketsOf(ctx, s.markets);
  const brands = s.by === undefined || s.by === 'brand' ? brandIdsOf(ctx, s) : undefined;
  const result = crossYear(ctx.data.input, {
    years: ys,
    metrics: metricsOf(ctx, s),
    scoreTypes: scoreTypesOf(s),
    audience: audience(ctx),
    markets: markets.map((m) => m.code),
    ...(brands ? { brands } : {}),
    ...entityScope(ctx),
    ...(s.by ? { by: s.by } : {}),
    ...(s.waves ? { waves: true } : {}),
    missing: 'note',
  });
  const notes = [...missingNotes(ctx, result.meta.missing), ...framesNotes(result.meta.notes)];
  const rows = result.rows();
  const focus = focusOf(ctx, s.focus, brands);
  const focused = focus === undefined ? {} : { focus };
  const market = markets.find((m) => rows.some((r) => r.country_code === m.code)) ?? markets[0]!;
  const slopeLines = s.chart === 'slope' ? slopePairs(rows, market.code) : undefined;
  // A slope chart compares brands' moves: one line says no more than the table's change, and
  // would leave a tall, nearly empty frame.
  if (slopeLines !== undefined && slopeLines.entities.length === 1) {
    notes.push(`No slope chart: only ${slopeLines.entities[0]} has values in both ${slopeLines.from} and ${slopeLines.to} in ${market.name}; the table shows its change.`);
  }
  const chart =
    s.chart === 'none' || (slopeLines !== undefined && slopeLines.entities.length === 1)
      ? null
      : tryChart(() => (s.chart === 'slope' ? slopeChart(rows, { market: market.code, ...focused }) : crossYearLines(rows, focused)), notes);
  const metrics = [...new Set(rows.map((r) => r.metric_name))];
  const periods = s.waves ? undefined : ys.map(String);
  return {
    title: s.title ?? `${listText(metrics)} over time, ${yearsText(ys)}`,
    table: crossYearTable(result, { markets, ...(periods ? { periods } : {}), ...(brands ? { entityOrder: brands } : {}), ...focused }),
    chart,
    ...focused,
    notes,
    summary: `${plural(new Set(rows.map((r) => r.entity_id)).size, result.meta.by)} × ${plural(markets.length, 'market')} × ${plural(ys.length, 'year')} × ${plural(metrics.length, 'metric')}`,
  };
}

function sectorSummarySection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'sector-summary' }>): Built {
  const y = year(ctx, s.year);
  const markets = marketsOf(ctx, s.markets);
  const options = {
    years: [y],
    metrics: metricsOf(ctx, s),
    scoreTypes: scoreTypesOf(s),
    audience: audience(ctx),
    markets: markets.map((m) => m.code),
    ...(s.sectors ? { sectors: s.sectors } : {}),
    missing: 'note' as const,
  };
  const summary = sectorSummary(ctx.data.input, options);
  const notes = [...missingNotes(ctx, summary.meta.missing), ...framesNotes(summary.meta.notes)];
  const rows = summary.rows();
  const scoreType = rows[0]?.score_type ?? 'rank';
  const columns: ReportColumn[] = [
    { key: 'sector', header: 'Sector', format: 'text' },
    { key: 'market', header: 'Market', format: 'text' },
    { key: 'metric', header: 'Metric', format: 'text' },
    { key: 'count', header: 'Brands', format: 'integer' },
    ...(['mean', 'median', 'std', 'min', 'q1', 'q3', 'max'] as const).map((k) => ({
      key: k,
      header: { mean: 'Mean', median: 'Median', std: 'Std. dev.', min: 'Min', q1: 'Lower quartile', q3: 'Upper quartile', max: 'Max' }[k],
      format: k === 'std' && scoreType === 'rank' ? ('pct' as const) : scoreType,
    })),
  ];
  const body = rows.map((r) => [r.sector_name, r.market, metricLabel(r.metric_name, r.score_type), r.count, r.mean, r.median, r.std, r.min, r.q1, r.q3, r.max] as ReportCell[]);
  const chart = s.chart === 'none' ? null : tryChart(() => sectorDistribution(sectorValues(ctx.data.input, options).rows()), notes);
  const metrics = [...new Set(rows.map((r) => r.metric_name))];
  return {
    title: s.title ?? `${listText(metrics)} by sector, ${y}`,
    table: {
      columns,
      rows: body,
      keyColumns: 3,
      colourScales: body.length > 0 ? [{ fromRow: 0, toRow: body.length - 1, fromColumn: 4, toColumn: 5, ...scaleOf(scoreType) }] : [],
    },
    chart,
    notes,
    summary: `${plural(new Set(rows.map((r) => r.sector_id)).size, 'sector')} × ${plural(markets.length, 'market')} × ${plural(metrics.length, 'metric')}, ${y}`,
  };
}

function companyRollupSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'company-rollup' }>): Built {
  const ys = years(ctx, s.years);
  const markets = marketsOf(ctx, s.markets);
  const companies = s.companies ?? ctx.template.data.companies ?? [];
  const input = ctx.data.input as CompanyInput;
  const result = companyRollup(input, {
    companies,
    years: ys,
    metrics: metricsOf(ctx, s),
    scoreTypes: scoreTypesOf(s),
    audience: audience(ctx),
    markets: markets.map((m) => m.code),
    missing: 'note',
  });
  const notes = [...missingNotes(ctx, result.meta.missing), ...framesNotes(result.meta.notes)];
  const rows = result.rows();
  const scoreType = rows[0]?.score_type ?? 'rank';
  const columns: ReportColumn[] = [
    { key: 'company', header: 'Company', format: 'text' },
    { key: 'market', header: 'Market', format: 'text' },
    { key: 'year', header: 'Year', format: 'integer' },
    { key: 'metric', header: 'Metric', format: 'text' },
    { key: 'value', header: 'Value', format: scoreType },
    { key: 'brands', header: 'Brands', format: 'integer' },
    { key: 'weighting', header: 'Weighting', format: 'text' },
    { key: 'currency', header: 'Currency', format: 'text' },
    { key: 'revenue', header: 'Revenue', format: 'money' },
    { key: 'operating_income', header: 'Operating income', format: 'money' },
    { key: 'net_income', header: 'Net income', format: 'money' },
    { key: 'market_cap', header: 'Market cap', format: 'money' },
    { key: 'avg_close', header: 'Average close', format: 'number' },
    { key: 'year_end_close', header: 'Year-end close', format: 'number' },
  ];
  const body = rows.map((r) => [
    r.company_name, r.market, r.year, metricLabel(r.metric_name, r.score_type), r.value, r.n_brands, r.weighting === 'share_of_company' ? 'By share of company' : 'Equal',
    r.currency, r.revenue, r.operating_income, r.net_income, r.market_cap, r.avg_close_price, r.year_end_close_price,
  ] as ReportCell[]);
  const chartCompany = s.chart_company ?? companies[0];
  const chart = s.chart === 'none' ? null : tryChart(() => companyView(rows, chartCompany === undefined ? {} : { companyId: chartCompany }), notes);
  return {
    title: s.title ?? `Company portfolio, ${ys[0]}–${ys[ys.length - 1]}`,
    table: { columns, rows: body, keyColumns: 4, colourScales: [] },
    chart,
    notes,
    summary: `${plural(new Set(rows.map((r) => r.company_id)).size, 'company')} × ${plural(markets.length, 'market')} × ${plural(ys.length, 'year')}`,
  };
}

function archetypesSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'archetypes' }>): Built {
  const loaded = ctx.data.archetypes.find((a) => a.section === ctx.index)!;
  const brands = brandIdsOf(ctx, s);
  const matrix = archetypeMatrix(
    { cultural: loaded.cultural, competitive: loaded.competitive },
    { set: { type: loaded.set.type, id: loaded.set.id }, study: loaded.studyId, audience: audience(ctx) },
  );
  const notes = [...matrix.meta.notes];
  let rows = matrix.rows();
  if (brands) {
    const present = new Set(rows.map((r) => r.brand_id));
    const absent = brands.filter((id) => !present.has(id));
    if (absent.length > 0) {
      const names = absent.map((id) => ctx.data.brands.find((b) => b.id === id)?.name ?? `brand ${id}`);
      notes.unshift(`No archetypes for ${listText(names)}: not in the competitive set ${loaded.set.name}, or not studied in this market and year.`);
    }
    rows = rows.filter((r) => brands.includes(r.brand_id));
  }
  const columns: ReportColumn[] = [
    { key: 'brand', header: 'Brand', format: 'text' },
    { key: 'archetype', header: 'Archetype', format: 'text' },
    // The tool's scores are standardised within the set (0 = its average), like construct scores.
    { key: 'cultural_score', header: 'Cultural score', format: 'c' },
    { key: 'cultural_rank', header: 'Cultural rank', format: 'rank' },
    { key: 'competitive_score', header: 'Competitive score', format: 'c' },
    { key: 'competitive_rank', header: 'Competitive rank', format: 'rank' },
  ];
  const body = rows.map((r) => [r.brand_name, r.archetype_name, r.cultural_score, r.cultural_rank, r.competitive_score, r.competitive_rank] as ReportCell[]);
  const market = s.market ?? ctx.template.data.markets[0]!;
  const y = year(ctx, s.year ?? 'latest');
  const chart = s.chart === 'none' || rows.length === 0 ? null : tryChart(() => archetypeHeatmap(rows, { value: s.value ?? 'rank' }), notes);
  return {
    title: s.title ?? `Archetypes: cultural and against ${loaded.set.name}, ${marketsOf(ctx, [market])[0]!.name} ${y}`,
    table: {
      columns,
      rows: body,
      keyColumns: 2,
      colourScales: body.length > 0 ? [3, 5].map((c) => ({ fromRow: 0, toRow: body.length - 1, fromColumn: c, toColumn: c, ...scaleOf('rank') })) : [],
    },
    chart,
    notes,
    summary: `${plural(new Set(rows.map((r) => r.brand_id)).size, 'brand')} × ${plural(new Set(rows.map((r) => r.archetype)).size, 'archetype')}, against ${loaded.set.name}`,
  };
}

/** The four pillars of each brand in one market and year, as cross-market rows. */
function pillarRows(ctx: SectionContext, s: { market?: string | undefined; year?: YearValue | undefined }, section: SectionSpec, scoreType: ScoreType): { rows: CrossMarketRow[]; market: MarketColumn; year: number; notes: string[] } {
  const market = marketsOf(ctx, [s.market ?? ctx.template.data.markets[0]!])[0]!;
  const y = year(ctx, s.year);
  const brands = brandIdsOf(ctx, section);
  const result = crossMarket(ctx.data.input, {
    year: y,
    metrics: [...PILLARS],
    scoreTypes: [scoreType],
    audience: audience(ctx),
    markets: [market.code],
    ...(brands ? { brands } : {}),
    missing: 'note',
  });
  return { rows: result.rows(), market, year: y, notes: [...missingNotes(ctx, result.meta.missing), ...framesNotes(result.meta.notes)] };
}

/** Per brand: its pillar values in the order of `PILLARS`. */
function pillarsByBrand(rows: readonly CrossMarketRow[]): { name: string; values: (number | null)[] }[] {
  const out = new Map<number, { name: string; values: (number | null)[] }>();
  for (const r of rows) {
    const entry = out.get(r.entity_id) ?? { name: r.global_name, values: [null, null, null, null] };
    entry.values[PILLARS.indexOf(r.metric as (typeof PILLARS)[number])] = r.value;
    out.set(r.entity_id, entry);
  }
  return [...out.values()];
}

function powerGridSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'power-grid' }>): Built {
  const { rows, market, year: y, notes } = pillarRows(ctx, s, s, 'rank');
  const columns: ReportColumn[] = [
    { key: 'brand', header: 'Brand', format: 'text' },
    ...PILLARS.map((p) => ({ key: p, header: `${p[0]!.toUpperCase()}${p.slice(1)}`, format: 'rank' as const })),
    { key: 'strength', header: 'Brand strength', format: 'rank' },
    { key: 'stature', header: 'Brand stature', format: 'rank' },
    { key: 'quadrant', header: 'Quadrant', format: 'text' },
  ];
  // The chart's measures (see powerGrid): geometric means of the pillar ranks, divided at 50.
  const body = pillarsByBrand(rows).map(({ name, values: [d, r, e, k] }) => {
    const strength = d === null || d === undefined || r === null || r === undefined ? null : Math.sqrt(d * r);
    const stature = e === null || e === undefined || k === null || k === undefined ? null : Math.sqrt(e * k);
    const quadrant =
      strength === null || stature === null
        ? null
        : strength >= 50
          ? stature >= 50
            ? POWER_GRID_QUADRANTS.leadership
            : POWER_GRID_QUADRANTS.niche
          : stature >= 50
            ? POWER_GRID_QUADRANTS.eroded
            : POWER_GRID_QUADRANTS.new;
    return [name, d ?? null, r ?? null, e ?? null, k ?? null, strength, stature, quadrant] as ReportCell[];
  });
  const chart = s.chart === 'none' ? null : tryChart(() => powerGrid(rows, { market: market.code, period: y }), notes);
  return {
    title: s.title ?? `Power grid, ${market.name} ${y}`,
    table: { columns, rows: body, keyColumns: 1, colourScales: body.length > 0 ? [{ fromRow: 0, toRow: body.length - 1, fromColumn: 1, toColumn: 6, ...scaleOf('rank') }] : [] },
    chart,
    notes,
    summary: `${plural(body.length, 'brand')}, ${market.name} ${y}`,
  };
}

function pillarsProfileSection(ctx: SectionContext, s: Extract<SectionSpec, { kind: 'pillars-profile' }>): Built {
  const scoreType = s.score_type ?? 'rank';
  const { rows, market, year: y, notes } = pillarRows(ctx, s, s, scoreType);
  const columns: ReportColumn[] = [
    { key: 'brand', header: 'Brand', format: 'text' },
    ...PILLARS.map((p) => ({ key: p, header: `${p[0]!.toUpperCase()}${p.slice(1)}`, format: scoreType })),
  ];
  const body = pillarsByBrand(rows).map(({ name, values }) => [name, ...values.map((v) => v ?? null)] as ReportCell[]);
  const chart = s.chart === 'none' ? null : tryChart(() => pillarsProfile(rows, { market: market.code, period: y, scoreType }), notes);
  return {
    title: s.title ?? `Pillars profile, ${market.name} ${y}`,
    table: { columns, rows: body, keyColumns: 1, colourScales: body.length > 0 ? [{ fromRow: 0, toRow: body.length - 1, fromColumn: 1, toColumn: 4, ...scaleOf(scoreType) }] : [] },
    chart,
    notes,
    summary: `${plural(body.length, 'brand')}, ${market.name} ${y}`,
  };
}

/** Builds one section of the report. */
export function buildSection(ctx: SectionContext, section: SectionSpec): ReportSection {
  const built = (() => {
    switch (section.kind) {
      case 'cross-market':
        return crossMarketSection(ctx, section);
      case 'cross-year':
        return crossYearSection(ctx, section);
      case 'sector-summary':
        return sectorSummarySection(ctx, section);
      case 'company-rollup':
        return companyRollupSection(ctx, section);
      case 'archetypes':
        return archetypesSection(ctx, section);
      case 'power-grid':
        return powerGridSection(ctx, section);
      case 'pillars-profile':
        return pillarsProfileSection(ctx, section);
    }
  })();
  // Where the template asked for a chart and none could be drawn, the reason takes its place.
  const asked = !('chart' in section) || section.chart !== 'none';
  const why = built.chart === null && asked ? built.notes.find((n) => n.startsWith(CANNOT_DRAW) || NO_CHART.test(n)) : undefined;
  return { index: ctx.index + 1, kind: section.kind, description: section.description ?? null, ...built, ...(why === undefined ? {} : { noChart: why }) };
}

/**
 * The brands (names) a slope chart of the rows would draw a line for in a market: those with values
 * in both the first and the last period of the rows.
 */
function slopePairs(rows: readonly CrossYearRow[], market: string): { entities: string[]; from: string; to: string } {
  const inMarket = rows.filter((r) => r.country_code === market);
  const periods = [...new Set(inMarket.filter((r) => r.value !== null).map((r) => r.period_order))].sort((a, b) => a - b);
  const label = (order: number | undefined) => inMarket.find((r) => r.period_order === order)?.period ?? '';
  const first = periods[0];
  const last = periods[periods.length - 1];
  const has = (order: number | undefined) => new Set(inMarket.filter((r) => r.period_order === order && r.value !== null).map((r) => r.entity_id));
  const a = has(first);
  const b = has(last);
  const ids = [...a].filter((id) => b.has(id));
  const entities = ids.map((id) => inMarket.find((r) => r.entity_id === id)!.global_name);
  return { entities: first === last ? [] : entities, from: label(first), to: label(last) };
}

/** The table type sections return, for writers that need it. */
export type { ReportTable };
