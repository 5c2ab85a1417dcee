// Shared helpers for benchmarks. A benchmark is a standalone script run in a fresh process by
// run.mjs; it reports each figure with `report()`, which prints one machine-readable line.
// Figures are ratios against an ideal or a baseline measured in the same run, so a busy machine
// slows both sides alike.

/** Median of the durations (ms) of `runs` calls of `fn` after `warmup` calls. */
export async function timeMedian(fn, { runs = 5, warmup = 1 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Prints one result. `value` is the measured figure; `target` and `better` ('lower' | 'higher')
 * say what passes. `detail` is free text shown next to it (the raw numbers behind a ratio).
 */
export function report({ name, value, unit = 'x', target, better = 'lower', detail = '' }) {
  const ok = target === undefined ? null : better === 'lower' ? value <= target : value >= target;
  process.stdout.write(`BENCH ${JSON.stringify({ name, value, unit, target, better, ok, detail })}\n`);
  return ok;
}

/** Resident set size now, in MB. */
export const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
