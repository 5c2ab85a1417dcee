/**
 * `search`: what exists, with ids: brands (by name, in a market), markets, the years studied in
 * each market, audiences and metrics (groups, keys, score types). The first call of most
 * conversations: the other tools take these names, codes and ids.
 */
import * as z from 'zod';
import { foldName } from '../../frames/fold-name.js';
import type { McpContext } from '../context.js';
import { MAX_ANSWER_CHARS, boundRows, jsonAnswer, type ToolAnswer } from '../tool-result.js';

export const SEARCH_KINDS = ['brands', 'markets', 'years', 'audiences', 'metrics'] as const;

export const searchInput = z.object({
  kind: z.enum(SEARCH_KINDS).describe('What to look for: brands (by name), markets (ISO codes and names), years (studied in each market), audiences, or metrics (groups, keys and score types).'),
  text: z.string().trim().min(1).max(100).optional().describe('Words to look for in names, case and accents ignored, e.g. "veros" or "gen z". Needed for brands unless a market is given.'),
  market: z.string().trim().min(2).max(3).optional().describe('An ISO alpha-2 market code: brands studied there, or that market\'s years.'),
  limit: z.number().int().min(1).max(200).optional().describe('At most this many results (default 25).'),
});

export const searchTool = {
  name: 'search',
  title: 'Find brands, markets, years, audiences, metrics',
  description:
    'Finds what exists in the Brand Data Service, with ids: brands by name (optionally in one market), markets (ISO codes), the years studied per market, audiences (1 = All Adults) and metrics (keys such as esteem, groups such as pillars, score types). Use it first when a name, market, year or metric is not certain; the other tools take these names, codes and ids. Narrow with text, market or limit when the answer says hasMore.',
  input: searchInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
} as const;

const matches = (name: string | null | undefined, text: string | undefined) => text === undefined || foldName(name ?? '').includes(foldName(text));

export async function runSearch(context: McpContext, args: z.infer<typeof searchInput>, signal: AbortSignal): Promise<ToolAnswer> {
  const { client } = context;
  const limit = args.limit ?? 25;
  const options = { signal };
  const market = args.market?.toUpperCase();
  let items: Record<string, unknown>[];
  let total: number | undefined;
  switch (args.kind) {
    case 'brands': {
      if (args.text === undefined && market === undefined) {
        return jsonAnswer({ kind: args.kind, results: [], total: 0, hasMore: false, note: 'Give text (part of a brand name) or a market to search brands.' });
      }
      const page = await client.brands.page(
        { ...(args.text === undefined ? {} : { search: args.text }), ...(market === undefined ? {} : { filter: { country_codes: market } }), perPage: limit, fields: ['id', 'name'] },
        options,
      );
      items = page.records.map((b) => ({ id: b.id, name: b.name }));
      total = page.total;
      break;
    }
    case 'markets': {
      const countries = await client.countries.all({ filter: { with_studies: true }, fields: ['id', 'code', 'name'] }, options);
      items = countries.filter((c) => matches(c.name, args.text) || matches(c.code, args.text)).map((c) => ({ id: c.id, code: c.code, name: c.name }));
      break;
    }
    case 'years': {
      const studies = await client.studies.all({ filter: { released: true, ...(market === undefined ? {} : { country_codes: market }) }, include: ['country', 'year'] }, options);
      const byMarket = new Map<string, { code: string; market: string; years: Set<number>; waves: Set<string> }>();
      for (const s of studies) {
        const code = s.country?.code ?? '';
        const entry = byMarket.get(code) ?? { code, market: s.country?.name ?? code, years: new Set<number>(), waves: new Set<string>() };
        byMarket.set(code, entry);
        const year = Number(s.year?.year);
        if (/\bQ[1-4]\b/.test(`${s.name ?? ''} ${s.period?.name ?? ''}`)) entry.waves.add(`${year} ${/\bQ[1-4]\b/.exec(`${s.name ?? ''} ${s.period?.name ?? ''}`)?.[0] ?? ''}`);
        else entry.years.add(year);
      }
      items = [...byMarket.values()]
        .filter((m) => matches(m.market, args.text) || matches(m.code, args.text))
        .sort((a, b) => a.code.localeCompare(b.code))
        .map((m) => ({ code: m.code, market: m.market, years: [...m.years].sort((a, b) => a - b), ...(m.waves.size > 0 ? { waves: [...m.waves].sort() } : {}) }));
      break;
    }
    case 'audiences': {
      const audiences = await client.audiences.all({ fields: ['id', 'name', 'description'] }, options);
      items = audiences.filter((a) => matches(a.name, args.text) || matches(a.description, args.text)).map((a) => ({ id: a.id, name: a.name, description: a.description }));
      break;
    }
    case 'metrics': {
      const catalogue = await client.metricCatalogue(options);
      const { byMetric, byGroup } = catalogue.columns;
      const groupOf = (key: string) => [...byGroup].find(([, keys]) => keys.includes(key))?.[0] ?? null;
      items = [...byMetric]
        .map(([key, columns]) => {
          const metric = catalogue.metrics.find((m) => (m.brandscape_data_columns ?? []).some((c) => columns.includes(c)));
          return { key, name: metric?.name ?? key, group: groupOf(key), columns: [...columns] };
        })
        .filter((m) => matches(m.key, args.text) || matches(m.name, args.text) || matches(m.group, args.text));
      break;
    }
  }
  const bounded = boundRows(items, MAX_ANSWER_CHARS - 500, limit, total ?? items.length);
  return jsonAnswer({
    kind: args.kind,
    results: bounded.rows,
    total: bounded.total,
    hasMore: bounded.hasMore,
    ...(bounded.hasMore ? { note: `${bounded.total} match; ${bounded.rows.length} are here. Narrow with text${args.kind === 'brands' || args.kind === 'years' ? ' or market' : ''}, or raise limit (at most 200).` } : {}),
  });
}
