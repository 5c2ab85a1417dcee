/**
 * Daily stock prices of listed companies (§11.18), one series per listing (company x exchange),
 * every trading day (Monday to Friday) from the first study year to the data's "today". Closing
 * prices are computed once (a random walk whose yearly drift follows the company's results, so
 * price and brand health move together); the other fields of a row are derived when it is asked for.
 */
import type { StockPrice } from '../../schemas/companies.js';
import { FIRST_YEAR, USD_PER } from './reference-data.js';
import { gauss3, h3, unit } from './rng.js';
import type { StockPriceStore } from './types.js';
import type { CompanyModel } from './world.js';

const DAY = 86_400_000;
const round2 = (v: number) => Math.round(v * 100) / 100;

export function createStockPriceStore(companies: readonly CompanyModel[], seed: number, asOfMs: number): StockPriceStore {
  const days: string[] = [];
  const dayYear: number[] = [];
  for (let t = Date.UTC(FIRST_YEAR, 0, 2); t <= asOfMs; t += DAY) {
    const weekday = new Date(t).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const iso = new Date(t).toISOString().slice(0, 10);
    days.push(iso);
    dayYear.push(Number(iso.slice(0, 4)));
  }
  const listings: { companyId: number; exchangeId: number; currency: string }[] = [];
  for (const company of companies) for (const l of company.listings) listings.push({ companyId: company.id, exchangeId: l.exchangeId, currency: l.currency });
  const n = days.length;
  const closes = new Float64Array(listings.length * n);
  const companyById = new Map(companies.map((c) => [c.id, c]));
  listings.forEach((listing, k) => {
    const company = companyById.get(listing.companyId);
    // Yearly total return: revenue growth and the change of the valuation multiple.
    const yearlyReturn = new Map<number, number>();
    const fin = company?.financials ?? [];
    for (let i = 1; i < fin.length; i++) {
      const prev = fin[i - 1];
      const cur = fin[i];
      if (prev && cur) yearlyReturn.set(cur.fiscalYear, cur.marketCapUsd / prev.marketCapUsd - 1);
    }
    const lastReturn = fin.length > 1 ? (yearlyReturn.get(fin.at(-1)?.fiscalYear ?? 0) ?? 0) : 0;
    let price = (15 + 150 * unit(h3(seed ^ 0x9c1e, listing.companyId, listing.exchangeId))) / (USD_PER[listing.currency] ?? 1);
    for (let d = 0; d < n; d++) {
      const r = yearlyReturn.get(dayYear[d] ?? 0) ?? lastReturn;
      const drift = Math.log(Math.max(0.2, 1 + r)) / 252;
      price *= Math.exp(drift + 0.016 * gauss3(seed ^ 0x57c, k, d));
      closes[k * n + d] = price;
    }
  });
  const asOfYear = new Date(asOfMs).getUTCFullYear() + new Date(asOfMs).getUTCMonth() / 12;
  const count = listings.length * n;
  const listingOf = (index: number) => Math.floor(index / n);
  return {
    count,
    row(index): StockPrice {
      const k = listingOf(index);
      const d = index - k * n;
      const close = closes[index] ?? 0;
      const previous = d > 0 ? (closes[index - 1] ?? close) : close;
      const open = previous * (1 + 0.004 * gauss3(seed ^ 0x0be1, k, d));
      const spread = Math.abs(0.008 * gauss3(seed ^ 0x0be2, k, d)) + 0.002;
      const date = days[d] ?? '';
      const yearsBack = Math.max(0, asOfYear - (Number(date.slice(0, 4)) + Number(date.slice(5, 7)) / 12));
      const company = companyById.get(listings[k]?.companyId ?? 0);
      const stamp = `${date}T21:30:00.000000Z`;
      return {
        id: index + 1,
        date,
        open_price: round2(open),
        close_price: round2(close),
        // Older prices are adjusted down for the dividends paid since.
        adjusted_close_price: round2(close * (1 - 0.018 * yearsBack)),
        high_price: round2(Math.max(open, close) * (1 + spread)),
        low_price: round2(Math.min(open, close) * (1 - spread)),
        trading_volume: Math.round((company?.size ?? 1) * 400_000 * (0.5 + unit(h3(seed ^ 0x701, k, d)))),
        created_at: stamp,
        updated_at: stamp,
      };
    },
    companyOf: (index) => listings[listingOf(index)]?.companyId ?? 0,
    exchangeOf: (index) => listings[listingOf(index)]?.exchangeId ?? 0,
    ranges(companyIds, exchangeIds) {
      const out: [number, number][] = [];
      listings.forEach((l, k) => {
        if (companyIds && !companyIds.has(l.companyId)) return;
        if (exchangeIds && !exchangeIds.has(l.exchangeId)) return;
        out.push([k * n, (k + 1) * n]);
      });
      return out;
    },
  };
}
