// toDanfo() of a 100,000-row result, in a fresh process: the first call includes importing
// danfojs-node (and tfjs), which is what a notebook user waits for. Prints one JSON line.
import { toTable } from '../../dist/index.js';
import { toDanfo } from '../../dist/danfo/index.js';

const N = Number(process.env.FRAMES_DANFO_N ?? 100_000);
// A crossMarket-shaped result: 19 columns of ids, text, floats and counts, some values missing.
const markets = ['United Kingdom', 'Germany', 'France', 'Brazil', 'Japan'];
const rows = Array.from({ length: N }, (_, i) => ({
  entity_kind: 'brand', entity_id: 1 + (i % 2000), entity_name: `Brand ${i % 2000}`, global_name: `Brand ${i % 2000}`,
  country_id: 1 + (i % 5), market: markets[i % 5], country_code: 'XX', metric: `m${i % 30}`, metric_name: `Metric ${i % 30}`,
  metric_group: 'pillars', score_type: 'rank', column: `m${i % 30}_rank`, year: 2024, value: i % 11 === 0 ? null : (i % 1001) / 10,
  cross_market_mean: (i % 997) / 10, diff_from_mean: i % 11 === 0 ? null : ((i % 1001) - (i % 997)) / 10,
  market_rank: i % 11 === 0 ? null : 1 + (i % 5), markets_compared: 5, n_rows: 1 + (i % 3),
}));
const table = toTable(rows, { kinds: { market_rank: 'int', markets_compared: 'int', n_rows: 'int', value: 'float', cross_market_mean: 'float', diff_from_mean: 'float' } });
let t = performance.now();
const df = await toDanfo(table);
const coldMs = performance.now() - t;
t = performance.now();
await toDanfo(table);
const warmMs = performance.now() - t;
process.stdout.write(`${JSON.stringify({ cold_ms: coldMs, warm_ms: warmMs, shape: df.shape, peak_mb: process.resourceUsage().maxRSS / 1024 })}\n`);
