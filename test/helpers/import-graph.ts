/**
 * The import graph of `src/`, read with TypeScript's own pre-processor (static imports and
 * re-exports, type-only ones included, and `import()` calls), and the checks the architecture test
 * makes on it: cycles between files, and imports that point the wrong way between layers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** File (relative to src, with `/`) -> what it imports: files relative to src, or `package:name`. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Reads the graph of every `.ts` file under `root`.
 *
 * @example
 * readImportGraph('src').get('loader/load-all.ts') // ['errors.ts', 'loader/iterate-pages.ts', ...]
 */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const toKey = (path: string) => relative(root, path).split(sep).join('/');
  for (const file of sourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map(({ fileName }) =>
      fileName.startsWith('.') ? toKey(resolve(dirname(file), fileName.replace(/\.js$/, '.ts'))) : `package:${fileName}`,
    );
    graph.set(toKey(file), [...new Set(targets)]);
  }
  return graph;
}

/** Groups of files that import each other, directly or through others (strongly connected components). */
export function findCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = component.length === 1 && (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfImport) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * The layer of a file: the longest of `rooms` (sub-folders placed on their own, e.g.
 * `report/template`) that holds it, else its top folder under src, or the file itself at the top.
 */
export const layerOf = (file: string, rooms: readonly string[] = []): string => {
  const room = rooms.filter((r) => file.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
  return room ?? (file.includes('/') ? (file.split('/')[0] ?? file) : file);
};

export interface LayerRules {
  /**
   * Layer -> the other layers its files may import. Every layer of the graph must be listed; a key
   * with a `/` (`report/template`) is a sub-room, a layer of its own inside its folder.
   */
  allowed: Readonly<Record<string, readonly string[]>>;
  /** Layers whose files may import only these files (beyond their own layer and `node:` builtins). */
  onlyFiles?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Every import that breaks the rules, in words.
 *
 * @example
 * checkLayers(graph, { allowed: { loader: ['errors.ts'], 'errors.ts': [] } }) // ['loader/x.ts imports client/y.ts: loader may import only errors.ts']
 */
export function checkLayers(graph: ImportGraph, rules: LayerRules): string[] {
  const problems: string[] = [];
  const rooms = Object.keys(rules.allowed).filter((name) => name.includes('/'));
  for (const [file, targets] of graph) {
    const layer = layerOf(file, rooms);
    const allowed = rules.allowed[layer];
    if (allowed === undefined) {
      problems.push(`${file} is in '${layer}', which the architecture test does not place: add it to the layer rules`);
      continue;
    }
    const onlyFiles = rules.onlyFiles?.[layer];
    for (const target of targets) {
      if (target.startsWith('package:')) {
        if (onlyFiles && !target.startsWith('package:node:')) problems.push(`${file} imports ${target.slice(8)}: ${layer} may import only ${onlyFiles.join(', ')}`);
        continue;
      }
      const targetLayer = layerOf(target, rooms);
      if (targetLayer === layer) continue;
      if (onlyFiles) {
        if (!onlyFiles.includes(target)) problems.push(`${file} imports ${target}: ${layer} may import only ${onlyFiles.join(', ')}`);
        continue;
      }
      if (!allowed.includes(targetLayer)) problems.push(`${file} imports ${target}: ${layer} may import only ${allowed.join(', ') || 'nothing outside itself'}`);
    }
  }
  return problems;
}
