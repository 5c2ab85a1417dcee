/**
 * The service's three MCP servers as the emulator serves them (REFERENCE §18), through the official
 * SDK's client over real HTTP on port 0: each server lists the documented tools with the input
 * schemas of the shared catalogue (src/catalogue/mcp-servers.ts); every data tool answers the values
 * the REST API gives for the same study, audience, year or company; results carry structured
 * content and the same JSON as text; bad arguments are tool errors; no key, a wrong key and a
 * foreign Origin are refused before the protocol.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAV_DATA_TOOLS, BC_TOOLS, FUTURES_TOOLS, MCP_SERVERS, type McpServerKey } from '../../src/catalogue/mcp-servers.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';
import { getJson, type ListBody } from '../helpers/http.js';

let emulator: Emulator;
const clients = new Map<McpServerKey, Client>();

async function connect(key: McpServerKey, token = emulator.token): Promise<Client> {
  const client = new Client({ name: 'brandscape-kit tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${emulator.url}${MCP_SERVERS[key].path}`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

type Answer = Record<string, unknown> & { rows: Record<string, unknown>[]; notes: string[]; total_rows: number; truncated: boolean };

/** Calls a tool; checks the text is the structured content's JSON; returns the structured content. */
async function callTool(key: McpServerKey, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await clients.get(key)!.callTool({ name, arguments: args });
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  expect(result.isError, text).toBeFalsy();
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent as Answer;
}

async function toolError(key: McpServerKey, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await clients.get(key)!.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

interface StudyRecord {
  id: number;
  country: { code: string };
  year: { year: string | number };
}

let gb: StudyRecord; // the latest full-year UK study
let brandId: number;
let brandName: string;

beforeAll(async () => {
  emulator = await startEmulator();
  for (const key of Object.keys(MCP_SERVERS) as McpServerKey[]) clients.set(key, await connect(key));
  const studies = await getJson<ListBody<StudyRecord>>(emulator, '/studies?filter[country_codes]=GB&filter[released]=true&filter[full_year]=true&include=country,year&sort=-id&per_page=1');
  gb = studies.data[0]!;
  const rows = await getJson<ListBody<{ brand_id: number; is_duplicate: boolean }>>(emulator, `/brandscape-data?filter[studies]=${gb.id}&filter[audiences]=1&per_page=50&fields[brandscape_data]=brand_id,is_duplicate`);
  brandId = rows.data.find((r) => !r.is_duplicate)!.brand_id;
  brandName = (await getJson<{ data: { name: string } }>(emulator, `/brands/${brandId}`)).data.name;
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await emulator.close();
});

describe('tools/list', () => {
  it.each(Object.keys(MCP_SERVERS) as McpServerKey[])('%s lists its documented tools, each with an input schema whose parameters are described, read-only', async (key) => {
    const { tools } = await clients.get(key)!.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_SERVERS[key].tools].sort());
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(30);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      const properties = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>);
      expect(properties.length, tool.name).toBeGreaterThan(0);
      for (const [name, schema] of properties) expect(schema.description, `${tool.name}.${name}`).toBeTruthy();
    }
  });

  it('takes the BAV parameters the documentation names: brands, countries, years, audiences', async () => {
    const { tools } = await clients.get('bav')!.listTools();
    const pillar = tools.find((t) => t.name === 'get-pillar-data')!;
    expect(Object.keys(pillar.inputSchema.properties ?? {}).sort()).toEqual(['audiences', 'brands', 'countries', 'years']);
    const futures = (await clients.get('futures')!.listTools()).tools[0]!;
    expect(futures.inputSchema.required).toEqual(['ticker']);
  });
});

