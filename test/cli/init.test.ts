/**
 * `brandscape init` and `brandscape notebook` in process: the scaffold's files and names, the
 * refusals (a folder that is not empty, a file in the way, a bad name), writing whole or not at
 * all (a failure while moving files in puts everything back), and the kernel spec (absolute
 * paths, Jupyter's data folder rules, the refusals without a project or without tslab). The
 * packed-and-installed path, with npm, Jupyter and the report, is test/package/installed.test.ts.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { kernelNameOf, packageNameOf, scaffoldFiles } from '../../src/cli/init/scaffold.js';
import { jupyterDataDir } from '../../src/cli/kernel.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-init-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[], cwd = dir, env: Record<string, string | undefined> = {}) => runCli(argv, env, cwd);

const tree = (path: string): string[] =>
  readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(path.length + 1))
    .sort();

describe('the scaffold', () => {
  it('names the package and the kernel after the folder', () => {
    expect(packageNameOf('Brand Work 2026')).toBe('brand-work-2026');
    expect(packageNameOf('Études_de_marché')).toBe('etudes_de_marche');
    expect(packageNameOf('...')).toBe('brandscape-analysis');
    expect(kernelNameOf('brand-work-2026')).toBe('tslab-brand-work-2026');
    expect(kernelNameOf('@team/brand.work')).toBe('tslab-brand-work');
  });

  it('gives the notebook the kernel the project registers, and package.json the peers with their overrides', () => {
    const files = scaffoldFiles({ name: 'brand-work', kitSpec: '^0.1.0', templateText: '# shipped header\ntitle: x\n' });
    const byPath = new Map(files.map((f) => [f.path, f.content]));
    const notebook = JSON.parse(byPath.get('notebooks/01-start.ipynb')!) as { metadata: { kernelspec: { name: string } }; cells: { id: string }[] };
    expect(notebook.metadata.kernelspec.name).toBe('tslab-brand-work');
    expect(new Set(notebook.cells.map((c) => c.id)).size).toBe(notebook.cells.length); // nbformat 4.5: unique ids
    const pkg = JSON.parse(byPath.get('package.json')!) as { dependencies: Record<string, string>; overrides: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies).toEqual({ 'brandscape-kit': '^0.1.0', 'danfojs-node': '^1.2.0', tslab: '^1.0.22' });
    expect(pkg.overrides).toEqual({ xlsx: '0.18.5', '@tensorflow/tfjs-node': 'npm:@tensorflow/tfjs@3.21.0' });
    expect(pkg.scripts['notebook']).toBe('brandscape notebook');
    expect(byPath.get('templates/brand-health.yaml')).not.toContain('shipped header');
    expect(byPath.get('.gitignore')).toMatch(/^\.env$/m);
  });
});

describe('brandscape init', () => {
  it('makes a project in a new folder (parents included) and says what to do next', async () => {
    const target = join(dir, 'deep', 'new-project');
    const result = await cli(['init', 'deep/new-project']);
    expect(result.code, result.stderr).toBe(0);
    expect(tree(target)).toEqual(['.env.example', '.gitignore', 'README.md', 'notebooks/01-start.ipynb', 'package.json', 'reports/.gitkeep', 'templates/brand-health.yaml', 'tsconfig.json']);
    expect(result.stdout).toContain('npm install');
    expect(result.stdout).toContain('tslab-new-project');
    expect(JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'))).toMatchObject({ name: 'new-project', private: true, type: 'module' });
    expect(readdirSync(join(dir, 'deep'))).toEqual(['new-project']); // no staging folder left
  });

  it('accepts an empty folder, and one that holds only .git', async () => {
    const target = join(dir, 'with-git');
    mkdirSync(join(target, '.git'), { recursive: true });
    expect((await cli(['init', target])).code).toBe(0);
  });

  it('refuses a folder that is not empty, a file, and a bad --name (exit 2, nothing written)', async () => {
    const busy = join(dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'mine.txt'), 'keep');
    const refused = await cli(['init', busy]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(readdirSync(busy)).toEqual(['mine.txt']);
    const file = await cli(['init', 'busy/mine.txt']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a folder');
    const badName = await cli(['init', 'other', '--name', 'Not A Name']);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain("'not-a-name'");
    expect(readdirSync(dir).filter((f) => f === 'other' || f.includes('brandscape-init'))).toEqual([]);
  });

  it('with --force writes into a folder that is not empty, replacing files of the same names and saying so', async () => {
    const target = join(dir, 'forced');
    mkdirSync(target);
    writeFileSync(join(target, 'README.md'), 'old');
    writeFileSync(join(target, 'mine.txt'), 'keep');
    const result = await cli(['init', target, '--force']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/README\.md {2}\(replaced\)/);
    expect(readFileSync(join(target, 'mine.txt'), 'utf8')).toBe('keep');
    expect(readFileSync(join(target, 'README.md'), 'utf8')).toContain('# forced');
  });

  it('puts everything back when a file cannot be moved in: replaced files restored, new ones and new folders gone', async () => {
    const target = join(dir, 'blocked');
    mkdirSync(target);
    writeFileSync(join(target, 'README.md'), 'old readme');
    writeFileSync(join(target, 'templates'), 'a file where the templates folder goes');
    const result = await cli(['init', target, '--force']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('templates/brand-health.yaml: a file is in the way of its folder');
    expect(tree(target)).toEqual(['README.md', 'templates']);
    expect(readFileSync(join(target, 'README.md'), 'utf8')).toBe('old readme');
    expect(readdirSync(dir).filter((f) => f.includes('brandscape-init'))).toEqual([]);
  });

  it('writes a local --kit path relative to the new project, where npm reads it', async () => {
    writeFileSync(join(dir, 'kit.tgz'), '');
    const result = await cli(['init', 'nested/p', '--kit', './kit.tgz']);
    expect(result.code, result.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(dir, 'nested', 'p', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['brandscape-kit']).toBe('file:../../kit.tgz');
    const missing = await cli(['init', 'nested/q', '--kit', './nope.tgz']);
    expect(missing.code).toBe(2);
  });
});

describe('brandscape notebook', () => {
  it("finds Jupyter's user data folder by jupyter_core's rules", () => {
    expect(jupyterDataDir({ JUPYTER_DATA_DIR: '/x/jd' }, 'linux', '/home/ana')).toBe('/x/jd');
    expect(jupyterDataDir({}, 'linux', '/home/ana')).toBe('/home/ana/.local/share/jupyter');
    expect(jupyterDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/ana')).toBe('/xdg/jupyter');
    expect(jupyterDataDir({}, 'darwin', '/Users/ana')).toBe('/Users/ana/Library/Jupyter');
  });

  it('registers a kernel that starts this Node.js and the project tslab by absolute path', async () => {
    const project = join(dir, 'nb-project');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'nb-project' }));
    symlinkSync(join(ROOT, 'node_modules', 'tslab'), join(project, 'node_modules', 'tslab'), 'dir');
    const data = join(dir, 'jupyter-data');
    // From a subfolder, as from notebooks/: the project is the nearest package.json above.
    mkdirSync(join(project, 'notebooks'));
    const result = await cli(['notebook', '--register-only'], join(project, 'notebooks'), { JUPYTER_DATA_DIR: data });
    expect(result.code, result.stderr).toBe(0);
    const spec = JSON.parse(readFileSync(join(data, 'kernels', 'tslab-nb-project', 'kernel.json'), 'utf8')) as { argv: string[]; display_name: string };
    expect(spec.argv).toEqual([process.execPath, join(realpathSync(join(project, 'node_modules', 'tslab')), 'bin', 'tslab'), 'kernel', '--config-path', '{connection_file}']);
    expect(spec.display_name).toBe('TypeScript (nb-project)');
  });

  it('refuses without a project or without tslab, saying how to get them (exit 2)', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'bsk-no-project-'));
    try {
      const none = await cli(['notebook', '--register-only'], bare, { JUPYTER_DATA_DIR: join(bare, 'jd') });
      // tmpdir() may sit under a folder with a package.json on some machines; either refusal is right.
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/brandscape init|npm install tslab/);
      writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'no-tslab' }));
      const noTslab = await cli(['notebook', '--register-only'], bare, { JUPYTER_DATA_DIR: join(bare, 'jd') });
      expect(noTslab.code).toBe(2);
      expect(noTslab.stderr).toContain('npm install tslab@^1.0.22');
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});
