#!/usr/bin/env node
// Fault soak (issue 13), `npm run bench:soak`: hundreds of full loads and 20 report builds against
// emulators that misbehave the way a real service does, each checked against a fault-free load of
// the same query. Prints one table; exits 1 on any silent loss, duplicate, hang or half-written
// report.
//
// - "clean": latency with jitter, no faults, no rate limit: the reference records and times.
// - "faulty": the same data, the same latency, 10% of data requests failing with every kind of
//   fault the emulator has (500, 502, 503, 504, reset, truncated body), scripted 429s, a few
//   requests that never answer, and a tight rate limit.
// - "changing": faulty too, and a study is released while some loads are under way, so
//   `meta.total` changes between pages.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';

const { createClient, runReport, loadTemplate, BrandscapeError } = await import('../../dist/index.js');
const { createEmulator } = await import('../../dist/emulator/index.js');

const ROUNDS = Number(process.env.SOAK_ROUNDS ?? 34);
const REPORTS = Number(process.env.SOAK_REPORTS ?? 20);
const CHANGING_LOADS = Number(process.env.SOAK_CHANGING ?? 10);
const LOAD_DEADLINE_MS = 60_000;
const TIMEOUT_MS = 1_500;

const latency = { latencyMs: 8, jitterMs: 6 };
// Scripted trouble on top of the random 10%: a 429 every 97th data request, a hang every 401st.
const scripted = [];
for (let nth = 97; nth < 40_000; nth += 97) scripted.push({ nth, kind: 429, retryAfterS: 1 });
for (let nth = 401; nth < 40_000; nth += 401) scripted.push({ nth, kind: 'hang' });
// And every tenth regions request starts a run of six 503s, more than a request's four retries:
// that load must fail, with a clear error.
for (let nth = 10; nth < 2_000; nth += 10) scripted.push({ path: '/regions', nth, kind: 503, times: 6 });

const clean = await createEmulator({ port: 0, ...latency, rateLimit: 0 });
const faulty = await createEmulator({ port: 0, ...latency, faultRate: 0.1, faults: scripted, rateLimit: 100, rateWindowS: 2 });
const changingServed = [];

const clientOf = (emulator, rateWindowMs) => createClient({ baseUrl: emulator.url, token: emulator.token, timeoutMs: TIMEOUT_MS, ...(rateWindowMs ? { rateWindowMs } : {}), env: {} });
const cleanClient = clientOf(clean);
// Two clients with the same token, as two processes of one user: each governor paces its own
// requests, the service counts both, so the tight limit answers 429 now and then.
const faultyClients = [clientOf(faulty, 2000), clientOf(faulty, 2000)];

// ---- The queries: lists with many small pages, and brandscape data of released studies ----------
const studies = (await cleanClient.studies.all()).filter((s) => s.is_active !== false);
const released = [];
for (const study of studies) {
  const first = await cleanClient.brandscape.page({ filter: { studies: study.id, audiences: 1 }, perPage: 1 }).catch(() => undefined);
  if (first && first.total > 0) released.push(study);
  if (released.length === 3) break;
}
const QUERIES = [
  { name: 'brands, 100 a page', run: (c, o) => c.brands.load({ perPage: 100 }, o), key: (r) => r.id },
  { name: 'studies, 10 a page', run: (c, o) => c.studies.load({ perPage: 10 }, o), key: (r) => r.id },
  { name: 'categories, 25 a page', run: (c, o) => c.categories.load({ perPage: 25 }, o), key: (r) => r.id },
  { name: 'regions, one page', run: (c, o) => c.regions.load({}, o), key: (r) => r.id },
  ...released.map((study) => ({
    name: `brandscape ${study.name ?? study.id}, pillars, 100 a page`,
    run: (c, o) => c.brandscape.load({ filter: { studies: study.id, audiences: 1 }, metricGroupKeys: ['pillars'], perPage: 100 }, o),
    key: (r) => r.id,
  })),
];

/** The records of a load as comparable text, keyed and in order. */
const fingerprint = (query, records) => records.map((r) => `${query.key(r)}=${JSON.stringify(r)}`);

