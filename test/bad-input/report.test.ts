/**
 * The bad-input catalogue of reports (issue 25): report parameters and templates checked against
 * the service before anything is loaded, template bounds, output names that would leave --out,
 * text that reaches a terminal, a workbook or a page, and brand lists. Same style as
 * test/bad-input.test.ts: each case names the exit code (or error class) and a fragment of its
 * message; and after each, no data was loaded (the emulator's request log has no brandscape rows,
 * tool answers or prices), nothing was written, a file that was there is unchanged, nothing a
 * terminal acts on was printed, no process warning was raised, and the token appeared nowhere.
 * Everything talks to the emulator over real HTTP.
 */
import { mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { unzipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/main.js';
import { createClient } from '../../src/client/create-client.js';
import { UsageError } from '../../src/errors.js';
import { createEmulator, type Emulator, type RecordedRequest } from '../../src/emulator/index.js';
import { AmbiguousBrandError, UnknownBrandError, resolveBrands } from '../../src/load/resolve-brands.js';
import { compareBrands } from '../../src/compare/compare-brands.js';
import { comparisonReport } from '../../src/compare/comparison-report.js';
import { loadReportData } from '../../src/report/load-report-data.js';
import { loadTemplate } from '../../src/report/template/load-template.js';
import { defineTemplate, resolveTemplate } from '../../src/report/template/resolve-template.js';
import { runReport } from '../../src/report/run-report.js';
import { TemplateError } from '../../src/report/template/template-error.js';
import { writeXlsx } from '../../src/report/write-xlsx.js';

const TOKEN = 'LEAKCHECK-report-5d2e-SeCrEt-91fa';
let emulator: Emulator;
/** Everything any case printed, returned or wrote, checked for the token at the end. */
const seen: string[] = [];
/** Process warnings (MaxListenersExceededWarning, the YAML parser's): none is expected anywhere. */
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN] });
  process.on('warning', onWarning);
}, 60_000);
afterAll(async () => {
  process.off('warning', onWarning);
  await emulator?.close();
  for (const text of seen) expect(text).not.toContain(TOKEN);
});

const client = (options: { concurrency?: number } = {}) => createClient({ baseUrl: emulator.url, token: TOKEN, env: {}, ...options });

/** Requests that load data (rows, tool answers, prices): none may be made before a mistake is found. */
const isLoad = (q: RecordedRequest) => /\/brandscape-data|\/tools\/|\/stock-prices/.test(q.path);
const loadsSince = (from: number) => emulator.requests.slice(from).filter(isLoad);

/** Characters a terminal acts on (tab and line feed aside): ESC, other C0 controls, DEL, C1. */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Every file under a folder, as paths relative to it (folders end with /). */
async function tree(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(`${relative(base, path)}/`, ...(await tree(path, base)));
    else out.push(relative(base, path));
  }
  return out.sort();
}

interface CliCase {
  name: string;
  argv: string[];
  exit: number;
  /** On stderr (on stdout for a success). */
  says: RegExp;
  /** Files to write into the case folder first (templates). */
  files?: Record<string, string>;
  /** Anything else to make first (a 50 MB file). */
  prepare?: (dir: string) => Promise<void>;
}

/**
 * Runs the CLI in a folder holding `keep.json` and an empty output folder `site/out` (the cases
 * write with --out site/out); returns what it printed and what the folder holds afterwards.
 */
