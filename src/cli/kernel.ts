/**
 * A project's Jupyter kernel: tslab, the TypeScript kernel, registered by absolute paths.
 *
 * `npx tslab install` writes a kernel spec that starts a bare `tslab`, found on Jupyter's PATH; a
 * project's own tslab (in its node_modules/.bin) is not on it, so every notebook failed with
 * `FileNotFoundError: 'tslab'`. The spec written here names the Node.js that registered it and the
 * project's tslab script by absolute path, and its name is the project's (two projects do not take
 * each other's kernel). Registering again after the project moved rewrites the paths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../index.js';
import { kernelNameOf } from './init/scaffold.js';

/** A Jupyter kernel spec (kernel.json). */
export interface KernelSpec {
  argv: string[];
  display_name: string;
  language: 'typescript';
}

/** The project a command runs in: the nearest folder above `cwd` with a package.json, and its name. */
export interface Project {
  readonly dir: string;
  readonly name: string;
}

/** The project around `cwd`, or a UsageError saying how to make one. */
export function findProject(cwd: string): Project {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      let name: unknown;
      try {
        name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
      } catch {
        throw new UsageError(`${file} is not valid JSON.`, { hint: 'Fix it (npm reads it too), then run this again.' });
      }
      return { dir, name: typeof name === 'string' && name !== '' ? name : dirname(file).split(/[\\/]/).pop() ?? 'project' };
    }
    if (dirname(dir) === dir) {
      throw new UsageError(`No package.json in ${resolve(cwd)} or above it: notebooks run in a project that has tslab and brandscape-kit installed.`, {
        hint: "Run this in your project's folder, or make a project with 'npx brandscape init DIR'.",
      });
    }
  }
}

/** The project's tslab entry script, or a UsageError with the install step. */
export function findTslab(project: Project): string {
  let manifest: string;
  try {
    manifest = createRequire(join(project.dir, 'package.json')).resolve('tslab/package.json');
  } catch {
    throw new UsageError(`tslab, the TypeScript kernel for Jupyter, is not installed in ${project.dir}.`, {
      hint: 'Install it there: npm install tslab@^1.0.22 (an optional dependency of brandscape-kit; projects made by brandscape init have it).',
    });
  }
  const bin: unknown = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: unknown }).bin;
  const script: unknown = typeof bin === 'string' ? bin : typeof bin === 'object' && bin !== null ? Reflect.get(bin, 'tslab') : undefined;
  return join(dirname(manifest), typeof script === 'string' ? script : 'bin/tslab');
}

/**
 * The folder Jupyter reads a user's kernel specs from, by jupyter_core's rules: `JUPYTER_DATA_DIR`,
 * else the platform's user data folder.
 *
 * @example
 * jupyterDataDir({ JUPYTER_DATA_DIR: '/tmp/jd' }) // '/tmp/jd'
 */
export function jupyterDataDir(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env['JUPYTER_DATA_DIR']) return resolve(env['JUPYTER_DATA_DIR']);
  if (platform === 'darwin') return join(home, 'Library', 'Jupyter');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'jupyter');
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'jupyter');
}

/** The kernel spec of a project: this Node.js and the project's tslab, by absolute path. */
export function kernelSpecOf(project: Project, tslabScript: string, node: string = process.execPath): KernelSpec {
  return {
    argv: [node, tslabScript, 'kernel', '--config-path', '{connection_file}'],
    display_name: `TypeScript (${project.name})`,
    language: 'typescript',
  };
}

/** What `registerKernel` did. */
export interface RegisteredKernel {
  readonly name: string;
  readonly file: string;
  readonly spec: KernelSpec;
}

/**
 * Registers the project's kernel in the user's Jupyter data folder (no Python needed), replacing
 * an earlier registration of the same project.
 */
export async function registerKernel(project: Project, env: Readonly<Record<string, string | undefined>>): Promise<RegisteredKernel> {
  const name = kernelNameOf(project.name);
  const spec = kernelSpecOf(project, findTslab(project));
  const dir = join(jupyterDataDir(env), 'kernels', name);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'kernel.json');
  await writeFile(file, `${JSON.stringify(spec, null, 2)}\n`);
  return { name, file, spec };
}
