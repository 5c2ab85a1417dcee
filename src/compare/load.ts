/**
 * The client calls of a comparison: the brands resolved, the released studies, the metric
 * catalogue and the audience at once; then the studies the brands are in (without markets named);
 * then only the brands' rows of the chosen studies. What to ask for comes from the plan (plan.ts);
 * what the answers mean is the plan's and the shape's business.
 */
import type { StudyRecord } from '../frames/brandscape-input.js';
import type { BrandscapeClient } from '../client/create-client.js';
import { NotFoundError } from '../errors.js';
import type { BrandscapeInput } from '../frames/brandscape-input.js';
import { linkSignals } from '../link-signals.js';
import { loadComparisonInput, type LoadedProvenance, type LoadedQuery } from '../load/load-comparison-input.js';
import { resolveBrands, type ResolvedBrand } from '../load/resolve-brands.js';
import { marketsWithStudies, unknownMarketsHint } from '../report/service-hints.js';
import { COMPARE_ERRORS } from './messages.js';
import { DEFAULT_GROUP, chooseMetrics, fromStudyRows, studiedBy, unknownMarkets, type ComparisonRequest, type MetricChoice, type StudyInfo } from './plan.js';
import type { CompareBrandsOptions } from './types.js';

/** What a comparison asks of a client. */
export type CompareClient = Pick<BrandscapeClient, 'baseUrl' | 'version' | 'brandscape' | 'studies' | 'brands' | 'companies' | 'stockPrices' | 'metricCatalogue' | 'audiences' | 'countries'>;

export type Catalogue = Awaited<ReturnType<CompareClient['metricCatalogue']>>;

/** The first round: what every later step needs. */
export interface Basics {
  readonly brands: ResolvedBrand[];
  /** The released studies (of the markets named), with their market and year. */
  readonly studies: StudyInfo[];
  /** The study records as loaded, which the rows' load reuses. */
  readonly studyRecords: readonly StudyRecord[];
  /** The metrics named, checked against the catalogue; undefined for the default (not waited for). */
  readonly named: MetricChoice | undefined;
  readonly audienceName: string;
  /** The catalogue, still loading when nothing was named: the rows' load does not wait for it. */
  readonly catalogue: Promise<Catalogue>;
  readonly queries: LoadedQuery[];
}

/**
 * Brands, studies, the metric catalogue and the audience at once: each can fail the command for a
 * reason the user must fix, and none needs another. Metrics or groups named are checked against the
 * catalogue before any row is asked for; the default (the pillars) needs no check, so then the
 * rows' request does not wait for the catalogue, which answers last of these. The catalogue is
 * still read before any row is used (`loadRows`), and its failure cancels the rows' request.
 */
export async function loadBasics(client: CompareClient, request: ComparisonRequest, options: CompareBrandsOptions): Promise<Basics> {
  const signalOption = options.signal ? { signal: options.signal } : {};
  const { marketsGiven, audienceId } = request;
  // Whole studies: `fields[studies]` would cut the answer by ~60%, but no documented example
  // combines sparse fields with a one-to-one include whose linking keys (country_id, year_id) are
  // not asked for, and a service that needs them would answer studies without country and year.
  const studyParams = { filter: { ...(marketsGiven ? { country_codes: marketsGiven } : {}), released: true }, include: ['country', 'year'] as const };
  const brandsLoad = resolveBrands(client, request.refs, signalOption);
  const studiesLoad = client.studies.all(studyParams, signalOption);
  // Asked after those, which the rows' request waits for (a service answers in turn).
  const catalogue = client.metricCatalogue(signalOption);
  // Awaited later, wherever the comparison goes on; a failure before then is reported there.
  catalogue.catch(() => {});
  const [brands, studyRecords, named, audienceName] = await Promise.all([
    brandsLoad,
    studiesLoad,
    request.byDefault ? undefined : catalogue.then((c) => chooseMetrics(c, options)),
    audienceId === 1
      ? Promise.resolve('All Adults')
      : client.audiences.get(audienceId, {}, signalOption).then(
          (a) => a.name ?? `Audience ${audienceId}`,
          (error: unknown) => {
            if (error instanceof NotFoundError) throw COMPARE_ERRORS.noAudience(audienceId);
            throw error;
          },
        ),
  ]);
  const queries: LoadedQuery[] = [{ resource: 'studies', params: { filter: studyParams.filter, include: [...studyParams.include] }, records: studyRecords.length }];
  return { brands, studies: fromStudyRows(studyRecords), studyRecords, named, audienceName, catalogue, queries };
}

