/**
 * `createClient()`: one typed fetcher per resource of the Brand Data Service. It only assembles
 * the layers, each in a module of its own: settings (`client-options.ts`), the transport (auth,
 * time limit, retries, rate governor), page functions (transport, parser and answer cache, for the
 * loader), the list methods shared by every resource, and the resource, brandscape, catalogue
 * and archetypes fetchers.
 */
import { RESOURCES, RESOURCE_NAMES, type ResourceName } from '../catalogue/endpoints.js';
import { UsageError, createSecrets } from '../errors.js';
import { createDiskCache } from '../loader/cache.js';
import { createArchetypesTool } from './archetypes.js';
import type { BrandscapeClient, DynamicFetcher, ResourceFetcher, ResourcePath } from './brandscape-client.js';
import { createBrandscapeFetcher } from './brandscape-fetcher.js';
import { fromClientOptions, type ClientOptions } from './client-options.js';
import { checkHealth } from './health.js';
import { createHttpGet, fromFetch } from './http-get.js';
import { createNotifier } from './listener-notifier.js';
import { createMetricCatalogue } from './metric-catalogue.js';
import { createPageFunctions } from './page-functions.js';
import type { ListResource, SubResource } from './params.js';
import { createBestCountriesFetcher } from './best-countries.js';
import { createToolMethods } from './tools.js';
import { createBestCountriesRaw, createCountryIndicators } from './undocumented-lists.js';
import { autoLogin } from './embed.js';
import { createRateGovernor } from './rate-governor.js';
import { createRecordSchemas, createResourceFetcher, type ResourceFetcherContext } from './resource-fetcher.js';
import { toRetryOptions } from './retry-policy.js';
import { createTransport } from './transport.js';

// The client's public types are declared in brandscape-client.ts and client-options.ts; modules
// written against this file's earlier shape import them from here.
export type { BrandscapeClient, FetchAllOptions, ResourceFetcher, BrandscapeFetcher } from './brandscape-client.js';
export type { ClientOptions } from './client-options.js';

const isListResource = (name: ResourceName): name is ListResource => name !== 'brandscape-data' && name !== 'study-brands' && name !== 'study-categories';

/**
 * Creates a client. With no options it reads `BRANDSCAPE_BASE_URL`, `BRANDSCAPE_TOKEN` and
 * `BRANDSCAPE_API_VERSION`.
 *
 * @example
 * const client = createClient({ baseUrl: emulator.url, token: emulator.token });
 * const uk = await client.brandscape.all({
 *   filter: { country_code: 'GB', year_number: 2024, audiences: 1 },
 *   metricGroupKeys: ['pillars'],
 *   include: ['brand', 'sector'],
 * });
 */
