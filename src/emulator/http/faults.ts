/**
 * Injected faults: a random share of data requests (deterministic from the seed and the request's
 * position) and a script of rules for tests, e.g. "the 3rd request to /brandscape-data answers
 * 429". Faults are injected only when asked for (DESIGN.md rule 7).
 */
import { hashUnit } from './hash.js';

/** An error status (500, 502, 503, 504, 429, or any other), or a broken connection. */
export type FaultKind = number | 'reset' | 'truncate' | 'hang';

export interface FaultRule {
  /** Resource path prefix after the version, e.g. `/brandscape-data` (default: every data request). */
  path?: string;
  /** The 1-based position, among requests matching `path`, of the first faulty one (default 1). */
  nth?: number;
  /** How many consecutive matching requests fail from `nth` on (default 1; Infinity for all). */
  times?: number;
  kind: FaultKind;
  /** `Retry-After` seconds for a 429 (default 1). */
  retryAfterS?: number;
}

export const RANDOM_FAULT_KINDS: readonly FaultKind[] = [500, 502, 503, 504, 'reset', 'truncate'];

interface RuleState {
  rule: FaultRule;
  seen: number;
}

export function createFaults(options: { seed: number; rate: number; rules: readonly FaultRule[] }) {
  const rules: RuleState[] = options.rules.map((rule) => ({ rule, seen: 0 }));
  let dataRequests = 0;
  return {
    add(rule: FaultRule) {
      rules.push({ rule, seen: 0 });
    },
    clear() {
      rules.length = 0;
    },
    /** The fault for this data request, if any. Every call counts the request. */
    next(resourcePath: string): FaultRule | undefined {
      dataRequests += 1;
      let chosen: FaultRule | undefined;
      for (const state of rules) {
        if (state.rule.path !== undefined && !resourcePath.startsWith(state.rule.path)) continue;
        state.seen += 1;
        const first = state.rule.nth ?? 1;
        const times = state.rule.times ?? 1;
        if (chosen === undefined && state.seen >= first && state.seen < first + times) chosen = state.rule;
      }
      if (chosen) return chosen;
      if (options.rate > 0 && hashUnit(options.seed, 0x5eed, dataRequests) < options.rate) {
        const pick = Math.floor(hashUnit(options.seed, 0xfa17, dataRequests) * RANDOM_FAULT_KINDS.length);
        return { kind: RANDOM_FAULT_KINDS[pick] ?? 500 };
      }
      return undefined;
    },
  };
}

export type Faults = ReturnType<typeof createFaults>;
