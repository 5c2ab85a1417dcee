// Issue 4 targets, on 1,000,000 brandscape rows x 30 metric columns, against pandas doing the same
// work on the same records in the same run: building the columnar table from loaded records, a
// 2-key group-by mean over 30 metrics and a market x year pivot each <= 1.5x pandas' time; peak
// memory <= 1.5x pandas'; toDanfo() of a 100,000-row result < 3 s.
// Issue 16 targets, against Python polars in the same run: build, both group-bys, pivot, where and
// sort each <= 1.5x polars; toParquet <= 2x polars' write_parquet (Snappy); peak memory <= pandas'.
// Issue 29 targets (where and sortBy return lazy tables): where <= 1.5x polars' filter, sortBy
// <= 1.2x polars' sort, and a where followed by a group-by <= 1.5x polars' filter(...).group_by(...).
// Each lazy figure has an informational one next to it: the same call followed by materialize()
// (every column gathered), so that deferred work is never hidden.
// polars, pyarrow and pandas come from the machine's package index, in the venv of the README's
// Development section (~/.venvs/frames); without it the polars figures say so plainly.
// Each side runs in its own process so that its peak resident memory is its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const env = { ...process.env, FRAMES_N: process.env.FRAMES_N ?? '1000000' };

function run(command, args, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${out.slice(0, 500)}`));
      else resolve(JSON.parse(line));
    });
  });
}

const venvPython = join(homedir(), '.venvs', 'frames', 'bin', 'python');
const VENV_HOW = 'python3 -m venv ~/.venvs/frames && ~/.venvs/frames/bin/pip install polars pyarrow pandas numpy';
const python = process.env.FRAMES_PYTHON ?? (existsSync(venvPython) ? venvPython : '/usr/bin/python3');
const polarsPython = process.env.FRAMES_POLARS_PYTHON ?? venvPython;
let pandas;
try {
  pandas = await run(python, [here('./frames-pandas.py')]);
} catch (error) {
  // Without the baseline there is no ratio to print: say what is missing instead of crashing.
  report({
    name: 'pandas baseline for the frames figures',
    value: Number.NaN,
    target: 0,
    detail: `${python} could not run the pandas side (${String(error.message).split('\n')[0].slice(0, 160)}); install Debian's python3-pandas (apt-get install -y python3-pandas) or set FRAMES_PYTHON`,
  });
  process.exit(0);
}
let polars;
let polarsMissing;
try {
  polars = await run(polarsPython, [here('./frames-polars.py')]);
} catch (error) {
  polarsMissing = `polars not available: ${polarsPython} could not run the polars side (${String(error.message).split('\n')[0].slice(0, 160)}); make the venv: ${VENV_HOW}, or set FRAMES_POLARS_PYTHON`;
  process.stderr.write(`${polarsMissing}\n`);
}
const scratch = mkdtempSync(join(tmpdir(), 'frames-bench-'));
const parquetFile = join(scratch, 'table.parquet');
const node = await run(process.execPath, ['--expose-gc', here('./frames-node-side.mjs')], { FRAMES_PARQUET_OUT: parquetFile });
const danfo = await run(process.execPath, [here('./frames-danfo-side.mjs')]);
const streamed = await run(process.execPath, ['--expose-gc', here('./frames-load-side.mjs')], { MODE: 'stream' });
const collected = await run(process.execPath, ['--expose-gc', here('./frames-load-side.mjs')], { MODE: 'collect' });

const rows = Number(env.FRAMES_N).toLocaleString('en');
const same = Math.abs(node.group_checksum - pandas.group_checksum) < 1e-6 * Math.abs(pandas.group_checksum) &&
  Math.abs(node.pivot_checksum - pandas.pivot_checksum) < 1e-6 * Math.abs(pandas.pivot_checksum) && node.groups === pandas.groups;
if (!same) process.stderr.write(`results differ: ${JSON.stringify({ node, pandas })}\n`);
const ratio = (name, key, what) =>
  report({ name, value: node[key] / pandas[key], target: 1.5, detail: `${node[key].toFixed(0)} ms vs pandas ${pandas[key].toFixed(0)} ms (${what})` });
