/**
 * The package as another project sees it: a project whose node_modules holds only
 * `brandscape-kit` (this checkout, built) compiles code that imports it by name, its subpaths
 * included, with modern resolution (NodeNext, `exports`) and with the old node resolution tslab's
 * TypeScript 5.0 uses (which ignores `exports`: `typesVersions` maps the subpaths), and emits
 * declarations for values whose types come from dependencies (`const df = await table.toDanfo()`
 * needs a nameable `DataFrame`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

const SOURCE = `
import { createClient, crossMarket, loadComparisonInput, type DataFrame } from 'brandscape-kit';
import { createEmulator } from 'brandscape-kit/emulator';
import { createClient as createClientOnly } from 'brandscape-kit/client';
import { writeFileAtomically } from 'brandscape-kit/files';
import { toolkitVersion } from 'brandscape-kit/version';

const emulator = await createEmulator({ port: 0 });
const client = createClient({ baseUrl: emulator.url, token: emulator.token });
const input = await loadComparisonInput(client, { countryCodes: ['GB'], years: [2024], metricKeys: ['esteem'] });
const table = crossMarket(input, { year: 2024, metrics: ['esteem'] });
export const df = await table.toDanfo();
export const frame: DataFrame = df;
export const other = createClientOnly;
export const write = writeFileAtomically;
export const version = toolkitVersion;
await emulator.close();
`;

const CJS_SOURCE = `
import { connect, display } from 'brandscape-kit';
import { createEmulator } from 'brandscape-kit/emulator';
import { createClient } from 'brandscape-kit/client';
export const both = [connect, display, createEmulator, createClient];
`;

function diagnostics(files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  const emitted = program.emit(undefined, undefined, undefined, true);
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => `${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('brandscape-kit in another project', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'brandscape-consumer-'));
    mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
    symlinkSync(ROOT, join(dir, 'node_modules', 'brandscape-kit'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
    writeFileSync(join(dir, 'analysis.ts'), SOURCE);
    writeFileSync(join(dir, 'cell.ts'), CJS_SOURCE);
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Without `export type { DataFrame }` in index.ts this fails with TS2742: "The inferred type of
  // 'df' cannot be named without a reference to 'brandscape-kit/node_modules/danfojs-node'".
  it('compiles with NodeNext resolution and emits declarations (DataFrame is nameable)', () => {
    const problems = diagnostics([join(dir, 'analysis.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      declaration: true,
      emitDeclarationOnly: true,
      skipLibCheck: true,
      types: ['node'],
      outDir: join(dir, 'out'),
    });
    expect(problems).toEqual([]);
  }, 60_000);

  it('compiles with the old node resolution tslab uses (subpaths through typesVersions)', () => {
    const problems = diagnostics([join(dir, 'cell.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
