/**
 * `checkAgainstService`: everything in a resolved template that only the service can check,
 * checked before any data is loaded, as `brandscape compare` checks its options: markets (each
 * must have a released study; "Did you mean GB?"), years (each must have a released full-year
 * study in a market of the report; the years that have one are named), the audience, metric and
 * group keys and score types (against the metric catalogue), brands by name or id, and the ids of
 * sectors, collections, categories and companies. Every problem found is reported at once, in a
 * `TemplateError` (a usage error, exit 2) naming the path in the template and the parameter the
 * value came from; a brand that is the only problem keeps its own error (`UnknownBrandError`,
 * `AmbiguousBrandError`).
 *
 * The look-ups are small and made together: the released studies of the report's markets (which
 * the load needs anyway), the metric catalogue (fetched once per client), and for what the
 * template names, the audience and the records of the ids. Suggestions cost a request only when
 * something is wrong (the markets there are, every sector).
 *
 * The helpers that word market and metric problems are shared with `compareBrands`, so a wrong
 * market or metric reads the same from `compare` and from `report`.
 */
import { setMaxListeners } from 'node:events';
import type { BrandscapeClient, MetricCatalogueRecords } from '../client/brandscape-client.js';
import { chunkIds } from '../client/url-budget.js';
import { NotFoundError, toJsonPath } from '../errors.js';
import { linkSignals } from '../link-signals.js';
import { AmbiguousBrandError, UnknownBrandError, resolveBrands, type ResolvedBrand } from '../load/resolve-brands.js';
import { toMetricColumn } from '../schemas/score-types.js';
import { toCalendarYear, latestYear } from './template/latest-year.js';
import { loadReleasedStudies, studyContextOf, studyYearOf, type Study, type StudyContext } from './study-context.js';
import { listText } from '../frames/list-text.js';
import { didYouMeanMarket, groupsText, marketsWithStudies, missingScoreTypeText, nearestKeys, unknownMarketsHint } from './service-hints.js';
import { parameterAt, yearRangesText, type ResolvedTemplate } from './template/resolve-template.js';
import { TemplateError, type TemplateProblem } from './template/template-error.js';
import type { YearValue } from './template/template-params.js';
import type { SectionSpec } from './template/template-schema.js';

type Client = Pick<BrandscapeClient, 'studies' | 'countries' | 'brands' | 'metricCatalogue' | 'audiences' | 'sectors' | 'collections' | 'categories' | 'companies'> &
  Partial<Pick<BrandscapeClient, 'concurrency'>>;

/** The checked parts `loadReportData` goes on with. */
export interface CheckedTemplate {
  /** The released studies of the report's markets, `latest`, the years. */
  readonly context: StudyContext;
  /** Every brand the template names (data and sections), resolved. */
  readonly brands: readonly ResolvedBrand[];
}

/** One look-up's outcome: its value, or the error it failed with. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Outcome<T>> => promise.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
const valueOf = <T>(outcome: Outcome<T>): T => {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
};

/** Records of ids, asked for in requests whose URLs fit (see url-budget.ts). */
async function idsFound(ids: readonly number[], load: (chunk: number[]) => Promise<readonly { id: number }[]>): Promise<Set<number>> {
  const found = new Set<number>();
  for (const chunk of chunkIds(ids)) for (const record of await load(chunk)) found.add(record.id);
  return found;
}

/** Where a value is, for a problem: its path in the resolved template (which also tells the parameter it came from). */
interface Place {
  readonly path: (string | number)[];
}

/**
 * Checks a resolved template against the service before anything is loaded, and returns what the
 * load goes on with (the studies context, the brands resolved).
 *
 * @throws TemplateError listing every problem (exit 2); UnknownBrandError or AmbiguousBrandError
 * when a brand is the only one; the service's own errors (exit 3) as they are.
 * @example
 * const { context, brands } = await checkAgainstService(client, resolveTemplate(template, { markets: 'GB,DE' }));
 */