async function runCli(c: { argv: string[]; files?: Record<string, string>; prepare?: (dir: string) => Promise<void> }) {
  const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-report-'));
  await writeFile(join(dir, 'keep.json'), 'previous');
  await mkdir(join(dir, 'site', 'out'), { recursive: true });
  for (const [name, text] of Object.entries(c.files ?? {})) await writeFile(join(dir, name), text);
  await c.prepare?.(dir);
  const given = new Set(Object.keys(c.files ?? {}));
  let stdout = '';
  let stderr = '';
  const before = emulator.requests.length;
  const warned = warnings.length;
  const code = await run(c.argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { BRANDSCAPE_BASE_URL: emulator.url, BRANDSCAPE_TOKEN: TOKEN },
    signal: new AbortController().signal,
    cwd: dir,
  });
  seen.push(stdout, stderr);
  const files = (await tree(dir)).filter((f) => !given.has(f) && !f.startsWith('big'));
  const kept = await readFile(join(dir, 'keep.json'), 'utf8');
  const written = await Promise.all(files.filter((f) => !f.endsWith('/') && f !== 'keep.json').map((f) => readFile(join(dir, f), 'latin1')));
  seen.push(...written);
  await rm(dir, { recursive: true, force: true });
  return { code, stdout, stderr, files, kept, loads: loadsSince(before), warnings: warnings.slice(warned) };
}

const CMBH = 'cross-market-brand-health';
const report = (template: string, ...params: string[]) => ['report', template, '--out', 'site/out', ...params.flatMap((p) => ['-p', p])];

/** A template whose output name is a parameter: what -p tag=... makes of the file name. */
const NAMED = `title: Named
parameters:
  tag: { type: string, default: weekly }
data: { markets: [GB, DE], brands: [Veros], metric_groups: [pillars] }
sections:
  - kind: cross-market
output:
  name: "{tag}"
`;

/** A good template to put one mistake in. */
const BASE = `title: Base
data:
  markets: [GB, DE]
  brands: [Veros]
  metric_groups: [pillars]
sections:
  - kind: cross-market
    chart: heatmap
`;

const deepJson = (levels: number) => `{"title":"T","data":{"markets":["GB"]},"sections":[{"kind":"cross-market"}],"description":${'['.repeat(levels)}${']'.repeat(levels)}}`;

