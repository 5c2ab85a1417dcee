// Issue 2 targets: start-up < 2 s and < 300 MB resident; a 1,000-row brandscape page with
// metric_group_keys=pillars,imagery served in < 50 ms (median); >= 200 such pages/s on one core.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report, timeMedian } from './lib.mjs';

const child = fork(fileURLToPath(new URL('./emulator-server.mjs', import.meta.url)), [], { execArgv: ['--expose-gc', ...(process.env.EMU_FLAGS ? process.env.EMU_FLAGS.split(' ') : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = (type) => new Promise((resolve) => child.on('message', function on(m) { if (m.type === type) { child.off('message', on); resolve(m); } }));
const ready = await next('ready');
report({ name: 'emulator start-up (default dataset)', value: ready.startMs / 1000, unit: 's', target: 2 });
report({ name: 'emulator resident memory after start-up', value: ready.rssMb, unit: 'MB', target: 300 });

const headers = { Authorization: `Bearer ${ready.token}`, Accept: 'application/json' };
const get = async (path) => {
  const res = await fetch(`${ready.url}/api/v2/${path}`, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
  return body.byteLength;
};

// Pages of every country in 2020-2024, all audiences: distinct pages, none served twice (cold).
const countries = JSON.parse(Buffer.from(await (await fetch(`${ready.url}/api/v2/countries?per_page=100`, { headers })).arrayBuffer())).data;
const pages = [];
for (const [year, c] of [2024, 2023, 2022, 2021, 2020].flatMap((y) => countries.map((c) => [y, c]))) {
  const q = `brandscape-data?filter[country_code]=${c.code}&filter[year_number]=${year}&metric_group_keys=pillars,imagery&per_page=1000`;
  // Counting rows with only the id field computes no values: every measured page stays cold.
  const meta = JSON.parse(Buffer.from(await (await fetch(`${ready.url}/api/v2/${q.replace('per_page=1000', 'per_page=1&fields[brandscape_data]=id')}`, { headers })).arrayBuffer())).meta;
  for (let p = 1; p <= Math.ceil(meta.total / 1000); p++) pages.push(`${q}&page=${p}`);
}

// Latency: one request at a time over 40 distinct pages.
const latencies = [];
let bytes = 0;
for (const path of pages.slice(0, 40)) {
  const t = process.hrtime.bigint();
  bytes = await get(path);
  latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
}
latencies.sort((a, b) => a - b);
const median = latencies[Math.floor(latencies.length / 2)];
report({ name: '1,000-row pillars+imagery page, median latency', value: median, unit: 'ms', target: 50, detail: `${(bytes / 2 ** 20).toFixed(2)} MB per page, p90 ${latencies[Math.floor(latencies.length * 0.9)].toFixed(1)} ms` });

// Throughput: 4 requests in flight over distinct pages; the server's own CPU time per page gives
// the rate one core sustains, independent of the client's share of the machine. Three windows of
// 350 pages, the median reported: this shared 2-core machine's speed drifts by a fifth between runs.
const WINDOW = 350;
const windows = [];
for (let w = 0; w < 3; w++) {
  const slice = pages.slice(40 + w * WINDOW, 40 + (w + 1) * WINDOW);
  child.send({ type: 'cpu-mark' });
  await next('cpu-marked');
  const t0 = process.hrtime.bigint();
  let i = 0;
  await Promise.all(Array.from({ length: 4 }, async () => { while (i < slice.length) await get(slice[i++]); }));
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  child.send({ type: 'cpu' });
  const cpu = await next('cpu');
  windows.push({ perPageMs: cpu.ms / slice.length, systemMs: cpu.systemMs / slice.length, othersMs: cpu.othersMs === undefined ? undefined : cpu.othersMs / slice.length, wallRate: slice.length / wallS, rssMb: cpu.rssMb, n: slice.length });
}
const byRate = [...windows].sort((a, b) => a.perPageMs - b.perPageMs);
const mid = byRate[1];
const perPageMs = mid.perPageMs;
report({
  name: 'pages/s one server core sustains (1,000 rows, pillars+imagery)',
  value: 1000 / perPageMs,
  unit: 'pages/s',
  target: 200,
  better: 'higher',
  detail: `median of 3 windows of ${WINDOW} distinct pages (${windows.map((x) => (1000 / x.perPageMs).toFixed(0)).join(', ')}); ${perPageMs.toFixed(2)} ms server CPU per page (${mid.systemMs.toFixed(2)} ms of it in the kernel${mid.othersMs === undefined ? '' : `, ${mid.othersMs.toFixed(2)} ms in V8's helper threads`}); ${mid.wallRate.toFixed(0)} pages/s wall-clock with the client on the same 2 cores`,
});
const cpu = { rssMb: Math.max(...windows.map((x) => x.rssMb)) };
// Baseline measured in the same run: what Node's native JSON.stringify (plus encoding) alone costs
// for one such page, parsed back into objects. The emulator generates the values and writes the
// JSON; this says how that compares with merely serialising a ready page.
const sample = JSON.parse(Buffer.from(await (await fetch(`${ready.url}/api/v2/${pages[41]}`, { headers })).arrayBuffer()));
const stringifyMs = await timeMedian(() => Buffer.from(JSON.stringify(sample)), { runs: 15, warmup: 3 });
report({ name: 'server CPU per page / native JSON.stringify of the same page', value: perPageMs / stringifyMs, unit: 'x', detail: `${perPageMs.toFixed(2)} ms vs ${stringifyMs.toFixed(2)} ms (stringify only, no value generation)` });
report({ name: 'emulator resident memory after the load', value: cpu.rssMb, unit: 'MB', target: 300 });
child.send({ type: 'stop' });