export async function checkAgainstService(client: Client, template: ResolvedTemplate, options: { signal?: AbortSignal } = {}): Promise<CheckedTemplate> {
  const { data, sections } = template;
  // The look-ups run together on one signal of their own, which each request listens to: a
  // listener per look-up is expected, and none is added to the caller's signal but this link's.
  const link = linkSignals(options.signal);
  setMaxListeners(64, link.signal);
  const signal = { signal: link.signal };
  try {
    const brandRefs = [...new Set([...(data.brands ?? []), ...sections.flatMap((s) => ('brands' in s ? (s.brands ?? []) : []))])];
    const sectorIds = [...new Set([...(data.sectors ?? []), ...sections.flatMap((s) => (s.kind === 'sector-summary' ? (s.sectors ?? []) : []))])];
    const collectionIds = [...new Set([...(data.collections ?? []), ...sections.flatMap((s) => (s.kind === 'archetypes' && s.comparison && 'collection' in s.comparison ? [s.comparison.collection] : []))])];
    const categoryIds = [...new Set([...(data.categories ?? []), ...sections.flatMap((s) => (s.kind === 'archetypes' && s.comparison && 'category' in s.comparison ? [s.comparison.category] : []))])];
    const companyIds = [
      ...new Set([...(data.companies ?? []), ...sections.flatMap((s) => (s.kind === 'company-rollup' ? [...(s.companies ?? []), ...(s.chart_company === undefined ? [] : [s.chart_company])] : []))]),
    ];
    const audience = data.audience ?? 1;

    const [studies, catalogue, audienceFound, brands, sectors, collections, categories, companies] = await Promise.all([
      settle(loadReleasedStudies(client, template, link.signal)),
      settle(client.metricCatalogue(signal)),
      // All Adults (1) is every study's first audience: no look-up for it.
      audience === 1 ? Promise.resolve({ ok: true as const, value: true }) : settle(client.audiences.get(audience, {}, signal).then(() => true, (e: unknown) => (e instanceof NotFoundError ? false : Promise.reject(e)))),
      brandRefs.length === 0 ? Promise.resolve({ ok: true as const, value: [] as ResolvedBrand[] }) : settle(resolveBrands(client, brandRefs, signal)),
      settle(idsFound(sectorIds, (chunk) => client.sectors.all({ filter: { id: chunk }, fields: ['id'] }, signal))),
      settle(idsFound(collectionIds, (chunk) => client.collections.all({ filter: { id: chunk }, fields: ['id'] }, signal))),
      settle(idsFound(categoryIds, (chunk) => client.categories.all({ filter: { id: chunk }, fields: ['id'] }, signal))),
      settle(idsFound(companyIds, (chunk) => client.companies.all({ filter: { id: chunk }, fields: ['id'] }, signal))),
    ]);
    // The service's own failures (a wrong token, a service down) are not the template's problems:
    // the first of them, in this order, stops the check as it is.
    const studyRecords = valueOf(studies);
    const catalogueRecords = valueOf(catalogue);
    const audienceExists = valueOf(audienceFound);
    const ids = { sectors: valueOf(sectors), collections: valueOf(collections), categories: valueOf(categories), companies: valueOf(companies) };
    if (!brands.ok && !(brands.error instanceof UnknownBrandError || brands.error instanceof AmbiguousBrandError)) throw brands.error;

    const problems: TemplateProblem[] = [];
    const seen = new Set<string>();
    const add = (place: Place, message: (origin: string) => string) => {
      const from = parameterAt(template, place.path);
      const origin = from === undefined ? '' : ` (from parameter '${from}')`;
      const text = message(origin);
      // The same value from the same parameter in several places (focus_market in two sections) is said once.
      const key = origin === '' ? `${toJsonPath(place.path)}\u0000${text}` : text;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push({ path: toJsonPath(place.path), message: text });
    };

    await studyProblems(client, template, studyRecords, add, link.signal);
    metricProblems(template, catalogueRecords, add);
    if (!audienceExists) add({ path: ['data', 'audience'] }, (o) => `there is no audience ${audience}${o}; list them with 'brandscape audiences' (1 is All Adults)`);
    await idProblems(client, template, ids, add, link.signal);

    if (!brands.ok) {
      // A brand alone keeps its own error (its candidates or nearest names, line by line).
      if (problems.length === 0) throw brands.error;
      problems.push({ path: 'data.brands', message: (brands.error as Error).message });
    }
    if (problems.length > 0) throw new TemplateError(template.source, problems);
    return { context: studyContextOf(template, studyRecords), brands: brands.ok ? brands.value : [] };
  } finally {
    link.dispose();
  }
}

