/**
 * The brandscape-data fetcher. Its rows are wide and dynamic: metadata plus the metric columns a
 * query selects. The fast, strict way to check them lists every expected column, which takes the
 * metric catalogue; so a query's first page is requested while the catalogue is fetched (they
 * overlap: one round trip, not two), and parsed once both are in.
 */
import type * as z from 'zod';
import { BRANDSCAPE_COMBINATIONS_TEXT, RESOURCES, isQualifyingBrandscapeFilter } from '../catalogue/endpoints.js';
import { ResponseShapeError, UsageError } from '../errors.js';
import { linkSignals } from '../link-signals.js';
import type { FetchPage, ListSize } from '../loader/types.js';
import { brandscapeIncludeShape, brandscapeRowLoose, brandscapeRowSchema, hasRowWidth } from '../schemas/brandscape.js';
import type { BrandscapeFetcher, MetricCatalogueRecords, RequestOptions } from './brandscape-client.js';
import { toListMethods, type ListSettings } from './list-methods.js';
import type { PageRequest } from './page-functions.js';
import type { BrandscapeParams } from './params.js';
import { fromCheckedListBody, fromItemBody, fromListBody } from './parse.js';
import { toQuerySerializer, type QueryInput } from './query.js';
import { toRowCheck } from './row-check.js';
import type { Transport } from './transport.js';

export interface BrandscapeFetcherContext {
  pageFunction: <T>(request: PageRequest<T>) => FetchPage<T>;
  transport: Transport;
  list: ListSettings;
  metricCatalogue: (options?: RequestOptions) => Promise<MetricCatalogueRecords>;
}

/**
 * The row schemas of a query: `strict` lists every expected column (undefined without the
 * catalogue), `check` tells without copying whether `strict` accepts rows unchanged.
 */
interface RowSchemas {
  strict: z.ZodObject | undefined;
  check: ((rows: readonly unknown[]) => boolean) | undefined;
  loose: z.ZodType;
}

type RowParams = Omit<BrandscapeParams, 'filter'> & { filter?: BrandscapeParams['filter'] };

const spec = RESOURCES['brandscape-data'];

function queryOf(params: RowParams): QueryInput {
  return {
    filter: params.filter,
    include: params.include,
    fields: params.fields,
    sort: params.sort,
    extra: {
      metric_keys: params.metricKeys,
      metric_group_keys: params.metricGroupKeys,
    },
  };
}

function checkQualifying(filter: BrandscapeParams['filter'] | undefined) {
  const names = Object.entries(filter ?? {})
    .filter(([, v]) => v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0))
    .map(([k]) => k);
  if (!isQualifyingBrandscapeFilter(names)) {
    throw new UsageError('Brandscape data needs a qualifying filter combination; the service refuses anything else.', {
      hint: `Use one of: ${BRANDSCAPE_COMBINATIONS_TEXT}.`,
    });
  }
}

/** The row check of each listed schema, made once. */
const checks = new WeakMap<z.ZodObject, NonNullable<RowSchemas['check']>>();

/** Listed fields of a row schema, cached per schema: the width every row must have. */
const widths = new WeakMap<z.ZodObject, number>();
const widthOf = (schema: z.ZodObject) => {
  let width = widths.get(schema);
  if (width === undefined) widths.set(schema, (width = Object.keys(schema.shape).length));
  return width;
};

/** The `data` member of an answer, when the answer is an object that has one (unparsed). */
const dataOf = (body: unknown): unknown => (typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined);

/**
 * A brandscape answer, a page or one row: parsed by the listed row schema (fast) when it fits
 * every row exactly, else by the catch-all. `rows` are the answer's rows as `hasRowWidth` takes
 * them; `parse` is `fromListBody` or `fromItemBody`.
 */
function fromBrandscapeBody<R>(schemas: RowSchemas, body: unknown, rows: unknown, parse: (record: z.ZodType, body: unknown, endpoint: string) => R, endpoint: string): R {
  // The listed schema strips what it does not list (its strict mode is quadratic in the row
  // width); rows exactly as wide as the list have nothing else.
  if (schemas.strict && hasRowWidth(rows, widthOf(schemas.strict))) {
    try {
      return parse(schemas.strict, body, endpoint);
    } catch (error) {
      if (!(error instanceof ResponseShapeError)) throw error;
    }
  }
  // The fast schema lists every column the catalogue knows. A column it does not know (a metric
  // added since) or a column left out goes through the catch-all, which keeps the first and
  // accepts the second; anything else wrong fails there too, with its JSON path.
  return parse(schemas.loose, body, endpoint);
}