const reference = new Map();
for (const query of QUERIES) {
  const times = [];
  let result;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    result = await query.run(cleanClient, { concurrency: 8 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  reference.set(query.name, { prints: fingerprint(query, result.records), total: result.total, ms: times[1] });
}

// ---- The tally ---------------------------------------------------------------------------------
const tally = { loads: 0, records: 0, retries: 0, waits: 0, reloads: 0, failures: new Map(), silentLosses: 0, duplicates: 0, hangs: 0, mismatches: 0, relative: [] };
const fail = (cause) => tally.failures.set(cause, (tally.failures.get(cause) ?? 0) + 1);
const causeOf = (error) => (error instanceof BrandscapeError ? `${error.name} (${error.code})` : `UNEXPECTED ${error?.name ?? typeof error}: ${String(error?.message ?? error).slice(0, 80)}`);

async function bounded(promise, controller) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(Object.assign(new Error('load did not end within the deadline'), { hang: true }));
    }, LOAD_DEADLINE_MS);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** One load: exact against its reference, or a clear (typed) error. */
async function soakLoad(query, client, check) {
  const controller = new AbortController();
  const started = performance.now();
  tally.loads += 1;
  try {
    const result = await bounded(query.run(client, { concurrency: 8, signal: controller.signal }), controller);
    tally.records += result.records.length;
    tally.retries += result.stats.retries;
    tally.waits += result.stats.rateLimitWaits;
    tally.reloads += result.stats.reloads;
    const keys = new Set(result.records.map(query.key));
    if (keys.size !== result.records.length) tally.duplicates += result.records.length - keys.size;
    if (!result.complete || result.records.length !== result.total) tally.silentLosses += 1;
    await check(result);
    return performance.now() - started;
  } catch (error) {
    if (error?.hang) tally.hangs += 1;
    else fail(causeOf(error));
    return undefined;
  }
}

const sameAsReference = (query) => (result) => {
  const ref = reference.get(query.name);
  const prints = fingerprint(query, result.records);
  if (result.total !== ref.total || prints.length !== ref.prints.length || prints.some((p, i) => p !== ref.prints[i])) tally.mismatches += 1;
};

// ---- 1. Loads against the faulty service: two at a time, every query each round ---------------
const started = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  const jobs = QUERIES.map((query, q) => async () => {
    const ms = await soakLoad(query, faultyClients[q % 2], sameAsReference(query));
    if (ms !== undefined) tally.relative.push(ms / reference.get(query.name).ms);
  });
  for (let i = 0; i < jobs.length; i += 2) await Promise.all(jobs.slice(i, i + 2).map((job) => job()));
  process.stderr.write(`\r  faulty service: round ${round + 1}/${ROUNDS}, ${tally.loads} loads`);
}
process.stderr.write('\n');

// ---- 2. Loads while the data changes: a study released between pages -------------------------
// Five studies of the emulator's world are not released yet; each load asks for released studies
// and one of those, released once the load is under way, so `meta.total` grows between pages.
// A fresh (faulty) emulator serves every five loads.
const UNRELEASED = [558, 559, 560, 565, 566];
let changing;
for (let i = 0; i < CHANGING_LOADS; i++) {
  if (i % UNRELEASED.length === 0) {
    if (changing) {
      changingServed.push(...changing.requests);
      await changing.close();
    }
    changing = await createEmulator({ port: 0, ...latency, faultRate: 0.1, rateLimit: 0 });
  }
  const emulator = changing;
  const client = clientOf(emulator);
  const studyId = UNRELEASED[i % UNRELEASED.length];
  const filter = { studies: [550, 551, 552, studyId], audiences: 1 };
  let published = false;
  const query = {
    name: 'brandscape, a study released during the load',
    key: (r) => r.id,
    run: (c, o) =>
      c.brandscape.load({ filter, metricGroupKeys: ['pillars'], perPage: 100 }, {
        ...o,
        onProgress: (progress) => {
          if (!published && progress.pagesDone >= 2) {
            published = true;
            void emulator.publish({ kind: 'study', studyId });
          }
        },
      }),
  };
  await soakLoad(query, client, async (result) => {
    // Exact against the data as it stands once the load is over.
    const after = await client.brandscape.all({ filter, metricGroupKeys: ['pillars'], perPage: 1000 });
    if (fingerprint(query, result.records).join('\n') !== fingerprint(query, after).join('\n')) tally.mismatches += 1;
  });
  process.stderr.write(`\r  changing data: ${i + 1}/${CHANGING_LOADS}`);
}
if (changing) {
  changingServed.push(...changing.requests);
  await changing.close();
}
process.stderr.write('\n');
const loadSeconds = (performance.now() - started) / 1000;

