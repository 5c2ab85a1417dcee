// Issue 4 targets, on 1,000,000 brandscape rows x 30 metric columns, against Debian's pandas doing
// the same work on the same records in the same run: building the columnar table from loaded
// records, a 2-key group-by mean over 30 metrics and a market x year pivot each <= 1.5x pandas'
// time; peak memory <= 1.5x pandas'; toDanfo() of a 100,000-row result < 3 s.
// Each side runs in its own process so that its peak resident memory is its own.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from './lib.mjs';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const env = { ...process.env, FRAMES_N: process.env.FRAMES_N ?? '1000000' };

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
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

const python = process.env.FRAMES_PYTHON ?? '/usr/bin/python3';
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
const node = await run(process.execPath, ['--expose-gc', here('./frames-node-side.mjs')]);
const danfo = await run(process.execPath, [here('./frames-danfo-side.mjs')]);

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
  detail: `${node.peak_mb.toFixed(0)} MB vs pandas ${pandas.peak_mb.toFixed(0)} MB (records + table + results; pandas ${pandas.pandas})`,
});
report({
  name: 'toDanfo() of a 100,000-row result (fresh process, danfojs import included)',
  value: danfo.cold_ms / 1000,
  unit: 's',
  target: 3,
  detail: `${danfo.shape.join(' x ')}; ${(danfo.warm_ms / 1000).toFixed(2)} s once danfojs is loaded`,
});
report({ name: 'toolkit and pandas results agree (group means, pivot cells)', value: same ? 1 : 0, unit: '', target: 1, better: 'higher' });