ratio(`build table from ${rows} loaded records x 30 metrics, vs pandas`, 'build_ms', `toTable vs pd.DataFrame(records), median of ${env.FRAMES_BUILD_RUNS ?? 3}`);
ratio('group by 2 keys (market, brand), mean of 30 metrics, records dropped after the build, vs pandas', 'group_ms', `${node.groups} groups, results ${same ? 'equal' : 'DIFFER'}, median of ${env.FRAMES_RUNS ?? 5}`);
ratio('pivot market x year (mean of one metric), records dropped after the build, vs pandas', 'pivot_ms', `${node.pivot_shape.join(' x ')}, median of ${env.FRAMES_RUNS ?? 5}`);
// The same two operations while the 1,000,000 loaded records are still referenced: V8's full
// collections, triggered by the results' new arrays, then mark every record; pandas pays nothing.
const alive = (name, key) =>
  report({ name, value: node[key] / pandas[key], detail: `${node[key].toFixed(0)} ms vs pandas ${pandas[key].toFixed(0)} ms (informational: records kept alive)` });
alive('group by 2 keys with the loaded records still referenced, vs pandas', 'group_alive_ms');
alive('pivot with the loaded records still referenced, vs pandas', 'pivot_alive_ms');
report({
  name: 'peak resident memory, vs pandas (each in its own process)',
  value: node.peak_mb / pandas.peak_mb,
  target: 1.5,
  detail: `${node.peak_mb.toFixed(0)} MB vs pandas ${pandas.peak_mb.toFixed(0)} MB (records + table + results; pandas ${pandas.pandas}${polars ? `; polars ${polars.peak_mb.toFixed(0)} MB` : ''})`,
});
report({
  name: 'toDanfo() of a 100,000-row result (fresh process, danfojs import included)',
  value: danfo.cold_ms / 1000,
  unit: 's',
  target: 3,
  detail: `${danfo.shape.join(' x ')}; ${(danfo.warm_ms / 1000).toFixed(2)} s once danfojs is loaded`,
});
report({ name: 'toolkit and pandas results agree (group means, pivot cells)', value: same ? 1 : 0, unit: '', target: 1, better: 'higher' });

// Issue 16: typed filter and sort, tables built while loading, Parquet; the targets are against
// Python polars in the same run (pandas' time is kept in each figure's detail).
const close = (x, y) => Math.abs(x - y) <= 1e-6 * Math.abs(y);
const base = polars ?? pandas;
const whereSame = node.where_rows === base.where_rows && close(node.where_checksum, base.where_checksum);
const whereGroupSame = node.where_groups === base.where_groups && close(node.where_group_checksum, base.where_group_checksum);
const sortSame = node.sort_ok && JSON.stringify(node.sort_first_ids) === JSON.stringify(base.sort_first_ids);
const polarsAgree =
  polars !== undefined &&
  node.groups === polars.groups && close(node.group_checksum, polars.group_checksum) &&
  node.year_groups === polars.year_groups && close(node.group_year_checksum, polars.group_year_checksum) &&
  close(node.pivot_checksum, polars.pivot_checksum) && whereSame && whereGroupSame && sortSame;