const CLI_CASES: CliCase[] = [
  // Report parameters checked against the service before any data is loaded.
  { name: 'a market code people use for another (UK)', argv: report(CMBH, 'markets=UK,DE'), exit: 2, says: /data\.markets\[0\]: no released study for market UK \(from parameter 'markets'\)\. Did you mean GB\? Markets with studies: .*\bDE\b.*\bGB\b/ },
  { name: 'a market code that is no market (XX)', argv: report(CMBH, 'markets=XX,DE'), exit: 2, says: /no released study for market XX \(from parameter 'markets'\)\. Markets with studies: AE, / },
  { name: 'a year before the first study (2018)', argv: report(CMBH, 'year=2018'), exit: 2, says: /data\.years\[0\]: no released full-year study in any of GB, DE, FR, IT, ES, US in 2018 \(from parameter 'year'\); those markets have studies in 2019–2025/ },
  { name: 'a year not released yet (2026)', argv: report(CMBH, 'year=2026'), exit: 2, says: /in 2026 \(from parameter 'year'\); those markets have studies in 2019–2025/ },
  { name: 'latest-7, before the first study', argv: report(CMBH, 'year=latest-7'), exit: 2, says: /in 2018 \(latest-7\) \(from parameter 'year'\); those markets have studies in 2019–2025/ },
  { name: 'latest-99', argv: report(CMBH, 'year=latest-99'), exit: 2, says: /in 1926 \(latest-99\) \(from parameter 'year'\)/ },
  { name: 'a year long before any study (1995)', argv: report(CMBH, 'year=1995'), exit: 2, says: /in 1995 \(from parameter 'year'\); those markets have studies in 2019–2025/ },
  { name: 'a range of years none of which has a study', argv: report('cross-year-trends', 'years=2015..2018'), exit: 2, says: /data\.years: no released full-year study in any of GB, US, DE in 2015–2018 \(from parameter 'years'\); those markets have studies in 2019–2025/ },
  { name: 'a range of years that starts before the first study', argv: report('cross-year-trends', 'years=2017..2020'), exit: 2, says: /in 2017, 2018 \(from parameter 'years'\)/ },
  { name: 'a range of a century', argv: report('cross-year-trends', 'years=1990..2100'), exit: 2, says: /in 1990–2018, 2026–2100 \(from parameter 'years'\)/ },
  { name: 'a focus market that has no study (UK)', argv: report(CMBH, 'focus_market=UK'), exit: 2, says: /sections\[1\]\.market: no released study for market UK \(from parameter 'focus_market'\)\. Did you mean GB\?/ },
  { name: 'an audience that does not exist', argv: report(CMBH, 'audience=9999'), exit: 2, says: /data\.audience: there is no audience 9999 \(from parameter 'audience'\); list them with 'brandscape audiences' \(1 is All Adults\)/ },
  { name: 'an audience of 0', argv: report(CMBH, 'audience=0'), exit: 2, says: /data\.audience: expected an id \(a positive whole number\), got 0 \(from parameter 'audience'\)/ },
  { name: 'several mistakes at once, each named', argv: report(CMBH, 'markets=UK,DE', 'audience=9999', 'brands=Veros,Qwxyzzy Motors'), exit: 2, says: /cannot be used:\n {2}data\.markets\[0\]: no released study for market UK[\s\S]*data\.audience: there is no audience 9999[\s\S]*data\.brands: No brand is named 'Qwxyzzy Motors'/ },
  { name: 'a brand id that does not exist', argv: report(CMBH, 'brands=99999999'), exit: 2, says: /There is no brand with id 99999999/ },
  { name: 'an empty list of markets', argv: report(CMBH, 'markets=,'), exit: 2, says: /-p markets: the list of market codes is empty/ },
  { name: 'a parameter given twice', argv: report(CMBH, 'markets=GB', 'markets=DE'), exit: 2, says: /-p markets is given twice\. Give it once; a list takes its values comma-separated/ },
  { name: 'a parameter in the wrong case', argv: report(CMBH, 'MARKETS=GB'), exit: 2, says: /-p MARKETS: unknown parameter; did you mean markets\?/ },
  { name: 'a parameter name of 100,000 characters', argv: report(CMBH, `${'k'.repeat(100_000)}=1`), exit: 2, says: /-p k{40}…: unknown parameter/ },
  { name: 'a year of five digits', argv: report(CMBH, 'year=20244'), exit: 2, says: /-p year: expected a year such as 2024, 'latest' or 'latest-1', got 20244/ },
  { name: 'a range of years the wrong way round', argv: report('cross-year-trends', 'years=2025..2019'), exit: 2, says: /-p years: expected a year .*got '2025\.\.2019'/ },
  { name: 'a sector that does not exist', argv: report('sector-review', 'sectors=999'), exit: 2, says: /data\.sectors\[0\]: there is no sector with id 999 \(from parameter 'sectors'\); sectors: 1 Alcoholic Beverages, 2 Automotive/ },
  { name: 'a company that does not exist', argv: report('company-portfolio', 'companies=99999'), exit: 2, says: /data\.companies\[0\]: there is no company with id 99999 \(from parameter 'companies'\); find a company's id with 'brandscape fetch companies --search NAME'/ },
  { name: 'a collection that does not exist', argv: report('competitive-archetypes', 'collection=777'), exit: 2, says: /sections\[0\]\.comparison\.collection: there is no collection with id 777 that this token can see \(from parameter 'collection'\); collections: 1 Global icons/ },
  { name: 'a category that does not exist', argv: report('competitive-archetypes', 'category=99999'), exit: 2, says: /sections\[1\]\.comparison\.category: there is no category with id 99999 \(from parameter 'category'\)/ },
  { name: 'an archetypes market without a study', argv: report('competitive-archetypes', 'market=UK'), exit: 2, says: /no released study for market UK \(from parameter 'market'\)\. Did you mean GB\?/ },
  { name: 'an archetypes year without a study', argv: report('competitive-archetypes', 'year=2018'), exit: 2, says: /no released full-year study in United Kingdom \(GB\) in 2018 \(from parameter 'year'\); it has studies in 2019–2025/ },
  { name: 'a power grid of a market whose study is not released yet, by default', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('[GB, DE]', '[TH, GB]').replace('  brands: [Veros]', '  years: [2025]\n  brands: [Veros]').replace('chart: heatmap', 'chart: heatmap\n  - kind: power-grid') }, exit: 2, says: /sections\[1\]: no released full-year study in Thailand \(TH\) in 2025; it has studies in 2019–2024/ },
  // Metrics, groups and score types, against the service's catalogue.
  { name: 'a mistyped metric key', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('metric_groups: [pillars]', 'metrics: [esteme]') }, exit: 2, says: /data\.metrics\[0\]: 'esteme' is not a metric key; did you mean esteem\?/ },
  { name: 'a mistyped metric group', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('[pillars]', '[pillar]') }, exit: 2, says: /data\.metric_groups\[0\]: 'pillar' is not a metric group; did you mean pillars\? groups: pillars, power_grid/ },
  { name: 'a score type a metric does not have', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('chart: heatmap', 'metrics: [brand_base]\n    score_type: rank') }, exit: 2, says: /sections\[0\]\.score_type: metric 'brand_base' has no percentile rank score \(brand_base_rank\); it has value \(brand_base\)/ },
  { name: 'a mistyped metric of a section', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('chart: heatmap', 'metrics: [knowlege]') }, exit: 2, says: /sections\[0\]\.metrics\[0\]: 'knowlege' is not a metric key; did you mean knowledge\?/ },
  // templates validate: what it checks offline, and what it says it could not.
  { name: 'validate: a mistyped metric group, offline', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': BASE.replace('[pillars]', '[pillar]') }, exit: 2, says: /data\.metric_groups\[0\]: 'pillar' is not a metric group; did you mean pillars\?/ },
  { name: 'validate: a mistyped metric key, offline', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': BASE.replace('metric_groups: [pillars]', 'metrics: [esteme]') }, exit: 2, says: /'esteme' is not a metric key; did you mean esteem\?/ },
  { name: 'validate: a valid template says what only the service can check', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': BASE }, exit: 0, says: /t\.yaml: valid \(1 section; parameters: none\)\.\nNot checked offline .*\n {2}- markets GB, DE have released studies\n {2}- year latest has a released full-year study in them .*\n {2}- brand Veros exists/ },
  { name: 'validate --online: a market without a study', argv: ['templates', 'validate', 't.yaml', '--online'], files: { 't.yaml': BASE.replace('[GB, DE]', '[GB, UK]') }, exit: 2, says: /data\.markets\[1\]: no released study for market UK\. Did you mean GB\?/ },
  // Template bounds: size, nesting, lists, texts, duplicate keys.
  { name: 'a JSON template nested 5,000 arrays deep', argv: ['templates', 'validate', 't.json'], files: { 't.json': deepJson(5000) }, exit: 2, says: /description\[0\]\[0\]\[0\]…: nested more than 32 levels deep; a template nests at most 32 levels/ },
  { name: 'a YAML template nested 5,000 flow lists deep', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': `${BASE}description: ${'['.repeat(5000)}${']'.repeat(5000)}\n` }, exit: 2, says: /line 9: nested more than 32 levels deep/ },
  { name: 'a YAML template indented 100 levels deep', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': `${BASE}description:\n${Array.from({ length: 100 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}\n` }, exit: 2, says: /line \d+: nested more than 32 levels deep/ },
  { name: 'a YAML alias that contains itself', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': `${BASE}description: &a [*a]\n` }, exit: 2, says: /nested more than 32 levels deep/ },
  { name: 'a YAML alias bomb', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': `${BASE}a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n` }, exit: 2, says: /not valid YAML: Excessive alias count/ },
  { name: 'a YAML tag (!!js/function)', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': BASE.replace('title: Base', 'title: !!js/function "function () {}"') }, exit: 2, says: /line 1, column 8: not valid YAML: Unresolved tag: tag:yaml\.org,2002:js\/function/ },
  { name: 'a JSON template with two "sections" keys', argv: ['templates', 'validate', 't.json'], files: { 't.json': '{"title":"T","data":{"markets":["GB"]},"sections":[{"kind":"cross-market"}],"sections":[{"kind":"cross-year"}]}' }, exit: 2, says: /sections: the key 'sections' is given twice; JSON would keep only the last, so give it once/ },
  { name: 'a JSON key given twice inside an object', argv: ['templates', 'validate', 't.json'], files: { 't.json': '{"title":"T","data":{"markets":["GB"],"markets":["DE"]},"sections":[{"kind":"cross-market"}]}' }, exit: 2, says: /data\.markets: the key 'markets' is given twice/ },
  { name: 'a JSON __proto__ key', argv: ['templates', 'validate', 't.json'], files: { 't.json': '{"title":"T","__proto__":{"x":1},"data":{"markets":["GB"]},"sections":[{"kind":"cross-market"}]}' }, exit: 2, says: /unknown key '__proto__'/ },
  {
    name: 'a 50 MB template, refused from its size',
    argv: ['templates', 'validate', 'big.yaml'],
    prepare: async (dir) => {
      const handle = await open(join(dir, 'big.yaml'), 'w');
      await handle.truncate(50 * 1024 * 1024);
      await handle.close();
    },
    exit: 2,
    says: /Template big\.yaml cannot be used: the file is 50\.0 MB; a template file is at most 1\.0 MB/,
  },
  { name: 'a list of 2,000 items', argv: ['templates', 'validate', 't.json'], files: { 't.json': JSON.stringify({ title: 'T', data: { markets: ['GB'], years: Array.from({ length: 2000 }, () => 2024) }, sections: [{ kind: 'cross-market' }] }) }, exit: 2, says: /data\.years: a list of 2,000 items; a list in a template holds at most 1,000/ },
  { name: 'a title of 20,000 characters', argv: ['templates', 'validate', 't.yaml'], files: { 't.yaml': BASE.replace('title: Base', `title: ${'x'.repeat(20_000)}`) }, exit: 2, says: /title: a text of 20,000 characters; a text in a template is at most 10,000/ },
  // Output names never leave --out (the name is a parameter: -p tag=...).
  { name: 'an output name of ..', argv: report('t.yaml', 'tag=..'), files: { 't.yaml': NAMED }, exit: 2, says: /output\.name: the file name '\.\.' \(from parameter 'tag'\) is only dots/ },
  { name: 'an empty output name', argv: report('t.yaml', 'tag='), files: { 't.yaml': NAMED }, exit: 2, says: /output\.name: the file name '' \(from parameter 'tag'\) is empty/ },
  { name: 'an output name of .', argv: report('t.yaml', 'tag=.'), files: { 't.yaml': NAMED }, exit: 2, says: /the file name '\.' \(from parameter 'tag'\) is only dots/ },
  { name: 'an output name of ...', argv: report('t.yaml', 'tag=...'), files: { 't.yaml': NAMED }, exit: 2, says: /the file name '\.\.\.' \(from parameter 'tag'\) is only dots/ },
  { name: 'an output name with a folder in it', argv: report('t.yaml', 'tag=../../etc/x'), files: { 't.yaml': NAMED }, exit: 2, says: /the file name '\.\.\/\.\.\/etc\/x' \(from parameter 'tag'\) has a folder in it/ },
  { name: 'an output name with a backslash', argv: report('t.yaml', 'tag=..\\x'), files: { 't.yaml': NAMED }, exit: 2, says: /has a folder in it \('\/' or '\\'\)/ },
  { name: 'an output name with a NUL', argv: report('t.yaml', 'tag=a\u0000b'), files: { 't.yaml': NAMED }, exit: 2, says: /has a NUL character in it, which no file name can hold/ },
  { name: 'an output name of 150 non-ASCII characters (300 bytes)', argv: report('t.yaml', `tag=${'é'.repeat(150)}`), files: { 't.yaml': NAMED }, exit: 2, says: /is 300 bytes long \(UTF-8\); an output name is at most 200 bytes/ },
  { name: 'an output name written with a folder in the template', argv: report('t.yaml'), files: { 't.yaml': NAMED.replace('"{tag}"', '"../{tag}"') }, exit: 2, says: /output\.name: the file name '\.\.\/weekly' \(from parameter 'tag'\) has a folder in it/ },
  { name: 'an absolute output name', argv: report('t.yaml'), files: { 't.yaml': NAMED.replace('"{tag}"', '"/tmp/{template}"') }, exit: 2, says: /the file name '\/tmp\/t' has a folder in it/ },
  // Text a terminal acts on, in what is echoed back.
  { name: 'a chart name with terminal escapes', argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': BASE.replace('chart: heatmap', 'chart: "\\e]0;pwned\\a\\e[2J\\e[31mpie"') }, exit: 2, says: /sections\[0\]\.chart: unknown chart 'pwned\\?pie'|sections\[0\]\.chart: unknown chart '.*pie'/ },
  { name: 'a template name with terminal escapes', argv: ['report', 'x\u001b]0;pwned\u0007\u001b[2J', '--out', 'site/out'], exit: 2, says: /There is no template named 'x'/ },
  { name: 'a command with terminal escapes', argv: ['\u001b[2Jreport\u009b31m'], exit: 2, says: /unknown command 'report31m'/ },
  // Brand lists.
  { name: '10,000 brand ids', argv: report(CMBH, `brands=${Array.from({ length: 10_000 }, (_, i) => i + 1).join(',')}`), exit: 2, says: /-p brands: a list of 10,000 brands \(ids or names\); a list holds at most 1,000/ },
  { name: 'a brand name of 20,000 characters', argv: report(CMBH, `brands=${'x'.repeat(20_000)}`), exit: 2, says: /-p brands: a brand name is at most 200 characters; got 20,000/ },
  { name: 'compare: a brand name of 20,000 characters', argv: ['compare', '--brands', 'y'.repeat(20_000), '--markets', 'GB,DE'], exit: 2, says: /--brands: a brand name is at most 200 characters; got 20,000/ },
  { name: '30 names nobody has', argv: report(CMBH, `brands=${Array.from({ length: 30 }, (_, i) => `Qwxz${i}`).join(',')}`), exit: 2, says: /No brand is named 'Qwxz\d+'/ },
  { name: 'compare: a dozen names, without a warning of a listener leak', argv: ['compare', '--brands', 'Veros,Polora,Fieldion,Perly,Corvaton Motors,Emmo Café,Reyos Café,veros,polora,fieldion,perly,Qwxzy', '--markets', 'GB,DE'], exit: 2, says: /No brand is named 'Qwxzy'/ },
];

describe('report parameters, templates, output names and brand lists on the command line', () => {
  it.each(CLI_CASES)('$name: exit $exit, a clear message, nothing loaded, written, clobbered, leaked or printed raw', async (c) => {
    const r = await runCli(c);
    expect(r.code, r.stderr).toBe(c.exit);
    expect(c.exit === 0 ? r.stdout : r.stderr).toMatch(c.says);
    expect(r.stderr).not.toMatch(/\n\s+at |node:internal|\.partial|ENOENT|EISDIR|ENAMETOOLONG|Maximum call stack/);
    // A message names what was wrong; it does not repeat 100 KB of what was given.
    expect(r.stderr.length).toBeLessThan(4000);
    expect(r.loads).toEqual([]);
    expect(r.files).toEqual(['keep.json', 'site/', 'site/out/']);
    expect(r.kept).toBe('previous');
    expect(r.stdout + r.stderr).not.toMatch(TERMINAL_CONTROLS);
    expect(r.warnings).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('what now works', () => {
  it('-p markets=GB,gb,DE is two markets: one United Kingdom column', async () => {
    const r = await runCli({ argv: report(CMBH, 'markets=GB,gb,DE', 'brands=Veros') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1\. The four pillars across markets, 2025: 1 brand × 2 markets × 4 metrics/);
    expect(r.files.filter((f) => /^site\/out\/[^.].*\.(xlsx|html)$/.test(f))).toHaveLength(2);
  });

  it('a section title with ANSI and OSC escapes: the report is written, and nothing a terminal acts on is printed', async () => {
    const template = BASE.replace('chart: heatmap', 'chart: heatmap\n    title: "Pillars \\e]0;pwned\\a\\e[31mred\\e[0m \\e]8;;http://example.com\\e\\\\link\\e]8;;\\e\\\\ \\x9b2J"');
    const r = await runCli({ argv: ['report', 't.yaml', '--out', 'site/out'], files: { 't.yaml': template } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1\. Pillars red link 2J: 1 brand × 2 markets/);
    expect(r.stdout + r.stderr).not.toMatch(TERMINAL_CONTROLS);
  });

  it('a title with U+FFFE, U+FFFF and C0 controls: a workbook every XML part of which parses, and a page without them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-xml-'));
    try {
      const template = BASE.replace('title: Base', 'title: "Brand \\uFFFE health \\uFFFF \\u0001\\u0007\\u000b"').replace('chart: heatmap', 'chart: heatmap\n    title: "Sec\\uFFFEtion \\u0008"');
      await writeFile(join(dir, 't.yaml'), template);
      const result = await runReport(client(), await loadTemplate('t.yaml', { cwd: dir }), { outDir: dir });
      expect(result.files).toHaveLength(2);
      const files = unzipSync(await readFile(result.files.find((f) => f.endsWith('.xlsx'))!));
      const parts = Object.entries(files).filter(([name]) => /\.(xml|rels)$/.test(name));
      expect(parts.map(([name]) => name)).toEqual(expect.arrayContaining(['xl/sharedStrings.xml', 'docProps/core.xml', 'xl/workbook.xml']));
      for (const [name, bytes] of parts) {
        const parser = new SaxesParser();
        let error: string | undefined;
        parser.on('error', (e) => (error ??= `${name}: ${e.message}`));
        parser.write(new TextDecoder().decode(bytes)).close();
        expect(error).toBeUndefined();
      }
      expect(new TextDecoder().decode(files['docProps/core.xml'])).toContain('Brand  health');
      const html = await readFile(result.files.find((f) => f.endsWith('.html'))!, 'utf8');
      expect(html).toContain('<h1>Brand  health');
      expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('writeXlsx(comparisonReport(await compareBrands(...))), as the README suggests, writes a workbook', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-cmp-'));
    try {
      const comparison = await compareBrands(client(), { brands: ['Veros', 'Polora'], markets: ['GB', 'DE'] });
      await writeXlsx(comparisonReport(comparison), join(dir, 'pillars.xlsx'));
      const files = unzipSync(await readFile(join(dir, 'pillars.xlsx')));
      const workbook = new TextDecoder().decode(files['xl/workbook.xml']);
      // The About sheet and the comparison's own; no Data sheet, for a spec without tidy rows.
      expect([...workbook.matchAll(/<sheet [^>]*name="([^"]+)"/g)].map((m) => m[1])).toEqual(['About', `1. ${comparison.title}`.slice(0, 30).replace(/[\s,.;–-]+\S*$/, '') + '…']);
      expect(await readdir(dir)).toEqual(['pillars.xlsx']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('1,000 brand ids are checked in requests whose URLs each fit 8 KB', async () => {
    const before = emulator.requests.length;
    const ids = Array.from({ length: 1000 }, (_, i) => 100_000 + i);
    const error = await resolveBrands(client(), ids).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownBrandError);
    expect((error as Error).message).toBe('There is no brand with id 100000. Check the spelling, or give the brand by id.');
    const lookups = emulator.requests.slice(before).filter((q) => q.path === '/api/v2/brands');
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    for (const q of lookups) {
      expect(q.status).toBe(200);
      expect(`${emulator.url}${q.path}?${q.query}`.length).toBeLessThanOrEqual(8192);
    }
    const good = await resolveBrands(client(), Array.from({ length: 400 }, (_, i) => i + 1));
    expect(good).toHaveLength(400);
  });
});

describe('the library', () => {
  const failure = async (call: () => unknown) => {
    const before = emulator.requests.length;
    const error = await Promise.resolve()
      .then(() => call())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    seen.push(error instanceof Error ? error.message : '');
    return { error: error as Error, requests: emulator.requests.slice(before) };
  };

  it.each([
    { name: 'resolveBrands with 1,001 brands', call: () => resolveBrands(client(), Array.from({ length: 1001 }, (_, i) => i + 1)), says: /brands: at most 1000 brands are resolved at once; got 1001/ },
    { name: 'resolveBrands with a name of 20,000 characters', call: () => resolveBrands(client(), ['z'.repeat(20_000)]), says: /brands: a brand name is at most 200 characters; got one of 20000/ },
    { name: 'compareBrands with a name of 20,000 characters', call: () => compareBrands(client(), { brands: ['z'.repeat(20_000)], markets: ['GB', 'DE'] }), says: /a brand name is at most 200 characters/ },
  ])('$name: a UsageError before any request', async ({ call, says }) => {
    const { error, requests } = await failure(call);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(says);
    expect(requests).toEqual([]);
  });

  it('resolveTemplate refuses an output name that would leave the folder, naming the parameter', () => {
    const template = defineTemplate({ title: 'T', parameters: { tag: { type: 'string', default: 'x' } }, data: { markets: ['GB'] }, sections: [{ kind: 'cross-market' }], output: { name: '{tag}' } }, 'named');
    expect(() => resolveTemplate(template, { tag: '..' })).toThrow(TemplateError);
    expect(() => resolveTemplate(template, { tag: 'a/b' })).toThrow(/output\.name: the file name 'a\/b' \(from parameter 'tag'\) has a folder in it/);
  });

  it('runReport with -p tag=.. writes nothing, beside the folder or in it, and loads nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bsk-run-'));
    try {
      await mkdir(join(dir, 'site', 'out'), { recursive: true });
      const template = defineTemplate({ title: 'T', parameters: { tag: { type: 'string', default: 'x' } }, data: { markets: ['GB', 'DE'] }, sections: [{ kind: 'cross-market' }], output: { name: '{tag}' } }, 'named');
      const { error, requests } = await failure(() => runReport(client(), template, { outDir: join(dir, 'site', 'out'), parameters: { tag: '..' } }));
      expect(error).toBeInstanceOf(TemplateError);
      expect(requests).toEqual([]);
      expect(await tree(dir)).toEqual(['site/', 'site/out/']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loadReportData with a market that has no study: a TemplateError, and no data loaded', async () => {
    const template = resolveTemplate(await loadTemplate(CMBH), { markets: 'UK,DE' });
    const { error, requests } = await failure(() => loadReportData(client(), template));
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).problems).toEqual([expect.objectContaining({ path: 'data.markets[0]', message: expect.stringMatching(/^no released study for market UK \(from parameter 'markets'\)\. Did you mean GB\?/) })]);
    expect(requests.filter(isLoad)).toEqual([]);
  });

  it('an ambiguous brand alone keeps its own error', async () => {
    const template = resolveTemplate(await loadTemplate(CMBH), { brands: 'Cola' });
    const { error, requests } = await failure(() => loadReportData(client(), template));
    expect(error).toBeInstanceOf(AmbiguousBrandError);
    expect(requests.filter(isLoad)).toEqual([]);
  });

  it('unknown names are searched at most the client\'s concurrency at a time, and the first failure stops the rest', async () => {
    const slow = await createEmulator({ port: 0, tokens: [TOKEN], latencyMs: 40 });
    try {
      const names = Array.from({ length: 20 }, (_, i) => `Qwxz${i}`);
      const error = await resolveBrands(createClient({ baseUrl: slow.url, token: TOKEN, env: {}, concurrency: 3 }), names).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownBrandError);
      const searches = slow.requests.filter((q) => q.path === '/api/v2/brands' && new URLSearchParams(q.query).has('search'));
      // The most searches the service was answering at one moment.
      const most = Math.max(...searches.map((a) => searches.filter((b) => b.at < a.at + a.durationMs && a.at < b.at + b.durationMs).length));
      expect(most).toBeLessThanOrEqual(3);
      expect(most).toBeGreaterThan(1);
      expect(searches.length).toBeLessThan(names.length);
      expect(warnings).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});