type Add = (place: Place, message: (origin: string) => string) => void;

/** The markets and years of a template without released studies. */
async function studyProblems(client: Client, template: ResolvedTemplate, studies: readonly Study[], add: Add, signal: AbortSignal): Promise<void> {
  const { data, sections } = template;
  const years = studies.map(studyYearOf);
  const codes = new Set(years.map((s) => s.countryCode));
  const nameOf = (code: string) => studies.find((s) => s.country?.code === code)?.country?.name ?? code;
  const fullYearsOf = (markets: readonly string[]) => [...new Set(years.filter((s) => s.fullYear && markets.includes(s.countryCode)).map((s) => s.year))].sort((a, b) => a - b);

  // Markets: every place one is named.
  const places: { path: (string | number)[]; code: string }[] = [
    ...data.markets.map((code, i) => ({ path: ['data', 'markets', i], code })),
    ...sections.flatMap((s, i) => ('markets' in s ? (s.markets ?? []).map((code, j) => ({ path: ['sections', i, 'markets', j], code })) : 'market' in s && s.market ? [{ path: ['sections', i, 'market'], code: s.market }] : [])),
  ];
  const unknown = places.filter((p) => !codes.has(p.code));
  if (unknown.length > 0) {
    const markets = await marketsWithStudies(client, signal);
    // The markets there are, once: a later unknown code is told only its own "Did you mean".
    unknown.forEach((p, i) => add({ path: p.path }, (o) => `no released study for market ${p.code}${o}. ${i === 0 ? unknownMarketsHint([p.code], markets) : didYouMeanMarket([p.code], markets)}`.trim()));
  }
  const known = (markets: readonly string[]) => markets.filter((m) => codes.has(m));

  // Years: each must have a released full-year study in one of the markets it is looked at in.
  const latest = latestYear(years, known(data.markets)).year;
  if (latest === undefined) return;
  const yearText = (value: YearValue, year: number) => (typeof value === 'number' ? String(year) : `${year} (${value})`);
  // Calendar years found missing in the data's markets: a section looking at them there is not
  // told again.
  const missingInData = new Set<number>();
  const checkYears = (path: (string | number)[], values: readonly YearValue[], markets: readonly string[], listed: boolean) => {
    const there = known(markets);
    if (there.length === 0) return;
    const have = fullYearsOf(there);
    const missing = values.map((value, index) => ({ value, index, year: toCalendarYear(value, latest) })).filter((m) => !have.includes(m.year));
    const inData = there.every((m) => data.markets.includes(m));
    const toSay = path[0] === 'data' || !inData ? missing : missing.filter((m) => !missingInData.has(m.year));
    if (path[0] === 'data') for (const m of missing) missingInData.add(m.year);
    if (toSay.length === 0) return;
    // Calendar years as ranges (-p years=1990..2100 misses 104 of them); `latest` ones each with its year.
    const asked = toSay.every((m) => typeof m.value === 'number') ? [yearRangesText(toSay.map((m) => m.year))] : toSay.map((m) => yearText(m.value, m.year));
    const where = there.length === 1 ? `${nameOf(there[0]!)} (${there[0]!})` : `any of ${there.join(', ')}`;
    // The path of the year itself when there is one, so that the message names its parameter.
    const at = listed && toSay.length === 1 ? [...path, toSay[0]!.index] : path;
    add({ path: at }, (o) => {
      const origin = o === '' && listed ? originOfItems(template, path, toSay.map((m) => m.index)) : o;
      return `no released full-year study in ${where} in ${listText(asked).replace(/ and ([^ ]+)$/, ' or $1')}${origin}; ${there.length === 1 ? 'it has' : 'those markets have'} ${have.length > 0 ? `studies in ${yearRangesText(have)}` : 'no full-year study'}`;
    });
  };
  checkYears(['data', 'years'], data.years ?? ['latest'], data.markets, data.years !== undefined);
  const dataYears = (data.years ?? ['latest']).map((y) => toCalendarYear(y, latest));
  sections.forEach((s, i) => {
    // A study's sections look at one market and year: the first market, and (as the sections
    // are built) the latest year for archetypes, the template's last year for the others.
    if (s.kind === 'archetypes' || s.kind === 'power-grid' || s.kind === 'pillars-profile') {
      const year = s.year ?? (s.kind === 'archetypes' ? 'latest' : Math.max(...dataYears));
      checkYears(['sections', i, ...(s.year === undefined ? [] : ['year'])], [year], [s.market ?? data.markets[0]!], false);
      return;
    }
    const markets = ('markets' in s ? s.markets : undefined) ?? data.markets;
    if ('year' in s && s.year !== undefined) checkYears(['sections', i, 'year'], [s.year], markets, false);
    if ('years' in s && s.years !== undefined) checkYears(['sections', i, 'years'], s.years, markets, true);
  });
}

