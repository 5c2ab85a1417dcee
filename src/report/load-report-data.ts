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
import { loadComparisonInput, type LoadedQuery } from '../load/load-comparison-input.js';
import type { ResolvedBrand } from '../load/resolve-brands.js';
import { checkAgainstService } from './check-against-service.js';
import { isFullYear, type MarketInfo, type StudyStamp } from './study-context.js';
import { sourceOf, type ReportSource } from './report-source.js';
import type { ResolvedTemplate } from './resolve-template.js';
import { TemplateError } from './template-error.js';
import type { SectionSpec } from './template-schema.js';

// The studies context lives in study-context.ts (checkAgainstService reads it too); its names
// stay exported from here, where they always were.
export { loadStudyContext } from './study-context.js';
export { sourceOf, type ReportSource } from './report-source.js';
export type { MarketInfo, StudyContext, StudyStamp } from './study-context.js';

/** Archetypes loaded for one section. */
export interface SectionArchetypes {
  /** Index of the section in the template (0-based). */
  readonly section: number;
  readonly studyId: number;
  readonly cultural: readonly ArchetypeEntry[];
  readonly competitive: readonly ArchetypeEntry[];
  readonly set: { readonly type: 'collection' | 'category'; readonly id: number; readonly name: string };
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

type Client = Pick<
  BrandscapeClient,
  'baseUrl' | 'version' | 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue' | 'archetypes' | 'collections' | 'categories' | 'countries' | 'audiences' | 'sectors'
> &
  Partial<Pick<BrandscapeClient, 'concurrency'>>;

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

/**
 * Loads what a resolved template needs, after checking it against the service
 * (`checkAgainstService`): markets and years without released studies, an unknown audience,
 * metric, group or id are `TemplateError`s listing every problem; a brand name that fits several
 * brands or none is an `AmbiguousBrandError` / `UnknownBrandError` (usage errors, exit code 2),
 * all before any data is loaded.
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

  // Everything the service can check (markets, years, the audience, metrics, brands, ids) is
  // checked first, so that a mistake stops the report before any data is loaded.
  const { context, brands } = await checkAgainstService(client, template, signalOption);
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
