/**
 * The bad-input catalogue (issue 13): every way a user, a template, a network or a service can get
 * things wrong, across the library, the CLI (fetch, report, compare, health, emulator), templates
 * and the emulator's admin routes. Each case names the error class (or exit code and HTTP status)
 * it must give and a fragment of its message; and after each, nothing was written, nothing was
 * clobbered (a file that was there is unchanged) and the token appeared nowhere.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { createClient } from '../src/client/create-client.js';
import { createEmulator, type Emulator } from '../src/emulator/index.js';
import { startBadServer, type BadMode, type BadServer } from './helpers/bad-server.js';

const TOKEN = 'LEAKCHECK-7c1f-SeCrEt-42ab';
const SCOPELESS = 'LEAKCHECK-brands-only-9e3d';
let emulator: Emulator;
const bad = new Map<BadMode, BadServer>();
const MODES: BadMode[] = ['hang', 'html', 'invalid-json', 'text-plain', 'no-meta', 'changing-total', '429-storm', '429-garbage-retry-after', '5xx-storm', 'redirect-loop', 'echo-token'];
/** Everything any case printed or returned, checked for the token at the end. */
const seen: string[] = [];

beforeAll(async () => {
  emulator = await createEmulator({ port: 0, tokens: [TOKEN, { token: SCOPELESS, scopes: ['Brands: Read'] }] });
  for (const mode of MODES) bad.set(mode, await startBadServer(mode));
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  for (const server of bad.values()) await server.close();
  for (const text of seen) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(SCOPELESS);
  }
});

/** Where a CLI case runs: a folder holding one file that must survive every case untouched. */
async function caseDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bsk-bad-'));
  await writeFile(join(dir, 'keep.json'), 'previous');
  return dir;
}

type Target = 'emulator' | BadMode | 'refused' | 'none';
interface CliCase {
  name: string;
  argv: string[];
  /** The service: the emulator (default), a misbehaving server, a port nobody listens on, or none (in-process). */
  target?: Target;
  env?: Record<string, string>;
  exit: number;
  says: RegExp;
  /** A template file to write into the case folder first. */
  template?: string;
}

const urlOf = (target: Target): string | undefined => {
  if (target === 'none') return undefined;
  if (target === 'emulator') return emulator.url;
  if (target === 'refused') return 'http://127.0.0.1:9';
  return bad.get(target)!.url;
};

async function runCli(c: CliCase) {
  const dir = await caseDir();
  if (c.template) await writeFile(join(dir, 'bad.yaml'), c.template);
  let stdout = '';
  let stderr = '';
  const base = urlOf(c.target ?? 'emulator');
  const code = await run(c.argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { ...(base ? { BRANDSCAPE_BASE_URL: base } : {}), BRANDSCAPE_TOKEN: TOKEN, ...c.env },
    signal: new AbortController().signal,
    cwd: dir,
  });
  seen.push(stdout, stderr);
  const files = (await readdir(dir)).filter((f) => f !== 'bad.yaml');
  const kept = await readFile(join(dir, 'keep.json'), 'utf8');
  await rm(dir, { recursive: true, force: true });
  return { code, stdout, stderr, files, kept };
}

const GOOD_TEMPLATE = `title: T
data: { markets: [GB], metric_groups: [pillars] }
sections:
  - kind: cross-market
    chart: heatmap
`;

