/**
 * One error family for the whole toolkit (DESIGN.md rule 2).
 *
 * Every error says what happened and what to do about it. Messages pass through `redact()`:
 * bearer credentials, token-like query parameters and credentials in URLs never appear in a
 * message. A client's own token is known only to that client (`createSecrets`, held by it), which
 * scrubs every error it lets out with it, so a token echoed back by the service is masked too.
 *
 * Who reads a message: library errors name options as a call does (`brands`, `scoreType`); a
 * `UsageError` written with an option namer (`Wording`) is said again in a front end's words by
 * `wordedFor`: the CLI's flags (`cli/flags.ts`), the MCP tools' parameters (`mcp/tool-result.ts`).
 *
 * Where messages live: a use case whose errors share a vocabulary keeps them in one catalogue
 * (`compare/messages.ts`: the axis, metrics, markets, years, with the examples each reader sees).
 * The other rooms' messages stay next to the check they explain: most are one of a kind (a path, a
 * byte limit, a parsed field), their text quotes the values the check just computed, and a
 * catalogue entry per check would only move the sentence away from the condition it describes.
 * Statuses map to advice in one place (`fromHttpStatus`).
 */

/** Shorter values would mask ordinary words; real tokens are long. */
const MIN_SECRET_LENGTH = 6;

/**
 * The text with the given secrets, bearer credentials, token-like query parameters and URL
 * credentials replaced by `***`. Pure: what counts as a secret is given, not remembered.
 *
 * @example
 * redact('GET /brands?token=abc123 failed for sEcReT-42', ['sEcReT-42']) // 'GET /brands?token=*** failed for ***'
 */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join('***');
  return out
    .replace(/(Bearer\s+)[^\s"',;]+/gi, '$1***')
    .replace(/([?&](?:access_token|token|api_key|apikey|key|secret)=)[^&#\s"]+/gi, '$1***')
    .replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, '$1***@');
}

/** The secrets one client (or server) knows, and what it says with them masked. */
export interface Secrets {
  /** Adds a secret (a token, or each token a provider returns); short or absent values are ignored. */
  add: (value: string | undefined) => void;
  /** `redact(text)` with these secrets. */
  redact: (text: string) => string;
  /** The same error with these secrets masked in its message, hint and stack (other values pass). */
  scrub: <E>(error: E) => E;
}

/**
 * The secrets of one client: its token and those its token provider returned. Nothing is shared
 * between clients or kept after the client is gone.
 *
 * @example
 * const secrets = createSecrets(['sEcReT-42']);
 * secrets.redact('echoed sEcReT-42') // 'echoed ***'
 */
export function createSecrets(initial: Iterable<string | undefined> = []): Secrets {
  const known = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) known.add(value);
  };
  for (const value of initial) add(value);
  const mask = (text: string) => redact(text, known);
  return {
    add,
    redact: mask,
    scrub<E>(error: E): E {
      if (!(error instanceof Error) || known.size === 0) return error;
      // Rewritten in place: the error keeps its class, fields and cause chain.
      for (const key of ['message', 'stack', 'hint', 'serviceMessage', 'url'] as const) {
        const value: unknown = Reflect.get(error, key);
        if (typeof value === 'string' && value !== mask(value)) Object.defineProperty(error, key, { value: mask(value), writable: true, configurable: true });
      }
      return error;
    },
  };
}

/** A URL fit for a message: credentials and token parameters removed. */
export function redactUrl(url: string | URL): string {
  return redact(String(url));
}

export interface BrandscapeErrorOptions {
  /** What the user can do about it; appended to the message. */
  hint?: string;
  cause?: unknown;
}

/** Base class of every error the toolkit throws. `code` is stable and machine-readable. */
export class BrandscapeError extends Error {
  override name = 'BrandscapeError';
  readonly code: string;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: BrandscapeErrorOptions = {}) {
    const full = options.hint ? `${message} ${options.hint}` : message;
    super(redact(full), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint === undefined ? undefined : redact(options.hint);
  }
}

/** An option a message names, by the library's name for it (`brands`, `scoreType`), with an example value or not. */
export interface OptionRef {
  readonly option: string;
  readonly value?: string | number | boolean | readonly (string | number)[];
}

/**
 * How a reader names options: a notebook reads `brands` (the option of the call), the command line
 * `--brands`, an MCP tool's caller its parameter `brands`. Each front end brings its own.
 */
export type OptionNamer = (ref: OptionRef) => string;

/** A message or hint that names options: written once, worded for each reader. Plain text names none. */
export type Wording = string | ((name: OptionNamer) => string);

const codeValue = (value: NonNullable<OptionRef['value']>): string =>
  typeof value === 'string' ? `'${value}'` : Array.isArray(value) ? `[${value.map(codeValue).join(', ')}]` : String(value);

/**
 * The library's wording: the option as a call names it, with a value as code.
 *
 * @example
 * OPTION_NAMES({ option: 'by', value: 'market' }) // "by: 'market'"
 * OPTION_NAMES({ option: 'years', value: [2021, 2022] }) // 'years: [2021, 2022]'
 */
