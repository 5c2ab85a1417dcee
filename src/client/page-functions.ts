/**
 * Turns a list request (a path, the query of any page, a parser) into the loader's page function:
 * the transport fetches, the parser gives the records a shape, and, when the client has an answer
 * cache, `withLoadCache` decides between the cache and the service. The one place where the
 * client's layers meet the loader's.
 */
import { createHash } from 'node:crypto';
import type { ApiVersion } from '../catalogue/page-limits.js';
import type { ResponseCache } from '../loader/cache.js';
import type { FetchPage, FetchPageContext, ParsedPage } from '../loader/types.js';
import { withLoadCache, type PageSource } from '../loader/with-load-cache.js';
import { redactUrl } from '../errors.js';
import { envelopeOf, fromJsonBytes } from './from-json-bytes.js';
import { listSizeOf } from './parse.js';
import type { Notify } from './listener-notifier.js';
import type { TransportEvent } from './transport-event.js';
import type { TokenSource, Transport } from './transport.js';

/** One list request, for any page. */
export interface PageRequest<T> {
  /** Path after the version, e.g. `brands` or `studies/3/brands`. */
  path: string;
  /** The scope the endpoint needs (named in the advice of a 401/403). */
  scope: string;
  /** The query of one page, in a stable order (it is part of the cache key). */
  paramsOf: (page: number, perPage: number) => URLSearchParams;
  /** Gives a page's JSON its shape; `url` names the request in a shape error. */
  parse: (body: unknown, url: string) => ParsedPage<T> | Promise<ParsedPage<T>>;
}

export interface PageFunctionsOptions {
  transport: Transport;
  baseUrl: string;
  version: ApiVersion;
  token: TokenSource | undefined;
  cache?: ResponseCache | undefined;
  /** The client's own listener (cache events go to it). */
  onEvent?: ((event: TransportEvent) => void) | undefined;
  notify: Notify;
}

/**
 * Who asks, as a cache key says it: a truncated SHA-256 of the token under a fixed prefix. It
 * tells tokens apart, so one user never reads another's cached answers, yet cannot be turned back
 * into the token (tokens are long and random), so it may be written to disk.
 *
 * @example
 * toCredentialId('my-token') // 16 hex digits
 * toCredentialId(undefined) // 'anonymous'
 */
export function toCredentialId(token: string | undefined): string {
  if (token === undefined || token === '') return 'anonymous';
  return createHash('sha256').update(`brandscape-kit/cache-credential\n${token}`).digest('hex').slice(0, 16);
}

/** A 2xx body decoded, its bytes kept for the cache (the transport reuses its own). */
const keepingBytes = (bytes: Buffer) => ({ json: fromJsonBytes(bytes), bytes: Buffer.from(bytes) });

/**
 * What a page function does when its answer arrives, before the answer is parsed: frees the
 * page's request slot, and tells the loader page 1's size read from the bytes (it then requests
 * the next pages).
 */
function onAnswerOf(context: FetchPageContext | undefined): ((bytes: Buffer) => void) | undefined {
  const answered = context?.answered;
  const sized = context?.sized;
  if (!sized) return answered;
  return (bytes) => {
    answered?.();
    const size = listSizeOf(envelopeOf(bytes));
    if (size) sized(size);
  };
}

/**
 * The factory of a client's page functions.
 *
 * @example
 * const pageFunction = createPageFunctions({ transport, baseUrl, version: 'v2', token, notify });
 * const fetchPage = pageFunction({ path: 'brands', scope: 'Brands: Read', paramsOf, parse });
 * await loadAll(fetchPage, { version: 'v2' });
 */
export function createPageFunctions(options: PageFunctionsOptions): <T>(request: PageRequest<T>) => FetchPage<T> {
  const { transport, cache } = options;
  // The whole base URL, path included, without credentials (two services on one host under
  // different paths must not share answers).
  const service = redactUrl(options.baseUrl.replace(/\/+$/, ''));
  const credential = async () => toCredentialId(typeof options.token === 'function' ? await options.token() : options.token);

  return <T>(request: PageRequest<T>): FetchPage<T> => {
    const { path, scope, paramsOf, parse } = request;
    if (!cache) {
      return async (page, perPage, signal, context) => {
        const answer = await transport.get(path, paramsOf(page, perPage), { signal, scope, onEvent: context?.onEvent, onAnswer: onAnswerOf(context) });
        return parse(answer.body, answer.url);
      };
    }
    // Called only for an answer from the service (withLoadCache decides before it asks).
    const source: PageSource<T> = async (page, perPage, signal, context) => {
      const answer = await transport.get(path, paramsOf(page, perPage), { signal, scope, onEvent: context?.onEvent, onAnswer: onAnswerOf(context), decode: keepingBytes });
      return { page: await parse(answer.body.json, answer.url), bytes: answer.body.bytes };
    };
    const urlOf = (page: number, perPage: number) => transport.urlOf(path, paramsOf(page, perPage));
    return withLoadCache(source, {
      cache,
      keyOf: async (page, perPage) => ({ service, credential: await credential(), version: options.version, path, query: paramsOf(page, perPage).toString() }),
      parse: (text, page, perPage) => parse(JSON.parse(text), urlOf(page, perPage)),
      onEvent: (event, page, perPage) => options.notify(options.onEvent, { ...event, method: 'GET', url: urlOf(page, perPage) }),
    });
  };
}
