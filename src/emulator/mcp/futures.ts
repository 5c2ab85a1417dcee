/**
 * The Financial Data (BAV Futures) MCP server's tools, answered from the emulator's companies: a
 * ticker with its exchange suffix names a listing. The income statement and the overview are the
 * companies' annual results as `/companies?include=financials` serves them, the share price the
 * listing's last `/stock-prices` row; balance sheet, cash flow, earnings per share and analyst
 * ratings are not in the REST API, so the emulator derives them from those results (deterministic
 * per seed, ticker and year; §23.3 says how).
 */
import { type FuturesInput, type FuturesToolName } from '../../catalogue/mcp-servers.js';
import type { AnnualResult } from '../../schemas/companies.js';
import type { CompanyEntity } from '../dataset/types.js';
import type { Ctx } from '../http/bindings.js';
import { hashUnit } from '../http/hash.js';
import { nearestNames, ToolInputError, type Json } from './lookup.js';

interface ListingInfo {
  company: CompanyEntity;
  ticker: string;
  exchangeId: number;
}

function findListing(ctx: Ctx, ticker: string): ListingInfo {
  for (const company of ctx.ds.companies) {
    const listing = company.listings.find((l) => l.ticker.toUpperCase() === ticker);
    if (listing) return { company, ticker: listing.ticker, exchangeId: listing.exchangeId };
  }
  const tickers = ctx.ds.companies.flatMap((c) => c.listings.map((l) => l.ticker));
  const symbol = ticker.split('.')[0] ?? ticker;
  const sameSymbol = tickers.filter((t) => t.startsWith(`${symbol}.`));
  const near = sameSymbol.length > 0 ? sameSymbol : nearestNames(symbol, tickers);
  throw new ToolInputError(`No listed company has the ticker ${ticker}.${near.length > 0 ? ` Tickers like it: ${near.join(', ')}.` : ''} Tickers carry the exchange suffix (e.g. ${tickers[0] ?? 'AAPL.US'}).`);
}

/** A number in [lo, hi) fixed by the seed, the ticker's company, the year and what it is for. */
const between = (ctx: Ctx, company: number, year: number, salt: number, lo: number, hi: number) => lo + (hi - lo) * hashUnit(ctx.ds.seed, company, year, salt);

const round = (v: number, digits = 0) => Math.round(v * 10 ** digits) / 10 ** digits;

function yearsOf(listing: ListingInfo, asked: readonly number[] | undefined): AnnualResult[] {
  const results = listing.company.financials;
  if (results.length === 0) throw new ToolInputError(`${listing.company.record.name} (${listing.ticker}) reports no annual results.`);
  if (asked === undefined) return results.slice(-5);
  const kept = results.filter((r) => asked.includes(r.fiscal_year));
  if (kept.length === 0) throw new ToolInputError(`${listing.ticker} has no results for ${asked.join(', ')}. Fiscal years: ${results.map((r) => r.fiscal_year).join(', ')}.`);
  return kept;
}

/** The listing's latest close, from the same series `/stock-prices` serves. */
function latestPrice(ctx: Ctx, listing: ListingInfo): { date: string; close: number } | undefined {
  const ranges = ctx.ds.stockPrices.ranges(new Set([listing.company.record.id]), new Set([listing.exchangeId]));
  const last = ranges.at(-1);
  if (!last || last[1] <= last[0]) return undefined;
  const row = ctx.ds.stockPrices.row(last[1] - 1);
  return row.close_price === null || row.close_price === undefined ? undefined : { date: row.date ?? '', close: row.close_price };
}

/** Shares outstanding: market capitalisation over the latest close (a fixed number per company). */
function shares(ctx: Ctx, listing: ListingInfo): number | null {
  const price = latestPrice(ctx, listing)?.close;
  const cap = listing.company.financials.at(-1)?.market_cap;
  return price && cap ? Math.round(cap / price) : null;
}

