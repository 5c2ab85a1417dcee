/**
 * `loadCompetitors`: a brand's competitors in some markets and a year: the other brands of its
 * sector (or of the categories it is studied in), studied in most of those markets, the most
 * widely studied first. What a "brand against its competitors" comparison starts from.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import { compareNames } from '../frames/compare-names.js';
import type { FrameMeta, FrameTable } from '../frames/frame-table.js';
import { resolveBrands } from './resolve-brands.js';
import { toTable } from '../frames/to-table.js';
import { latestFullYear } from './latest-full-year.js';
import { loadReleasedStudies } from './released-studies.js';
import { resolveMarkets } from './resolve-names.js';

/** A competitor. */
export interface CompetitorRow {
  brand_id: number;
  /** The global name. */
  brand_name: string;
  sector_id: number | null;
  sector_name: string | null;
  /** Markets (of those asked for) where it is studied in the year. */
  markets: number;
  /** Their codes, e.g. `DE, FR, GB`. */
  codes: string;
  /** Categories it shares with the brand (`by: 'category'`), else every category it is studied in there. */
  categories: string;
}

export interface LoadCompetitorsOptions {
  /** Markets by code, name or id. */
  markets: readonly (number | string)[];
  /** Calendar year (default: the latest full year released in every market, `latestFullYear`). */
  year?: number;
  /** Same sector (default; sectors are stable across markets) or a category the brand is studied in. */
  by?: 'sector' | 'category';
  /** The fewest of the markets a competitor must be studied in (default: most of them, more than half). */
  minMarkets?: number;
  signal?: AbortSignal;
}

type Client = Pick<BrandscapeClient, 'brands' | 'studies' | 'countries'> & Partial<Pick<BrandscapeClient, 'concurrency'>>;

/**
 * A brand's competitors (the brand given by id or name), by how many of the markets they are
 * studied in, then by name. One request per market's full-year study of the year (its brands with
 * their sector and category), plus the brand's look-up.
 *
 * @example
 * const rivals = await loadCompetitors(client, 'Veros', { markets: ['GB', 'DE', 'FR'] });
 * rivals.head(5).values('brand_id'); // the five most widely studied brands of Veros's sector
 */
export async function loadCompetitors(client: Client, brand: number | string, options: LoadCompetitorsOptions): Promise<FrameTable<CompetitorRow, FrameMeta>> {
  const signal = options.signal ? { signal: options.signal } : {};
  const by = options.by ?? 'sector';
  const [target] = await resolveBrands(client, [typeof brand === 'string' ? brand.trim() : brand], signal);
  const markets = [...new Set((await resolveMarkets(client, options.markets, signal)).map((m) => m.code))];
  const year = options.year ?? (await latestFullYear(client, markets, signal));
  const minMarkets = options.minMarkets ?? Math.floor(markets.length / 2) + 1;
  const studies = (await loadReleasedStudies(client, markets, options.signal)).filter((s) => s.year === year && s.quarter === null);
  if (studies.length === 0) throw new UsageError(`No released full-year study of ${markets.join(', ')} in ${year}.`, { hint: "'brandscape years --markets ...' lists the years." });
  const relations = await Promise.all(
    studies.map(async (s) => ({ code: s.code, rows: await client.studies.brands(s.id).all({ include: ['brand', 'category'] }, signal) })),
  );
  // The brand's sector (from any study, else its record) and its categories per market.
  let sector: { id: number; name: string | null } | null = null;
  const ownCategories = new Map<string, Set<number>>();
  for (const { code, rows } of relations) {
    for (const r of rows) {
      if (r.brand?.id !== target!.id) continue;
      sector ??= r.brand.sector ? { id: r.brand.sector.id, name: r.brand.sector.name ?? null } : null;
      if (r.category) ownCategories.set(code, (ownCategories.get(code) ?? new Set()).add(r.category.id));
    }
  }
  if (by === 'sector' && sector === null) {
    const record = await client.brands.get(target!.id, { include: ['sector'] }, signal);
    sector = record.sector ? { id: record.sector.id, name: record.sector.name ?? null } : null;
    if (sector === null) throw new UsageError(`The sector of ${target!.name} is not known.`, { hint: "Use by: 'category' (--by category)." });
  }
  if (by === 'category' && ownCategories.size === 0) {
    throw new UsageError(`${target!.name} is not studied in ${markets.join(', ')} in ${year}, so it has no categories there.`, { hint: "Use by: 'sector', or other markets." });
  }
  const found = new Map<number, { name: string; sector: { id: number; name: string | null } | null; codes: Set<string>; categories: Set<string> }>();
  for (const { code, rows } of relations) {
    for (const r of rows) {
      const b = r.brand;
      if (!b || b.id === target!.id) continue;
      const competes = by === 'sector' ? b.sector?.id === sector!.id : r.category !== null && r.category !== undefined && (ownCategories.get(code)?.has(r.category.id) ?? false);
      if (!competes) continue;
      const entry = found.get(b.id) ?? { name: b.name ?? `Brand ${b.id}`, sector: b.sector ? { id: b.sector.id, name: b.sector.name ?? null } : null, codes: new Set<string>(), categories: new Set<string>() };
      entry.codes.add(code);
      if (r.category?.name) entry.categories.add(r.category.name);
      found.set(b.id, entry);
    }
  }
  const rows = [...found]
    .filter(([, e]) => e.codes.size >= minMarkets)
    .map(([id, e]): CompetitorRow => ({
      brand_id: id,
      brand_name: e.name,
      sector_id: e.sector?.id ?? null,
      sector_name: e.sector?.name ?? null,
      markets: e.codes.size,
      codes: [...e.codes].sort().join(', '),
      categories: [...e.categories].sort(compareNames).join(', '),
    }))
    .sort((a, b) => b.markets - a.markets || compareNames(a.brand_name, b.brand_name) || a.brand_id - b.brand_id);
  return toTable<CompetitorRow>(rows, {
    source: 'loadCompetitors',
    columns: ['brand_id', 'brand_name', 'sector_id', 'sector_name', 'markets', 'codes', 'categories'],
    kinds: { brand_id: 'int', brand_name: 'string', sector_id: 'int', sector_name: 'string', markets: 'int', codes: 'string', categories: 'string' },
  });
}