describe('the BAV server', () => {
  const year = () => Number(gb.year.year);

  it.each(Object.keys(BAV_DATA_TOOLS).filter((t) => BAV_DATA_TOOLS[t as keyof typeof BAV_DATA_TOOLS].source.kind === 'columns'))(
    '%s gives the values /brandscape-data gives for the same study and audience, value for value',
    async (tool) => {
      const source = BAV_DATA_TOOLS[tool as keyof typeof BAV_DATA_TOOLS].source as { metricGroupKeys?: readonly string[]; metricKeys?: readonly string[] };
      // Influence is answered for the Influentials audience by default.
      const audience = tool === 'get-influence-data' ? (await getJson<ListBody<{ id: number; name: string }>>(emulator, '/audiences?per_page=100')).data.find((a) => a.name === 'Influentials')!.id : 1;
      const answer = await callTool('bav', tool, { brands: [brandName], countries: ['GB'], years: [year()] });
      expect(answer.audiences).toEqual([{ id: audience, name: audience === 1 ? 'All Adults' : 'Influentials' }]);
      const metricParam = source.metricGroupKeys ? `metric_group_keys=${source.metricGroupKeys.join(',')}` : `metric_keys=${(source.metricKeys ?? []).join(',')}`;
      const rest = await getJson<ListBody<Record<string, unknown>>>(emulator, `/brandscape-data?filter[studies]=${gb.id}&filter[brands]=${brandId}&filter[audiences]=${audience}&${metricParam}&per_page=100`);
      expect(rest.data.length).toBeGreaterThan(0);
      expect(answer.rows).toHaveLength(rest.data.length);
      rest.data.forEach((row, i) => {
        const got = answer.rows[i]!;
        for (const [column, value] of Object.entries(row)) {
          if (column === 'country_id' || column === 'year_id') continue;
          expect(got[column], `${tool} row ${i} ${column}`).toEqual(value);
        }
      });
      expect(answer.rows[0]).toMatchObject({ country_code: 'GB', year: year(), global_brand_name: brandName });
    },
  );

  it('get-brand-worth-data and get-customer-experience-data give what the brand-worth-map and commitment-funnel tools give', async () => {
    const worth = await callTool('bav', 'get-brand-worth-data', { brands: [brandId], countries: ['GB'], years: [year()] });
    const map = await getJson<{ data: { data: Record<string, unknown>[] } }>(emulator, `/tools/brand-worth-map?brands=${brandId}&studies=${gb.id}&audiences=1`);
    expect(worth.rows.map(({ country_code: _c, year: _y, ...rest }) => rest)).toEqual(map.data.data);
    const funnel = await callTool('bav', 'get-customer-experience-data', { brands: [brandId], countries: ['GB'], years: [year()] });
    const rest = await getJson<{ data: Record<string, unknown>[] }>(emulator, `/tools/commitment-funnel?brands=${brandId}&studies=${gb.id}&audiences=1`);
    expect(funnel.rows.map(({ country_code: _c, year: _y, ...entry }) => entry)).toEqual(rest.data);
  });

  it('fills what is missing: the latest year in each market where the brand is studied, All Adults', async () => {
    const answer = await callTool('bav', 'get-pillar-data', { brands: [brandId] });
    const studies = answer['studies'] as { country_code: string; year: number }[];
    expect(studies.length).toBeGreaterThan(0);
    const latest = await getJson<ListBody<StudyRecord>>(emulator, `/studies?filter[brands]=${brandId}&filter[released]=true&filter[full_year]=true&include=country,year&per_page=200`).catch(() => undefined);
    if (latest) {
      for (const s of studies) {
        const years = latest.data.filter((x) => x.country.code === s.country_code).map((x) => Number(x.year.year));
        if (years.length > 0) expect(s.year).toBe(Math.max(...years));
      }
    }
    expect(answer.audiences).toEqual([{ id: 1, name: 'All Adults' }]);
  });

  it('bounds an answer and says so: every brand of every market in a year is cut at 100 rows', async () => {
    const answer = await callTool('bav', 'get-pillar-data', { years: [year()] });
    expect(answer.rows).toHaveLength(100);
    expect(answer.truncated).toBe(true);
    expect(answer.total_rows).toBeGreaterThan(100);
    expect(answer.notes.join(' ')).toMatch(/first 100.*narrow/);
  });

  it('refuses a call with none of brands, countries or years, an unknown brand and a bad argument, as tool errors', async () => {
    expect(await toolError('bav', 'get-pillar-data', {})).toMatch(/at least one of brands, countries or years/);
    expect(await toolError('bav', 'get-pillar-data', { brands: [`${brandName.slice(0, -1)}`] })).toMatch(/No brand is named .*nearest names/);
    expect(await toolError('bav', 'get-pillar-data', { countries: ['XX'] })).toMatch(/'XX' is not a market.*GB/);
    expect(await toolError('bav', 'get-pillar-data', { brands: [brandId], years: [1995] })).toMatch(/Years with data: \d{4}/);
    expect(await toolError('bav', 'get-pillar-data', { brands: 'Veros' })).toMatch(/brands/);
  });

  it('answers the metadata tools with the records of the REST resources', async () => {
    const brands = await callTool('bav', 'get-brands', { search: brandName, limit: 5 });
    const found = (brands['brands'] as Record<string, unknown>[]).find((b) => b['id'] === brandId)!;
    const { markets, ...record } = found;
    expect(record).toEqual((await getJson<{ data: unknown }>(emulator, `/brands/${brandId}`)).data);
    expect(markets).toContain('GB');

    const markets_ = (await callTool('bav', 'get-markets', {}))['markets'] as (Record<string, unknown> & { years: number[] })[];
    const gbMarket = markets_.find((m) => m['code'] === 'GB')!;
    const { years, ...country } = gbMarket;
    expect(country).toEqual((await getJson<{ data: unknown }>(emulator, `/countries/${String(gbMarket['id'])}`)).data);
    expect(years).toContain(year());

    const sectors = (await callTool('bav', 'get-sectors', {}))['sectors'];
    expect(sectors).toEqual((await getJson<ListBody>(emulator, '/sectors?per_page=1000')).data);

    const audiences = (await callTool('bav', 'get-audiences', {}))['audiences'] as { id: number }[];
    const restAudiences = (await getJson<ListBody<{ id: number }>>(emulator, '/audiences?per_page=1000')).data;
    for (const a of audiences) expect(a).toEqual(restAudiences.find((r) => r.id === a.id));

    const categories = (await callTool('bav', 'get-categories', { limit: 3 }))['categories'] as (Record<string, unknown> & { sector_id: number; sector_name: string })[];
    expect(categories).toHaveLength(3);
    for (const { sector_id: _s, sector_name: _n, ...c } of categories) expect(c).toEqual((await getJson<{ data: unknown }>(emulator, `/categories/${String(c['id'])}`)).data);
  });
});