export function futuresData(ctx: Ctx, tool: FuturesToolName, input: FuturesInput): Record<string, Json> {
  const listing = findListing(ctx, input.ticker);
  const c = listing.company;
  const id = c.record.id;
  const head = { tool, ticker: listing.ticker, company_id: id, company: c.record.name ?? '', currency: c.record.currency ?? null, exchange: ctx.idx.stockExchanges.get(listing.exchangeId)?.record.name ?? null };
  const n = (v: number | null | undefined) => (v === null || v === undefined ? null : v);
  switch (tool) {
    case 'get-financial-overview': {
      const latest = c.financials.at(-1);
      const price = latestPrice(ctx, listing);
      return { ...head, fiscal_year_end: c.record.fiscal_year_end ?? null, latest_fiscal_year: latest ? { ...latest } : null, latest_close: price?.close ?? null, latest_close_date: price?.date ?? null };
    }
    case 'get-income-statement':
      return { ...head, years: yearsOf(listing, input.years).map((r) => ({ fiscal_year: r.fiscal_year, period_end: r.period_end ?? null, revenue: n(r.revenue), operating_income: n(r.operating_income), net_income: n(r.net_income) })) };
    case 'get-balance-sheet':
      return {
        ...head,
        years: yearsOf(listing, input.years).map((r) => {
          const revenue = r.revenue ?? 0;
          const assets = round(revenue * between(ctx, id, r.fiscal_year, 1, 0.9, 1.8));
          const liabilities = round(assets * between(ctx, id, r.fiscal_year, 2, 0.35, 0.7));
          return { fiscal_year: r.fiscal_year, total_assets: assets, total_liabilities: liabilities, total_equity: assets - liabilities, cash: round(assets * between(ctx, id, r.fiscal_year, 3, 0.05, 0.2)) };
        }),
      };
    case 'get-cash-flow':
      return {
        ...head,
        years: yearsOf(listing, input.years).map((r) => {
          const operating = round((r.net_income ?? 0) + (r.revenue ?? 0) * between(ctx, id, r.fiscal_year, 4, 0.03, 0.08));
          const investing = -round((r.revenue ?? 0) * between(ctx, id, r.fiscal_year, 5, 0.04, 0.1));
          return { fiscal_year: r.fiscal_year, operating_cash_flow: operating, investing_cash_flow: investing, financing_cash_flow: -round(Math.max(0, operating + investing) * between(ctx, id, r.fiscal_year, 6, 0.2, 0.8)), free_cash_flow: operating + investing };
        }),
      };
    case 'get-earnings': {
      const count = shares(ctx, listing);
      return { ...head, shares_outstanding: count, years: yearsOf(listing, input.years).map((r) => ({ fiscal_year: r.fiscal_year, net_income: n(r.net_income), earnings_per_share: count && r.net_income !== null && r.net_income !== undefined ? round(r.net_income / count, 2) : null })) };
    }
    case 'get-analyst-ratings': {
      const year = c.financials.at(-1)?.fiscal_year ?? 0;
      const growth = (() => {
        const [a, b] = c.financials.slice(-2);
        return a?.revenue && b?.revenue ? b.revenue / a.revenue - 1 : 0;
      })();
      // Growing companies draw more buy ratings: a plausible consensus, not a random one.
      const analysts = 8 + Math.floor(between(ctx, id, year, 7, 0, 20));
      const buyShare = Math.min(0.85, Math.max(0.1, 0.45 + growth * 2 + between(ctx, id, year, 8, -0.15, 0.15)));
      const buy = Math.round(analysts * buyShare);
      const sell = Math.round((analysts - buy) * between(ctx, id, year, 9, 0.1, 0.4));
      const price = latestPrice(ctx, listing)?.close;
      const consensus = buy / analysts >= 0.6 ? 'buy' : sell / analysts >= 0.3 ? 'sell' : 'hold';
      return { ...head, analysts, buy, hold: analysts - buy - sell, sell, consensus, mean_price_target: price ? round(price * (1 + growth + between(ctx, id, year, 10, -0.05, 0.15)), 2) : null, latest_close: price ?? null };
    }
  }
}

