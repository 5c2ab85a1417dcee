// What installing the toolkit costs a user (issue 24), measured from the packed tarball as a user's
// project installs it, through the npm cache `npm ci` filled (offline first, so the network's
// speed does not enter the figures):
//
// - the core install (`npm install brandscape-kit` in an empty project): disk usage against the
//   120 MB budget, and the number of packages;
// - the time from `brandscape init` to an executed first notebook (init, npm install, kernel
//   registration, nbconvert), against a floor measured in the same run: the same project's bare
//   kernel executing a one-cell notebook (Jupyter and tslab starting, which no notebook avoids),
//   plus the same npm install of the project's dependencies without brandscape-kit.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_BUDGET_BYTES, installedSize } from '../helpers/installed-size.mjs';
import { findJupyter } from '../helpers/notebooks.mjs';
import { report } from './lib.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !k.startsWith('BRANDSCAPE_')));

function sh(command, args, cwd, extraEnv = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    execFile(command, args, { cwd, env: { ...env, ...extraEnv }, maxBuffer: 64 << 20, timeout: 15 * 60_000 }, (error, stdout, stderr) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve({ seconds, stdout: String(stdout) });
    });
  });
}
const npm = (args, cwd) => sh('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], cwd);

const work = mkdtempSync(join(tmpdir(), 'bsk-install-bench-'));
try {
  const packed = await sh('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  const tarball = join(work, JSON.parse(packed.stdout)[0].filename);

  // The core install.
  const core = join(work, 'core');
  await sh('mkdir', ['-p', core], work);
  writeFileSync(join(core, 'package.json'), JSON.stringify({ name: 'core-user', private: true, type: 'module' }));
  const coreInstall = await npm(['install', tarball], core);
  const size = installedSize(join(core, 'node_modules'));
  const mb = (b) => b / 1e6;
  report({
    name: 'core install (npm install brandscape-kit): disk usage vs the budget',
    value: mb(size.bytes),
    unit: 'MB',
    target: mb(CORE_BUDGET_BYTES),
    detail: `${size.packages} packages, installed in ${coreInstall.seconds.toFixed(1)} s; largest: ${size.largest.map(([n, b]) => `${n} ${mb(b).toFixed(1)}`).join(', ')}`,
  });
  report({ name: 'core install: share of the budget', value: size.bytes / CORE_BUDGET_BYTES, target: 1, detail: `${mb(size.bytes).toFixed(1)} of ${mb(CORE_BUDGET_BYTES)} MB` });

  // From `brandscape init` to an executed first notebook.
  const jupyter = findJupyter();
  if (!jupyter.ok) {
    report({ name: 'brandscape init to an executed first notebook', value: NaN, unit: 's', detail: `NOT MEASURED: ${jupyter.reason}` });
  } else {
    const project = join(work, 'analysis');
    const jupyterEnv = { JUPYTER_DATA_DIR: join(work, 'jupyter') };
    const init = await sh(join(core, 'node_modules', '.bin', 'brandscape'), ['init', project, '--kit', tarball], work);
    const install = await npm(['install'], project);
    const kernel = await sh('npm', ['run', 'kernel'], project, jupyterEnv);
    const execute = await sh(jupyter.jupyter, ['nbconvert', '--to=notebook', '--execute', `--output-dir=${join(work, 'out')}`, '01-start.ipynb'], join(project, 'notebooks'), jupyterEnv);
    const total = init.seconds + install.seconds + kernel.seconds + execute.seconds;

    // The floor: the same dependencies without brandscape-kit, installed from the same cache, and
    // the same kernel executing a notebook of one trivial cell.
    const bare = join(work, 'bare');
    await sh('mkdir', ['-p', bare], work);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    delete pkg.dependencies['brandscape-kit'];
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ ...pkg, name: 'bare' }));
    const bareInstall = await npm(['install'], bare);
    const trivial = { cells: [{ cell_type: 'code', id: 'one', execution_count: null, metadata: {}, outputs: [], source: ['1 + 1'] }], metadata: { kernelspec: { name: 'tslab-analysis', display_name: 'TypeScript (analysis)', language: 'typescript' } }, nbformat: 4, nbformat_minor: 5 };
    writeFileSync(join(project, 'notebooks', 'trivial.ipynb'), JSON.stringify(trivial));
    const bareKernel = await sh(jupyter.jupyter, ['nbconvert', '--to=notebook', '--execute', `--output-dir=${join(work, 'out')}`, 'trivial.ipynb'], join(project, 'notebooks'), jupyterEnv);
    const floor = bareInstall.seconds + bareKernel.seconds;
    report({
      name: 'brandscape init to an executed first notebook',
      value: total,
      unit: 's',
      detail: `init ${init.seconds.toFixed(1)} s, npm install ${install.seconds.toFixed(1)} s, kernel ${kernel.seconds.toFixed(1)} s, notebook ${execute.seconds.toFixed(1)} s`,
    });
    report({
      name: 'init to executed notebook vs its floor (the peers installed alone + a one-cell notebook)',
      value: total / floor,
      detail: `${total.toFixed(1)} s vs ${floor.toFixed(1)} s (npm install of danfojs-node and tslab alone ${bareInstall.seconds.toFixed(1)} s, one-cell notebook ${bareKernel.seconds.toFixed(1)} s)`,
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