describe('the Best Countries server', () => {
  it.each(Object.keys(BC_TOOLS).filter((t) => BC_TOOLS[t as keyof typeof BC_TOOLS].source.level === 'country'))(
    '%s gives the values /best-countries/countries/{year}/... gives',
    async (tool) => {
      const source = BC_TOOLS[tool as keyof typeof BC_TOOLS].source;
      const answer = await callTool('best-countries', tool, { countries: ['DE', 'JP'], score_types: ['scores', 'ranks'] });
      expect(answer.rows.length).toBe(4);
      for (const row of answer.rows) {
        const rest = await getJson<{ data: Record<string, unknown>[] }>(emulator, `/best-countries/countries/${String(row['year'])}/${source.dataType}/${String(row['score_type'])}?country_codes=${String(row['country_code'])}`);
        const served = rest.data[0]!;
        const { year: _y, score_type: _t, ...values } = row;
        expect(Object.keys(values).length).toBeGreaterThan(5);
        for (const [key, value] of Object.entries(values)) expect(value, `${tool} ${key}`).toEqual(served[key]);
      }
    },
  );

  it('answers percent for consideration attributes only, and a city from its country', async () => {
    const business = await callTool('best-countries', 'get-country-doing-business-data', { countries: ['DE'], score_types: ['percent'] });
    expect(Object.keys(business.rows[0]!)).toContain('would_consider_doing_business');
    expect(Object.keys(business.rows[0]!)).not.toContain('entrepreneurial');
    const factors = await callTool('best-countries', 'get-country-factors-data', { countries: ['DE'], score_types: ['percent'] });
    expect(factors.rows).toEqual([]);
    expect(factors.notes.join(' ')).toMatch(/percent exists only for consideration/);
    const city = await callTool('best-countries', 'get-city-perceptions-data', { cities: ['Berlin'] });
    expect(city.rows[0]).toMatchObject({ city: 'Berlin', country_code: 'DE', score_type: 'scores' });
    const again = await callTool('best-countries', 'get-city-perceptions-data', { cities: ['Berlin'] });
    expect(again).toEqual(city);
    const capitals = await callTool('best-countries', 'get-city-visit-consideration-data', { countries: ['FR'] });
    expect(capitals.rows.map((r) => r['city'])).toEqual(['Paris']);
  });

  it('refuses unknown years, audiences other than All Adults and a call with nothing to narrow it', async () => {
    expect(await toolError('best-countries', 'get-country-factors-data', { years: [1999] })).toMatch(/Years with data/);
    expect(await toolError('best-countries', 'get-country-factors-data', { countries: ['DE'], audiences: ['Gen Z'] })).toMatch(/All Adults/);
    expect(await toolError('best-countries', 'get-country-factors-data', {})).toMatch(/at least one of countries or years/);
  });
});

