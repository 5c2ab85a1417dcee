import * as z from 'zod';
import { id, int, num, opt, str, timestamps } from './common.js';

export const companySlim = z.object({ id: id(), name: str() });

export const company = z.object({
  id: id(),
  name: str(),
  description: str(),
  currency: str(),
  isin: str(),
  ipo_date: str(),
  fiscal_year_end: str(),
  street_address: str(),
  state: str(),
  postal_code: str(),
  city: str(),
  website_url: str(),
  // Element shape undocumented (§11.11).
  officers: opt(z.array(z.unknown())),
  ...timestamps,
});
export type Company = z.infer<typeof company>;

/**
 * One fiscal year of a company's results. The service documents the `latest_financials` include
 * without a shape; this is the shape the emulator serves (and the `financials` include, an emulator
 * extension, serves one per fiscal year).
 */
export const annualResult = z.object({
  fiscal_year: z.number().int(),
  period_end: str(),
  currency: str(),
  ticker: str(),
  revenue: num(),
  operating_income: num(),
  net_income: num(),
  market_cap: num(),
  employees: int(),
});
export type AnnualResult = z.infer<typeof annualResult>;

export const stockExchangeSlim = z.object({
  id: id(),
  name: str(),
  code: str(),
  suffix: str(),
  operating_mic: str(),
});

export const stockExchange = z.object({
  id: id(),
  name: str(),
  code: str(),
  suffix: str(),
  operating_mic: str(),
  currency: str(),
  ...timestamps,
});
export type StockExchange = z.infer<typeof stockExchange>;

export const stockPriceSlim = z.object({ id: id(), date: str() });

export const stockPrice = z.object({
  id: id(),
  date: str(),
  open_price: num(),
  close_price: num(),
  adjusted_close_price: num(),
  high_price: num(),
  low_price: num(),
  trading_volume: int(),
  ...timestamps,
});
export type StockPrice = z.infer<typeof stockPrice>;
