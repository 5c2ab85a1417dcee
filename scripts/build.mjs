// `npm run build` (and the first step of `npm start`, `npm test`, `npm run bench`): compiles src/
// to dist/ with tsc, bundles the command-line tool (scripts/bundle-cli.mjs) and links this checkout
// into its own node_modules as `brandscape-kit`, so that notebooks, README examples and tests
// import the package by name, as a user's project does.
//
// A build whose inputs have not changed since the last one is skipped: `npm start` after an
// unchanged build goes straight to its work. Inputs are every file and folder under src/ (a folder's
// time changes when a file is added, removed or renamed in it), the tsconfig files, package.json
// and the build scripts; the stamp is written only after a whole build succeeded. When something
// did change, tsc compiles incrementally (its state, dist/.tsbuildinfo, goes with dist/).
//
//   node scripts/build.mjs            build if anything changed
//   node scripts/build.mjs --force    build whatever the stamp says (tsc still incremental)
//   node scripts/build.mjs --clean    remove dist/ first, then build from nothing
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
const args = new Set(process.argv.slice(2));

/** The newest modification time of the build's inputs, in ms. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const input of ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/build.mjs', 'scripts/bundle-cli.mjs']) {
    visit(join(root, input));
  }
  return newest;
}

/** Links this checkout as node_modules/brandscape-kit (a development convenience; never in users' installs). */
function linkSelf() {
  const modules = join(root, 'node_modules');
  const link = join(modules, 'brandscape-kit');
  if (!existsSync(modules)) return;
  try {
    lstatSync(link);
  } catch {
    symlinkSync('..', link, 'dir');
  }
}

function run(script, scriptArgs) {
  const result = spawnSync(process.execPath, [join(root, script), ...scriptArgs], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

linkSelf();
if (args.has('--clean')) rmSync(dist, { recursive: true, force: true });
const fresh = !args.has('--force') && !args.has('--clean') && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput();
if (fresh) {
  process.stderr.write('build: dist/ is up to date with src/ (node scripts/build.mjs --force builds anyway)\n');
} else {
  const started = newestInput();
  run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', join(dist, '.tsbuildinfo')]);
  run('scripts/bundle-cli.mjs', []);
  mkdirSync(dist, { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  // An input edited while the build ran is not in this build: no stamp, so the next build runs.
  if (newestInput() > started) rmSync(stamp);
}
