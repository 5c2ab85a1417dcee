/**
 * The README's examples of the service's further endpoints, the TurboPitch tools, webhooks and
 * embedding run as written against an emulator: each ```ts block of those sections (importing the
 * toolkit from src instead of the package name) and each `npx brandscape ...` line.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

const SECTIONS = [
  ['## More of the service', '## Frames: tables and comparisons'],
  ['## Webhooks that refresh reports', '## Comparisons from the terminal'],
] as const;
const root = fileURLToPath(new URL('../..', import.meta.url));

async function sectionsText(): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  return SECTIONS.map(([from, to]) => readme.slice(readme.indexOf(from), readme.indexOf(to))).join('\n');
}
const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');

let emulator: Emulator;
let dir: string;
const saved = { url: process.env['BRANDSCAPE_BASE_URL'], token: process.env['BRANDSCAPE_TOKEN'] };
beforeAll(async () => {
  emulator = await createEmulator({ port: 0, seed: 1 });
  process.env['BRANDSCAPE_BASE_URL'] = emulator.url;
  process.env['BRANDSCAPE_TOKEN'] = emulator.token;
  dir = await mkdtemp(join(root, 'test', 'service', '.readme-'));
}, 60_000);
afterAll(async () => {
  if (saved.url === undefined) delete process.env['BRANDSCAPE_BASE_URL'];
  else process.env['BRANDSCAPE_BASE_URL'] = saved.url;
  if (saved.token === undefined) delete process.env['BRANDSCAPE_TOKEN'];
  else process.env['BRANDSCAPE_TOKEN'] = saved.token;
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('README examples of the service, tools, webhooks and embedding', () => {
  it('has ts blocks and command lines to run', async () => {
    const text = await sectionsText();
    expect(blocks(text, 'ts').length).toBe(3);
    expect(blocks(text, 'sh').join('\n')).toMatch(/npx brandscape fetch best-countries/);
  });

  it('runs every ts block as written', async () => {
    const text = await sectionsText();
    const index = join(root, 'src', 'index.ts');
    for (const [i, code] of blocks(text, 'ts').entries()) {
      const file = join(dir, `block-${i}.ts`);
      await writeFile(file, `${code.replaceAll("from 'brandscape-kit'", `from ${JSON.stringify(index)}`)}\nexport {};\n`);
      await expect(import(/* @vite-ignore */ file), `block ${i}:\n${code}`).resolves.toBeDefined();
    }
  }, 120_000);

  it('runs every npx brandscape line with exit 0', async () => {
    const text = await sectionsText();
    const lines = blocks(text, 'sh').flatMap((b) => b.split('\n')).filter((l) => l.startsWith('npx brandscape '));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      const argv = line.replace(/^npx brandscape /, '').split(/\s+/).filter((a) => a !== '');
      let stdout = '';
      let stderr = '';
      const code = await run(argv, {
        stdout: { write: (c: string) => (stdout += c) },
        stderr: { write: (c: string) => (stderr += c) },
        env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: emulator.token },
        cwd: dir,
        signal: new AbortController().signal,
      });
      expect(code, `${line}\n${stderr}`).toBe(0);
      expect(stdout.length, line).toBeGreaterThan(0);
    }
  }, 120_000);
});
