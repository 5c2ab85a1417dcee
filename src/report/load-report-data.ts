/**
 * `loadReportData`: everything a resolved template needs, loaded through the client: brands named
 * by name resolved to ids, `latest` resolved from the released studies, the brandscape rows (only
 * the named brands' rows when no section needs whole studies), companies with their results and
 * prices, archetypes per section. The one I/O step between a template and `buildReport`.
 */
import type { BrandscapeClient, FetchAllOptions } from '../client/brandscape-client.js';
import type { ArchetypeEntry } from '../schemas/archetypes.js';
import type { BrandscapeInput } from '../frames/brandscape-input.js';
import type { CompanyRecord, StockPriceRecord } from '../frames/company-rollup.js';
import { loadComparisonInput, type LoadedQuery } from '../frames/load-comparison-input.js';
import { resolveBrands, type ResolvedBrand } from '../frames/resolve-brands.js';
import { latestYear, toCalendarYear } from './latest-year.js';
import type { ResolvedTemplate } from './resolve-template.js';
import { TemplateError } from './template-error.js';
import type { YearValue } from './template-params.js';
import type { SectionSpec } from './template-schema.js';

/** A released study behind the report: what `--since-last-run` compares between runs. */
export interface StudyStamp {
  readonly id: number;
  readonly countryCode: string;
  readonly market: string;
  readonly year: number;
  readonly period: string;
  readonly dataUpdatedAt: string | null;
}

/** A market of the report and the years it has released full-year data for. */
export interface MarketInfo {
  readonly code: string;
  /** The market's name, or its code when the service knows no study of it. */
  readonly name: string;
  readonly years: readonly number[];
}

/** Archetypes loaded for one section. */
export interface SectionArchetypes {
  /** Index of the section in the template (0-based). */
  readonly section: number;
  readonly studyId: number;
  readonly cultural: readonly ArchetypeEntry[];
  readonly competitive: readonly ArchetypeEntry[];
  readonly set: { readonly type: 'collection' | 'category'; readonly id: number; readonly name: string };
}

/** Where the data came from (host only: never a token or a path with credentials). */
export interface ReportSource {
  readonly host: string;
  readonly apiVersion: string;
  /** True when an embedded emulator answered (seeded demo data). */
  readonly emulated: boolean;
}

/** Where a client's data comes from: its host (never a token or a path), API version, and whether it is emulated. */
export function sourceOf(client: Pick<BrandscapeClient, 'baseUrl' | 'version'>, emulated: boolean): ReportSource {
  let host: string;
  try {
    host = new URL(client.baseUrl).host;
  } catch {
    host = '(unknown)';
  }
  return { host, apiVersion: client.version, emulated };
}

/** What `buildReport` reads: plain data, loaded once. */
export interface ReportData {
  readonly input: BrandscapeInput & { readonly companies?: readonly CompanyRecord[]; readonly stockPrices?: readonly StockPriceRecord[] };
  /** The year `latest` stands for. */
  readonly latestYear: number;
  /** The template's years, as calendar years. */
  readonly years: readonly number[];
  readonly markets: readonly MarketInfo[];
  /** Every brand the template names (data and sections), resolved. */
  readonly brands: readonly ResolvedBrand[];
  readonly studies: readonly StudyStamp[];
  readonly archetypes: readonly SectionArchetypes[];
  readonly queries: readonly LoadedQuery[];
  readonly notes: readonly string[];
  readonly source: ReportSource;
}

export interface LoadReportDataOptions {
  signal?: AbortSignal;
  /** Progress of the brandscape rows' load (pages, records, retries). */
  onProgress?: FetchAllOptions['onProgress'];
  /** True when the client talks to an embedded emulator (said on the About sheet). */
  emulated?: boolean;
}

type Client = Pick<BrandscapeClient, 'baseUrl' | 'version' | 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue' | 'archetypes' | 'collections' | 'categories'>;

/** Sections whose rows are every brand of the studies, not only the brands the template names. */
const needsWholeStudies = (s: SectionSpec) => s.kind === 'sector-summary' || ('by' in s && s.by !== undefined && s.by !== 'brand');

/** Brands a section shows (by id or name): its own, else the template's. */
export function sectionBrandRefs(section: SectionSpec, data: ResolvedTemplate['data']): readonly (number | string)[] | undefined {
  return ('brands' in section ? section.brands : undefined) ?? data.brands;
}

