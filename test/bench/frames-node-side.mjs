// The toolkit side of the frames benchmark (run in its own process by frames.bench.mjs): the same
// records as frames-pandas.py, the same work, through the built package. Prints one JSON line.
import { writeFileSync } from 'node:fs';
import { groupBy, pivot, toParquet, toTable } from '../../dist/index.js';
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
const groupYear = () => groupBy(table, ['country_id', 'year_id'], { columns: METRICS });
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
const [groupYearMs, yearMeans] = timed(groupYear, RUNS);
const [pivotMs, wide] = timed(pivotTable, RUNS);

// Typed filter and sort (issue 16), each against the hand-written ideal over the same typed arrays:
// a mask and a gather per column; an index sort (NaN last, stable) and a gather per column.
const WHERE = { m0_rank: { gte: 40 }, is_duplicate: false };
// where and sortBy return lazy tables (a selection over the table's columns, issue 29): their
// figures are the selection alone. The same call followed by materialize() (every column gathered
// through the selection, what where and sortBy did before) is measured next to each, so that no
// figure hides deferred work.
const [whereMs, kept] = timed(() => table.where(WHERE), RUNS);
const [whereFullMs] = timed(() => table.where(WHERE).materialize(), RUNS);
// A filter then a group-by, as an analyst chains them: the group-by reads the 2 keys and 30
// metrics through the selection.
const [whereGroupMs, whereMeans] = timed(() => groupBy(table.where(WHERE), ['country_id', 'year_id'], { columns: METRICS }), RUNS);
const gatherAll = (rows) => {
  const out = [];
  for (const [name, column] of table.entries()) {
    if (column.kind === 'string') {
      const codes = new Int32Array(rows.length);
      for (let i = 0; i < rows.length; i++) codes[i] = column.codes[rows[i]];
      out.push([name, codes]);
    } else {
      const values = new column.values.constructor(rows.length);
      for (let i = 0; i < rows.length; i++) values[i] = column.values[rows[i]];
      out.push([name, values]);
    }
  }
  return out;
};
const [whereIdealMs] = timed(() => {
  const m0 = table.column('m0_rank').values;
  const dup = table.column('is_duplicate').values;
  let count = 0;
  const mask = new Uint8Array(table.length);
  for (let i = 0; i < mask.length; i++) {
    if (m0[i] >= 40 && dup[i] === 0) {
      mask[i] = 1;
      count++;
    }
  }
  const rows = new Int32Array(count);
  for (let i = 0, j = 0; i < mask.length; i++) if (mask[i]) rows[j++] = i;
  return gatherAll(rows);
}, RUNS);
const [sortMs, sorted] = timed(() => table.sortBy('m1_rank'), RUNS);
const [sortFullMs] = timed(() => table.sortBy('m1_rank').materialize(), RUNS);
const [sortIdealMs] = timed(() => {
  const v = table.column('m1_rank').values;
  const rows = Array.from({ length: table.length }, (_, i) => i);
  rows.sort((a, b) => {
    const x = v[a];
    const y = v[b];
    if (x !== x) return y !== y ? a - b : 1;
    if (y !== y) return -1;
    return x - y || a - b;
  });
  return gatherAll(Int32Array.from(rows));
}, RUNS);
const [sort2Ms] = timed(() => table.sortBy(['country_id', { column: 'm2_rank', descending: true }]), RUNS);
const [sort2FullMs] = timed(() => table.sortBy(['country_id', { column: 'm2_rank', descending: true }]).materialize(), RUNS);
// The slow path, once, on a tenth of the table: filter(row => ...) builds a row object per row.
const tenth = table.head(Math.floor(table.length / 10));
const [filterTenthMs] = timed(() => tenth.filter((r) => r.m0_rank >= 40 && r.is_duplicate === false), 1);
/** `timed` for an async function (toParquet loads its library on first use: one call first, untimed). */
async function timedAsync(fn, runs) {
  await fn();
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(times.length / 2)], result];
}
const [parquetMs, parquetBytes] = await timedAsync(() => toParquet(table), 3);
const [parquetPlainMs] = await timedAsync(() => toParquet(table, { codec: 'UNCOMPRESSED' }), 3);
// For the independent read-back check (pyarrow, in frames.bench.mjs): the file as written.
if (process.env.FRAMES_PARQUET_OUT) writeFileSync(process.env.FRAMES_PARQUET_OUT, parquetBytes);
const m1 = sorted.numbers('m1_rank');
let sortedOk = true;
for (let i = 1; i < m1.length; i++) if (m1[i - 1] > m1[i] || (m1[i - 1] !== m1[i - 1] && m1[i] === m1[i])) sortedOk = false;

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
    group_year_ms: groupYearMs,
    year_groups: yearMeans.length,
    group_year_checksum: sum(METRICS.map((m) => yearMeans.numbers(m))),
    table_rows: table.length,
    table_checksum: sum(METRICS.map((m) => table.numbers(m))),
    pivot_shape: [wide.length, wide.columnNames.length - 1],
    pivot_checksum: sum(wide.columnNames.slice(1).map((c) => wide.numbers(c))),
    where_ms: whereMs,
    where_full_ms: whereFullMs,
    where_group_ms: whereGroupMs,
    where_groups: whereMeans.length,
    where_group_checksum: sum(METRICS.map((m) => whereMeans.numbers(m))),
    where_ideal_ms: whereIdealMs,
    where_rows: kept.length,
    where_checksum: sum(METRICS.map((m) => kept.numbers(m))),
    sort_ms: sortMs,
    sort_ideal_ms: sortIdealMs,
    sort2_ms: sort2Ms,
    sort_full_ms: sortFullMs,
    sort2_full_ms: sort2FullMs,
    sort_ok: sortedOk,
    sort_first_ids: Array.from(sorted.numbers('id').subarray(0, 5)),
    filter_tenth_ms: filterTenthMs,
    parquet_ms: parquetMs,
    parquet_plain_ms: parquetPlainMs,
    parquet_mb: parquetBytes.length / 1e6,
    peak_mb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