const CLI_CASES: CliCase[] = [
  // fetch: arguments
  { name: 'fetch: unknown resource', argv: ['fetch', 'brandz'], exit: 2, says: /Unknown resource 'brandz'/ },
  { name: 'fetch: a filter without =', argv: ['fetch', 'brands', '--filter', 'country_codes'], exit: 2, says: /--filter takes KEY=VALUE/ },
  { name: 'fetch: a filter the resource does not have', argv: ['fetch', 'brands', '--filter', 'colour=red'], exit: 2, says: /'colour' is not a filter of brands/ },
  { name: 'fetch: an include the resource does not have', argv: ['fetch', 'brands', '--include', 'owner'], exit: 2, says: /'owner' is not an include of brands/ },
  { name: 'fetch: an unknown field, listing the valid ones', argv: ['fetch', 'brands', '--fields', 'id,nosuchfield'], exit: 2, says: /'nosuchfield' is not a field of brands .*Fields: id, bav_brand_id/ },
  { name: 'fetch: --out in a folder that does not exist', argv: ['fetch', 'brands', '--out', 'nowhere/b.json'], exit: 2, says: /The folder of --out nowhere\/b\.json .* does not exist/ },
  { name: 'fetch: --out that is a folder', argv: ['fetch', 'brands', '--out', '.'], exit: 2, says: /--out \. is a folder/ },
  { name: 'fetch: --out with an unknown extension', argv: ['fetch', 'brands', '--out', 'b.xls'], exit: 2, says: /unknown extension '\.xls'/ },
  { name: 'fetch: --per-page 0', argv: ['fetch', 'brands', '--per-page', '0'], exit: 2, says: /--per-page expects an integer >= 1/ },
  { name: 'fetch: --per-page over the maximum', argv: ['fetch', 'brands', '--per-page', '5000'], exit: 2, says: /perPage must be a whole number from 1 to 1000; got 5000/ },
  { name: 'fetch: --concurrency 0', argv: ['fetch', 'brands', '--concurrency', '0'], exit: 2, says: /--concurrency expects an integer from 1 to 64/ },
  { name: 'fetch: --timeout that is not a number', argv: ['fetch', 'brands', '--timeout', 'soon'], exit: 2, says: /--timeout takes seconds/ },
  { name: 'fetch: BRANDSCAPE_TIMEOUT below zero', argv: ['fetch', 'brands'], env: { BRANDSCAPE_TIMEOUT: '-1' }, exit: 2, says: /BRANDSCAPE_TIMEOUT takes seconds/ },
  { name: 'fetch: an unknown option', argv: ['fetch', 'brands', '--colour'], exit: 2, says: /Unknown option '--colour'/ },
  { name: 'fetch: brandscape data without a qualifying filter', argv: ['fetch', 'brandscape-data', '--filter', 'categories=1'], exit: 2, says: /needs a qualifying filter combination/ },
  // configuration
  { name: 'a base URL with a space', argv: ['fetch', 'brands'], env: { BRANDSCAPE_BASE_URL: 'http://exa mple.com' }, exit: 2, says: /BRANDSCAPE_BASE_URL 'http:\/\/exa mple\.com' is not a valid URL/ },
  { name: 'a base URL that is not http', argv: ['fetch', 'brands'], env: { BRANDSCAPE_BASE_URL: 'ftp://example.com' }, exit: 2, says: /must start with http:\/\/ or https:\/\// },
  { name: 'a base URL with credentials in it', argv: ['fetch', 'brands'], env: { BRANDSCAPE_BASE_URL: `https://user:${TOKEN}@example.com` }, exit: 2, says: /carries credentials in the URL/ },
  { name: 'an API version that does not exist', argv: ['fetch', 'brands'], env: { BRANDSCAPE_API_VERSION: 'v3' }, exit: 2, says: /BRANDSCAPE_API_VERSION must be 'v1' or 'v2', not 'v3'/ },
  { name: 'a token with a space inside', argv: ['fetch', 'brands'], env: { BRANDSCAPE_TOKEN: `${TOKEN} extra` }, exit: 2, says: /BRANDSCAPE_TOKEN contains spaces or control characters/ },
  // the service refuses
  { name: 'a wrong token', argv: ['fetch', 'brands'], env: { BRANDSCAPE_TOKEN: 'LEAKCHECK-wrong-token-000' }, exit: 3, says: /answered 401: Unauthenticated.*Check the token/ },
  { name: 'a token without the scope of the endpoint', argv: ['fetch', 'studies'], env: { BRANDSCAPE_TOKEN: SCOPELESS }, exit: 3, says: /answered 401.*lacks the scope of this endpoint \('Studies: Read'\)/ },
  // the service misbehaves
  { name: 'a web page instead of JSON', argv: ['fetch', 'regions'], target: 'html', exit: 3, says: /text\/html instead of JSON \(it starts "<!doctype html>/ },
  { name: 'plain text instead of JSON', argv: ['fetch', 'regions'], target: 'text-plain', exit: 3, says: /text\/plain instead of JSON/ },
  { name: 'JSON cut short, every time', argv: ['fetch', 'regions'], target: 'invalid-json', exit: 3, says: /was cut short or is not JSON/ },
  { name: 'an envelope without meta', argv: ['fetch', 'regions'], target: 'no-meta', exit: 3, says: /Unexpected answer from .* at meta/ },
  { name: 'a total that changes during the load (stdout)', argv: ['fetch', 'regions', '--per-page', '10'], target: 'changing-total', exit: 3, says: /changed while/ },
  { name: 'a total that changes during the load (a file)', argv: ['fetch', 'regions', '--per-page', '10', '--out', 'regions.json'], target: 'changing-total', exit: 3, says: /changed while/ },
  { name: 'a storm of 429s asking for a long wait', argv: ['fetch', 'regions'], target: '429-storm', exit: 3, says: /answered 429.*asks to wait 600 s/ },
  { name: 'a 429 with a Retry-After that cannot be read', argv: ['fetch', 'regions'], target: '429-garbage-retry-after', exit: 3, says: /answered 429/ },
  { name: 'a storm of 503s', argv: ['fetch', 'regions'], target: '5xx-storm', exit: 3, says: /answered 503: Service Unavailable.*try again later/ },
  { name: 'a service that never answers', argv: ['fetch', 'regions', '--timeout', '0.4'], target: 'hang', exit: 3, says: /did not answer within 400 ms/ },
  { name: 'a redirect loop', argv: ['fetch', 'regions'], target: 'redirect-loop', exit: 3, says: /answered 302.*redirected to .*check BRANDSCAPE_BASE_URL/ },
  { name: 'a service that echoes the token', argv: ['fetch', 'regions'], target: 'echo-token', exit: 3, says: /answered 401: Token Bearer \*\*\* is not valid/ },
  { name: 'nothing listening', argv: ['fetch', 'regions'], target: 'refused', exit: 3, says: /failed: .*ECONNREFUSED/ },
  { name: 'a device that cannot be written (/dev/full)', argv: ['fetch', 'regions', '--format', 'json', '--out', '/dev/full'], exit: 1, says: /Could not write \/dev\/full: the disk is full/ },
  // report
  { name: 'report: no such template', argv: ['report', 'no-such-report'], exit: 2, says: /There is no template named 'no-such-report'/ },
  { name: 'report: an output folder that does not exist', argv: ['report', 'cross-market-brand-health', '--out', 'missing'], exit: 2, says: /The output folder .*missing does not exist/ },
  { name: 'report: an unknown format', argv: ['report', 'cross-market-brand-health', '--out', '.', '--format', 'pdf'], exit: 2, says: /--format takes xlsx, html or both/ },
  { name: 'report: an unknown parameter', argv: ['report', 'cross-market-brand-health', '--out', '.', '-p', 'region=EU'], exit: 2, says: /-p region: unknown parameter/ },
  { name: 'report: a parameter of the wrong type', argv: ['report', 'cross-market-brand-health', '--out', '.', '-p', 'year=soon'], exit: 2, says: /-p year: expected a year/ },
  { name: 'report: -p without =', argv: ['report', 'cross-market-brand-health', '--out', '.', '-p', 'year'], exit: 2, says: /-p takes KEY=VALUE/ },
  { name: 'report: a brand nobody is named', argv: ['report', 'cross-market-brand-health', '--out', '.', '-p', 'brands=Qwxyzzy Motors'], exit: 2, says: /No brand is named 'Qwxyzzy Motors'/ },
  { name: 'report: a brand name that fits several brands', argv: ['report', 'cross-market-brand-health', '--out', '.', '-p', 'brands=Cola'], exit: 2, says: /The brand 'Cola' could be any of \d+ brands/ },
  { name: 'report: the service fails', argv: ['report', 'cross-market-brand-health', '--out', '.'], target: '5xx-storm', exit: 3, says: /answered 503/ },
  { name: 'report: a wrong token', argv: ['report', 'cross-market-brand-health', '--out', '.'], env: { BRANDSCAPE_TOKEN: 'LEAKCHECK-wrong-token-000' }, exit: 3, says: /answered 401/ },
  { name: 'report: a template with a mistake', argv: ['report', 'bad.yaml', '--out', '.'], template: GOOD_TEMPLATE.replace('heatmap', 'pie'), exit: 2, says: /sections\[0\]\.chart: unknown chart 'pie'/ },
  // compare
  { name: 'compare: no brands', argv: ['compare', '--markets', 'GB,DE'], exit: 2, says: /--brands/ },
  { name: 'compare: a brand nobody is named', argv: ['compare', '--brands', 'Qwxyzzy Motors', '--markets', 'GB,DE'], exit: 2, says: /No brand is named 'Qwxyzzy Motors'/ },
  { name: 'compare: a brand name that fits several brands', argv: ['compare', '--brands', 'Cola', '--markets', 'GB,DE'], exit: 2, says: /could be any of/ },
  { name: 'compare: a name that is only part of one brand\'s name', argv: ['compare', '--brands', 'Corvaton', '--markets', 'GB,DE'], exit: 2, says: /No brand is named exactly 'Corvaton'; one brand's name contains it:\n\s+\d+ Corvaton Motors/ },
  { name: 'compare: --by that is neither market nor year', argv: ['compare', '--brands', 'Veros', '--by', 'region'], exit: 2, says: /--by/ },
  { name: 'compare: one market and one year without --by', argv: ['compare', '--brands', 'Veros', '--markets', 'GB', '--years', '2024', '--by', 'market'], exit: 2, says: /market/ },
  { name: 'compare: a metric that does not exist', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--metrics', 'charisma'], exit: 2, says: /charisma/ },
  { name: 'compare: --out with an unknown extension', argv: ['compare', '--brands', 'Veros', '--markets', 'GB,DE', '--out', 'x.doc'], exit: 2, says: /\.doc/ },
  { name: 'compare: a market code that does not exist', argv: ['compare', '--brands', 'Veros', '--markets', 'UK,DE'], exit: 2, says: /UK/ },
  { name: 'compare: a web page instead of the service', argv: ['compare', '--brands', '12', '--markets', 'GB,DE'], target: 'html', exit: 3, says: /text\/html instead of JSON/ },
  // health
  { name: 'health: the service is down', argv: ['health'], target: '5xx-storm', exit: 3, says: /down/ },
  { name: 'health: --timeout that is not a number', argv: ['health', '--timeout', 'x'], exit: 2, says: /--timeout takes seconds/ },
  // emulator
  { name: 'emulator: a port out of range', argv: ['emulator', '--port', '99999'], target: 'none', exit: 2, says: /--port expects an integer from 0 to 65535, got '99999'/ },
  { name: 'emulator: a fault rate over 1', argv: ['emulator', '--fault-rate', '2'], target: 'none', exit: 2, says: /--fault-rate expects a number from 0 to 1/ },
  { name: 'emulator: latency that is not a number', argv: ['emulator', '--latency', 'slow'], target: 'none', exit: 2, says: /--latency expects a number/ },
  // the command line itself
  { name: 'an unknown command', argv: ['fetsh'], exit: 2, says: /unknown command 'fetsh'/ },
  // templates
  { name: 'templates: a chart that does not exist', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('heatmap', 'pie'), exit: 2, says: /sections\[0\]\.chart: unknown chart 'pie'; choose one of heatmap, bars, none/ },
  { name: 'templates: a section kind that does not exist', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('cross-market', 'pie-chart'), exit: 2, says: /sections\[0\]\.kind: unknown section kind 'pie-chart'/ },
  { name: 'templates: a market code of three letters', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('[GB]', '[GBR]'), exit: 2, says: /data\.markets\[0\]: 'GBR' is not a market code/ },
  { name: 'templates: a reference to no parameter', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('[GB]', '$markets'), exit: 2, says: /data\.markets: unknown parameter '\$markets'/ },
  { name: 'templates: no title', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('title: T\n', ''), exit: 2, says: /title: expected a title/ },
  { name: 'templates: YAML that does not parse', argv: ['templates', 'validate', 'bad.yaml'], template: 'title: [\n', exit: 2, says: /not valid YAML/ },
  { name: 'templates: an unknown key in a section', argv: ['templates', 'validate', 'bad.yaml'], template: GOOD_TEMPLATE.replace('chart: heatmap', 'chart: heatmap\n    colour: red'), exit: 2, says: /sections\[0\]: unknown key 'colour'/ },
];

describe('the command line', () => {
  it.each(CLI_CASES)('$name: exit $exit, a clear message, nothing written, clobbered or leaked', async (c) => {
    const r = await runCli(c);
    expect(r.code, r.stderr).toBe(c.exit);
    // Errors go to stderr; only health reports its finding on stdout.
    expect(c.argv[0] === 'health' ? r.stdout + r.stderr : r.stderr).toMatch(c.says);
    expect(r.stderr).not.toMatch(/\n\s+at |node:internal|\.partial|ENOENT|EISDIR/);
    expect(r.files).toEqual(['keep.json']);
    expect(r.kept).toBe('previous');
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('the emulator', () => {
  const post = async (path: string, body: string) => {
    const res = await fetch(`${emulator.url}/__emulator/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const text = await res.text();
    seen.push(text);
    return { status: res.status, text };
  };
  it.each([
    ['a billion brands to publish', 'publish', '{"kind":"brands","count":1000000000}', 400, /count/],
    ['a fault of kind 999', 'faults', '{"kind":999}', 400, /A fault rule is/],
    ['a null body', 'publish', 'null', 400, /publish takes/],
    ['an ill-typed study id', 'publish', '{"kind":"study","studyId":"latest"}', 400, /studyId/],
    ['a body over 64 KB', 'faults', `[${'{"kind":500},'.repeat(6000)}{"kind":500}]`, 413, /at most/],
  ])('%s: %s answers %i, and the emulator goes on', async (_name, path, body, status, says) => {
    const r = await post(path, body);
    expect(r.status).toBe(status);
    expect(r.text).toMatch(says);
    expect((await fetch(`${emulator.url}/health`)).status).toBe(200);
  });
});

describe('the library', () => {
  const client = () => createClient({ baseUrl: emulator.url, token: TOKEN, env: {} });
  it.each([
    ['page size 0', () => client().brands.page({ perPage: 0 }), 'UsageError', /perPage must be a whole number from 1 to 1000; got 0/],
    ['page size NaN', () => client().brands.page({ perPage: Number.NaN }), 'UsageError', /perPage must be a whole number from 1 to 1000; got NaN/],
    ['page size 2.5', () => client().brands.page({ perPage: 2.5 }), 'UsageError', /perPage must be a whole number from 1 to 1000; got 2\.5/],
    ['page 0', () => client().brands.page({ page: 0 }), 'UsageError', /page must be a whole number 1 or more; got 0/],
    ['a time limit of 0', async () => createClient({ baseUrl: emulator.url, token: TOKEN, timeoutMs: 0 }), 'UsageError', /timeoutMs must be a number from 1 to 600000 ms; got 0/],
    ['a concurrency of 1000', async () => createClient({ baseUrl: emulator.url, token: TOKEN, concurrency: 1000 }), 'UsageError', /concurrency must be a whole number from 1 to 64; got 1000/],
    ['a negative retry count', async () => createClient({ baseUrl: emulator.url, token: TOKEN, retry: { retries: -1 } }), 'UsageError', /retry\.retries must be a whole number from 0 to 10; got -1/],
    ['a load of 0 pages', () => client().brands.all({}, { maxPages: 0 }), 'UsageError', /maxPages must be a whole number 1 or more; got 0/],
    ['a base URL that is not one', async () => createClient({ baseUrl: 'not a url', token: TOKEN }), 'UsageError', /The baseUrl option 'not a url' is not a valid URL/],
    ['a token that is only spaces', () => createClient({ baseUrl: emulator.url, token: '   ', env: {} }).brands.page(), 'AuthenticationError', /answered 401/],
    ['brandscape data without a qualifying filter', () => client().brandscape.all({ filter: { categories: 1 } }), 'UsageError', /needs a qualifying filter combination/],
    ['archetypes without a study', () => client().archetypes({ studies: [], comparison: 'cultural' }), 'UsageError', /at least one study/],
    ['a record id that is not a number', () => client().brands.get(Number.NaN), 'UsageError', /A record id is an integer/],
  ] as [string, () => unknown, string, RegExp][])('%s: a %s naming what to fix', async (_name, call, className, says) => {
    const error = await Promise.resolve()
      .then(() => call())
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error, 'expected an error').toBeInstanceOf(Error);
    expect((error as Error).name).toBe(className);
    expect((error as Error).message).toMatch(says);
    seen.push((error as Error).message);
  });
});
