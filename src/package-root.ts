/**
 * The toolkit's own folder, where its package.json and `templates/` are. Found by walking up from
 * this module: it is `src/` in development, `dist/` when built, and `dist/cli/chunks/` inside the
 * bundled command-line tool, so no fixed number of `..` fits every layout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'brandscape-kit';
let cached: string | undefined;

/**
 * The folder of the nearest package.json named brandscape-kit above this module.
 *
 * @example
 * join(packageRoot(), 'templates') // the templates shipped with the toolkit
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'));
        if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === NAME) return (cached = dir);
      } catch {
        // Not readable JSON: not ours; keep looking above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`The ${NAME} package folder was not found above ${fileURLToPath(import.meta.url)}.`);
    dir = parent;
  }
}
