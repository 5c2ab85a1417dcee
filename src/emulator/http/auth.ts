/**
 * Bearer tokens and their scopes (§4). A token acts as a user; a token given without scopes has
 * every scope. A missing scope is a 401 in v2 and a 403 in v1 (§4.4).
 */
import { DEFAULT_USER } from '../dataset/types.js';

export interface TokenOptions {
  token: string;
  /** Scopes such as `Brands: Read`; omitted = every scope. */
  scopes?: readonly string[];
  /** The user the token acts as (rate limits are per user across their tokens). */
  user?: string;
}

export interface Principal {
  user: string;
  hasScope(scope: string): boolean;
}

/** The token every emulator accepts unless told otherwise. */
export const DEFAULT_TOKEN = 'bsk-emulator-token';

/**
 * Reads `--token NAME[:scope,scope...]`. Scope names contain a colon and a space
 * (`Brands: Read`), so only the first colon separates the token from its scopes.
 */
export function fromTokenArg(arg: string): TokenOptions {
  const colon = arg.indexOf(':');
  if (colon < 0) return { token: arg };
  const scopes = arg
    .slice(colon + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return { token: arg.slice(0, colon), scopes };
}

/** The next 00:00 UTC after `ms`: when embed tokens expire (§4.5). */
export const nextUtcMidnight = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
};

export function createAuth(tokens: readonly TokenOptions[], now: () => number = Date.now) {
  /** Embed tokens issued by auto-login: the user they act as and when they expire. */
  const issued = new Map<string, { principal: Principal; expiresAt: number }>();
  const byToken = new Map(
    tokens.map((t): [string, Principal] => {
      const scopes = t.scopes ? new Set(t.scopes.map((s) => s.toLowerCase())) : undefined;
      return [t.token, { user: t.user ?? DEFAULT_USER, hasScope: (scope) => scopes === undefined || scopes.has(scope.toLowerCase()) }];
    }),
  );
  return {
    /** The principal of an `Authorization` header, or undefined for a missing or unknown token. */
    authenticate(header: string | undefined): Principal | undefined {
      const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (match?.[1] === undefined) return undefined;
      const embed = issued.get(match[1]);
      if (embed) {
        if (now() < embed.expiresAt) return embed.principal;
        issued.delete(match[1]);
        return undefined;
      }
      return byToken.get(match[1]);
    },
    /** Issues a user's embed token, valid until the next 00:00 UTC (§17.1), with every read scope. */
    issueEmbedToken(token: string, user: string): { expiresAt: number } {
      const expiresAt = nextUtcMidnight(now());
      issued.set(token, { principal: { user, hasScope: (scope) => scope.toLowerCase().endsWith(': read') }, expiresAt });
      return { expiresAt };
    },
  };
}
