/**
 * `brandscape mcp`, the toolkit's own MCP server, as an assistant uses it: the built command spawned
 * over stdio with the official SDK's client (the way Claude Desktop or VS Code start it), and over
 * Streamable HTTP with its own token. Against an emulator over real HTTP, configured as a user's
 * service would be (BRANDSCAPE_BASE_URL, BRANDSCAPE_TOKEN).
 *
 * - tools/list: every tool has annotations and an input schema whose parameters are described;
 * - each tool answers; compare's rows equal `compareBrands` for the same arguments, its image is a
 *   PNG; a bad brand name is an `isError` result naming the nearest brands; a report lands in the
 *   configured folder and nowhere else; a result that would exceed the bound is cut, with hasMore;
 * - the service's token appears in no answer; the HTTP server refuses no token, a wrong token and
 *   a foreign Origin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Emulator } from '../../src/emulator/index.js';
import { MAX_ANSWER_CHARS } from '../../src/mcp/tool-result.js';
import { TOOLKIT_MCP_TOOLS } from '../../src/mcp/tool-names.js';
import { compareBrands } from '../../src/compare/compare-brands.js';
import { startEmulator } from '../helpers/client-harness.js';
import { getJson, type ListBody } from '../helpers/http.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
/** A token that would be easy to spot in any answer. */
const SERVICE_TOKEN = 'bsk-service-token-that-must-never-leak-0123456789';

let emulator: Emulator;
let work: string;
let outDir: string;
let stdio: Client;
let stderr = '';
let brands: string[];
let gbStudy: number;

/** The environment a user's assistant starts the server with: the service configured, nothing of the test run's. */
const serverEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '',
  HOME: process.env['HOME'] ?? work,
  BRANDSCAPE_BASE_URL: emulator.url,
  BRANDSCAPE_TOKEN: SERVICE_TOKEN,
  ...extra,
});

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  expect(JSON.stringify(result)).not.toContain(SERVICE_TOKEN);
  return result;
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  emulator = await startEmulator({ tokens: [SERVICE_TOKEN] });
  work = mkdtempSync(join(tmpdir(), 'bsk-mcp-'));
  outDir = join(work, 'reports');
  mkdirSync(outDir);
  // Two brands studied in the latest UK study, by their global names, as a user would type them.
  const study = await getJson<ListBody<{ id: number }>>(emulator, '/studies?filter[country_codes]=GB&filter[released]=true&filter[full_year]=true&sort=-id&per_page=1');
  gbStudy = study.data[0]!.id;
  const rows = await getJson<ListBody<{ is_duplicate: boolean; brand: { name: string } }>>(emulator, `/brandscape-data?filter[studies]=${gbStudy}&filter[audiences]=1&include=brand&fields[brandscape_data]=is_duplicate&per_page=40`);
  brands = [...new Set(rows.data.filter((r) => !r.is_duplicate).map((r) => r.brand.name))].slice(0, 2);

  stdio = new Client({ name: 'a desktop assistant', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--out', outDir], env: serverEnv(), cwd: work, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await stdio.connect(transport);
}, 60_000);