/** Markets named by code that have no released study: a UsageError listing the codes there are (one more request, only then). */
export async function checkMarkets(client: CompareClient, given: readonly string[], studies: readonly StudyInfo[], signal: AbortSignal | undefined): Promise<void> {
  const unknown = unknownMarkets(given, studies);
  if (unknown.length === 0) return;
  throw COMPARE_ERRORS.unknownMarkets(unknown, unknownMarketsHint(unknown, await marketsWithStudies(client, signal)));
}

/** The released studies any of the brands is in. */
export async function loadStudiesOfBrands(client: CompareClient, brands: readonly ResolvedBrand[], released: readonly StudyInfo[], signal: AbortSignal | undefined): Promise<{ studied: StudyInfo[]; query: LoadedQuery }> {
  const ids = [...new Set(brands.map((b) => b.id))];
  const params = { filter: { id: ids }, fields: ['id'], include: ['studies'] } as const;
  const records = await client.brands.all(params, signal ? { signal } : {});
  return { studied: studiedBy(records, released), query: { resource: 'brands', params: { filter: params.filter, include: [...params.include] }, records: records.length } };
}

/** What the rows' load asks for. */
export interface RowsRequest {
  readonly markets: readonly string[];
  readonly years: readonly number[];
  readonly audienceId: number;
  readonly brandIds: readonly number[];
  readonly studies: readonly StudyInfo[];
  /** The metrics named, or undefined for the default group. */
  readonly named: MetricChoice | undefined;
}

/**
 * Only the brands' rows of the chosen studies, and the catalogue that types them. The catalogue's
 * failure cancels the rows' load; its verdict on the default metrics (a service without the
 * pillars) comes before a failure of the load it cancelled.
 */
export async function loadRows(
  client: CompareClient,
  basics: Basics,
  rows: RowsRequest,
  options: CompareBrandsOptions,
): Promise<{ input: BrandscapeInput & LoadedProvenance; catalogue: Catalogue; metrics: MetricChoice }> {
  const requested = rows.named ?? { metricKeys: [], groupKeys: [DEFAULT_GROUP] };
  const link = linkSignals(options.signal);
  basics.catalogue.catch((error: unknown) => link.abort(error));
  let input: BrandscapeInput & LoadedProvenance;
  try {
    input = await loadComparisonInput(client, {
      countryCodes: rows.markets,
      years: rows.years,
      audience: rows.audienceId,
      ...(requested.metricKeys.length > 0 ? { metricKeys: requested.metricKeys } : {}),
      ...(requested.groupKeys.length > 0 ? { metricGroupKeys: requested.groupKeys } : {}),
      only: { brands: rows.brandIds, studies: rows.studies.map((s) => s.id) },
      // The released studies loaded above cover the chosen ones; the rows carry the brands' names,
      // sectors and companies (their includes), so neither is asked for again.
      studies: basics.studyRecords,
      brandRecords: false,
      load: { signal: link.signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
    });
  } catch (error) {
    // The catalogue's verdict comes first (a service without the pillars), and its own failure
    // (it cancelled the load) is the cause: awaiting it throws either.
    if (rows.named === undefined) chooseMetrics(await basics.catalogue, options);
    throw error;
  } finally {
    link.dispose();
  }
  const catalogue = await basics.catalogue;
  return { input, catalogue, metrics: rows.named ?? chooseMetrics(catalogue, options) };
}
