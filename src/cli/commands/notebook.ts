/**
 * `brandscape notebook`: registers the project's TypeScript kernel (its own tslab, by absolute
 * path) and opens Jupyter on its notebooks.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError } from '../../index.js';
import { fromArgv } from '../args.js';
import { EXIT, type CliIo } from '../io.js';
import { findProject, registerKernel } from '../kernel.js';

export const notebookHelp = `Usage: brandscape notebook [DIR] [options] [-- JUPYTER_OPTIONS]

Registers this project's TypeScript kernel with Jupyter and opens Jupyter on DIR (default:
notebooks/, or the project folder when it has none). The project is the nearest folder with a
package.json; it needs tslab installed (projects made by 'brandscape init' have it).

The kernel is named after the project (tslab-<package name>) and starts this Node.js and the
project's own tslab by absolute path, so it works whatever Jupyter's PATH is. Its spec goes to
Jupyter's user data folder ($JUPYTER_DATA_DIR, else ~/.local/share/jupyter on Linux,
~/Library/Jupyter on macOS, %APPDATA%\\jupyter on Windows). Running the command again after the
project moved updates it.

Options:
  --register-only   Register the kernel and stop (for VS Code, JupyterLab or nbconvert)
  --lab             Open JupyterLab instead of the Jupyter Notebook
  -h, --help        Show this help

Anything after '--' goes to Jupyter (for example: -- --no-browser --port 8890).

Jupyter itself comes from Python: 'sudo apt-get install jupyter-notebook' on Debian or Ubuntu, or
'pip install notebook'.

Exit codes: Jupyter's own once it started; 2 no project, no tslab or no Jupyter; 1 other.
`;

export async function runNotebook(argv: readonly string[], io: CliIo): Promise<number> {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const passed = split === -1 ? [] : argv.slice(split + 1);
  const { values, positionals } = fromArgv(
    'notebook',
    own,
    { 'register-only': { type: 'boolean' }, lab: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(notebookHelp);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError('notebook takes one folder at most.', { hint: "Run 'brandscape notebook --help'." });
  const project = findProject(io.cwd);
  const kernel = await registerKernel(project, io.env);
  io.stderr.write(`brandscape notebook: registered the kernel "${kernel.spec.display_name}" (${kernel.name}) in ${kernel.file}\n`);
  if (values['register-only']) return EXIT.ok;

  const given = positionals[0];
  const folder = given !== undefined ? resolve(io.cwd, given) : existsSync(join(project.dir, 'notebooks')) ? join(project.dir, 'notebooks') : project.dir;
  if (!existsSync(folder)) throw new UsageError(`No folder ${given ?? folder}.`, { hint: 'Name the folder that holds your notebooks.' });
  const args = [values.lab ? 'lab' : 'notebook', relative(project.dir, folder) || '.', ...passed];
  return openJupyter(args, project.dir, io);
}

/** Runs Jupyter in the project folder until it ends; Ctrl-C reaches it as it does from a shell. */
function openJupyter(args: string[], cwd: string, io: CliIo): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('jupyter', args, { cwd, stdio: 'inherit', env: { ...process.env, ...io.env } });
    const stop = () => child.kill('SIGTERM');
    io.signal.addEventListener('abort', stop, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      io.signal.removeEventListener('abort', stop);
      if (error.code === 'ENOENT') {
        reject(
          new UsageError(`The kernel is registered, but Jupyter is not installed: there is no 'jupyter' command (jupyter ${args[0]}).`, {
            hint: "Install it: 'sudo apt-get install jupyter-notebook' on Debian or Ubuntu, or 'pip install notebook' (or jupyterlab). VS Code's notebook editor finds the kernel without it.",
          }),
        );
      } else reject(error);
    });
    child.on('exit', (code, signal) => {
      io.signal.removeEventListener('abort', stop);
      resolvePromise(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : EXIT.other));
    });
  });
}