/** ` (from parameter 'years')`: the parameters items of a list came from, or nothing. */
function originOfItems(template: ResolvedTemplate, path: readonly (string | number)[], indexes: readonly number[]): string {
  const names = [...new Set(indexes.map((i) => parameterAt(template, [...path, i])).filter((n): n is string => n !== undefined))];
  return names.length === 0 ? '' : ` (from parameter${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')})`;
}

/** The section kinds that take a `score_type`. */
const SCORED = new Set<SectionSpec['kind']>(['cross-market', 'cross-year', 'sector-summary', 'company-rollup', 'pillars-profile']);

/** The metric keys and groups of a template, and each section's score type, against the catalogue. */
function metricProblems(template: ResolvedTemplate, catalogue: MetricCatalogueRecords, add: Add): void {
  const { byMetric, byGroup } = catalogue.columns;
  const keys = [...byMetric.keys()];
  const checkKey = (path: (string | number)[], key: string) => {
    if (byMetric.has(key)) return true;
    const near = nearestKeys(key, keys);
    add({ path }, (o) => `'${key}' is not a metric key${o}; ${near.length > 0 ? `did you mean ${near.join(', ')}?` : `metric groups and their metrics: ${groupsText(byGroup, true)}`}`);
    return false;
  };
  const { data, sections } = template;
  const dataKeys = (data.metrics ?? []).filter((key, i) => checkKey(['data', 'metrics', i], key));
  const groups = data.metric_groups ?? (dataKeys.length === 0 && (data.metrics ?? []).length === 0 ? ['pillars'] : []);
  const groupKeys: string[] = [];
  groups.forEach((g, i) => {
    if (byGroup.has(g) && byGroup.get(g)!.length > 0) groupKeys.push(...byGroup.get(g)!);
    else if (data.metric_groups !== undefined) {
      const near = nearestKeys(g, [...byGroup.keys()].filter((k) => byGroup.get(k)!.length > 0));
      add({ path: ['data', 'metric_groups', i] }, (o) => `'${g}' is not a metric group${o}; ${near.length > 0 ? `did you mean ${near.join(', ')}? ` : ''}groups: ${groupsText(byGroup)}`);
    }
  });
  sections.forEach((s, i) => {
    const own = 'metrics' in s && s.metrics ? s.metrics.filter((key, j) => checkKey(['sections', i, 'metrics', j], key)) : undefined;
    // Sections that compare metric columns read one score type, percentile ranks unless they say.
    if (!SCORED.has(s.kind)) return;
    const scoreType = ('score_type' in s ? s.score_type : undefined) ?? 'rank';
    const metrics = s.kind === 'pillars-profile' ? ['differentiation', 'relevance', 'esteem', 'knowledge'] : (own ?? [...dataKeys, ...groupKeys]);
    const lacking = [...new Set(metrics)].filter((key) => byMetric.has(key) && !byMetric.get(key)!.includes(toMetricColumn(key, scoreType)));
    if (lacking.length === 0) return;
    const first = missingScoreTypeText(lacking[0]!, scoreType, byMetric.get(lacking[0]!)!).replace(/^Metric/, 'metric');
    const more = lacking.length > 1 ? `; nor ${lacking.length > 2 ? 'do' : 'does'} ${listText(lacking.slice(1).map((k) => `'${k}'`))}` : '';
    add({ path: ['sections', i, ...('score_type' in s && s.score_type !== undefined ? ['score_type'] : [])] }, (o) => `${first}${more}${o}; choose another score_type, or other metrics`);
  });
}

