// Loading into a table (issue 16), in its own process so that its peak resident memory is its own.
// MODE=stream: each 1,000-record page is parsed and appended to a TableBuilder, then dropped (what
// loadTable / brandscapeTable / loadComparisonInput do with the loader's pages). MODE=collect: every
// page is parsed and collected first, then toTable (load-then-build), and the records stay
// referenced, as in a notebook that keeps what it loaded. Then the same group-by in both.
// Prints one JSON line.
import { groupBy, toTable } from '../../dist/index.js';
import { TableBuilder } from '../../dist/frames/to-table.js';
import { METRICS, pages, records } from './frames-data.mjs';

const N = Number(process.env.FRAMES_N ?? 1_000_000);
const RUNS = Number(process.env.FRAMES_RUNS ?? 5);
const MODE = process.env.MODE ?? 'stream';
const baseMb = process.resourceUsage().maxRSS / 1024;

let kept;
const started = performance.now();
let table;
if (MODE === 'stream') {
  const builder = new TableBuilder({ metricColumns: METRICS }, N);
  for (const page of pages(N)) builder.append(page);
  table = builder.finish();
} else {
  kept = records(N);
  table = toTable(kept, { metricColumns: METRICS });
}
const loadMs = performance.now() - started;

const times = [];
let means;
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  means = groupBy(table, ['country_id', 'brand_id'], { columns: METRICS });
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
let tableBytes = 0;
for (const [, column] of table.entries()) tableBytes += column.kind === 'string' ? column.codes.byteLength : column.values.byteLength;
process.stdout.write(
  `${JSON.stringify({
    mode: MODE,
    load_ms: loadMs,
    group_ms: times[Math.floor(times.length / 2)],
    groups: means.length,
    records_alive: kept?.length ?? 0,
    table_mb: tableBytes / 1024 / 1024,
    base_mb: baseMb,
    peak_mb: process.resourceUsage().maxRSS / 1024,
  })}\n`,
);
