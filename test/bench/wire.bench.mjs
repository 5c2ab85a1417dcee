// Issue 14 targets, each a ratio measured in this run against a warm emulator in a child process:
// (1) library loads of real 1,000-row brandscape pages (pillars; pillars + imagery; 33 and ~300
//     pages) at the default concurrency take <= 1.2x the wire's ideal: at 100 and 300 ms latency
//     latency x (1 + ceil((pages - 1) / 8)), at no latency a bare node:http client that only reads
//     the same pages' bytes (the fastest the emulator and the sockets allow);
// (2) at no latency, the client's CPU per page (every thread of the process) <= 2x JSON.parse of
//     the same pages' bytes (`JSON.parse(bytes.toString())`; the figure against text already
//     decoded is printed beside it);
// (3) `brandscape fetch` of 6 studies x every audience, pillars, at 100 ms latency, as a whole
//     process, <= 0.5x the official Python client's whole process (bavapi, installed per README);
// (4) `brandscape --version` under 0.15 s of CPU.
// BENCH_QUICK=1 measures only the 33-page loads at 0 and 100 ms, for iterating.
import { execFile, fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const { createClient } = await import('../../dist/index.js');
const quick = process.env.BENCH_QUICK === '1';
const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const bin = here('../../dist/cli/bin.js');
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function startEmulator(options) {
  const child = fork(here('./loader-emulator.mjs'), [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (type) => new Promise((resolve) => child.on('message', function on(m) { if (m.type === type) { child.off('message', on); resolve(m); } }));
  const ready = await next('ready');
  return { url: ready.url, token: ready.token, stop: () => new Promise((resolve) => { child.on('exit', resolve); child.send({ type: 'stop' }); }) };
}

/**
 * Reads the bytes of each URL, `concurrency` at a time after the first, over kept-alive sockets
 * read into one fixed buffer each (the emulator always sends Content-Length): the wire, nothing else.
 */
async function bareWire(urls, token, concurrency = 8) {
  const { hostname, port } = new URL(urls[0]);
  const socketGet = () => {
    let want = -1;
    let body;
    let got = 0;
    let done;
    const socket = connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: Buffer.allocUnsafe(64 * 1024),
        callback: (n, buf) => {
          let at = 0;
          if (want < 0) {
            const head = buf.toString('latin1', 0, n);
            const end = head.indexOf('\r\n\r\n');
            want = Number(/content-length: *(\d+)/i.exec(head.slice(0, end))[1]);
            body = Buffer.allocUnsafe(want);
            at = end + 4;
          }
          buf.copy(body, got, at, n);
          got += n - at;
          if (got >= want) {
            const finished = done;
            const result = body;
            want = -1;
            got = 0;
            finished(result);
          }
          return true;
        },
      },
    });
    return {
      get: (url) => new Promise((resolve) => {
        done = resolve;
        const { pathname, search } = new URL(url);
        socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nAccept: application/json\r\n\r\n`);
      }),
      close: () => socket.destroy(),
    };
  };
  const sockets = Array.from({ length: concurrency }, socketGet);
  const bodies = new Array(urls.length);
  const started = performance.now();
  bodies[0] = await sockets[0].get(urls[0]);
  let next = 1;
  await Promise.all(sockets.map(async (s) => { while (next < urls.length) { const i = next++; bodies[i] = await s.get(urls[i]); } }));
  const ms = performance.now() - started;
  for (const s of sockets) s.close();
  return { ms, bodies };
}

// ---- the queries ------------------------------------------------------------------------------
const setup = await startEmulator({ rateLimit: 0 });
const setupClient = createClient({ baseUrl: setup.url, token: setup.token, env: {} });
const studies = (await setupClient.studies.all({ filter: { released: true }, fields: ['id'], sort: 'id' })).map((s) => s.id);
/** The first studies whose rows (every audience) fill about `pages` pages. */
async function studiesFor(pages) {
  const chosen = [];
  let rows = 0;
  for (const id of studies) {
    if (Math.ceil(rows / 1000) >= pages) break;
    rows += (await setupClient.brandscape.page({ filter: { studies: id }, fields: ['id'], perPage: 1 })).total;
    chosen.push(id);
  }
  return chosen;
}
const six = studies.slice(0, 6);
const many = quick ? [] : await studiesFor(300);
await setup.stop();

const cases = [
  { name: '6 studies, pillars', studies: six, groups: ['pillars'] },
  { name: '6 studies, pillars+imagery', studies: six, groups: ['pillars', 'imagery'] },
  ...(quick ? [] : [
    { name: `${many.length} studies, pillars`, studies: many, groups: ['pillars'] },
    { name: `${many.length} studies, pillars+imagery`, studies: many, groups: ['pillars', 'imagery'] },
  ]),
];

// ---- (1) and (2): library loads --------------------------------------------------------------
for (const latencyMs of quick ? [0, 100] : [0, 100, 300]) {
  const emulator = await startEmulator({ rateLimit: 0, latencyMs });
  for (const c of cases) {
    const query = { filter: { studies: c.studies }, metricGroupKeys: c.groups };
    const load = async () => {
      // A new client per load, as a script or a CLI run has: its catalogue and connections are new.
      const client = createClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
      global.gc();
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await client.brandscape.load(query);
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (!result.complete) throw new Error('incomplete load');
      return { ms, cpuMs: (used.user + used.system) / 1000, pages: result.stats.pages, rows: result.records.length };
    };
    await load(); // warms the emulator's caches and this process's code
    const runs = latencyMs === 300 && c.studies.length > 6 ? 1 : 3;
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await load());
    const ms = median(results.map((r) => r.ms));
    const { pages, rows } = results[0];
    if (latencyMs > 0) {
      const ideal = latencyMs * (1 + Math.ceil((pages - 1) / 8));
      report({ name: `load ${c.name} (${pages} pages), ${latencyMs} ms latency: time / wire's ideal`, value: ms / ideal, target: 1.2, detail: `${seconds(ms)} vs ${seconds(ideal)} = ${latencyMs} ms x (1 + ceil(${pages - 1} / 8)); ${rows.toLocaleString('en')} rows, median of ${runs}` });
      continue;
    }
    // The same pages read by a bare client: the wire's own speed, and the texts JSON.parse reads.
    const perPage = 1000;
    const urls = Array.from({ length: pages }, (_, i) => `${emulator.url}/api/v2/brandscape-data?filter%5Bstudies%5D=${c.studies.join('%2C')}&metric_group_keys=${c.groups.join('%2C')}&page=${i + 1}&per_page=${perPage}`);
    const wires = [];
    let bodies;
    for (let i = 0; i < 3; i++) ({ ms: wires[i], bodies } = await bareWire(urls, emulator.token));
    const wire = median(wires);
    report({ name: `load ${c.name} (${pages} pages), no latency: time / bare wire`, value: ms / wire, target: 1.2, detail: `${seconds(ms)} vs ${seconds(wire)} for a client that only reads the bytes over the same number of sockets (median of 3 each)` });
    const bytes = bodies;
    const texts = bytes.map((b) => b.toString('utf8'));
    const mb = bytes.reduce((s, b) => s + b.length, 0) / bytes.length / 2 ** 20;
    /** CPU per page of parsing every page and keeping the results (as the load keeps its records). */
    const parseCpu = (parseOne) => {
      const samples = [];
      for (let i = 0; i < 5; i++) {
        global.gc();
        const cpu = process.cpuUsage();
        const kept = [];
        for (let p = 0; p < pages; p++) kept.push(parseOne(p));
        const used = process.cpuUsage(cpu);
        samples.push((used.user + used.system) / 1000 / pages);
      }
      return median(samples);
    };
    const fromBytes = parseCpu((p) => JSON.parse(bytes[p].toString('utf8')));
    const fromText = parseCpu((p) => JSON.parse(texts[p]));
    const clientPerPage = median(results.map((r) => r.cpuMs)) / pages;
    report({
      name: `load ${c.name}, no latency: client CPU per page / JSON.parse of the same bytes`,
      value: clientPerPage / fromBytes,
      target: 2,
      detail: `${clientPerPage.toFixed(2)} ms per page of ${mb.toFixed(2)} MB (process CPU, every thread: receive, parse, check, load) vs ${fromBytes.toFixed(2)} ms for JSON.parse(bytes.toString()); ${(clientPerPage / fromText).toFixed(1)}x JSON.parse of text already decoded (${fromText.toFixed(2)} ms); all keep what they parse`,
    });
  }
  await emulator.stop();
}

// ---- (3): the CLI against the official Python client -----------------------------------------
if (!quick) {
  const python = process.env.BAVAPI_PYTHON ?? join(homedir(), '.venvs', 'bavapi', 'bin', 'python');
  const probe = existsSync(python)
    ? await new Promise((resolve) => execFile(python, ['-c', 'import bavapi, pandas'], (error) => resolve(error ? `${python} cannot import bavapi and pandas` : undefined)))
    : `no Python at ${python}`;
  if (probe !== undefined) {
    report({ name: 'brandscape fetch / official Python client (whole process)', value: NaN, unit: '', detail: `not measured: ${probe}. Install the client as README's Development section says, or set BAVAPI_PYTHON to a python that imports bavapi.` });
  } else {
    const emulator = await startEmulator({ latencyMs: 100, rateLimit: 1_000_000 });
    const dir = mkdtempSync(join(tmpdir(), 'bsk-bench-'));
    const run = (command, args, env = {}) => new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} exited ${code}: ${stderr.slice(0, 500)}`))));
    });
    const ours = () => run(process.execPath, [bin, 'fetch', 'brandscape-data', '--filter', `studies=${six.join(',')}`, '--metric-group-keys', 'pillars', '--out', join(dir, 'ours.ndjson')], { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token });
    const theirs = () => run(python, [here('./bavapi-fetch.py'), emulator.url, emulator.token, six.join(','), 'pillars', join(dir, 'theirs.ndjson')]);
    await ours();
    await theirs();
    const times = { ours: [], theirs: [] };
    for (let i = 0; i < 5; i++) {
      times.ours.push(await ours());
      times.theirs.push(await theirs());
    }
    rmSync(dir, { recursive: true, force: true });
    await emulator.stop();
    const a = median(times.ours);
    const b = median(times.theirs);
    report({ name: 'brandscape fetch / official Python client (whole process, 100 ms latency)', value: a / b, target: 0.5, detail: `${seconds(a)} vs ${seconds(b)}: 6 studies x every audience, pillars, 33 pages of 1,000 rows written as NDJSON; alternated, medians of 5` });
  }
}

// ---- (4): the CLI's start-up ---------------------------------------------------------------
{
  // bash's `times` gives the CPU of the finished child, whatever its threads.
  const cpuOf = () => new Promise((resolve, reject) => execFile('bash', ['-c', `"${process.execPath}" "${bin}" --version >/dev/null; times`], (error, stdout) => {
    if (error) return reject(error);
    const [, children] = stdout.trim().split('\n');
    const [user, system] = children.trim().split(/\s+/).map((t) => { const m = /(\d+)m([\d.]+)s/.exec(t); return Number(m[1]) * 60 + Number(m[2]); });
    resolve(user + system);
  }));
  const cpus = [];
  for (let i = 0; i < 5; i++) cpus.push(await cpuOf());
  const bare = await new Promise((resolve, reject) => execFile('bash', ['-c', `"${process.execPath}" -e 0; times`], (error, stdout) => (error ? reject(error) : resolve(stdout.trim().split('\n')[1]))));
  report({ name: 'brandscape --version: CPU of the whole process', value: median(cpus), unit: 's', target: 0.15, detail: `median of 5; node -e 0 alone: ${bare.trim()} (user, system)` });
}
