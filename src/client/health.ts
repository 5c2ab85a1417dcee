/**
 * The health check (§9): 200 means up; 401 and 403 mean the service is up but the credentials are
 * refused (a permission problem, not an outage); anything else, or no answer within a second,
 * means down. Never retried: a health check reports the state now.
 */
import { createSecrets, type Secrets } from '../errors.js';
import { healthBody } from '../schemas/envelope.js';

export type HealthStatus = 'up' | 'down' | 'permission';

export interface HealthResult {
  status: HealthStatus;
  /** HTTP status, or null when nothing answered. */
  httpStatus: number | null;
  latencyMs: number;
  /** What was seen, in words. */
  message: string;
  /** The service's own timestamp when it sent one. */
  serviceTime: string | null;
  checkedAt: string;
}

export interface HealthOptions {
  baseUrl: string;
  token?: string | (() => Promise<string>);
  timeoutMs?: number;
  userAgent?: string;
  fetch: typeof fetch;
  now: () => number;
  /** The client's secrets, masked in the result's message (default: the token alone). */
  secrets?: Secrets;
}

export async function checkHealth(options: HealthOptions): Promise<HealthResult> {
  const secrets = options.secrets ?? createSecrets();
  const started = options.now();
  const url = `${options.baseUrl}/health`;
  const timeoutMs = options.timeoutMs ?? 1000;
  const result = (status: HealthStatus, httpStatus: number | null, message: string, serviceTime: string | null = null): HealthResult => ({
    status,
    httpStatus,
    latencyMs: options.now() - started,
    message: secrets.redact(message),
    serviceTime,
    checkedAt: new Date(started).toISOString(),
  });
  try {
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    secrets.add(token);
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': options.userAgent ?? 'brandscape-kit' };
    if (token) headers['Authorization'] = `Bearer ${token}`;
    const res = await options.fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    if (res.status === 200) {
      // A 200 is up whatever the body says (§9): a body that is not JSON or not of the schema only
      // leaves the service's time out.
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const parsed = healthBody.safeParse(body);
      return result('up', 200, `${url} answered 200.`, parsed.success ? (parsed.data.timestamp ?? null) : null);
    }
    if (res.status === 401 || res.status === 403) {
      return result('permission', res.status, `${url} answered ${res.status}: the service is up but refuses these credentials; check BRANDSCAPE_TOKEN and its scopes.`);
    }
    return result('down', res.status, `${url} answered ${res.status}.`);
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const detail = timedOut ? `no answer within ${timeoutMs} ms` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return result('down', null, `${url}: ${detail}.`);
  }
}
