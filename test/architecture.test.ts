/**
 * The architecture of `src/` as DESIGN.md draws it, checked on the import graph (every import,
 * type-only ones and `import()` calls included):
 *
 *   schemas <- catalogue <- client <- load <- (report, compare) <- index.ts <- cli
 *   loader <- client            (the loader knows pages, not URLs: nothing of client/)
 *   schemas, catalogue <- emulator   (never the client)
 *   frames <- load              (frames take data: the client calls that fill them are load/)
 *   frames <- charts <- report <- compare   (compare: plan (pure) -> load -> shape (pure))
 *   client, charts, emulator <- notebook <- index.ts   (connect() starts an emulator lazily)
 *   client, frames, charts, report, load, compare <- mcp <- cli   (brandscape-kit/mcp: never the emulator)
 *   emulator/mcp/ (the service's MCP servers) stays within the emulator's imports
 *
 * No file imports itself through others; the CLI imports only the public entry points (the files
 * package.json exports).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, findCycles, readImportGraph, type ImportGraph, type LayerRules } from './helpers/import-graph.js';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** The public entry points: the source files of what package.json exports (`./dist/x.js` is `x.ts`). */
const ENTRY_POINTS = (() => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, string | { import?: string }> };
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.import))
    .filter((target): target is string => target !== undefined && target.startsWith('./dist/'))
    .map((target) => target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
})();

/**
 * Which layers each layer may import (its own always). Shared leaves: errors.ts, link-signals.ts,
 * listen-http.ts, option-checks.ts, version.ts.
 */
const RULES: LayerRules = {
  allowed: {
    'errors.ts': [],
    'link-signals.ts': [],
    'option-checks.ts': ['errors.ts'],
    // Where the package's own files are (package.json, templates/), whatever the build layout.
    'package-root.ts': [],
    'version.ts': ['package-root.ts'],
    'listen-http.ts': [],
    // Node's HTTP server in front of a web-standard fetch handler (the MCP SDK's): emulator and mcp.
    'serve-fetch.ts': [],
    schemas: ['errors.ts'],
    catalogue: ['schemas'],
    loader: ['errors.ts', 'link-signals.ts', 'option-checks.ts', 'catalogue'],
    client: ['errors.ts', 'link-signals.ts', 'option-checks.ts', 'schemas', 'catalogue', 'loader'],
    // The table engine and the analyses: they take data, and never call the client (load/ does).
    frames: ['errors.ts', 'link-signals.ts', 'option-checks.ts', 'schemas', 'catalogue'],
    // The client calls that fill the frames' inputs (loadTable, loadComparisonInput, resolveBrands):
    // their own room because report (templates) and compare both use them, and report may not import compare.
    load: ['errors.ts', 'link-signals.ts', 'schemas', 'catalogue', 'loader', 'client', 'frames'],
    charts: ['errors.ts', 'schemas', 'frames'],
    report: ['errors.ts', 'link-signals.ts', 'option-checks.ts', 'package-root.ts', 'version.ts', 'schemas', 'catalogue', 'loader', 'client', 'frames', 'load', 'charts'],
    // brandscape compare as a use case: plan (pure) -> load (client calls) -> shape (pure rows and
    // notes), over the frames' analyses and report's matrices; a comparison's chart and ReportSpec.
    // Within it, plan and shape stay pure (the test below): no client, loader or load.
    compare: ['errors.ts', 'link-signals.ts', 'version.ts', 'schemas', 'catalogue', 'client', 'frames', 'load', 'charts', 'report'],
    // The emulator's MCP servers (emulator/mcp/) stay inside these too: never the client.
    emulator: ['errors.ts', 'link-signals.ts', 'listen-http.ts', 'serve-fetch.ts', 'version.ts', 'schemas', 'catalogue'],
    // Audience exports are written and read back as tables (frames) through report's Parquet and atomic files.
    webhooks: ['errors.ts', 'listen-http.ts', 'schemas', 'catalogue', 'client', 'frames', 'report'],
    // connect() starts the embedded emulator (loaded with import(), only when no service is set).
    notebook: ['errors.ts', 'loader', 'client', 'charts', 'emulator'],
    // brandscape-kit/danfo: the only room whose types name danfojs-node (an optional peer).
    danfo: ['errors.ts', 'frames'],
    'index.ts': ['errors.ts', 'option-checks.ts', 'version.ts', 'schemas', 'catalogue', 'loader', 'client', 'frames', 'load', 'charts', 'report', 'compare', 'notebook', 'webhooks'],
    // brandscape mcp: a thin adapter over the use cases (compare, reports, the client's fetchers).
    mcp: ['errors.ts', 'link-signals.ts', 'option-checks.ts', 'listen-http.ts', 'serve-fetch.ts', 'package-root.ts', 'version.ts', 'schemas', 'catalogue', 'loader', 'client', 'frames', 'load', 'charts', 'report', 'compare'],
    cli: ['index.ts', 'emulator', 'mcp', 'version.ts'],
  },
  onlyFiles: { cli: ENTRY_POINTS },
};

