/**
 * Finding and reading templates: the ones shipped in the toolkit's `templates/` folder, the ones in
 * a project's own `templates/` folder, or any file by path.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, resolve, sep } from 'node:path';
import { UsageError } from '../../errors.js';
import { packageRoot } from '../../package-root.js';
import { fromTemplateText, type Template } from './resolve-template.js';
import { compareNames } from '../../frames/compare-names.js';
import { TemplateError } from './template-error.js';
import { TEMPLATE_LIMITS, bytesText } from './template-limits.js';

const EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** The templates shipped with the toolkit (`templates/` at the package root). */
export function bundledTemplatesDir(): string {
  return join(packageRoot(), 'templates') + sep;
}

/** A template file found by name. */
export interface TemplateEntry {
  readonly name: string;
  readonly path: string;
  /** `project` (the working directory's `templates/`) or `bundled` (shipped with the toolkit). */
  readonly origin: 'project' | 'bundled';
}

async function filesIn(dir: string, origin: TemplateEntry['origin']): Promise<TemplateEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => (EXTENSIONS as readonly string[]).includes(extname(n)) && !n.startsWith('.'))
    .map((n) => ({ name: basename(n, extname(n)), path: join(dir, n), origin }))
    .sort((a, b) => compareNames(a.name, b.name));
}

/**
 * Every template found by name: the project's own (`<cwd>/templates/`) first, then the toolkit's;
 * a project template hides a bundled one of the same name.
 *
 * @example
 * (await listTemplates()).map((t) => t.name); // ['company-portfolio', 'competitive-archetypes', ...]
 */
export async function listTemplates(options: { cwd?: string } = {}): Promise<TemplateEntry[]> {
  const project = resolve(options.cwd ?? process.cwd(), 'templates');
  const bundled = bundledTemplatesDir();
  const found = resolve(project) === resolve(bundled) ? [] : await filesIn(project, 'project');
  const seen = new Set(found.map((t) => t.name));
  for (const t of await filesIn(bundled, 'bundled')) if (!seen.has(t.name)) found.push(t);
  return found;
}

const isFile = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() === true;

/**
 * Reads and checks a template: `nameOrPath` is a file path (anything with a `/` or an extension),
 * or the name of a template in `templates/` (the project's, then the toolkit's).
 *
 * @throws UsageError when there is no such template; TemplateError when it cannot be used.
 * @example
 * const template = await loadTemplate('cross-market-brand-health');
 * const mine = await loadTemplate('./my-templates/board-pack.yaml');
 */
export async function loadTemplate(nameOrPath: string, options: { cwd?: string } = {}): Promise<Template> {
  const cwd = options.cwd ?? process.cwd();
  const looksLikePath = nameOrPath.includes('/') || nameOrPath.includes('\\') || (EXTENSIONS as readonly string[]).includes(extname(nameOrPath));
  let path: string | undefined;
  if (looksLikePath) {
    path = isAbsolute(nameOrPath) ? nameOrPath : resolve(cwd, nameOrPath);
    if (!(await isFile(path))) {
      throw new UsageError(`There is no template file ${nameOrPath}.`, { hint: "Check the path, or give a template's name (see 'brandscape templates list')." });
    }
  } else {
    const entries = await listTemplates({ cwd });
    path = entries.find((t) => t.name === nameOrPath)?.path;
    if (path === undefined) {
      throw new UsageError(`There is no template named '${nameOrPath}'.`, { hint: `Templates: ${entries.map((t) => t.name).join(', ') || '(none)'}; or give a file path.` });
    }
  }
  const name = basename(path, extname(path));
  const source = looksLikePath ? nameOrPath : `${name} (${path})`;
  const text = await readBounded(path, source);
  return fromTemplateText(text, { name, source, format: extname(path) === '.json' ? 'json' : 'yaml' });
}

/**
 * A template file's text, read only when it is within the size limit: a 50 MB file is refused
 * from its size, not read first. At most one byte over the limit is read, should the file grow
 * between the size check and the read.
 */
async function readBounded(path: string, source: string): Promise<string> {
  const limit = TEMPLATE_LIMITS.bytes;
  const tooLarge = (size: number) => new TemplateError(source, [{ path: '', message: `the file is ${bytesText(size)}; a template file is at most ${bytesText(limit)}` }]);
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limit) throw tooLarge(size);
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > limit) throw tooLarge(length);
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}