/** The metric keys and groups the template's data and sections need. */
export function metricsToLoad(template: ResolvedTemplate): { metricKeys: string[] | undefined; metricGroupKeys: string[] | undefined } {
  const keys = new Set(template.data.metrics ?? []);
  const groups = new Set(template.data.metric_groups ?? []);
  for (const s of template.sections) if ('metrics' in s && s.metrics) for (const m of s.metrics) keys.add(m);
  // The power grid and the pillars profile are drawn from the four pillars.
  if (template.sections.some((s) => s.kind === 'power-grid' || s.kind === 'pillars-profile')) groups.add('pillars');
  if (keys.size === 0 && groups.size === 0) groups.add('pillars');
  return { metricKeys: keys.size > 0 ? [...keys] : undefined, metricGroupKeys: groups.size > 0 ? [...groups] : undefined };
}

/** The studies a template's markets have: what `latest` is, the years asked for, the run's fingerprint. */
export interface StudyContext {
  readonly studyRecords: readonly Study[];
  readonly latest: number;
  /** The template's data years, as calendar years. */
  readonly years: readonly number[];
  /** Every year any section looks at. */
  readonly allYears: ReadonlySet<number>;
  /** Every market of the data and the sections, with its name and years. */
  readonly markets: readonly MarketInfo[];
  /** The released studies of those markets and years: what `--since-last-run` compares. */
  readonly stamps: readonly StudyStamp[];
  readonly notes: readonly string[];
  readonly query: LoadedQuery;
  calendar(value: YearValue): number;
}

type Study = Awaited<ReturnType<Client['studies']['all']>>[number] & { readonly country?: { code?: string | null; name?: string | null } | null; readonly year?: { year?: string | number | null } | null };

const isFullYear = (s: { name?: string | null; period?: { name?: string | null } | null }) => !/\bQ[1-4]\b/.test(`${s.period?.name ?? ''} ${s.name ?? ''}`);

/**
 * One request: the released studies of the template's markets, which say what `latest` is, which
 * years exist, each market's name, and (with their `data_updated_at`) whether anything behind the
 * report changed since the last run.
 */
export async function loadStudyContext(client: Pick<Client, 'studies'>, template: ResolvedTemplate, signal?: AbortSignal): Promise<StudyContext> {
  const { data, sections } = template;
  const notes: string[] = [];
  const markets = [...new Set([...data.markets, ...sections.flatMap((s) => ('markets' in s ? (s.markets ?? []) : 'market' in s && s.market ? [s.market] : []))])];
  const params = { filter: { country_codes: markets, released: true }, include: ['country', 'year'] as const };
  const studyRecords: Study[] = await client.studies.all(params, signal ? { signal } : {});
  const studyYears = studyRecords.map((s) => ({ countryCode: s.country?.code ?? '', year: Number(s.year?.year ?? NaN), fullYear: isFullYear(s) }));
  const latest = latestYear(studyYears, data.markets);
  notes.push(...latest.notes);
  if (latest.year === undefined) {
    throw new TemplateError(template.source, [{ path: 'data.markets', message: `no released full-year study in ${data.markets.join(', ')}; check the market codes` }]);
  }
  const latestValue = latest.year;
  const calendar = (v: YearValue) => toCalendarYear(v, latestValue);
  const years = [...new Set((data.years ?? ['latest']).map(calendar))].sort((a, b) => a - b);
  const allYears = new Set(years);
  for (const s of sections) {
    if ('year' in s) allYears.add(calendar(s.year ?? 'latest'));
    if ('years' in s && s.years !== undefined) for (const y of s.years) allYears.add(calendar(y));
  }
  return {
    studyRecords,
    latest: latestValue,
    years,
    allYears,
    markets: markets.map((code) => ({
      code,
      name: studyRecords.find((s) => s.country?.code === code)?.country?.name ?? code,
      years: [...new Set(studyYears.filter((s) => s.countryCode === code && s.fullYear).map((s) => s.year))].sort((a, b) => a - b),
    })),
    stamps: studyRecords
      .filter((s) => allYears.has(Number(s.year?.year ?? NaN)))
      .map((s) => ({ id: s.id, countryCode: s.country?.code ?? '', market: s.country?.name ?? '', year: Number(s.year?.year), period: s.period?.name ?? '', dataUpdatedAt: s.data_updated_at ?? null }))
      .sort((a, b) => a.id - b.id),
    notes,
    query: { resource: 'studies', params: { filter: params.filter, include: [...params.include] }, records: studyRecords.length },
    calendar,
  };
}

/**
 * Loads what a resolved template needs. Template problems that only the data reveals (a section
 * year that resolves before 1990) are `TemplateError`s; a brand name that fits several brands or
 * none is an `AmbiguousBrandError` / `UnknownBrandError` (usage errors, exit code 2).
 *
 * @example
 * const data = await loadReportData(client, resolveTemplate(await loadTemplate('sector-review')));
 * const spec = buildReport(resolved, data);
 */
