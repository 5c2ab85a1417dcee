#!/usr/bin/env node
// Runs every benchmark (test/bench/*.bench.mjs, or those named on the command line) in its own
// process, then prints one table of figures against their targets. Benchmarks import the built
// package (dist/), like a user would; `npm run bench` builds first.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

const results = [];
for (const file of files) {
  process.stderr.write(`running ${file} ...\n`);
  const lines = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', join(here, file)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) results.push({ file, name: '(benchmark crashed)', value: NaN, unit: '', ok: false, detail: `exit ${code}` });
      resolve(out.split('\n'));
    });
  });
  for (const line of lines) {
    if (line.startsWith('BENCH ')) results.push({ file, ...JSON.parse(line.slice(6)) });
    else if (line.trim()) process.stderr.write(`  ${line}\n`);
  }
}

const fmt = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : String(v));
const rows = results.map((r) => [
  r.ok === null || r.ok === undefined ? ' ' : r.ok ? 'ok' : 'MISS',
  r.name,
  `${fmt(r.value)} ${r.unit}`,
  r.target === undefined ? '' : `${r.better === 'higher' ? '>=' : '<='} ${r.target} ${r.unit}`,
  r.detail ?? '',
]);
const widths = [4, 0, 0, 0].map((w, i) => Math.max(w, ...rows.map((r) => r[i].length)));
console.log(['', 'figure', 'measured', 'target', 'detail'].map((h, i) => h.padEnd(widths[i] ?? 0)).join('  '));
for (const r of rows) console.log(r.map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c)).join('  '));
const missed = results.filter((r) => r.ok === false).length;
console.log(`\n${results.length} figures, ${missed} below target.`);
process.exitCode = process.argv.includes('--strict') && missed > 0 ? 1 : 0;
