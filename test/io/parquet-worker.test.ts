/**
 * The Parquet worker thread, through the built package (the worker is a compiled file: the
 * sources run by vitest encode on one thread). Run in a child process of its own: the file a
 * worker writes must be byte for byte the file one thread writes, and the process must end by
 * itself afterwards (the idle worker never keeps it alive).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const script = `
const { toParquet, toTable, fromParquet } = await import(${JSON.stringify(dist)});
const records = Array.from({ length: 50_003 }, (_, i) => ({
  id: i + 1,
  brand_id: i % 11 === 0 ? null : 100 + (i % 37),
  brand_name: i % 13 === 0 ? null : 'Brand ' + (i % 29),
  score: i % 7 === 0 ? null : (i * 37) / 8 - 60,
  rank: i % 5 === 0 ? null : (i % 1001) / 10,
  is_duplicate: i % 17 === 0 ? null : i % 2 === 0,
  updated_at: i % 19 === 0 ? null : new Date(Date.UTC(2024, i % 12, 1 + (i % 28))).toISOString(),
}));
const table = toTable(records, { metricColumns: ['score', 'rank'] });
// The worker is a thread of this process: Linux counts them (after a first call on one thread,
// which may start the thread pool that reads the library's modules).
const { readFileSync } = await import('node:fs');
const threads = () => Number(/Threads:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
await toParquet(table, { parallel: false });
const before = threads();
await toParquet(table, { parallel: false });
const results = { workerStarted: threads() > before };
await toParquet(table, { parallel: true });
results.workerStarted = !results.workerStarted && threads() > before;
for (const codec of ['SNAPPY', 'UNCOMPRESSED']) {
  const one = await toParquet(table, { codec, rowGroupSize: 7_000, parallel: false });
  const two = await toParquet(table, { codec, rowGroupSize: 7_000, parallel: true });
  results[codec] = { size: one.length, same: Buffer.compare(Buffer.from(one), Buffer.from(two)) === 0 };
}
const back = await fromParquet(await toParquet(table, { parallel: true }));
results.readBack = JSON.stringify(back.rows()) === JSON.stringify(table.rows());
// A lazy table (a filter, then a sort): the worker's columns are gathered through the selection.
const lazy = () => table.where({ rank: { gte: 20 } }).sortBy({ column: 'score', descending: true });
const throughSelection = await toParquet(lazy(), { rowGroupSize: 7_000, parallel: true });
results.lazySame = Buffer.compare(Buffer.from(throughSelection), Buffer.from(await toParquet(lazy().materialize(), { rowGroupSize: 7_000, parallel: false }))) === 0;
// A table without columns gives the worker nothing to do (and must not keep the process alive).
results.noColumns = (await toParquet(table.select([]), { parallel: true })).length > 0;
console.log(JSON.stringify(results));
`;

const expected = (workerStarted: boolean) => ({
  workerStarted,
  SNAPPY: { size: expect.any(Number), same: true },
  UNCOMPRESSED: { size: expect.any(Number), same: true },
  readBack: true,
  lazySame: true,
  noColumns: true,
});

describe('toParquet with a worker thread', () => {
  const run = async (flags: string[]) => {
    // A timeout kills a process that does not end by itself (a worker keeping it alive).
    const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', script], { timeout: 20_000 });
    return JSON.parse(stdout.trim()) as Record<string, unknown>;
  };

  it.runIf(existsSync(dist))('writes the same bytes as one thread, and the process still ends by itself', async () => {
    expect(await run([])).toEqual(expected(true));
  });

  it.runIf(existsSync(dist))('encodes on one thread where workers are not allowed (Node permission model), with the same bytes', async () => {
    expect(await run(['--experimental-permission', '--allow-fs-read=*', '--no-warnings'])).toEqual(expected(false));
  });
});
