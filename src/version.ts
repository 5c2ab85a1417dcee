/**
 * The toolkit's version, read from its package.json (one source of truth; reports record it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

let cached: string | undefined;

/**
 * The installed version of brandscape-kit, e.g. `0.1.0`.
 *
 * @example
 * toolkitVersion(); // '0.1.0'
 */
export function toolkitVersion(): string {
  if (cached === undefined) {
    const pkg: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
    const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
    cached = typeof version === 'string' ? version : '0.0.0';
  }
  return cached;
}