export const OPTION_NAMES: OptionNamer = ({ option, value }) => (value === undefined ? option : `${option}: ${codeValue(value)}`);

const wordWith = (wording: Wording, name: OptionNamer): string => (typeof wording === 'string' ? wording : wording(name));

export interface UsageErrorOptions {
  /** What the user can do about it; appended to the message. */
  hint?: Wording;
  cause?: unknown;
}

/**
 * The caller used the toolkit wrongly: a bad option, a query the service would refuse. Exit code 2.
 * Its message names options as the library's caller knows them (`brands`); `wordedFor` says the
 * same to a reader who knows them by other names (`--brands` on the command line).
 *
 * @example
 * const error = new UsageError((o) => `${o({ option: 'by', value: 'year' })} compares several years.`);
 * error.message; // "by: 'year' compares several years."
 * error.wordedFor(({ option, value }) => `--${option} ${value}`); // '--by year compares several years.'
 */
export class UsageError extends BrandscapeError {
  override name = 'UsageError';
  readonly #message: Wording;
  readonly #hint: Wording | undefined;
  readonly #asWritten: string;
  constructor(message: Wording, options: UsageErrorOptions = {}) {
    const { hint, ...rest } = options;
    super('usage', wordWith(message, OPTION_NAMES), { ...rest, ...(hint === undefined ? {} : { hint: wordWith(hint, OPTION_NAMES) }) });
    this.#message = message;
    this.#hint = hint;
    this.#asWritten = this.message;
  }

  /** The message and hint with the options named as `name` says (a front end's flags or parameters). */
  wordedFor(name: OptionNamer): string {
    // A client that scrubbed its secrets from the message (in place) leaves the scrubbed text,
    // in the library's words: safer than wording the original again.
    if (this.message !== this.#asWritten) return this.message;
    const message = wordWith(this.#message, name);
    return this.#hint === undefined ? redact(message) : redact(`${message} ${wordWith(this.#hint, name)}`);
  }
}

export interface RequestInfo {
  method: string;
  /** Without secrets. */
  url: string;
}

/** The service answered with an error status. */
export class HttpError extends BrandscapeError {
  override name = 'HttpError';
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** The service's own message, when its body carried one. */
  readonly serviceMessage: string | undefined;

  constructor(
    request: RequestInfo,
    status: number,
    serviceMessage: string | undefined,
    options: BrandscapeErrorOptions & { code?: string } = {},
  ) {
    // The service's messages usually end with a full stop; the sentence adds its own.
    const said = serviceMessage ? `: ${serviceMessage.trim().replace(/\.+$/, '')}` : '';
    super(options.code ?? 'http', `${request.method} ${redactUrl(request.url)} answered ${status}${said}.`, options);
    this.status = status;
    this.method = request.method;
    this.url = redactUrl(request.url);
    this.serviceMessage = serviceMessage === undefined ? undefined : redact(serviceMessage);
  }
}

/** 401: no valid token, or (v2) the token lacks the endpoint's scope. */
export class AuthenticationError extends HttpError {
  override name = 'AuthenticationError';
}
/** 403: the user may not perform this action (v1: the token lacks permission). */
export class PermissionError extends HttpError {
  override name = 'PermissionError';
}
/** 404: no such record or route. */
export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
}
/** 400 or 422: the service refused the parameters. */
export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
}
/** 5xx: a server-side failure; retried by the transport before it surfaces. */
export class ServerError extends HttpError {
  override name = 'ServerError';
}

/** 429: over the rate limit, still after the retries the policy allows. */
export class RateLimitError extends HttpError {
  override name = 'RateLimitError';
  /** How long the service asked to wait, in milliseconds, if it said. */
  readonly retryAfterMs: number | undefined;
  constructor(request: RequestInfo, serviceMessage: string | undefined, retryAfterMs: number | undefined, options: BrandscapeErrorOptions = {}) {
    super(request, 429, serviceMessage, { code: 'rate_limited', ...options });
    this.retryAfterMs = retryAfterMs;
  }
}

