// Issue 27 target: a compare through `brandscape mcp` (stdio, warm: the server started and one
// compare done) costs at most 1.2x the same compare in process. Both sides do the same work against
// the same warm emulator in another process over HTTP: `compareBrands` of 3 brands (by name) x 6
// markets, the pillars, and the chart rendered to PNG (what the compare_brands tool answers with).
// The MCP side adds the JSON-RPC round trip over pipes, the argument checks, the Markdown table and
// the base64 image; the in-process side is a client in this process. Alternated pairs, medians.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { compareBrands, comparisonChart, createClient, renderPng } from '../../dist/index.js';
import { report } from './lib.mjs';

const RUNS = Number(process.env.MCP_RUNS ?? 15);
const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
const child = fork(fileURLToPath(new URL('./emulator-server.mjs', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = (type) => new Promise((resolve) => child.on('message', function on(m) { if (m.type === type) { child.off('message', on); resolve(m); } }));
const ready = await next('ready');

const brands = ['Veros', 'Polora', 'Corvaton Motors'];
const markets = ['GB', 'DE', 'FR', 'IT', 'ES', 'US'];
const client = createClient({ baseUrl: ready.url, token: ready.token, env: {} });
const mcp = new Client({ name: 'mcp bench', version: '1.0.0' });
const since = (start) => Number(process.hrtime.bigint() - start) / 1e6;

try {
  const started = process.hrtime.bigint();
  await mcp.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env: { PATH: process.env.PATH ?? '', BRANDSCAPE_BASE_URL: ready.url, BRANDSCAPE_TOKEN: ready.token }, stderr: 'ignore' }),
  );
  const connectMs = since(started);

  const overMcp = async () => {
    const result = await mcp.callTool({ name: 'compare_brands', arguments: { brands, markets } });
    if (result.isError) throw new Error(`compare_brands failed: ${JSON.stringify(result.content)}`);
    if (result.content[1]?.type !== 'image') throw new Error('compare_brands answered without its chart');
  };
  const inProcess = async () => {
    const comparison = await compareBrands(client, { brands, markets });
    await renderPng(comparisonChart(comparison), { scale: 1 });
  };

  // Warm: both sides' code compiled, the client's metric catalogue and the emulator's caches filled.
  await overMcp();
  await inProcess();
  await overMcp();
  await inProcess();
  const ours = [];
  const theirs = [];
  for (let k = 0; k < RUNS; k++) {
    let t = process.hrtime.bigint();
    await overMcp();
    ours.push(since(t));
    t = process.hrtime.bigint();
    await inProcess();
    theirs.push(since(t));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  report({
    name: 'compare through brandscape mcp (stdio, warm) / the same compare in process',
    value: median(ours) / median(theirs),
    target: 1.2,
    detail: `${median(ours).toFixed(0)} ms vs ${median(theirs).toFixed(0)} ms in process (3 brands x 6 markets, pillars, chart as PNG; medians of ${RUNS}, alternated; MCP: ${ours.map((m) => m.toFixed(0)).join(', ')} ms; server start to first answer ${connectMs.toFixed(0)} ms)`,
  });
} finally {
  await mcp.close().catch(() => {});
  child.send({ type: 'stop' });
}
