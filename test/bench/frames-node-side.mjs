// The toolkit side of the frames benchmark (run in its own process by frames.bench.mjs): the same
// records as frames-pandas.py, the same work, through the built package. Prints one JSON line.
import { groupBy, pivot, toTable } from '../../dist/index.js';
import { METRICS, records } from './frames-data.mjs';

const N = Number(process.env.FRAMES_N ?? 1_000_000);
const RUNS = Number(process.env.FRAMES_RUNS ?? 5);
const BUILD_RUNS = Number(process.env.FRAMES_BUILD_RUNS ?? 3);

function timed(fn, runs) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    // No gc() before a run: a forced collection made the next runs slower (V8 re-warms), which pandas does not pay.
    result = undefined;
    const t = performance.now();
    result = fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(times.length / 2)], result];
}

let recs = records(N);
const [buildMs, table] = timed(() => toTable(recs, { metricColumns: METRICS }), BUILD_RUNS);
const group = () => groupBy(table, ['country_id', 'brand_id'], { columns: METRICS });
const pivotTable = () => pivot(table, { index: 'country_id', columns: 'year_id', values: 'm0_rank' });
// First with the 1,000,000 records still referenced (as in a notebook that keeps them): every
// major garbage collection then marks them (31M heap objects: each double field is boxed).
const [groupAliveMs] = timed(group, RUNS);
const [pivotAliveMs] = timed(pivotTable, RUNS);
// Then as the toolkit is meant to be used: the records dropped once the table is built. Python
// frees them the moment the last reference goes (reference counting); V8 frees them at its next
// full collection, which would otherwise land inside a timed run: collect them first.
recs = undefined;
globalThis.gc?.();
const [groupMs, means] = timed(group, RUNS);
const [pivotMs, wide] = timed(pivotTable, RUNS);

// NaN-skipping sums, like numpy's nansum on the pandas side.
const sum = (arrays) => arrays.reduce((s, a) => s + a.reduce((x, v) => (v === v ? x + v : x), 0), 0);
process.stdout.write(
  `${JSON.stringify({
    build_ms: buildMs,
    group_ms: groupMs,
    pivot_ms: pivotMs,
    group_alive_ms: groupAliveMs,
    pivot_alive_ms: pivotAliveMs,
    groups: means.length,
    group_checksum: sum(METRICS.map((m) => means.numbers(m))),
    pivot_shape: [wide.length, wide.columnNames.length - 1],
    pivot_checksum: sum(wide.columnNames.slice(1).map((c) => wide.numbers(c))),
    peak_mb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