describe('the Financial Data server', () => {
  interface CompanyRecord {
    id: number;
    financials: { fiscal_year: number; ticker: string; revenue: number; operating_income: number; net_income: number }[];
  }
  let company: CompanyRecord;
  let ticker: string;

  beforeAll(async () => {
    const companies = await getJson<ListBody<CompanyRecord>>(emulator, '/companies?include=financials&per_page=100');
    company = companies.data.find((c) => c.financials.length > 0)!;
    ticker = company.financials.at(-1)!.ticker;
  });

  it('gives the annual results /companies?include=financials gives, and the latest close of /stock-prices', async () => {
    const income = await callTool('futures', 'get-income-statement', { ticker });
    expect(income['years']).toEqual(company.financials.slice(-5).map((f) => ({ fiscal_year: f.fiscal_year, period_end: expect.any(String), revenue: f.revenue, operating_income: f.operating_income, net_income: f.net_income })));
    const overview = await callTool('futures', 'get-financial-overview', { ticker: ticker.toLowerCase() });
    expect(overview['latest_fiscal_year']).toEqual(company.financials.at(-1));
    const exchanges = await getJson<ListBody<{ id: number; suffix: string }>>(emulator, '/stock-exchanges?per_page=100');
    const exchange = exchanges.data.find((e) => ticker.endsWith(`.${e.suffix}`));
    if (exchange) {
      const prices = await getJson<ListBody<{ close_price: number; date: string }>>(emulator, `/stock-prices?filter[companies]=${company.id}&filter[stock_exchanges]=${exchange.id}&sort=-date&per_page=1`);
      expect(overview['latest_close']).toBe(prices.data[0]!.close_price);
    }
  });

  it.each(Object.keys(FUTURES_TOOLS))('%s answers a ticker, the same way twice', async (tool) => {
    const first = await callTool('futures', tool, { ticker });
    expect(first).toMatchObject({ ticker, company_id: company.id });
    expect(await callTool('futures', tool, { ticker })).toEqual(first);
  });

  it('refuses a ticker without its exchange suffix, and an unknown one naming tickers like it', async () => {
    expect(await toolError('futures', 'get-earnings', { ticker: 'AAPL' })).toMatch(/exchange suffix/);
    expect(await toolError('futures', 'get-earnings', { ticker: `${ticker.split('.')[0]!}.ZZ` })).toMatch(new RegExp(`Tickers like it: .*${ticker.replace('.', '\\.')}`));
  });
});

describe('authorization and origin', () => {
  const initialize = (headers: Record<string, string>, path: string = MCP_SERVERS.bav.path) =>
    fetch(`${emulator.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });

  it.each(Object.values(MCP_SERVERS).map((s) => s.path))('%s refuses no key and a wrong key with a Bearer challenge naming the resource metadata', async (path) => {
    const none = await initialize({}, path);
    expect(none.status).toBe(401);
    const challenge = none.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${emulator.url}/.well-known/oauth-protected-resource${path}"`);
    const wrong = await initialize({ Authorization: 'Bearer not-a-key' }, path);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    expect(await wrong.text()).not.toContain('not-a-key');
  });

  it('refuses a foreign Origin with 403, even with a key; accepts its own', async () => {
    expect((await initialize({ Authorization: `Bearer ${emulator.token}`, Origin: 'https://evil.example' })).status).toBe(403);
    expect((await initialize({ Authorization: `Bearer ${emulator.token}`, Origin: emulator.url })).status).toBe(200);
  });

  it('serves the protected-resource metadata (RFC 9728), marked as the emulator\'s choice, pointing at no real server', async () => {
    const res = await fetch(`${emulator.url}/.well-known/oauth-protected-resource/v1/futures`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc['resource']).toBe(`${emulator.url}/v1/futures`);
    expect(doc['authorization_servers']).toEqual([expect.stringMatching(/\.invalid$/)]);
    expect(doc['emulator_choice']).toMatch(/emulator's choice/);
  });

  it('lists the servers in the emulator\'s own index, as the catalogue has them', async () => {
    const index = (await (await fetch(`${emulator.url}/__emulator`)).json()) as { mcp_servers: string[] };
    expect(index.mcp_servers).toEqual(Object.values(MCP_SERVERS).map((s) => s.path));
  });

  it('lets the SDK client in with a key only, and records MCP requests without the key', async () => {
    await expect(connect('bav', 'wrong-key')).rejects.toThrow();
    const recorded = emulator.requests.filter((r) => r.path === '/v1/bav');
    expect(recorded.some((r) => r.status === 200 && r.user !== undefined)).toBe(true);
    expect(JSON.stringify(emulator.requests)).not.toContain(emulator.token);
  });
});