describe('the import graph of src/', () => {
  const graph = readImportGraph(src);

  it('knows the public entry points from package.json', () => {
    expect(ENTRY_POINTS).toEqual(expect.arrayContaining(['index.ts', 'emulator/index.ts']));
  });

  it('is read whole: every layer, type-only imports and import() calls included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/service.ts')).toContain('emulator/index.ts');
    expect(graph.get('loader/types.ts')).toContain('catalogue/page-limits.ts');
    expect(graph.get('client/transport.ts')).toContain('client/transport-event.ts');
  });

  it('has no cycle between files', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('points one way between layers; the CLI imports only the public entry points (src/index.ts, src/emulator/index.ts, ...)', () => {
    expect(checkLayers(graph, RULES)).toEqual([]);
  });

  it('keeps the loader and the emulator away from the client', () => {
    const intoClient = [...graph].filter(([file, targets]) => /^(loader|emulator)\//.test(file) && targets.some((t) => t.startsWith('client/')));
    expect(intoClient.map(([file]) => file)).toEqual([]);
  });

  it("keeps the toolkit's MCP server (mcp/) on the client side: it never imports the emulator; the CLI opens the service", () => {
    const intoEmulator = [...graph].filter(([file, targets]) => file.startsWith('mcp/') && targets.some((t) => t.startsWith('emulator/')));
    expect(intoEmulator.map(([file]) => file)).toEqual([]);
    expect([...graph.keys()].filter((f) => f.startsWith('emulator/mcp/')).length).toBeGreaterThan(3);
  });
});

describe('the compare room: plan and shape are pure', () => {
  // plan.ts and shape.ts (and messages.ts, types.ts, which they read) take plain data: they may name
  // the client's or the loads' types, never call them. Checked on the source, where `import type` says so.
  const pure = ['compare/plan.ts', 'compare/shape.ts', 'compare/messages.ts', 'compare/types.ts'];

  it.each(pure)('%s imports the client, the loader and load/ only as types, and nothing of compare/load.ts', (file) => {
    const text = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+'([^']+)';/gms)].map((m) => ({ typeOnly: m[1] !== undefined, from: m[2]! }));
    expect(imports.length).toBeGreaterThan(0);
    const calls = imports.filter((i) => !i.typeOnly && /\.\.\/(client|loader|load)\/|\.\/load\.js$|^p-limit$/.test(i.from));
    expect(calls.map((i) => i.from)).toEqual([]);
    expect(imports.map((i) => i.from)).not.toContain('./load.js');
  });
});

describe('the checks themselves', () => {
  const sample = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('find a cycle through several files, and a file importing itself', () => {
    const graph = sample({
      'client/a.ts': ['loader/b.ts'],
      'loader/b.ts': ['loader/c.ts'],
      'loader/c.ts': ['client/a.ts'],
      'loader/d.ts': ['loader/d.ts'],
      'loader/e.ts': ['loader/b.ts'],
    });
    expect(findCycles(graph)).toEqual(expect.arrayContaining([['client/a.ts', 'loader/b.ts', 'loader/c.ts'], ['loader/d.ts']]));
    expect(findCycles(graph)).toHaveLength(2);
  });

  it('name an import against the layers, a CLI import past the entry points, and a layer nobody placed', () => {
    const graph = sample({
      'loader/load-all.ts': ['client/transport.ts', 'errors.ts'],
      'emulator/http/handler.ts': ['client/query.ts', 'catalogue/endpoints.ts'],
      'cli/commands/fetch.ts': ['index.ts', 'client/create-client.ts', 'package:node:fs', 'package:zod'],
      'cli/main.ts': ['emulator/index.ts', 'emulator/http/auth.ts'],
      'widgets/x.ts': [],
    });
    expect(checkLayers(graph, { ...RULES, onlyFiles: { cli: ['index.ts', 'emulator/index.ts'] } })).toEqual([
      'loader/load-all.ts imports client/transport.ts: loader may import only errors.ts, link-signals.ts, option-checks.ts, catalogue',
      'emulator/http/handler.ts imports client/query.ts: emulator may import only errors.ts, link-signals.ts, listen-http.ts, serve-fetch.ts, version.ts, schemas, catalogue',
      'cli/commands/fetch.ts imports client/create-client.ts: cli may import only index.ts, emulator/index.ts',
      'cli/commands/fetch.ts imports zod: cli may import only index.ts, emulator/index.ts',
      'cli/main.ts imports emulator/http/auth.ts: cli may import only index.ts, emulator/index.ts',
      "widgets/x.ts is in 'widgets', which the architecture test does not place: add it to the layer rules",
    ]);
  });
});
