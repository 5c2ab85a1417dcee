/**
 * The README's examples run, so an example that stops working fails the build:
 *
 * - every ```ts block is a complete program: it is type-checked (strict, NodeNext, importing the
 *   built package by its name, as a user's project would) and run with Node against an emulator
 *   (BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN point at it), and must exit 0;
 * - every CLI example (a line starting with `npx brandscape` or `brandscape`, after an optional
 *   `$ ` prompt, in a ```sh, ```bash, ```shell or ```console block) is run against the same emulator
 *   in a scratch directory, and its exit code checked: 0, or N when the line's comment starts with
 *   `# exit N`. A command that serves (`brandscape emulator`) must print its URL; it is run on port 0
 *   and stopped.
 *
 * A block that is deliberately not runnable says so in its info string: ```ts notebook (code for
 * a notebook cell, such as `await display(spec)`: type-checked, not run; the notebooks themselves
 * are executed by test/notebooks/), ```ts live (it needs an account on the live service:
 * type-checked, not run), ```ts no-run or ```sh no-run. A ```ts no-account block runs with no
 * service configured at all (no BRANDSCAPE_BASE_URL or BRANDSCAPE_TOKEN): the README's first block
 * is one, as it promises that everything runs with no account. Blocks in other languages (cron,
 * yaml) are not run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');

export interface CodeBlock {
  lang: string;
  flags: string[];
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a Markdown text. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})\s*([\w-]*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(fence)) body.push(lines[j++]!);
    blocks.push({ lang: open[2]!.toLowerCase(), flags: open[3]!.split(/\s+/).filter(Boolean), code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

export interface CliExample {
  command: string;
  /** The brandscape arguments, as a shell would read them. */
  args: string;
  exit: number;
  line: number;
}

/** CLI examples of shell and console blocks; continuation lines (`\`) joined. */
export function cliExamples(blocks: readonly CodeBlock[]): CliExample[] {
  const out: CliExample[] = [];
  for (const block of blocks) {
    if (!['sh', 'bash', 'shell', 'console'].includes(block.lang) || block.flags.includes('no-run')) continue;
    const lines = block.code.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      let line = lines[i]!;
      const start = i;
      while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!.trim()}`;
      const command = line.replace(/^\$\s+/, '');
      const match = /^(?:npx\s+)?brandscape(?:-kit)?(\s.*)?$/.exec(command);
      if (!match || (block.lang === 'console' && !line.startsWith('$ '))) continue;
      const comment = /\s#\s*(.*)$/.exec(command)?.[1] ?? '';
      out.push({ command, args: (match[1] ?? '').trim(), exit: Number(/^exit (\d+)/.exec(comment)?.[1] ?? 0), line: block.line + 1 + start });
    }
  }
  return out;
}

const blocks = codeBlocks(README);
const programs = blocks.filter((b) => (b.lang === 'ts' || b.lang === 'typescript') && !b.flags.includes('no-run'));
const runnable = programs.filter((b) => !b.flags.includes('notebook') && !b.flags.includes('live'));
const examples = cliExamples(blocks);

describe('the README', () => {
  let emulator: Emulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const files = new Map<CodeBlock, string>();

  beforeAll(async () => {
    emulator = await createEmulator({ port: 0 });
    // A scratch project outside the repository whose node_modules is this one's: examples import
    // `brandscape-kit` (linked to this checkout on install) and write their files here.
    dir = mkdtempSync(join(tmpdir(), 'brandscape-readme-'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    env = { ...process.env, BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token, NO_COLOR: '1' };
    delete env['BRANDSCAPE_API_VERSION'];
    for (const [i, block] of programs.entries()) {
      const file = join(dir, `example-${String(i + 1).padStart(2, '0')}-line-${block.line}.mts`);
      writeFileSync(file, block.code);
      files.set(block, file);
    }
  });

  afterAll(async () => {
    await emulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has runnable TypeScript examples and CLI examples, and its references exist', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(4);
    // The first code block is a program that runs with no account, the live-service variant beside it.
    expect(programs[0]?.flags).toContain('no-account');
    expect(programs[1]?.flags).toContain('live');
    expect(examples.length).toBeGreaterThanOrEqual(10);
    // Files the README names by path exist in the repository.
    const paths = [...README.matchAll(/`((?:src|test|templates|notebooks|\.ci)\/[\w./-]+)`|\]\((?!https?:)([^)#]+)\)/g)].map((m) => m[1] ?? m[2] ?? '');
    expect(paths.length).toBeGreaterThan(0);
    const missing = paths.filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
    expect(README).not.toMatch(/REFERENCE\.md|REFERENCE §/);
  });

  it('TypeScript examples type-check as a user project would (strict, NodeNext, the package by name)', () => {
    const program = ts.createProgram([...files.values()], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(dir, 'node_modules', '@types')],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      return `${d.file?.fileName.replace(dir, '') ?? ''}:${where ? where.line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it.for(runnable.map((b) => [b.line, b] as const))('the TypeScript example at line %i runs against the emulator', { timeout: 180_000 }, async ([, block]) => {
    const file = files.get(block)!;
    const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
    const mjs = file.replace(/\.mts$/, '.mjs');
    writeFileSync(mjs, js);
    const noAccount = block.flags.includes('no-account');
    const blockEnv = noAccount ? Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('BRANDSCAPE_'))) : env;
    const result = await run(process.execPath, [mjs], { cwd: dir, env: blockEnv, timeoutMs: 170_000 });
    expect(result.code, `${block.code}\n--- stderr:\n${result.stderr}`).toBe(0);
    if (noAccount) expect(result.stdout).toContain('embedded emulator');
  });

  it.for(examples.map((e) => [e.command, e] as const))('%s', { timeout: 180_000 }, async ([, example]) => {
    // A scratch directory laid out like the repository the README is read in: it has reports/.
    const cwd = join(dir, `cli-${example.line}`);
    mkdirSync(join(cwd, 'reports'), { recursive: true });
    const serves = /^emulator\b/.test(example.args);
    const args = serves ? example.args.replace(/--port\s+\d+/, '--port 0') : example.args;
    // The shell reads the arguments as a user's would (quotes, comments); the binary is the build.
    const script = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${args}`;
    if (serves) {
      const result = await run('bash', ['-c', script], { cwd, env, timeoutMs: 60_000, until: /http:\/\/127\.0\.0\.1:\d+/ });
      expect(result.stdout + result.stderr).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
      return;
    }
    const result = await run('bash', ['-c', script], { cwd, env, timeoutMs: 170_000 });
    expect(result.code, `line ${example.line}: ${example.command}\n--- stderr:\n${result.stderr}`).toBe(example.exit);
  });
});

/** Runs a process; with `until`, stops it once its output matches. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; until?: RegExp }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const check = () => {
      if (options.until && options.until.test(stdout + stderr)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), check()));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), check()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
