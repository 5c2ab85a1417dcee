/**
 * Deterministic randomness for the dataset. Two kinds:
 *
 * - a sequential generator (`createRng`) for building entities in a fixed order at start-up;
 * - stateless hashes (`h2`..`h4`, `gauss*`) for values generated on demand, so the value of a
 *   brand in a market and year is the same whatever was asked before it (rows are never stored).
 *
 * Everything derives from the seed: the same seed gives the same dataset, byte for byte.
 */

/** A 32-bit mixing step (the murmur3 finaliser): cheap, and good enough for simulated data. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

// Fixed-arity hashes: no rest arrays on the hot path of value generation.
export const h2 = (a: number, b: number) => mix(Math.imul(mix(a ^ 0x9e3779b9) ^ b, 0x27d4eb2f));
/** `h3(a, b, c)` from `h2(a, b)`: for hot loops that hash many `c` with one `(a, b)`. */
export const h3After2 = (ab: number, c: number) => mix(Math.imul(ab ^ c, 0x165667b1));
/** `h4(a, b, c, d)` from `h3(a, b, c)`. */
export const h4After3 = (abc: number, d: number) => mix(Math.imul(abc ^ d, 0x27d4eb2f));
export const h3 = (a: number, b: number, c: number) => h3After2(h2(a, b), c);
export const h4 = (a: number, b: number, c: number, d: number) => h4After3(h3(a, b, c), d);

/** Uniform in [0, 1) from a hash. */
export const unit = (h: number) => h / 4294967296;

/**
 * Standard normal quantiles at 65,536 evenly spaced probabilities: a hash's top 16 bits pick one.
 * A lookup instead of Box-Muller keeps on-demand values cheap (one hash, one load).
 */
const NORMAL = (() => {
  const table = new Float64Array(65536);
  for (let i = 0; i < table.length; i++) table[i] = inverseNormal((i + 0.5) / table.length);
  return table;
})();

/** A standard normal value from a hash. */
export const gauss = (h: number) => NORMAL[h >>> 16] ?? 0;

/**
 * The same at 4,096 quantiles (a hash's top 12 bits; tails end at 3.5 sd): 32 KB that stay in the
 * fastest cache, for the noise terms of brandscape values, drawn millions of times a second while
 * pages stream through the rest of the cache. A lookup in the 512 KB table above missed it.
 */
const NOISE = (() => {
  const table = new Float64Array(4096);
  for (let i = 0; i < table.length; i++) table[i] = inverseNormal((i + 0.5) / table.length);
  return table;
})();
export const noise = (h: number) => NOISE[h >>> 20] ?? 0;
export const gauss3 = (a: number, b: number, c: number) => gauss(h3(a, b, c));
export const gauss4 = (a: number, b: number, c: number, d: number) => gauss(h4(a, b, c, d));

/** Acklam's rational approximation of the normal quantile function (relative error < 1.2e-9). */
function inverseNormal(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) / ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) / (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1);
}

/** A sequential generator (mulberry32) for start-up: call order defines the data. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  normal(): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A new array in random order. */
  shuffle<T>(items: readonly T[]): T[];
  /** A derived generator for an independent stream (stable when other streams change). */
  fork(label: number): Rng;
}

export function createRng(seed: number): Rng {
  let state = mix(seed ^ 0x6d2b79f5) || 1;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    normal: () => gauss(Math.floor(next() * 4294967296)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick() from an empty list');
      return item;
    },
    shuffle: <T>(items: readonly T[]) => {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as T;
        out[i] = out[j] as T;
        out[j] = tmp;
      }
      return out;
    },
    fork: (label) => createRng(h2(seed, label)),
  };
  return rng;
}

/**
 * A UUID v4 (version nibble 4, variant 10xx) from hashes of the seed, a salt and two keys: random
 * looking, unique in practice, and the same for the same inputs (respondent ids of exports and raw
 * data are stable across runs of one seed).
 */
export function uuidV4Of(seed: number, salt: number, a: number, b: number): string {
  const base = h4(seed, salt, a, b);
  const hex = [0, 1, 2, 3].map((k) => h2(base, k + 1).toString(16).padStart(8, '0')).join('');
  const variant = '89ab'[h2(base, 5) % 4] ?? '8';
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
