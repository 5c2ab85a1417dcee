#!/usr/bin/env node
/**
 * Executing the notebooks in notebooks/ with Jupyter (Debian's nbconvert and nbclient) and the
 * tslab kernel of this repository. Used by test/notebooks/notebooks.test.ts and by
 * `npm run notebooks:html` (run directly: executes every notebook and writes HTML copies to
 * reports/notebooks/, or the directory given as the first argument).
 *
 * The kernel is registered in a private Jupyter data directory (JUPYTER_DATA_DIR) by the toolkit's
 * own `brandscape notebook --register-only`, pointing at this checkout's tslab by absolute path:
 * nothing is installed for the user, and the notebooks run against this build whatever else is
 * registered. They need `npm run build` first (they import
 * the built package by name).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NOTEBOOK_DIR = join(ROOT, 'notebooks');

/**
 * HTML copies show each chart's PNG: nbconvert 6.5 (Debian's) sanitises SVG outputs with bleach,
 * which strips every element inside the <svg> (the chart's marks), leaving only its text; the
 * PNG of the same bundle is shown whole. (nbconvert 7 embeds SVG as an <img> and is not affected.)
 */
export const HTML_PRIORITY = ['text/html', 'image/png', 'image/jpeg', 'text/markdown', 'text/plain'].map((t) => `--NbConvertBase.display_data_priority=${t}`);

/** The notebooks, by path, in order. */
export function listNotebooks() {
  return readdirSync(NOTEBOOK_DIR)
    .filter((f) => f.endsWith('.ipynb') && !f.endsWith('.nbconvert.ipynb'))
    .sort()
    .map((f) => join(NOTEBOOK_DIR, f));
}

/**
 * Whether Jupyter can execute notebooks here: `{ ok: true, jupyter }` or `{ ok: false, reason }`.
 * Needs `jupyter nbconvert` and a Python with jupyter_client (to register the kernel).
 */
export function findJupyter() {
  const jupyter = ['/usr/bin/jupyter', '/usr/local/bin/jupyter'].find((p) => existsSync(p)) ?? 'jupyter';
  const version = spawnSync(jupyter, ['nbconvert', '--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    return { ok: false, reason: 'Jupyter (jupyter nbconvert) is not installed; on Debian: apt-get install jupyter-nbconvert python3-nbclient python3-ipykernel' };
  }
  // The Python that runs Jupyter (its script's #! line), not whichever python3 is first on PATH
  // (a pyenv shim, say): it has jupyter_client, which registers the kernel.
  let python = 'python3';
  try {
    python = /^#!\s*(\S*python\S*)/.exec(readFileSync(jupyter, 'utf8').split('\n', 1)[0] ?? '')?.[1] ?? python;
  } catch {
    // jupyter found on PATH only: keep python3.
  }
  const client = spawnSync(python, ['-c', 'import jupyter_client, nbclient'], { encoding: 'utf8' });
  if (client.status !== 0) {
    return { ok: false, reason: `${python} cannot import jupyter_client and nbclient; on Debian: apt-get install python3-nbclient python3-ipykernel` };
  }
  return { ok: true, jupyter, python };
}

/**
 * Registers this checkout's kernel as a user of the package does (`brandscape notebook
 * --register-only`: the kernel `tslab-brandscape-kit`, this Node.js and this checkout's tslab by
 * absolute path), in a private Jupyter data directory, and returns the environment that makes
 * Jupyter find it.
 */
export function registerKernel(dir) {
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, JUPYTER_DATA_DIR: dir };
  const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'bin.js'), 'notebook', '--register-only'], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Registering the kernel failed: ${result.stderr || result.stdout}`);
  // The notebooks' connect() must use the embedded emulator.
  return { ...env, BRANDSCAPE_BASE_URL: '', BRANDSCAPE_TOKEN: '' };
}

/**
 * Executes a notebook (stopping at the first failing cell) into `outDir`, as a notebook or HTML.
 * Returns { status, output, file }.
 */
export function executeNotebook(jupyter, env, notebook, outDir, to = 'notebook', timeoutS = 300) {
  mkdirSync(outDir, { recursive: true });
  const args = ['nbconvert', `--to=${to}`, ...(to === 'html' ? HTML_PRIORITY : []), '--execute', `--ExecutePreprocessor.timeout=${timeoutS}`, `--output-dir=${outDir}`, notebook];
  const result = spawnSync(jupyter, args, { env, cwd: NOTEBOOK_DIR, encoding: 'utf8', timeout: (timeoutS + 60) * 1000 });
  const name = basename(notebook, '.ipynb');
  return {
    status: result.status ?? -1,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
    file: join(outDir, `${name}.${to === 'html' ? 'html' : 'ipynb'}`),
  };
}

/** Converts an executed notebook to HTML without running it again. */
export function notebookToHtml(jupyter, env, notebook, outDir) {
  mkdirSync(outDir, { recursive: true });
  const result = spawnSync(jupyter, ['nbconvert', '--to=html', ...HTML_PRIORITY, `--output-dir=${outDir}`, notebook], { env, encoding: 'utf8' });
  return { status: result.status ?? -1, output: `${result.stdout ?? ''}${result.stderr ?? ''}`, file: join(outDir, `${basename(notebook, '.ipynb')}.html`) };
}

// `npm run notebooks:html [dir]`
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = findJupyter();
  if (!found.ok) {
    console.error(`notebooks:html: ${found.reason}`);
    process.exit(1);
  }
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('notebooks:html: the package is not built; run npm run build first.');
    process.exit(1);
  }
  const outDir = resolve(process.argv[2] ?? join(ROOT, 'reports', 'notebooks'));
  const env = registerKernel(join(ROOT, 'test', '.tmp', 'jupyter'));
  let failed = 0;
  for (const notebook of listNotebooks()) {
    const result = executeNotebook(found.jupyter, env, notebook, outDir, 'html');
    if (result.status === 0) console.log(result.file);
    else {
      failed += 1;
      console.error(`${basename(notebook)} failed:\n${result.output.split('\n').slice(-40).join('\n')}`);
    }
  }
  process.exit(failed > 0 ? 1 : 0);
}
