/**
 * What an install costs a user: the disk usage of a node_modules tree (allocated blocks, as `du`
 * counts them) and the number of packages in it. Used by test/package/installed.test.ts and the
 * install benchmark (test/bench/install.bench.mjs).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The core install's budget (issue 24), in bytes on disk. */
export const CORE_BUDGET_BYTES = 120e6;

/**
 * Disk usage in bytes and package count of a node_modules tree, with the largest top-level
 * packages (name and bytes, largest first).
 *
 * @param {string} nodeModules
 * @returns {{ bytes: number, packages: number, largest: [string, number][] }}
 */
export function installedSize(nodeModules) {
  let packages = 0;
  const sizeOf = (path) => {
    const stat = lstatSync(path);
    let bytes = stat.blocks * 512;
    if (stat.isDirectory()) for (const name of readdirSync(path)) bytes += sizeOf(join(path, name));
    return bytes;
  };
  const perPackage = new Map();
  const visit = (dir, top) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path, typeof top === 'string' ? `${top}${entry.name}/` : undefined);
        continue;
      }
      packages += 1;
      if (typeof top === 'string') perPackage.set(`${top}${entry.name}`, sizeOf(path));
      const nested = join(path, 'node_modules');
      try {
        if (lstatSync(nested).isDirectory()) visit(nested, undefined);
      } catch {
        // No nested node_modules.
      }
    }
  };
  visit(nodeModules, '');
  const largest = [...perPackage].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return { bytes: sizeOf(nodeModules), packages, largest };
}
