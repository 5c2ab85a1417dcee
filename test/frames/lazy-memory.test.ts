/**
 * What lazy tables hold, measured: the typed arrays of a process (`process.memoryUsage()
 * .arrayBuffers`, after a full collection) while a filter, a chain of operations and a group-by
 * run over a large table. Run through the built package in a child process of its own (with
 * `--expose-gc`), so that nothing else allocates beside it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const N = 500_000;
const COLUMNS = 20;

/** Runs a module script against the built package with `--expose-gc`; `mb()` measures typed arrays after a full collection. */
async function measure(body: string): Promise<Record<string, number>> {
  const script = `
const { FrameTable, groupBy } = await import(${JSON.stringify(dist)});
const mb = () => (gc(), gc(), process.memoryUsage().arrayBuffers / 2 ** 20);
// Each step in a function of its own: a module's top level can keep a temporary of an expression
// reachable from its frame, which would count the intermediate tables of a chain as held.
const step = (make) => make();
const large = () => new FrameTable(
  [
    ['g', { kind: 'int', values: Int32Array.from({ length: ${N} }, (_, i) => i % 40) }],
    ...Array.from({ length: ${COLUMNS} }, (_, c) => ['m' + c, { kind: 'float', values: Float64Array.from({ length: ${N} }, (_, i) => ((i * 7 + c * 13) % 101) / 2) }]),
  ],
  ${N},
  { source: 'large', notes: [] },
);
${body}
`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout.trim()) as Record<string, number>;
}

/** MB of a selection of `rows` rows (4 bytes a row). */
const selection = (rows: number) => (rows * 4) / 2 ** 20;
/** MB of the large table: 20 float columns and an int column. */
const TABLE_MB = (N * (8 * COLUMNS + 4)) / 2 ** 20;

describe('memory of lazy tables (a large table in a child process)', () => {
  it.runIf(existsSync(dist))('a filter costs its selection, a chain its last one, a group-by nothing kept, a column read that column', async () => {
    const m = await measure(`
const base = mb();
const big = large();
const table = mb() - base;
const kept = step(() => big.where({ m0: { gte: 25 } }));
const where = mb() - base - table;
const chained = step(() => big.where({ m0: { gte: 25 } }).sortBy('m1').where({ m2: { lt: 40 } }));
const chain = mb() - base - table - where;
const means = step(() => groupBy(kept, 'g'));
step(() => kept.rows().length);
const grouped = mb() - base - table - where - chain;
step(() => kept.column('m3'));
step(() => kept.numbers('m3'));
const oneColumn = mb() - base - table - where - chain - grouped;
console.log(JSON.stringify({ table, where, chain, grouped, oneColumn, kept: kept.length, chained: chained.length, groups: means.length }));
`);
    expect(m.table).toBeCloseTo(TABLE_MB, 0);
    expect(m.groups).toBe(40);
    // The filter holds its row positions and nothing else (a copy of the columns: ~40 MB).
    expect(Math.abs(m.where! - selection(m.kept!))).toBeLessThan(0.25);
    // A chain holds only its last selection: the intermediate tables, their selections and the
    // sort key the second where gathered on the sorted table went with them.
    expect(Math.abs(m.chain! - selection(m.chained!))).toBeLessThan(0.25);
    // A group-by and rows() read through the selection: nothing stays.
    expect(Math.abs(m.grouped!)).toBeLessThan(0.25);
    // Reading a column in full gathers it once (numbers() returns the same array).
    expect(Math.abs(m.oneColumn! - (m.kept! * 8) / 2 ** 20)).toBeLessThan(0.25);
  });

  it.runIf(existsSync(dist))('keeps a large table alive while a lazy table reads it, and lets it go once the small part is materialized', async () => {
    const m = await measure(`
const base = mb();
let big = large();
let lazy = step(() => big.where({ m0: { lt: 2 } }));
const own = step(() => big.where({ m0: { lt: 2 } }).materialize());
big = undefined;
const whileLazy = mb() - base;
lazy = undefined;
const afterLazy = mb() - base;
console.log(JSON.stringify({ whileLazy, afterLazy, rows: own.length }));
`);
    // The lazy table reads the large table's columns: they stay while it lives ...
    expect(m.whileLazy).toBeGreaterThan(TABLE_MB);
    // ... and the materialized one holds its own rows only.
    expect(Math.abs(m.afterLazy! - (m.rows! * (8 * COLUMNS + 4)) / 2 ** 20)).toBeLessThan(0.25);
  });
});
