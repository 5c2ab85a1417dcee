/**
 * Embedding Fount tools (§17): `autoLogin` signs a user in and returns their token (valid until the
 * next 00:00 UTC, §4.5); `embedUrl` builds the iframe's address with the tool's parameters in the
 * indexed array form the service requires (`brands[0]=1&brands[1]=2`) and the UI options.
 */
import { NetworkError, ResponseShapeError, UsageError, createSecrets, fromHttpStatus, type Secrets } from '../errors.js';

/** The web application's address (embed pages live under `/embed/`). */
export const FOUNT_APP_URL = 'https://fount.wppbav.com';

export type EmbedParamValue = string | number | boolean | readonly (string | number)[];

export interface EmbedUrlOptions {
  /** The user's token from `autoLogin`. */
  accessToken: string;
  /** `false` hides the step navigation, so users cannot change the pre-set parameters. */
  showStepsUi?: boolean;
  /** The web application's address (default https://fount.wppbav.com). */
  appUrl?: string;
}

const PRODUCT = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * The iframe URL of an embedded product. Every tool parameter is sent in indexed array form, even a
 * single value (`brands: 1020` becomes `brands[0]=1020`), as the service requires; brackets are
 * left as they are, values percent-encoded.
 *
 * @example
 * embedUrl('turbopitch/brand360', { brands: [998, 999], studies: 381 }, { accessToken: token, showStepsUi: false });
 * // 'https://fount.wppbav.com/embed/turbopitch/brand360?access_token=...&brands[0]=998&brands[1]=999&studies[0]=381&showStepsUi=false'
 */
export function embedUrl(product: string, params: Readonly<Record<string, EmbedParamValue | undefined>>, options: EmbedUrlOptions): string {
  const path = product.replace(/^\/+|\/+$/g, '').replace(/^embed\//, '');
  if (!PRODUCT.test(path)) throw new UsageError(`'${product}' is not a product path.`, { hint: "Use the product's path under /embed/, e.g. 'turbopitch/brand360' (the tools metadata lists the products)." });
  if (typeof options.accessToken !== 'string' || options.accessToken.trim() === '' || /\s/.test(options.accessToken.trim())) {
    throw new UsageError('embedUrl needs the access token autoLogin returned.');
  }
  const base = (options.appUrl ?? FOUNT_APP_URL).replace(/\/+$/, '');
  const parts = [`access_token=${encodeURIComponent(options.accessToken.trim())}`];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (!NAME.test(name)) throw new UsageError(`'${name}' is not a parameter name.`);
    if (name === 'access_token' || name === 'showStepsUi') throw new UsageError(`Give ${name} through the options, not the parameters.`);
    const list = Array.isArray(value) ? (value as readonly (string | number)[]) : [value as string | number | boolean];
    list.forEach((v, i) => parts.push(`${name}[${i}]=${encodeURIComponent(String(v))}`));
  }
  if (options.showStepsUi !== undefined) parts.push(`showStepsUi=${options.showStepsUi}`);
  return `${base}/embed/${path}?${parts.join('&')}`;
}

export interface AutoLoginUser {
  email: string;
  firstName: string;
  lastName: string;
}

export interface AutoLoginResult {
  /** The user's token, for `embedUrl`. */
  accessToken: string;
  /** When it stops working: the next 00:00 UTC (§4.5). */
  expiresAt: Date;
}

export interface AutoLoginOptions {
  /** The service's base URL, e.g. https://fount.wppbav.com (the call goes to `/api/v1/auto-login`). */
  baseUrl: string;
  /** An API key with the auto-login permission. */
  token: string;
  fetch?: typeof fetch;
  now?: () => number;
  signal?: AbortSignal;
  /** The client's secrets, masked in every error (default: the key alone). */
  secrets?: Secrets;
}

/**
 * Signs a user in for embedding (`POST /api/v1/auto-login`, the v1 path in every version).
 *
 * @example
 * const { accessToken, expiresAt } = await autoLogin({ email: 'ana@example.org', firstName: 'Ana', lastName: 'Silva' }, { baseUrl, token });
 */
export async function autoLogin(user: AutoLoginUser, options: AutoLoginOptions): Promise<AutoLoginResult> {
  const secrets = options.secrets ?? createSecrets();
  secrets.add(options.token);
  try {
    return await signIn(user, options);
  } catch (error) {
    // The service may echo the key (or the user's new token) in what it says: neither leaves here.
    throw secrets.scrub(error);
  }
}

async function signIn(user: AutoLoginUser, options: AutoLoginOptions): Promise<AutoLoginResult> {
  const email = user.email?.trim() ?? '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`autoLogin needs the user's email address, got '${email}'.`);
  if (!user.firstName?.trim() || !user.lastName?.trim()) throw new UsageError('autoLogin needs the user\'s first and last name.');
  const url = `${options.baseUrl.replace(/\/+$/, '')}/api/v1/auto-login`;
  const request = { method: 'POST', url };
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, first_name: user.firstName.trim(), last_name: user.lastName.trim() }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw new NetworkError(request, error instanceof Error ? error.message : String(error));
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.status !== 200) {
    const data = (body as { data?: { message?: unknown; error?: unknown } } | undefined)?.data;
    const message = typeof data?.message === 'string' ? data.message : typeof data?.error === 'string' ? data.error : undefined;
    throw fromHttpStatus(request, res.status, message, { scope: 'Embed: Auto-login', version: 'v1' });
  }
  const token = (body as { access_token?: unknown } | undefined)?.access_token;
  if (typeof token !== 'string' || token === '') throw new ResponseShapeError(url, '$.access_token', 'is missing (expected the user\'s token)');
  const now = new Date((options.now ?? Date.now)());
  return { accessToken: token, expiresAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)) };
}