/**
 * Creates the brandscape-data fetcher of a client.
 *
 * @example
 * const brandscape = createBrandscapeFetcher(context);
 * const rows = await brandscape.all({ filter: { studies: 381, audiences: 1 }, metricGroupKeys: ['pillars'] });
 */
export function createBrandscapeFetcher(context: BrandscapeFetcherContext): BrandscapeFetcher {
  const serialize = toQuerySerializer('brandscape-data', context.list.version);

  /**
   * The row schemas of a query. When the metric catalogue is unavailable (a token without its
   * scope), rows are checked by the catch-all; an unknown metric key is the caller's error.
   */
  async function schemasOf(params: RowParams, signal?: AbortSignal): Promise<RowSchemas> {
    const includes = (params.include ?? []).map<keyof typeof brandscapeIncludeShape>((i) => (i === 'audiences' ? 'audience' : i));
    let strict: z.ZodObject | undefined;
    let check: RowSchemas['check'];
    try {
      const { columns } = await context.metricCatalogue(signal ? { signal } : undefined);
      const metricColumns = columns.columnsFor(params.metricKeys, params.metricGroupKeys);
      strict = brandscapeRowSchema({ metricColumns, includes, ...(params.fields ? { fields: params.fields } : {}), unknownColumns: 'strip' });
      check = checks.get(strict) ?? toRowCheck(strict);
      if (check) checks.set(strict, check);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      strict = undefined;
    }
    return { strict, check, loose: brandscapeRowLoose };
  }

  const fetchPageOf = (params: BrandscapeParams): FetchPage<unknown> => {
    checkQualifying(params.filter);
    // Started now, awaited by the parser: page 1 and the catalogue travel together.
    let schemas: Promise<RowSchemas> | undefined;
    const input = queryOf(params);
    const fetchPage = context.pageFunction({
      path: spec.path,
      scope: spec.scope,
      paramsOf: (page, perPage) => serialize({ ...input, page, perPage }),
      parse: async (body, url) => {
        const rows = dataOf(body);
        const known = await (schemas ??= schemasOf(params));
        // Rows exactly as the listed schema has them are taken as they are (nothing to copy).
        if (known.check && Array.isArray(rows) && known.check(rows)) return fromCheckedListBody(body, rows, url);
        return fromBrandscapeBody(known, body, rows, fromListBody, url);
      },
    });
    /** Set once the schemas are known: later pages need no watch on them. */
    let settled = false;
    return async (page, perPage, signal, pageContext) => {
      const schemasNow = (schemas ??= schemasOf(params, signal));
      if (settled) return fetchPage(page, perPage, signal, pageContext);
      // A query the catalogue refuses (an unknown metric key) is the caller's error, whatever the
      // service answers: no use waiting for the page.
      const link = linkSignals(signal);
      schemasNow.then(
        () => (settled = true),
        (error: unknown) => link.abort(error),
      );
      // Nor for starting the next pages: page 1's size is passed on once the catalogue accepts the query.
      const sized = pageContext?.sized;
      const context = sized ? { ...pageContext, sized: (size: ListSize) => void schemasNow.then(() => sized(size), () => {}) } : pageContext;
      try {
        return await fetchPage(page, perPage, link.signal, context);
      } catch (error) {
        await schemasNow;
        throw error;
      } finally {
        link.dispose();
      }
    };
  };

  const list = toListMethods<BrandscapeParams, unknown>(fetchPageOf, context.list);
  return {
    ...list,
    async get(id: number, params: RowParams = {}, options?: RequestOptions) {
      if (!Number.isInteger(id)) throw new UsageError(`A record id is an integer, got ${String(id)}.`);
      const [schemas, answer] = await Promise.all([
        schemasOf(params, options?.signal),
        context.transport.get(`${spec.path}/${id}`, serialize(queryOf(params)), { signal: options?.signal, scope: spec.scope }),
      ]);
      return fromBrandscapeBody(schemas, answer.body, [dataOf(answer.body)], fromItemBody, answer.url);
    },
  } as unknown as BrandscapeFetcher;
}