// ---- 3. Report builds: complete, or nothing written --------------------------------------------
const template = await loadTemplate('cross-market-brand-health');
const reports = { built: 0, failed: 0, halfWritten: 0, unreadable: 0, causes: new Map() };
for (let i = 0; i < REPORTS; i++) {
  const dir = await mkdtemp(join(tmpdir(), 'bsk-soak-'));
  const controller = new AbortController();
  try {
    const result = await bounded(runReport(faultyClients[i % 2], template, { outDir: dir, signal: controller.signal }), controller);
    reports.built += 1;
    for (const file of result.files.filter((f) => f.endsWith('.xlsx'))) {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      if (!workbook.getWorksheet('About') || !workbook.getWorksheet('Data')) reports.unreadable += 1;
    }
    const stray = (await readdir(dir)).filter((f) => !result.files.some((p) => p.endsWith(f)) && !f.endsWith('.last-run.json'));
    if (stray.length > 0) reports.halfWritten += 1;
  } catch (error) {
    reports.failed += 1;
    const cause = error?.hang ? 'hang' : causeOf(error);
    reports.causes.set(cause, (reports.causes.get(cause) ?? 0) + 1);
    if (error?.hang) tally.hangs += 1;
    if ((await readdir(dir)).length > 0) reports.halfWritten += 1;
  }
  await rm(dir, { recursive: true, force: true });
  process.stderr.write(`\r  report builds: ${i + 1}/${REPORTS}`);
}
process.stderr.write('\n');

const served = [...faulty.requests, ...changingServed];
const status429 = served.filter((r) => r.status === 429).length;
const faultsServed = served.filter((r) => r.fault !== undefined).length;
await Promise.all([clean.close(), faulty.close()]);

// ---- The table ---------------------------------------------------------------------------------
const sorted = [...tally.relative].sort((a, b) => a - b);
const quantile = (q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
const failures = [...tally.failures.entries()].map(([cause, n]) => `${n} ${cause}`).join('; ') || 'none';
const unexpected = [...tally.failures.keys(), ...reports.causes.keys()].filter((c) => c.startsWith('UNEXPECTED')).length;
const rows = [
  ['loads', `${tally.loads} (${ROUNDS} rounds x ${QUERIES.length} queries against the faulty service, ${CHANGING_LOADS} while a study was released)`],
  ['records', String(tally.records)],
  ['retries', String(tally.retries)],
  ['rate-limit waits', `${tally.waits} (the service answered 429 ${status429} times)`],
  ['reloads after a change', String(tally.reloads)],
  ['failed loads, by cause', failures],
  ['p50 / p95 load time', `${quantile(0.5).toFixed(2)}x / ${quantile(0.95).toFixed(2)}x a fault-free load of the same query`],
  ['silent losses', String(tally.silentLosses)],
  ['duplicates', String(tally.duplicates)],
  ['records unlike a fault-free load', String(tally.mismatches)],
  ['hangs (no end within 60 s)', String(tally.hangs)],
  ['failures without a typed error', String(unexpected)],
  ['report builds', `${REPORTS}: ${reports.built} complete, ${reports.failed} failed (${[...reports.causes.entries()].map(([c, n]) => `${n} ${c}`).join('; ') || 'none'})`],
  ['reports half-written or unreadable', String(reports.halfWritten + reports.unreadable)],
  ['wall time', `${loadSeconds.toFixed(0)} s of loads; ${served.length} requests served, ${faultsServed} of them faults`],
];
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`\nFault soak: 10% faults (500/502/503/504/reset/truncate), scripted 429s and hangs, a 100-per-2 s rate limit, latency ${latency.latencyMs}±${latency.jitterMs} ms\n`);
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
const bad = tally.silentLosses + tally.duplicates + tally.mismatches + tally.hangs + unexpected + reports.halfWritten + reports.unreadable;
console.log(bad === 0 ? '\nNo silent loss, duplicate, hang or half-written report.' : `\n${bad} problems: see above.`);
process.exitCode = bad === 0 ? 0 : 1;
