/**
 * The service's rate limit (§10, §20): `limit` requests per user per window; the window starts at
 * the first counted request (the framework's default). A refused request does not count.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Whole seconds until a retry is allowed (refused requests). */
  retryAfterS: number;
}

export interface RateLimiterOptions {
  /** Requests per window; 0 disables the limit. */
  limit: number;
  windowS: number;
  now: () => number;
}

export function createRateLimiter(options: RateLimiterOptions) {
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = options.windowS * 1000;
  return {
    enabled: options.limit > 0,
    hit(user: string): RateDecision {
      const now = options.now();
      let w = windows.get(user);
      if (!w || now >= w.start + windowMs) {
        w = { start: now, count: 0 };
        windows.set(user, w);
      }
      const end = w.start + windowMs;
      const decision = {
        limit: options.limit,
        resetAt: Math.ceil(end / 1000),
        retryAfterS: Math.max(1, Math.ceil((end - now) / 1000)),
      };
      if (w.count >= options.limit) return { ...decision, allowed: false, remaining: 0 };
      w.count += 1;
      return { ...decision, allowed: true, remaining: options.limit - w.count };
    },
  };
}
