/**
 * docs/service.md is the service contract that code comments cite as `§n` or `§n.m`:
 *
 * - every numbered section is a heading (`## §n. Title`, `### §n.m Title`) with its explicit
 *   anchor (`<a id="sn"></a>`, `<a id="sn-m"></a>`) on the line above, numbers and anchors unique,
 *   and each `§n.m` inside its `§n`;
 * - every `§` reference in src/ (TypeScript and Markdown), and in the doc itself, names one of them;
 * - every in-page link (`#s...`) and relative link of the doc lands on something that exists;
 * - the doc names no path outside the repository: the contract lives here, nowhere else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC_PATH = join(ROOT, 'docs', 'service.md');
const DOC = readFileSync(DOC_PATH, 'utf8');
const DOC_LINES = DOC.split('\n');

/** A `§` reference: `§12`, `§12.6`, `§ 12.6` (a trailing dot ends a sentence, not a number). */
const REFERENCE = /§\s?(\d+(?:\.\d+)?)/g;
const HEADING = /^(#{2,3}) §(\d+)(?:\.(\d+))?(\.?) \S/;

const anchorOf = (number: string) => `s${number.replace('.', '-')}`;

/** The ids of the doc's anchors: lines that hold nothing but `<a id="..."></a>`. */
const ANCHOR_IDS = [...DOC.matchAll(/^<a id="([^"]+)"><\/a>$/gm)].map((m) => m[1]!);

interface Section {
  number: string;
  level: number;
  line: number;
}

/** The numbered headings of the doc, outside fenced code. */
function sections(): Section[] {
  const found: Section[] = [];
  let fence: string | undefined;
  DOC_LINES.forEach((text, i) => {
    const open = /^(`{3,})/.exec(text);
    if (open) {
      if (fence === undefined) fence = open[1];
      else if (text.trim() === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const m = HEADING.exec(text);
    if (m) found.push({ number: m[3] === undefined ? m[2]! : `${m[2]}.${m[3]}`, level: m[1]!.length, line: i + 1 });
  });
  return found;
}

/** Every `§` reference of a text, with its 1-based line. */
function referencesIn(text: string): { number: string; line: number }[] {
  const refs: { number: string; line: number }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(REFERENCE)) refs.push({ number: m[1]!, line: i + 1 });
  });
  return refs;
}

function sourceFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') || f.endsWith('.md'))
    .map((f) => join(ROOT, 'src', f))
    .sort();
}

const SECTIONS = sections();
const NUMBERS = new Set(SECTIONS.map((s) => s.number));

describe('docs/service.md sections', () => {
  it('has the numbered sections the code cites', () => {
    expect(SECTIONS.length).toBeGreaterThan(100);
    for (const n of ['0', '6.4', '11.19', '12.6', '13.2', '14', '20', '22.5']) expect(NUMBERS).toContain(n);
  });

  it('numbers every section once', () => {
    const seen = new Map<string, number>();
    const duplicates: string[] = [];
    for (const s of SECTIONS) {
      const first = seen.get(s.number);
      if (first !== undefined) duplicates.push(`§${s.number} at lines ${first} and ${s.line}`);
      else seen.set(s.number, s.line);
    }
    expect(duplicates).toEqual([]);
  });

  it('writes top-level sections as "## §n." and subsections as "### §n.m", each inside its parent', () => {
    const wrong: string[] = [];
    let parent: string | undefined;
    for (const s of SECTIONS) {
      const text = DOC_LINES[s.line - 1]!;
      const sub = s.number.includes('.');
      if (!sub) {
        if (s.level !== 2 || !text.startsWith(`## §${s.number}. `)) wrong.push(`line ${s.line}: ${text}`);
        parent = s.number;
      } else if (s.level !== 3 || !text.startsWith(`### §${s.number} `) || s.number.split('.')[0] !== parent) {
        wrong.push(`line ${s.line}: ${text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('puts the explicit anchor of each section on the line above its heading, and no anchor twice', () => {
    const missing = SECTIONS.filter((s) => DOC_LINES[s.line - 2] !== `<a id="${anchorOf(s.number)}"></a>`).map(
      (s) => `§${s.number} (line ${s.line}) needs <a id="${anchorOf(s.number)}"></a> above it`,
    );
    expect(missing).toEqual([]);
    expect(ANCHOR_IDS.filter((id, i) => ANCHOR_IDS.indexOf(id) !== i)).toEqual([]);
    expect(ANCHOR_IDS.length).toBe(SECTIONS.length);
  });
});

describe('§ references', () => {
  it('every § reference in src/ names a section of docs/service.md', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(50);
    const dangling: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const ref of referencesIn(readFileSync(file, 'utf8'))) {
        count += 1;
        if (!NUMBERS.has(ref.number)) dangling.push(`${relative(ROOT, file)}:${ref.line} §${ref.number}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(dangling).toEqual([]);
  });

  it('every § reference and in-page link inside docs/service.md lands on a section', () => {
    const dangling = referencesIn(DOC)
      .filter((ref) => !NUMBERS.has(ref.number))
      .map((ref) => `docs/service.md:${ref.line} §${ref.number}`);
    const ids = new Set(ANCHOR_IDS);
    const links = [...DOC.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!).filter((id) => !ids.has(id));
    expect(dangling).toEqual([]);
    expect(links).toEqual([]);
  });
});

describe('docs/service.md stays inside the repository', () => {
  it('names no file outside the repository', () => {
    const outside = [/shared\//i, /REFERENCE\.md/i, /(^|[\s`'"(])\/(work|home|tmp|Users|mnt)\//, /file:\/\//];
    const hits = DOC_LINES.flatMap((line, i) => (outside.some((p) => p.test(line)) ? [`line ${i + 1}: ${line}`] : []));
    expect(hits).toEqual([]);
  });

  it('links and names only files that exist in the repository', () => {
    const broken: string[] = [];
    for (const m of DOC.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target)) continue; // an absolute URL (https:, mailto:)
      const path = resolve(dirname(DOC_PATH), target);
      if (relative(ROOT, path).startsWith('..') || !existsSync(path)) broken.push(target);
    }
    for (const m of DOC.matchAll(/`((?:src|docs|test|scripts|templates|notebooks)\/[^`\s#]+)(?:#([^`\s]+))?`/g)) {
      const [, path, fragment] = m;
      if (!existsSync(join(ROOT, path!))) broken.push(path!);
      else if (fragment !== undefined && path === 'docs/service.md' && !ANCHOR_IDS.includes(fragment)) broken.push(m[0]);
    }
    expect(broken).toEqual([]);
  });
});