export function createClient(options: ClientOptions = {}): BrandscapeClient {
  const settings = fromClientOptions(options);
  const { baseUrl, version, token, now, sleep } = settings;
  // This client's secrets: every error, event, log line and cache file of it is scrubbed of them.
  const secrets = createSecrets(typeof token === 'string' ? [token] : []);
  const notify = createNotifier(options.onListenerError, secrets);
  const transport = createTransport({
    baseUrl,
    version,
    ...(token === undefined ? {} : { token }),
    secrets,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.slowAfterMs === undefined ? {} : { slowAfterMs: options.slowAfterMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
    ...(options.random ? { random: options.random } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    httpGet: options.fetch ? fromFetch(options.fetch) : createHttpGet(),
    notify,
    governor: createRateGovernor({
      now,
      sleep,
      // A request never waits for a 429 longer than the retry policy would wait for the 429 itself.
      maxBlockMs: toRetryOptions(options.retry).maxRetryAfterMs,
      ...(options.rateWindowMs === undefined ? {} : { windowMs: options.rateWindowMs }),
    }),
    sleep,
    now,
  });
  const pageFunction = createPageFunctions({
    transport,
    baseUrl,
    version,
    token,
    cache: options.cache ? createDiskCache({ ...options.cache, now, redact: secrets.redact }) : undefined,
    onEvent: options.onEvent,
    notify,
  });
  const list = { concurrency: settings.concurrency, version, limits: settings.limits };
  const context: ResourceFetcherContext = { pageFunction, transport, list, recordSchema: createRecordSchemas() };

  /** The typed facade of a resource's fetcher: the compiler's view of what its schema parses. */
  const fetcher = <R extends ListResource | SubResource>(resource: R, path: string): ResourceFetcher<R> =>
    createResourceFetcher(resource, path, context) as unknown as ResourceFetcher<R>;

  const brandMetrics = fetcher('brand-metrics', 'brand-metrics');
  const brandMetricGroups = fetcher('brand-metric-groups', 'brand-metric-groups');
  const metricCatalogue = createMetricCatalogue(brandMetrics, brandMetricGroups);

  const studies = Object.assign(fetcher('studies', 'studies'), {
    brands: (studyId: number) => {
      if (!Number.isInteger(studyId)) throw new UsageError(`A study id is an integer, got ${String(studyId)}.`);
      return fetcher('study-brands', `studies/${studyId}/brands`);
    },
    categories: (studyId: number) => {
      if (!Number.isInteger(studyId)) throw new UsageError(`A study id is an integer, got ${String(studyId)}.`);
      return fetcher('study-categories', `studies/${studyId}/categories`);
    },
  });

  const dynamicFetchers = new Map<string, DynamicFetcher>();
  const resource = (path: ResourcePath): DynamicFetcher => {
    let found = dynamicFetchers.get(path);
    if (found) return found;
    // The path comes from text at run time: checked here, whatever the compiler was told.
    const study = /^studies\/(\d+)\/(brands|categories)$/.exec(path);
    const listed = RESOURCE_NAMES.filter(isListResource);
    const name = study ? (study[2] === 'brands' ? 'study-brands' : 'study-categories') : listed.find((r) => r === path);
    if (name === undefined) {
      throw new UsageError(`Unknown resource '${path}'.`, {
        hint: `Resources: ${listed.join(', ')}, studies/<id>/brands, studies/<id>/categories; brandscape data has its own fetcher (client.brandscape).`,
      });
    }
    found = createResourceFetcher(name, study ? path : RESOURCES[name].path, context);
    dynamicFetchers.set(path, found);
    return found;
  };

  return {
    baseUrl,
    version,
    concurrency: settings.concurrency,
    audiences: fetcher('audiences', 'audiences'),
    audienceGroups: fetcher('audience-groups', 'audience-groups'),
    brands: fetcher('brands', 'brands'),
    brandMetrics,
    brandMetricGroups,
    categories: fetcher('categories', 'categories'),
    cities: fetcher('cities', 'cities'),
    collections: fetcher('collections', 'collections'),
    companies: fetcher('companies', 'companies'),
    countries: Object.assign(fetcher('countries', 'countries'), { indicators: createCountryIndicators(context) }),
    gicsSectors: fetcher('gics-sectors', 'gics-sectors'),
    regions: fetcher('regions', 'regions'),
    sectors: fetcher('sectors', 'sectors'),
    stockExchanges: fetcher('stock-exchanges', 'stock-exchanges'),
    stockPrices: fetcher('stock-prices', 'stock-prices'),
    studies,
    years: fetcher('years', 'years'),
    operatingCompanies: fetcher('operating-companies', 'operating-companies'),
    ceeOpinions: fetcher('cee-opinions', 'cee-opinions'),
    tools: fetcher('tools', 'tools'),
    bestCountriesMetrics: fetcher('best-countries-metrics', 'best-countries-metrics'),
    bestCountriesMetricGroups: fetcher('best-countries-metric-groups', 'best-countries-metric-groups'),
    bestCountriesFactors: fetcher('best-countries-factors', 'best-countries-factors'),
    bestCountries: { ...createBestCountriesFetcher(transport), raw: createBestCountriesRaw(context) },
    turboPitch: createToolMethods(transport, version),
    brandscape: createBrandscapeFetcher({ pageFunction, transport, list, metricCatalogue }),
    // One function behind the two signatures: `{ missing: 'note' }` is the only one answered with an ArchetypeAnswer.
    archetypes: createArchetypesTool(transport, version) as BrandscapeClient['archetypes'],
    metricCatalogue,
    autoLogin: async (user, requestOptions) => {
      const key = typeof token === 'function' ? await token() : token;
      secrets.add(key);
      if (key === undefined) throw new UsageError('autoLogin needs a token with the auto-login permission (BRANDSCAPE_TOKEN or the token option).');
      return autoLogin(user, {
        baseUrl,
        token: key,
        secrets,
        now,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(requestOptions?.signal ? { signal: requestOptions.signal } : {}),
      });
    },
    health: () =>
      checkHealth({
        baseUrl,
        ...(token === undefined ? {} : { token }),
        secrets,
        fetch: options.fetch ?? fetch,
        now,
        ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
      }),
    resource,
  };
}
