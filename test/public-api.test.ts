/**
 * The public API, name by name: for each entry point of package.json's `exports`, the sorted names
 * it exports, values and types apart, held against a file in test/public-api/. A name added or
 * removed fails here until the file is updated on purpose
 * (`npx vitest run test/public-api.test.ts -u`), so the API grows only when someone means it to.
 * Read with the TypeScript compiler from the sources (`./dist/x.js` is `src/x.ts`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, string | { import?: string }> };

/** Subpath (`.`, `./client`, ...) -> its source file. */
const ENTRY_POINTS = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
  const file = typeof target === 'string' ? target : target.import;
  return file?.startsWith('./dist/') && file.endsWith('.js') ? [{ subpath, source: `${root}src/${file.slice('./dist/'.length, -'.js'.length)}.ts` }] : [];
});

const program = ts.createProgram(
  ENTRY_POINTS.map((e) => e.source),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true, types: ['node'] },
);
const checker = program.getTypeChecker();

/** The names a module exports: values (what `import()` gives at run time) and types only. */
function exportedNames(source: string): { values: string[]; types: string[] } {
  const file = program.getSourceFile(source);
  const module = file && checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`${source} is not a module`);
  const values: string[] = [];
  const types: string[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const declaration = symbol.declarations?.[0];
    const typeOnly = declaration !== undefined && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    (!typeOnly && target.flags & ts.SymbolFlags.Value ? values : types).push(symbol.name);
  }
  const sorted = (names: string[]) => names.sort((a, b) => a.localeCompare(b, 'en'));
  return { values: sorted(values), types: sorted(types) };
}

describe('the public API', () => {
  it('has its entry points: the root, client, emulator, mcp, danfo, compare; no ./files or ./version', () => {
    expect(ENTRY_POINTS.map((e) => e.subpath).sort()).toEqual(['.', './client', './compare', './danfo', './emulator', './mcp']);
  });

  it.each(ENTRY_POINTS)('$subpath exports names, never `export *`', ({ source }) => {
    expect(readFileSync(source, 'utf8')).not.toMatch(/^export \* from/m);
  });

  it.each(ENTRY_POINTS)('$subpath exports the names its snapshot lists', async ({ subpath, source }) => {
    const { values, types } = exportedNames(source);
    const text = [`# ${subpath === '.' ? 'brandscape-kit' : `brandscape-kit/${subpath.slice(2)}`}: ${values.length} values, ${types.length} types`, '', '## values', ...values, '', '## types', ...types, ''].join('\n');
    await expect(text).toMatchFileSnapshot(`./public-api/${subpath === '.' ? 'root' : subpath.slice(2)}.txt`);
  });
});
