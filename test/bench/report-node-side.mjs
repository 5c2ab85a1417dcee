// The toolkit's side, in a process of its own (its peak memory is the writer's): reads the report
// spec (five sections with tables and charts) and the Data sheet rows, then times writeXlsx.
import { readFileSync } from 'node:fs';
import { writeXlsx } from '../../dist/index.js';

const [specFile, rowsFile, out] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const lines = readFileSync(rowsFile, 'utf8').split('\n');
const rows = lines.slice(1).filter((l) => l !== '').map((l) => JSON.parse(l));
const full = { ...spec, data: { ...spec.data, rows } };
const start = process.hrtime.bigint();
await writeXlsx(full, out);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
console.log(JSON.stringify({ ms, peak_mb: process.resourceUsage().maxRSS / 1024, rows: rows.length }));
