/**
 * `brandscape init [DIR]`: a new analysis project, ready for `npm install` and then `npm run
 * notebook` or `npm run report`.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { bundledTemplatesDir } from '../../report/template/load-template.js';
import { toolkitVersion } from '../../version.js';
import { fromArgv } from '../args.js';
import { EXIT, type CliIo } from '../io.js';
import { shownPath } from '../output.js';
import { SCAFFOLD_TEMPLATE, kernelNameOf, packageNameOf, scaffoldFiles } from '../init/scaffold.js';
import { folderState, writeProject } from '../init/write-project.js';

export const initHelp = `Usage: brandscape init [DIR] [options]

Makes a new analysis project in DIR (default: the current folder; made if it does not exist):

  package.json               brandscape-kit, danfojs-node and tslab (with the overrides danfojs-node
                             needs), and the scripts notebook, kernel, report, compare, emulator
  tsconfig.json              strict TypeScript for your own scripts
  .env.example, .gitignore   the live service's settings go to .env, which git ignores
  notebooks/01-start.ipynb   connect, load a study, a DataFrame, a chart
  templates/${SCAFFOLD_TEMPLATE}.yaml  a report template (a copy of cross-market-brand-health)
  reports/                   where reports go
  README.md

Then, in DIR: 'npm install', and 'npm run notebook' (registers the project's kernel, opens Jupyter)
or 'npm run report' (builds the template into reports/). Without .env settings everything runs
against the embedded emulator of the service.

Options:
  --force        Write into a folder that is not empty (files of the same names are replaced)
  --name NAME    The package name (default: made from the folder's name)
  --kit SPEC     The brandscape-kit dependency (default: ^${toolkitVersion()}); a packed tarball's
                 path or a git URL works too
  -h, --help     Show this help

Nothing is half-written: the files are made in a staging folder and moved in together.

Exit codes: 0 made, 2 a folder that is not empty (without --force) or a bad option, 1 other.
`;

export async function runInit(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = fromArgv(
    'init',
    argv,
    { force: { type: 'boolean' }, name: { type: 'string' }, kit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(initHelp);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError('init takes one folder.', { hint: "Run 'brandscape init --help'." });
  const dir = resolve(io.cwd, positionals[0] ?? '.');
  const shown = shownPath(io.cwd, dir);
  const name = values.name ?? packageNameOf(basename(dir));
  if (name !== packageNameOf(name)) {
    throw new UsageError(`--name '${values.name ?? ''}' is not a valid npm package name.`, { hint: `Use lower case letters, digits, '-', '.' and '_', for example '${packageNameOf(name)}'.` });
  }
  const kitSpec = kitSpecFor(values.kit, io.cwd, dir);

  const state = await folderState(dir);
  if (state === 'not-empty' && !values.force) {
    throw new UsageError(`${shown} is not empty: brandscape init makes a new project.`, {
      hint: 'Name a new or empty folder (brandscape init my-analysis), or add --force to write into this one (files of the same names are replaced).',
    });
  }
  const templateText = await readFile(join(bundledTemplatesDir(), 'cross-market-brand-health.yaml'), 'utf8');
  const files = scaffoldFiles({ name, kitSpec, templateText });
  const replaced = new Set(await writeProject(dir, files));

  io.stdout.write(`Made the project ${name} in ${shown} (brandscape-kit ${kitSpec}):\n`);
  for (const file of files) io.stdout.write(`  ${file.path}${replaced.has(file.path) ? '  (replaced)' : ''}\n`);
  const cd = dir === resolve(io.cwd) ? '' : `  cd ${shown}\n`;
  io.stdout.write(
    `\nNext:\n${cd}  npm install\n` +
      `  npm run notebook    # registers the kernel "TypeScript (${name})" (${kernelNameOf(name)}) and opens Jupyter\n` +
      `  npm run report      # builds templates/${SCAFFOLD_TEMPLATE}.yaml into reports/ (the embedded emulator until .env says otherwise)\n`,
  );
  return EXIT.ok;
}

/**
 * The dependency spec for package.json. A local path (a packed tarball, a checkout) is written as a
 * `file:` spec relative to the new project, which is where npm reads it from.
 */
function kitSpecFor(given: string | undefined, cwd: string, dir: string): string {
  if (given === undefined) return `^${toolkitVersion()}`;
  const spec = given.trim();
  if (spec === '') throw new UsageError('--kit needs a version range, a tarball path or a URL.');
  const local = spec.startsWith('file:') ? spec.slice('file:'.length) : /^(\.{1,2}[\\/]|[\\/])/.test(spec) || /\.(tgz|tar\.gz)$/.test(spec) ? spec : undefined;
  if (local === undefined) return spec;
  const path = isAbsolute(local) ? local : resolve(cwd, local);
  if (!existsSync(path)) throw new UsageError(`--kit ${given}: no such file or folder.`, { hint: 'Give the path of a packed tarball (npm pack) or of a checkout.' });
  const fromProject = relative(dir, path).split('\\').join('/');
  return `file:${fromProject.startsWith('.') || isAbsolute(fromProject) ? fromProject : `./${fromProject}`}`;
}