afterAll(async () => {
  await stdio?.close();
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('brandscape mcp over stdio', () => {
  it('says which service answers, and lists its tools with annotations and described input schemas', async () => {
    expect(stdio.getInstructions()).toContain(emulator.url);
    expect(stdio.getInstructions()).toContain(outDir);
    const { tools } = await stdio.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOLKIT_MCP_TOOLS]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.openWorldHint, tool.name).toBe('boolean');
      for (const [name, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) {
        expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
      }
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('compare_brands')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get('build_report')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('list_templates')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('compare_brands')!.inputSchema.required).toEqual(['brands']);
  });

  it('compare_brands: the rows of compareBrands for the same arguments, a Markdown table, and the chart as a PNG', async () => {
    const args = { brands, markets: ['GB', 'DE', 'FR'] };
    const result = await call(stdio, 'compare_brands', args);
    expect(result.isError, textOf(result)).toBeFalsy();
    const inProcess = await compareBrands(createClient({ baseUrl: emulator.url, token: SERVICE_TOKEN, env: {} }), args);
    const structured = result.structuredContent as { rows: unknown[]; hasMore: boolean; title: string; notes: string[] };
    expect(structured.hasMore).toBe(false);
    expect(structured.rows).toEqual(JSON.parse(JSON.stringify(inProcess.records)));
    expect(structured.title).toBe(inProcess.title);
    const [text, image] = result.content;
    expect(text?.type === 'text' && text.text).toContain(`| Brand | Metric | GB | DE | FR | Mean |`);
    expect(image?.type).toBe('image');
    if (image?.type !== 'image') return;
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('compare_brands with focus: the focus brand\'s rows in bold in the Markdown table', async () => {
    const result = await call(stdio, 'compare_brands', { brands, markets: ['GB', 'DE'], metrics: ['esteem'], focus: brands[1], chart: false });
    expect(result.isError, textOf(result)).toBeFalsy();
    const text = textOf(result);
    const lines = text.split('\n').filter((l) => l.startsWith('| '));
    const focusName = brands[1]!;
    expect(lines.filter((l) => l.startsWith(`| **${focusName}** |`)).length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('**') && !l.startsWith(`| **${focusName}** |`))).toEqual([]);
  });

  it('a bad brand name is a tool error naming the nearest brands; a bad argument a tool error too', async () => {
    const typo = `${brands[0]!.slice(0, -1)}`;
    const result = await call(stdio, 'compare_brands', { brands: [`${typo}q`] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/No brand is named .*The nearest names: .*\(\d+\)/);
    expect(textOf(result)).not.toMatch(/\s+at\s+\S+:\d+/); // no stack
    const bad = await call(stdio, 'compare_brands', { brands: [brands[0]], by: 'market', years: [2023, 2024] });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/by market compares markets in one year/);
    expect(textOf(bad)).not.toContain('--');
    const schema = await call(stdio, 'brand_profile', { brand: brands[0], market: 'GB', year: 'last' });
    expect(schema.isError).toBe(true);
    expect(textOf(schema)).toMatch(/year/);
    const market = await call(stdio, 'brand_profile', { brand: brands[0], market: 'UK' });
    expect(textOf(market)).toMatch(/Did you mean GB\?/);
  });

  it('search: brands, markets, years, audiences and metrics, with ids', async () => {
    const found = await ok(stdio, 'search', { kind: 'brands', text: brands[0] });
    expect(found['results']).toEqual(expect.arrayContaining([expect.objectContaining({ name: brands[0], id: expect.any(Number) })]));
    const markets = (await ok(stdio, 'search', { kind: 'markets', limit: 200 }))['results'] as { code: string }[];
    expect(markets.map((m) => m.code)).toContain('GB');
    const years = (await ok(stdio, 'search', { kind: 'years', market: 'GB' }))['results'] as { code: string; years: number[] }[];
    expect(years[0]).toMatchObject({ code: 'GB', years: expect.arrayContaining([expect.any(Number)]) });
    const audiences = (await ok(stdio, 'search', { kind: 'audiences', text: 'all adults' }))['results'];
    expect(audiences).toEqual([expect.objectContaining({ id: 1, name: 'All Adults' })]);
    const metrics = (await ok(stdio, 'search', { kind: 'metrics', text: 'pillars' }))['results'] as { key: string }[];
    expect(metrics.map((m) => m.key)).toEqual(['differentiation', 'relevance', 'esteem', 'knowledge']);
  });

  it('brand_profile, archetypes and a TurboPitch tool answer for a brand in a market', async () => {
    const profile = await ok(stdio, 'brand_profile', { brand: brands[0], market: 'GB' });
    expect(profile).toMatchObject({ market: 'GB', study_id: gbStudy, brand: { name: brands[0] } });
    expect((profile['power_grid'] as { quadrant: string }).quadrant).toMatch(/Leadership|Niche|New|Eroded/);
    const rest = await getJson<ListBody<Record<string, number>>>(emulator, `/brandscape-data?filter[studies]=${gbStudy}&filter[brands]=${(profile['brand'] as { id: number }).id}&filter[audiences]=1&filter[is_duplicate]=false&metric_group_keys=pillars`);
    expect((profile['pillars'] as Record<string, { rank: number }>)['esteem']!.rank).toBe(rest.data[0]!['esteem_rank']);

    const archetypes = await ok(stdio, 'archetypes', { brands: [brands[0]], market: 'GB' });
    const brand = (archetypes['brands'] as { strongest: string[]; archetypes: { score: number }[] }[])[0]!;
    expect(brand.archetypes).toHaveLength(12);
    expect(brand.strongest).toHaveLength(3);
    const pitch = await ok(stdio, 'turbopitch', { tool: 'brand-worth-map', brands, market: 'GB' });
    expect((pitch['data'] as unknown[]).length).toBe(brands.length * 2);
    const missing = await call(stdio, 'turbopitch', { tool: 'swot', brands: [brands[0]], market: 'GB' });
    expect(textOf(missing)).toMatch(/categories or collections/);
  });

  it('templates: listed, shown, and also served as resources', async () => {
    const list = (await ok(stdio, 'list_templates', {}))['templates'] as { name: string }[];
    expect(list.map((t) => t.name)).toContain('cross-market-brand-health');
    const shown = await ok(stdio, 'show_template', { name: 'cross-market-brand-health' });
    expect((shown['parameters'] as { name: string }[]).map((p) => p.name)).toEqual(expect.arrayContaining(['brands', 'markets', 'year']));
    expect((await call(stdio, 'show_template', { name: '../../etc/passwd' })).isError).toBe(true);
    const resources = await stdio.listResources();
    expect(resources.resources.map((r) => r.uri)).toContain('brandscape-template://cross-market-brand-health');
    const read = await stdio.readResource({ uri: 'brandscape-template://cross-market-brand-health' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'application/yaml', text: expect.stringContaining('sections:') });
    const prompts = await stdio.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['brand_across_markets', 'brand_over_years', 'build_a_report']);
    const prompt = await stdio.getPrompt({ name: 'brand_over_years', arguments: { brand: brands[0]!, markets: 'GB' } });
    expect(JSON.stringify(prompt.messages)).toContain('compare_brands');
  });

  it('build_report writes into the configured folder and nowhere else', async () => {
    const before = readdirSync(work).sort();
    const report = await ok(stdio, 'build_report', { template: 'cross-market-brand-health', parameters: { brands, markets: ['GB', 'DE'] }, formats: ['html', 'xlsx'] });
    const files = report['files'] as string[];
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(file.startsWith(`${outDir}/`)).toBe(true);
      expect(existsSync(file)).toBe(true);
    }
    expect(readFileSync(files.find((f) => f.endsWith('.html'))!, 'utf8')).toContain('<svg');
    expect(readdirSync(work).sort()).toEqual(before);
    expect((report['sections'] as { summary: string }[]).length).toBeGreaterThan(1);
    const escape = await call(stdio, 'build_report', { template: '/tmp/evil' });
    expect(escape.isError).toBe(true);
  });

  it('fetch_rows: a bounded page with the total and hasMore, or every row in a file in the folder', async () => {
    const page = await call(stdio, 'fetch_rows', { resource: 'brandscape-data', filter: { studies: gbStudy, audiences: 1 }, limit: 1000 });
    const structured = page.structuredContent as { total: number; returned: number; hasMore: boolean; rows: unknown[]; note: string };
    expect(structured.hasMore).toBe(true);
    expect(structured.returned).toBeLessThan(1000);
    expect(structured.total).toBeGreaterThan(structured.returned);
    expect(structured.note).toMatch(/Narrow with filter/);
    expect(JSON.stringify(page.structuredContent).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    // Well within the 25,000 tokens an assistant accepts, text and structured content together.
    expect(JSON.stringify(page).length / 2.5).toBeLessThan(25_000);

    const file = await ok(stdio, 'fetch_rows', { resource: 'brandscape-data', filter: { studies: gbStudy, audiences: 1 }, metric_group_keys: ['pillars'], file: 'gb.csv' });
    expect(file['file']).toBe(join(outDir, 'gb.csv'));
    const csv = readFileSync(join(outDir, 'gb.csv'), 'utf8').trim().split('\n');
    expect(csv.length - 1).toBe(structured.total);
    expect(csv[0]).toContain('esteem_rank');
    const again = await call(stdio, 'fetch_rows', { resource: 'brands', file: 'gb.csv' });
    expect(textOf(again)).toMatch(/exists .*not replaced/);
    const away = await call(stdio, 'fetch_rows', { resource: 'brands', file: '../away.csv' });
    expect(away.isError).toBe(true);
    expect(existsSync(join(work, 'away.csv'))).toBe(false);
  });

  it('never logs the service token', () => {
    expect(stderr).not.toContain(SERVICE_TOKEN);
    expect(stderr).toContain('serving MCP on stdio');
  });
});

