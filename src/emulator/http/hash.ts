/**
 * Deterministic pseudo-randomness for the HTTP layer (faults, latency jitter): a 32-bit integer
 * hash of its arguments, so the n-th request behaves the same way in every run with one seed.
 */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  h = Math.imul(h ^ (h >>> 16), 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

/** A number in [0, 1) from the hash of the arguments. */
export const hashUnit = (...parts: number[]) => hash32(...parts) / 4294967296;
