// Issue 10 targets, and issue 28's size. (1) A report with a 100,000-row Data sheet plus five section sheets with tables
// and chart images, written by writeXlsx, against Python's xlsxwriter (constant_memory) writing the
// Data sheet alone from the same rows, in the same run: at most 0.5x its time; peak memory under
// 500 MB. (2) `npm start`'s work after the build (emulator start, data, charts, workbook, HTML),
// whole process: under 20 s. (3) The workbook's size against xlsxwriter's smallest file of the
// same Data rows (shared strings, an Excel table): the Data sheet's compressed part at most 1.05x.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReport, createClient, defineTemplate, loadReportData, resolveTemplate } from '../../dist/index.js';
import { createEmulator } from '../../dist/emulator/index.js';
import { DATA_COLUMNS, dataRow } from './report-data.mjs';
import { report } from './lib.mjs';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const N = Number(process.env.REPORT_ROWS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'bsk-report-bench-'));

function run(command, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${(err || out).slice(0, 400)}`));
      else resolve({ out, err, ms });
    });
  });
}

try {
  // Five sections with real tables and charts, from the emulator's data.
  const emulator = await createEmulator({ port: 0 });
  const client = createClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
  const template = resolveTemplate(
    defineTemplate({
      title: 'Benchmark report',
      data: { markets: ['GB', 'DE', 'FR', 'IT', 'ES', 'US'], years: ['latest-4', 'latest-3', 'latest-2', 'latest-1', 'latest'], brands: [305, 23, 6, 52, 221], metric_groups: ['pillars'] },
      sections: [
        { kind: 'cross-market', chart: 'heatmap' },
        { kind: 'cross-year', markets: ['GB', 'US'], chart: 'lines' },
        { kind: 'cross-year', metrics: ['esteem'], chart: 'slope' },
        { kind: 'power-grid', market: 'GB' },
        { kind: 'pillars-profile', market: 'DE' },
      ],
    }),
  );
  const spec = buildReport(template, await loadReportData(client, template));
  await emulator.close();
  const specFile = join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify({ ...spec, data: { columns: DATA_COLUMNS.map(([key, format]) => ({ key, header: key, format })), rows: [], keyColumns: 0, colourScales: [] } }));
  const rowsFile = join(dir, 'rows.jsonl');
  const lines = [JSON.stringify(DATA_COLUMNS.map(([k]) => k))];
  for (let i = 0; i < N; i++) lines.push(JSON.stringify(dataRow(i)));
  writeFileSync(rowsFile, `${lines.join('\n')}\n`);
  const charts = spec.sections.filter((s) => s.chart !== null).length;

  // Alternate the two writers; medians of three each.
  const ours = [];
  const theirs = [];
  let python;
  for (let k = 0; k < 3; k++) {
    ours.push(JSON.parse((await run(process.execPath, [here('./report-node-side.mjs'), specFile, rowsFile, join(dir, `ours-${k}.xlsx`)])).out));
    try {
      theirs.push(JSON.parse((await run(process.env.REPORT_PYTHON ?? '/usr/bin/python3', [here('./report-xlsxwriter.py'), rowsFile, join(dir, `xlsxwriter-${k}.xlsx`)])).out));
    } catch (error) {
      python = String(error.message).split('\n')[0].slice(0, 200);
      break;
    }
  }
  const median = (xs, key) => [...xs].map((x) => x[key]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const size = (f) => (statSync(f).size / 1024 / 1024).toFixed(1);
  if (python) {
    report({ name: 'xlsxwriter baseline for the workbook figure', value: Number.NaN, target: 0, detail: `the Python side could not run (${python}); install Debian's python3-xlsxwriter or set REPORT_PYTHON` });
  } else {
    report({
      name: `workbook: ${N.toLocaleString('en')}-row Data sheet + ${spec.sections.length} section sheets (${charts} charts), vs xlsxwriter writing the Data sheet alone`,
      value: median(ours, 'ms') / median(theirs, 'ms'),
      target: 0.5,
      detail: `${(median(ours, 'ms') / 1000).toFixed(2)} s vs xlsxwriter ${theirs[0].xlsxwriter} constant_memory ${(median(theirs, 'ms') / 1000).toFixed(2)} s (medians of 3, alternated); ${size(join(dir, 'ours-0.xlsx'))} MB vs ${size(join(dir, 'xlsxwriter-0.xlsx'))} MB`,
    });
  }
  if (!python) {
    const smallest = join(dir, 'xlsxwriter-size.xlsx');
    await run(process.env.REPORT_PYTHON ?? '/usr/bin/python3', [here('./report-xlsxwriter.py'), rowsFile, smallest, 'size']);
    const bytes = (f) => statSync(f).size;
    // Compressed sizes of the Data sheet and shared strings: what the rows take in each file.
    const { unzipSync } = await import('fflate');
    const { readFileSync } = await import('node:fs');
    const dataBytes = (f) => {
      const sizes = new Map();
      unzipSync(new Uint8Array(readFileSync(f)), { filter: (e) => (sizes.set(e.name, e.size), false) });
      const sheets = [...sizes].filter(([k]) => /^xl\/worksheets\/sheet\d+\.xml$/.test(k)).sort((a, b) => b[1] - a[1]);
      return sheets[0][1] + (sizes.get('xl/sharedStrings.xml') ?? 0);
    };
    const mb = (n) => (n / 1024 / 1024).toFixed(2);
    report({
      name: `workbook size: the ${N.toLocaleString('en')}-row Data sheet (compressed sheet + shared strings), vs xlsxwriter's smallest file of the same rows`,
      value: dataBytes(join(dir, 'ours-0.xlsx')) / dataBytes(smallest),
      target: 1.05,
      detail: `${mb(dataBytes(join(dir, 'ours-0.xlsx')))} MB vs ${mb(dataBytes(smallest))} MB (xlsxwriter ${theirs[0].xlsxwriter}, shared strings, an Excel table), same run, same rows; whole files ${mb(bytes(join(dir, 'ours-0.xlsx')))} MB (with ${spec.sections.length} section sheets and ${charts} chart images) vs ${mb(bytes(smallest))} MB`,
    });
  }
  report({ name: 'workbook writer peak resident memory', value: median(ours, 'peak_mb'), unit: 'MB', target: 500, detail: `whole process, spec and ${N.toLocaleString('en')} rows included` });

  // npm start after the build: the flagship report against the embedded emulator, whole process.
  const out = join(dir, 'reports');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(out);
  const env = { ...process.env };
  delete env.BRANDSCAPE_BASE_URL;
  const starts = [];
  for (let k = 0; k < 3; k++) starts.push((await run(process.execPath, [here('../../dist/cli/bin.js'), 'report', 'cross-market-brand-health', '--out', out], env)).ms);
  starts.sort((a, b) => a - b);
  report({ name: "npm start's work after the build (flagship report: emulator, data, charts, workbook, HTML)", value: starts[1] / 1000, unit: 's', target: 20, detail: `whole process, median of 3 (${starts.map((s) => (s / 1000).toFixed(1)).join(', ')} s)` });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