/** Ids of sectors, collections, categories and companies the service has no record of. */
async function idProblems(
  client: Client,
  template: ResolvedTemplate,
  found: { sectors: Set<number>; collections: Set<number>; categories: Set<number>; companies: Set<number> },
  add: Add,
  signal: AbortSignal,
): Promise<void> {
  const { data, sections } = template;
  const places = (key: 'sectors' | 'collections' | 'categories' | 'companies'): { path: (string | number)[]; id: number }[] => [
    ...(data[key] ?? []).map((id, i) => ({ path: ['data', key, i], id })),
    ...sections.flatMap((s, i) => {
      if (key === 'sectors' && s.kind === 'sector-summary') return (s.sectors ?? []).map((id, j) => ({ path: ['sections', i, 'sectors', j], id }));
      if (key === 'companies' && s.kind === 'company-rollup')
        return [...(s.companies ?? []).map((id, j) => ({ path: ['sections', i, 'companies', j] as (string | number)[], id })), ...(s.chart_company === undefined ? [] : [{ path: ['sections', i, 'chart_company'], id: s.chart_company }])];
      if (s.kind === 'archetypes' && s.comparison) {
        if (key === 'collections' && 'collection' in s.comparison) return [{ path: ['sections', i, 'comparison', 'collection'], id: s.comparison.collection }];
        if (key === 'categories' && 'category' in s.comparison) return [{ path: ['sections', i, 'comparison', 'category'], id: s.comparison.category }];
      }
      return [];
    }),
  ];
  const options = { signal };
  const missingSectors = places('sectors').filter((p) => !found.sectors.has(p.id));
  if (missingSectors.length > 0) {
    // Sectors are few and stable across markets: all of them are the choice.
    const all = await client.sectors.all({ fields: ['id', 'name'] }, options);
    const list = all.map((r) => `${r.id} ${r.name ?? ''}`.trim()).join(', ');
    missingSectors.forEach((p, i) => add(p, (o) => `there is no sector with id ${p.id}${o}; ${i === 0 ? `sectors: ${list}` : 'the sectors are listed above'}`));
  }
  const missingCollections = places('collections').filter((p) => !found.collections.has(p.id));
  if (missingCollections.length > 0) {
    const all = await client.collections.all({ fields: ['id', 'name'] }, options);
    const list = all.slice(0, 12).map((r) => `${r.id} ${r.name ?? ''}`.trim()).join(', ');
    missingCollections.forEach((p, i) =>
      add(p, (o) => `there is no collection with id ${p.id} that this token can see${o}; ${i === 0 ? `collections: ${list}${all.length > 12 ? `, ... (${all.length} in all: 'brandscape fetch collections')` : ''}` : 'the collections are listed above'}`),
    );
  }
  for (const p of places('categories').filter((x) => !found.categories.has(x.id))) {
    add(p, (o) => `there is no category with id ${p.id}${o}; categories vary by market: list them with 'brandscape fetch categories --search NAME'`);
  }
  for (const p of places('companies').filter((x) => !found.companies.has(x.id))) {
    add(p, (o) => `there is no company with id ${p.id}${o}; find a company's id with 'brandscape fetch companies --search NAME'`);
  }
}