if (polars && !polarsAgree) process.stderr.write(`results differ from polars: ${JSON.stringify({ node, polars })}\n`);
const polarsWho = polars ? `polars ${polars.polars}, ${polars.threads} threads` : 'no polars';
/** Our `key` against polars' `other` (the same key unless told), pandas' figure in the detail. */
const vsPolars = (name, key, target, what, other = key) => {
  const pandasPart = pandas[other] ? `pandas ${pandas[other].toFixed(0)} ms` : other === 'parquet_ms' ? `pandas: ${pandas.parquet}` : 'pandas: not measured';
  if (!polars) return report({ name, value: Number.NaN, detail: `${node[key].toFixed(0)} ms; ${pandasPart}; NOT MEASURED: ${polarsMissing}` });
  return report({ name, value: node[key] / polars[other], target, detail: `${node[key].toFixed(0)} ms vs polars ${polars[other].toFixed(0)} ms, ${pandasPart} (${what})` });
};
const runs = `median of ${env.FRAMES_RUNS ?? 5}`;
vsPolars(`build table from ${rows} loaded records x 30 metrics, vs polars`, 'build_ms', 1.5, `toTable vs pl.DataFrame(records), median of ${env.FRAMES_BUILD_RUNS ?? 3}; ${polarsWho}`);
vsPolars('group by market x brand, mean of 30 metrics, vs polars', 'group_ms', 1.5, `${node.groups} groups, ${runs}`);
vsPolars('group by market x year, mean of 30 metrics, vs polars', 'group_year_ms', 1.5, `${node.year_groups} groups, ${runs}`);
vsPolars('pivot market x year (mean of one metric), vs polars', 'pivot_ms', 1.5, `${node.pivot_shape.join(' x ')}, ${runs}`);
vsPolars('group by market x brand with the loaded records still referenced, vs polars', 'group_alive_ms', undefined, 'informational: the 1M records alive; see the page-by-page load figures');
const whereWhat = `m0_rank >= 40 and not is_duplicate: ${node.where_rows.toLocaleString('en')} of ${rows} rows, 40 columns`;
vsPolars(`where (${whereWhat}), lazy, vs polars filter`, 'where_ms', 1.5, `the selection alone, no column copied; results ${whereSame ? 'equal' : 'DIFFER'}; ${runs}`);
vsPolars('where then materialize() (every column gathered), vs polars filter', 'where_full_ms', undefined, `informational: what reading everything the lazy where deferred costs; ${runs}`, 'where_ms');
report({ name: 'where then materialize(), vs the hand-written typed mask + gather (same process)', value: node.where_full_ms / node.where_ideal_ms, target: 1.5, detail: `${node.where_full_ms.toFixed(0)} ms vs ${node.where_ideal_ms.toFixed(0)} ms (the ideal a filter that copies every column cannot beat by much)` });
vsPolars(
  'where then group by market x year (mean of 30 metrics), vs polars filter(...).group_by(...)',
  'where_group_ms',
  1.5,
  `${node.where_groups} groups, results ${whereGroupSame ? 'equal' : 'DIFFER'}; the group-by reads the kept rows through the selection; polars' lazy query (projection pushed down) ${polars ? polars.where_group_lazy_ms.toFixed(0) : '?'} ms; ${runs}`,
);
// Most of a sort's time is moving the 40 columns into the new order. Profiled (issue 16): it was
// not fresh memory or huge pages (page faults were few once warm, and the polars process had no
// huge pages either) but reads scattered across each 8 MB column; sortBy now moves the columns
// in two cache-local passes (src/frames/permute-columns.ts).
vsPolars('sortBy one float column (nulls last, stable), lazy, vs polars sort(maintain_order)', 'sort_ms', 1.2, `the order alone, no column moved; first rows ${sortSame ? 'equal' : 'DIFFER'}; ${runs}`);
vsPolars('sortBy one float column then materialize() (the 40 columns moved), vs polars sort', 'sort_full_ms', undefined, `informational: what reading everything the lazy sortBy deferred costs; ${runs}`, 'sort_ms');
report({ name: 'sortBy then materialize(), vs the hand-written index sort + gather (same process)', value: node.sort_full_ms / node.sort_ideal_ms, target: 1, detail: `${node.sort_full_ms.toFixed(0)} ms vs ${node.sort_ideal_ms.toFixed(0)} ms (Array.prototype.sort with a comparator on the typed array)` });
vsPolars('sortBy two columns (int asc, float desc), lazy, vs polars', 'sort2_ms', 1.5, `country_id, m2_rank descending; the order alone`);
vsPolars('sortBy two columns then materialize(), vs polars', 'sort2_full_ms', undefined, 'informational: the 40 columns moved', 'sort2_ms');
report({
  name: 'filter(row => ...) on a tenth of the table (the documented slow path), vs where on the whole table',
  value: node.filter_tenth_ms / node.where_ms,
  detail: `${node.filter_tenth_ms.toFixed(0)} ms for ${(Number(env.FRAMES_N) / 10).toLocaleString('en')} rows vs where ${node.where_ms.toFixed(0)} ms for all (informational)`,
});
vsPolars(`toParquet of the ${rows}-row table (Snappy), vs polars write_parquet(compression='snappy')`, 'parquet_ms', 2, `${node.parquet_mb.toFixed(0)} MB; uncompressed ${node.parquet_plain_ms.toFixed(0)} ms; median of 3`);
if (polars) report({ name: 'toolkit and polars results agree (both group-bys, pivot, where, sort order)', value: polarsAgree ? 1 : 0, unit: '', target: 1, better: 'higher' });
// Independent read-back: pyarrow reads the file toParquet wrote; row count and metric checksum.
try {
  const back = await run(polarsPython, [here('./frames-parquet-check.py'), parquetFile]);
  const ok = back.rows === node.table_rows && close(back.checksum, node.table_checksum);
  const types = [...new Set(Object.values(back.types))].join(', ');
  report({ name: 'toParquet file read back by pyarrow: row count and metric checksum equal', value: ok ? 1 : 0, unit: '', target: 1, better: 'higher', detail: `${back.rows.toLocaleString('en')} rows, checksum ${back.checksum.toFixed(1)} vs ours ${node.table_checksum.toFixed(1)}; Arrow types: ${types} (pyarrow ${back.pyarrow})` });
} catch (error) {
  report({ name: 'toParquet file read back by pyarrow', value: Number.NaN, unit: '', detail: `NOT CHECKED: ${String(error.message).split('\n')[0].slice(0, 160)}; make the venv: ${VENV_HOW}` });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
report({
  name: 'load into a table page by page: peak memory vs load-then-build (each in its own process)',
  value: streamed.peak_mb / collected.peak_mb,
  target: 1,
  detail: `${streamed.peak_mb.toFixed(0)} MB vs ${collected.peak_mb.toFixed(0)} MB; the table itself ${streamed.table_mb.toFixed(0)} MB, node at start ${streamed.base_mb.toFixed(0)} MB`,
});
report({
  name: 'load into a table page by page: peak memory vs the table itself plus node at start',
  value: streamed.peak_mb / (streamed.table_mb + streamed.base_mb),
  target: 1.5,
  detail: `${streamed.peak_mb.toFixed(0)} MB vs ${streamed.table_mb.toFixed(0)} + ${streamed.base_mb.toFixed(0)} MB`,
});
report({
  name: 'load into a table page by page: peak memory vs pandas (records + DataFrame)',
  value: streamed.peak_mb / pandas.peak_mb,
  target: 1,
  detail: `${streamed.peak_mb.toFixed(0)} MB vs pandas ${pandas.peak_mb.toFixed(0)} MB`,
});
report({
  name: 'group-by after loading page by page (no records to keep), vs after load-then-build with the records still referenced',
  value: streamed.group_ms / collected.group_ms,
  target: 1,
  detail: `${streamed.group_ms.toFixed(0)} ms vs ${collected.group_ms.toFixed(0)} ms (${streamed.groups} groups; ${collected.records_alive.toLocaleString('en')} records alive in the second)`,
});
report({
  name: 'group-by after loading page by page, vs pandas group-by',
  value: streamed.group_ms / pandas.group_ms,
  target: 1.5,
  detail: `${streamed.group_ms.toFixed(0)} ms vs pandas ${pandas.group_ms.toFixed(0)} ms`,
});
report({ name: 'load page by page: time vs parse-all-then-toTable', value: streamed.load_ms / collected.load_ms, detail: `${streamed.load_ms.toFixed(0)} ms vs ${collected.load_ms.toFixed(0)} ms (JSON parse included; informational)` });