describe('brandscape mcp --http', () => {
  const TOKEN = 'mcp-server-token-0123456789abcdef';
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', '--token-env', 'MY_MCP_TOKEN'], { env: serverEnv({ MY_MCP_TOKEN: TOKEN }), cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = /^(http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(out)?.[1];
        if (line) resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`brandscape mcp --http exited ${code}`)));
    });
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves the tools to a client with its token', async () => {
    const client = new Client({ name: 'an http assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...TOOLKIT_MCP_TOOLS]);
    const compare = await call(client, 'compare_brands', { brands, markets: ['GB', 'DE'], chart: false });
    expect(compare.isError, textOf(compare)).toBeFalsy();
    expect(compare.content.map((c) => c.type)).toEqual(['text']);
    await client.close();
  });

  it('refuses no token, a wrong token and a foreign Origin', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await post({ Authorization: 'Bearer not-the-token-at-all-000' })).status).toBe(401);
    expect((await post({ Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ Authorization: `Bearer ${TOKEN}`, Origin: 'http://localhost:3000' })).status).toBe(200);
  });

  it('refuses to start without its token, or with a short one (exit 2)', async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'mcp', '--http'], { env: serverEnv(env), cwd: work });
        let err = '';
        p.stderr.on('data', (d: Buffer) => (err += d.toString()));
        p.on('exit', (code) => resolve({ code, err }));
      });
    const missing = await run({});
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/BRANDSCAPE_MCP_TOKEN/);
    const short = await run({ BRANDSCAPE_MCP_TOKEN: 'short' });
    expect(short.code).toBe(2);
    expect(short.err).toMatch(/at least 16/);
    expect(short.err).not.toContain(SERVICE_TOKEN);
  });
});