export async function loadReportData(client: Client, template: ResolvedTemplate, options: LoadReportDataOptions = {}): Promise<ReportData> {
  const signal = options.signal;
  const signalOption = signal ? { signal } : {};
  const { data, sections } = template;
  const queries: LoadedQuery[] = [];
  const notes: string[] = [];

  // Brands by name: resolved first, so a misspelt name fails before any large load.
  const refs = new Set<number | string>(data.brands ?? []);
  for (const s of sections) for (const r of ('brands' in s ? s.brands : undefined) ?? []) refs.add(r);
  const brands = refs.size > 0 ? await resolveBrands(client, [...refs], signalOption) : [];

  const context = await loadStudyContext(client, template, signal);
  const { studyRecords, years, calendar, allYears } = context;
  queries.push(context.query);
  notes.push(...context.notes);
  const markets = context.markets.map((m) => m.code);

  // Rows: only the named brands' (or companies') rows unless a section needs whole studies.
  const idOf = new Map(brands.map((b) => [b.ref, b.id]));
  const brandIds = [...new Set(brands.map((b) => b.id))];
  const companies = [...new Set([...(data.companies ?? []), ...sections.flatMap((s) => (s.kind === 'company-rollup' ? (s.companies ?? []) : []))])];
  const brandscapeSections = sections.filter((s) => s.kind !== 'archetypes');
  const whole = brandscapeSections.some(needsWholeStudies) || (brandIds.length > 0 && companies.length > 0) || (brandIds.length === 0 && companies.length === 0);
  const only = whole ? undefined : brandIds.length > 0 ? { brands: brandIds } : { companies };
  const { metricKeys, metricGroupKeys } = metricsToLoad(template);
  const input =
    brandscapeSections.length === 0
      ? undefined
      : await loadComparisonInput(client, {
          countryCodes: markets,
          years: [...allYears].sort((a, b) => a - b),
          audience: data.audience ?? 1,
          ...(metricKeys ? { metricKeys } : {}),
          ...(metricGroupKeys ? { metricGroupKeys } : {}),
          ...(only ? { only } : {}),
          ...(companies.length > 0 ? { companies } : {}),
          load: { ...signalOption, ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
        });
  if (input) queries.push(...input.queries);

  // Archetypes: a study per section (its market and year), cultural and competitive entries.
  const archetypes: SectionArchetypes[] = [];
  for (const [index, s] of sections.entries()) {
    if (s.kind !== 'archetypes') continue;
    const market = s.market ?? data.markets[0]!;
    const year = calendar(s.year ?? 'latest');
    const study = studyRecords.find((r) => r.country?.code === market && Number(r.year?.year) === year && isFullYear(r));
    if (!study) {
      throw new TemplateError(template.source, [{ path: `sections[${index}]`, message: `no released full-year study for ${market} in ${year}; choose another market or year` }]);
    }
    const set = s.comparison ?? (data.collections?.[0] !== undefined ? { collection: data.collections[0] } : { category: data.categories![0]! });
    const ids = (sectionBrandRefs(s, data) ?? []).map((r) => idOf.get(r)!);
    const base = { studies: [study.id], audiences: [data.audience ?? 1], ...(ids.length > 0 ? { brands: ids } : {}) };
    const competitiveParams = 'collection' in set ? { ...base, comparison: 'competitive' as const, collections: [set.collection] } : { ...base, comparison: 'competitive' as const, categories: [set.category] };
    // Brands without archetype data in the study (or outside the competitive set) do not stop the
    // report: its archetypes section names them in its notes.
    const [culturalAnswer, competitiveAnswer, setRecord] = await Promise.all([
      client.archetypes({ ...base, comparison: 'cultural' }, { ...signalOption, missing: 'note' }),
      client.archetypes(competitiveParams, { ...signalOption, missing: 'note' }),
      'collection' in set ? client.collections.get(set.collection, {}, signalOption) : client.categories.get(set.category, {}, signalOption),
    ]);
    const cultural = culturalAnswer.entries;
    const competitive = competitiveAnswer.entries;
    queries.push({ resource: 'tools/archetypes', params: { ...base, comparison: 'cultural' }, records: cultural.length });
    queries.push({ resource: 'tools/archetypes', params: competitiveParams, records: competitive.length });
    archetypes.push({
      section: index,
      studyId: study.id,
      cultural,
      competitive,
      set: 'collection' in set ? { type: 'collection', id: set.collection, name: setRecord.name ?? `Collection ${set.collection}` } : { type: 'category', id: set.category, name: setRecord.name ?? `Category ${set.category}` },
    });
  }

  return {
    input: input ?? { rows: [], catalogue: await client.metricCatalogue(signalOption), studies: [], brands: [] },
    latestYear: context.latest,
    years,
    markets: context.markets,
    brands,
    studies: context.stamps,
    archetypes,
    queries,
    notes,
    source: sourceOf(client, options.emulated ?? false),
  };
}
