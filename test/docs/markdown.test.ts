/**
 * The examples of every Markdown file (README.md, CONTRIBUTING.md, docs/*.md) run, so an example
 * that stops working fails the build:
 *
 * - every ```ts block is a complete program: it is type-checked (strict, NodeNext, importing the
 *   built package by its name, as a user's project would) and run with Node against an emulator
 *   (BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN point at it), and must exit 0;
 * - every CLI example (a line starting with `npx brandscape` or `brandscape`, after an optional
 *   `$ ` prompt, in a ```sh, ```bash, ```shell or ```console block) is run against the same emulator
 *   in a scratch directory, and its exit code checked: 0, or N when the line's comment starts with
 *   `# exit N`. A command that serves (`brandscape emulator`) must print its URL; it is run on port 0
 *   and stopped;
 * - relative links lead to files that exist, and their `#anchors` to headings or `<a id>`s there;
 *   paths named in backticks (`src/...`, `test/...`) exist in the repository.
 *
 * A block that is deliberately not runnable says so in its info string: ```ts notebook (code for
 * a notebook cell, such as `await display(spec)`: type-checked, not run; the notebooks themselves
 * are executed by test/notebooks/), ```ts live (it needs an account on the live service:
 * type-checked, not run), ```ts no-run or ```sh no-run. A ```ts no-account block runs with no
 * service configured at all (no BRANDSCAPE_BASE_URL or BRANDSCAPE_TOKEN): the README's first block
 * is one, as it promises that everything runs with no account. Blocks in other languages (cron,
 * yaml, json, http) are not run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
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

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors a Markdown text offers: its headings' and its `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) anchors.add(headingAnchor(heading[1]!));
    for (const m of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

interface Doc {
  /** Repository-relative path. */
  path: string;
  text: string;
  programs: CodeBlock[];
  runnable: CodeBlock[];
  examples: CliExample[];
}

const DOC_PATHS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const DOCS: Doc[] = DOC_PATHS.map((path) => {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const blocks = codeBlocks(text);
  const programs = blocks.filter((b) => (b.lang === 'ts' || b.lang === 'typescript') && !b.flags.includes('no-run'));
  return { path, text, programs, runnable: programs.filter((b) => !b.flags.includes('notebook') && !b.flags.includes('live')), examples: cliExamples(blocks) };
});
const README = DOCS[0]!;

let emulator: Emulator;
let dir: string;
let env: NodeJS.ProcessEnv;
const files = new Map<CodeBlock, string>();

beforeAll(async () => {
  emulator = await createEmulator({ port: 0 });
  // A scratch project outside the repository whose node_modules is this one's: examples import
  // `brandscape-kit` (linked to this checkout on install) and write their files here.
  dir = mkdtempSync(join(tmpdir(), 'brandscape-docs-'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  env = { ...process.env, BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token, NO_COLOR: '1' };
  delete env['BRANDSCAPE_API_VERSION'];
  for (const doc of DOCS) {
    for (const block of doc.programs) {
      const file = join(dir, `${doc.path.replace(/[/.]/g, '-')}-line-${block.line}.mts`);
      writeFileSync(file, block.code);
      files.set(block, file);
    }
  }
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the documentation', () => {
  it('covers the README, CONTRIBUTING and the docs pages, with runnable examples', () => {
    expect(DOC_PATHS).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/service.md', 'docs/cli.md']));
    expect(DOCS.flatMap((d) => d.runnable).length).toBeGreaterThanOrEqual(10);
    expect(DOCS.flatMap((d) => d.examples).length).toBeGreaterThanOrEqual(20);
  });

  it('opens with a program that runs with no account, the live-service variant beside it', () => {
    expect(README.programs[0]?.flags).toContain('no-account');
    expect(README.programs[1]?.flags).toContain('live');
    // About 8-10 KB: what the toolkit is, the two commands, a way in per use, where to go next.
    expect(Buffer.byteLength(README.text)).toBeLessThan(11_000);
    expect(README.text.slice(0, 400)).toMatch(/BAV/);
    expect(README.text.slice(0, 400)).toMatch(/The Fount/);
  });

  it.for(DOCS.map((d) => [d.path, d] as const))('%s: its links and the paths it names exist', ([, doc]) => {
    const here = dirname(join(ROOT, doc.path));
    const problems: string[] = [];
    for (const m of doc.text.matchAll(/`((?:src|test|templates|notebooks|scripts|docs|\.ci)\/[\w./-]+)`/g)) {
      if (!existsSync(join(ROOT, m[1]!))) problems.push(`\`${m[1]}\` does not exist`);
    }
    for (const m of doc.text.matchAll(/\]\((?!https?:|mailto:)([^)\s]*)\)/g)) {
      const [target = '', anchor] = m[1]!.split('#');
      const file = target === '' ? join(ROOT, doc.path) : join(here, target);
      if (!existsSync(file)) {
        problems.push(`${m[1]} leads to ${relative(ROOT, file)}, which does not exist`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) problems.push(`${m[1]}: no heading or <a id> "${anchor}" in ${relative(ROOT, file)}`);
    }
    expect(problems).toEqual([]);
    expect(doc.text).not.toMatch(/REFERENCE\.md|REFERENCE §/);
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
});

describe.for(DOCS.filter((d) => d.runnable.length + d.examples.length > 0).map((d) => [d.path, d] as const))('%s', ([, doc]) => {
  it.for(doc.runnable.map((b) => [b.line, b] as const))('the TypeScript example at line %i runs against the emulator', { timeout: 180_000 }, async ([, block]) => {
    const file = files.get(block)!;
    const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
    const mjs = file.replace(/\.mts$/, '.mjs');
    writeFileSync(mjs, js);
    const noAccount = block.flags.includes('no-account');
    const blockEnv = noAccount ? Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('BRANDSCAPE_'))) : env;
    const result = await run(process.execPath, [mjs], { cwd: dir, env: blockEnv, timeoutMs: 170_000 });
    expect(result.code, `${doc.path}:${block.line}\n${block.code}\n--- stderr:\n${result.stderr}`).toBe(0);
    if (noAccount) expect(result.stdout).toContain('embedded emulator');
  });

  it.for(doc.examples.map((e) => [`line ${e.line}: ${e.command}`, e] as const))('%s', { timeout: 180_000 }, async ([, example]) => {
    // A scratch directory laid out like the repository the docs are read in: it has reports/.
    const cwd = join(dir, `cli-${doc.path.replace(/[/.]/g, '-')}-${example.line}`);
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
    expect(result.code, `${doc.path}:${example.line}: ${example.command}\n--- stderr:\n${result.stderr}`).toBe(example.exit);
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