/** What to do about each status: the one place where statuses map to classes and advice. */
export function fromHttpStatus(
  request: RequestInfo,
  status: number,
  serviceMessage: string | undefined,
  extra: { retryAfterMs?: number; scope?: string; version?: string; location?: string } = {},
): HttpError {
  const scope = extra.scope ? ` ('${extra.scope}')` : '';
  switch (status) {
    case 400:
    case 422:
      return new BadRequestError(request, status, serviceMessage, {
        code: 'bad_request',
        hint: 'Check the parameter the service named; the endpoint catalogue lists what each resource accepts.',
      });
    case 401:
      return new AuthenticationError(request, status, serviceMessage, {
        code: 'unauthenticated',
        hint:
          extra.version === 'v1'
            ? 'Check the token (BRANDSCAPE_TOKEN): it is missing, mistyped or revoked.'
            : `Check the token (BRANDSCAPE_TOKEN): it is missing, revoked, or lacks the scope of this endpoint${scope}.`,
      });
    case 403:
      return new PermissionError(request, status, serviceMessage, {
        code: 'forbidden',
        hint:
          extra.version === 'v1'
            ? `The token lacks permission for this request${scope}.`
            : 'Your user may not see this record; ask its owner to share it.',
      });
    case 404:
      return new NotFoundError(request, status, serviceMessage, {
        code: 'not_found',
        hint: 'Check the id and the resource path.',
      });
    case 429:
      return new RateLimitError(request, serviceMessage, extra.retryAfterMs, {
        hint: 'Lower the concurrency or wait for the rate-limit window to reset.',
      });
    default:
      if (status >= 300 && status < 400) {
        // Redirects are not followed: the API never redirects, so one means the base URL is not
        // the API's (http instead of https, another host, a login page).
        return new HttpError(request, status, serviceMessage, {
          code: 'redirect',
          hint: `The service redirected${extra.location ? ` to ${redactUrl(extra.location)}` : ''}; check BRANDSCAPE_BASE_URL (https, the API's host, no path).`,
        });
      }
      if (status >= 500) {
        return new ServerError(request, status, serviceMessage, {
          code: 'server',
          hint: 'The service failed; try again later.',
        });
      }
      return new HttpError(request, status, serviceMessage);
  }
}

/** The request never got an answer: DNS, refused or reset connection, a body cut short. */
export class NetworkError extends BrandscapeError {
  override name = 'NetworkError';
  readonly method: string;
  readonly url: string;
  constructor(request: RequestInfo, detail: string, options: BrandscapeErrorOptions = {}) {
    super('network', `${request.method} ${redactUrl(request.url)} failed: ${detail}.`, {
      hint: 'Check the base URL (BRANDSCAPE_BASE_URL) and the network.',
      ...options,
    });
    this.method = request.method;
    this.url = redactUrl(request.url);
  }
}

/** No answer within the time limit. */
export class TimeoutError extends BrandscapeError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(request: RequestInfo, timeoutMs: number) {
    super('timeout', `${request.method} ${redactUrl(request.url)} did not answer within ${timeoutMs} ms.`, {
      hint: 'Raise the time limit (timeoutMs; on the command line --timeout SECONDS or BRANDSCAPE_TIMEOUT), or ask for smaller pages (perPage, --per-page) for wide brandscape queries.',
    });
    this.timeoutMs = timeoutMs;
  }
}

/** The caller cancelled the operation through its AbortSignal. */
export class CancelledError extends BrandscapeError {
  override name = 'CancelledError';
  constructor(what: string, options: BrandscapeErrorOptions = {}) {
    super('cancelled', `${what} was cancelled.`, options);
  }
}

/** An answer did not have the shape the service documents. */
export class ResponseShapeError extends BrandscapeError {
  override name = 'ResponseShapeError';
  readonly endpoint: string;
  /** JSON path of the first offending value, e.g. `data[3].brand_name`. */
  readonly path: string;
  constructor(endpoint: string, path: string, problem: string) {
    super('response_shape', `Unexpected answer from ${redactUrl(endpoint)} at ${path}: ${problem}.`, {
      hint: 'The service changed or the base URL points at something else; report it with this message.',
    });
    this.endpoint = redactUrl(endpoint);
    this.path = path;
  }
}

/** Formats a zod-style issue path as a JSON path: `['data', 3, 'name']` -> `data[3].name`. */
export function toJsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** A full load could not deliver every record: it names the pages that failed or what changed. */
export class LoadError extends BrandscapeError {
  override name = 'LoadError';
  /** Pages that failed after retries (1-based), if that is what went wrong. */
  readonly failedPages: readonly number[];
  constructor(code: 'pages_failed' | 'data_changed' | 'inconsistent', message: string, failedPages: readonly number[] = [], options: BrandscapeErrorOptions = {}) {
    super(code, message, options);
    this.failedPages = failedPages;
  }
}

/** Data asked of a frame or comparison is not there: names what is missing and what is available. */
export class DataError extends BrandscapeError {
  override name = 'DataError';
  readonly missing: readonly string[];
  readonly available: readonly string[];
  constructor(message: string, missing: readonly string[], available: readonly string[], options: BrandscapeErrorOptions = {}) {
    const shown = available.length > 20 ? `${available.slice(0, 20).join(', ')}, ... (${available.length} in all)` : available.join(', ');
    // With nothing named missing or available (a damaged file, a malformed filter), the message
    // stands alone: "Missing: . Available: (none)." would only add noise.
    const listed = missing.length === 0 && available.length === 0 ? '' : ` Missing: ${missing.join(', ')}. Available: ${shown || '(none)'}.`;
    super('data', `${message}${listed}`, options);
    this.missing = missing;
    this.available = available;
  }
}

export function isBrandscapeError(value: unknown): value is BrandscapeError {
  return value instanceof BrandscapeError;
}
