/**
 * `companyRollup`: a company's brands per market and year, aggregated and joined with the
 * company's annual results and stock prices by year.
 */
import { DataError } from '../errors.js';
import type { AnnualResult } from '../schemas/companies.js';
import type { BrandscapeInput, BrandscapeSelection, MissingData } from './brandscape-input.js';
import { dedupeInfo, keepMask, type DedupeInfo } from './dedupe.js';
import { entityIds, entityNames } from './entity-of.js';
import type { FrameMeta, FrameTable } from './frame-table.js';
import { toMissingData } from './missing-cells.js';
import { brandGroups, cellValues, groupValues, periodRows } from './period-cells.js';
import { prepareBrandscape, marketFields, metricFields } from './prepare-brandscape.js';
import { resolveColumns, scoreTypeNotes } from './resolve-columns.js';
import { MARKET_KINDS, METRIC_KINDS, resultTable, type ResultSchema } from './result-table.js';
import { selectRows, withKnownEntity } from './select-rows.js';
import { compareText, orNull } from './stats.js';
import type { CompanyRollupRow, CompanyWeighting } from './types.js';

/**
 * A company as `client.companies.all({ include: ['financials'] })` returns it (`financials` is the
 * emulator's every-year extension; the service documents `latest_financials`, which is read too).
 */
export interface CompanyRecord {
  readonly id: number;
  readonly name: string | null;
  readonly currency?: string | null;
  readonly financials?: readonly AnnualResult[] | null;
  readonly latest_financials?: AnnualResult | null;
}

/**
 * A daily price with its company: `client.stockPrices.all({ filter: { companies }, include:
 * ['company', 'stock_exchange'] })`. The exchange tells listings apart when a company has several.
 */
export interface StockPriceRecord {
  readonly date: string | null;
  readonly close_price: number | null;
  readonly company?: { readonly id: number } | null;
  readonly stock_exchange?: { readonly id: number; readonly suffix?: string | null; readonly code?: string | null } | null;
}

export interface CompanyInput extends BrandscapeInput {
  /** The companies, with their annual results. */
  readonly companies: readonly CompanyRecord[];
  /** Daily stock prices of the companies (optional: price columns are null without them). */
  readonly stockPrices?: readonly StockPriceRecord[];
}

export interface CompanyRollupOptions extends BrandscapeSelection {
  /** Years to roll up (default: every year in the rows); each must have rows. */
  years?: readonly number[];
}

export interface CompanyRollupMeta extends FrameMeta {
  readonly source: 'companyRollup';
  readonly audience: number;
  readonly years: readonly number[];
  readonly columns: readonly string[];
  /** How brand values were combined; each row says which weighting it got. */
  readonly weighting: string;
  readonly dedupe: DedupeInfo;
  /** Years, markets and companies asked for without data (with `missing: 'note'`). */
  readonly missing: MissingData;
}

const SCHEMA: ResultSchema = {
  columns: [
    'company_id', 'company_name', 'country_id', 'market', 'country_code', 'year', 'metric', 'metric_name', 'metric_group',
    'score_type', 'column', 'value', 'weighting', 'n_brands', 'currency', 'revenue', 'operating_income', 'net_income',
    'market_cap', 'avg_close_price', 'year_end_close_price',
  ],
  kinds: {
    ...MARKET_KINDS, ...METRIC_KINDS,
    company_id: 'int', company_name: 'string', year: 'int', value: 'float', weighting: 'string', n_brands: 'int', currency: 'string',
    revenue: 'float', operating_income: 'float', net_income: 'float', market_cap: 'float', avg_close_price: 'float', year_end_close_price: 'float',
  },
};

const WEIGHTING =
  "Brand values are weighted by share_of_company when every brand with a value has a positive share; otherwise equally (the row's weighting says which). Weights are relative within a company, so the share's scale (0-1 or 0-100) does not matter.";

interface YearPrices {
  avg: number;
  last: number;
}

/** Calendar-year close prices per company, from one listing per company. */
function pricesByCompany(prices: readonly StockPriceRecord[], companies: ReadonlyMap<number, CompanyRecord>, notes: string[]): Map<number, Map<number, YearPrices>> {
  const byListing = new Map<number, Map<number, StockPriceRecord[]>>();
  for (const p of prices) {
    const company = p.company?.id;
    if (company === undefined) {
      throw new DataError('Stock prices without their company cannot be joined.', ['company'], ['company', 'stock_exchange'], {
        hint: "Load them with include: ['company', 'stock_exchange'].",
      });
    }
    const listings = byListing.get(company) ?? new Map<number, StockPriceRecord[]>();
    byListing.set(company, listings);
    const exchange = p.stock_exchange?.id ?? -1;
    const list = listings.get(exchange) ?? [];
    listings.set(exchange, list);
    list.push(p);
  }
  const out = new Map<number, Map<number, YearPrices>>();
  for (const [companyId, listings] of byListing) {
    let chosen: StockPriceRecord[];
    if (listings.size === 1) {
      chosen = [...listings.values()][0]!;
      if (listings.has(-1) && new Set(chosen.map((p) => p.date)).size < chosen.length) {
        throw new DataError(`Stock prices of company ${companyId} repeat dates: several listings are mixed.`, ['stock_exchange'], ['company'], {
          hint: "Load them with include: ['company', 'stock_exchange'] so listings can be told apart, or filter one exchange.",
        });
      }
    } else {
      // The primary listing is the one the annual results quote (ticker suffix, e.g. `.US`).
      const company = companies.get(companyId);
      const ticker = [...(company?.financials ?? []), company?.latest_financials].find((f) => f?.ticker)?.ticker ?? '';
      const suffix = /\.[A-Z]+$/i.exec(ticker)?.[0]?.toUpperCase();
      const entries = [...listings.values()];
      const bySuffix = suffix ? entries.find((list) => list[0]?.stock_exchange?.suffix?.toUpperCase() === suffix) : undefined;
      chosen = bySuffix ?? entries.sort((a, b) => b.length - a.length)[0]!;
      notes.push(
        bySuffix
          ? `Company ${companyId} is listed on ${listings.size} exchanges; prices are those of its primary listing (${suffix}).`
          : `Company ${companyId} is listed on ${listings.size} exchanges; prices are those of the listing with the most days.`,
      );
    }
    const years = new Map<number, { sum: number; n: number; lastDate: string; last: number }>();
    for (const p of chosen) {
      if (p.date === null || p.close_price === null) continue;
      const year = Number(p.date.slice(0, 4));
      const y = years.get(year) ?? { sum: 0, n: 0, lastDate: '', last: NaN };
      years.set(year, y);
      y.sum += p.close_price;
      y.n++;
      if (p.date > y.lastDate) {
        y.lastDate = p.date;
        y.last = p.close_price;
      }
    }
    out.set(companyId, new Map([...years].map(([year, y]) => [year, { avg: y.sum / y.n, last: y.last }])));
  }
  return out;
}

/**
 * Rolls a company's brands up per market and year: the mean of each brand's rows (de-duplicated;
 * US waves: the mean of the wave values), then the brands combined, weighted by `share_of_company`
 * when every brand with a value has a positive share (from `brands`), equally otherwise (stated on
 * each row). Joined by year with the company's annual results (fiscal year = study year) and its
 * stock prices (calendar-year mean close and year-end close).
 *
 * @example
 * const input = { rows, catalogue, studies, brands, companies, stockPrices }; // see loadComparisonInput
 * const rollup = companyRollup(input, { companies: [1520], metrics: ['esteem'] });
 * rollup.rows(); // [{ company_name: 'Meta Platforms', market: 'Brazil', year: 2024, value: 58.2,
 *                //    weighting: 'share_of_company', n_brands: 3, revenue: 1.3e11, avg_close_price: 412.5, ... }, ...]
 */
export function companyRollup(input: CompanyInput, options: CompanyRollupOptions): FrameTable<CompanyRollupRow, CompanyRollupMeta> {
  const prep = prepareBrandscape(input);
  const mode = options.dedupe ?? 'auto';
  const columns = resolveColumns(prep, options.metrics, options.scoreTypes);
  const selected = selectRows(prep, options, options.years);
  const notes = [...selected.notes];
  const company = entityIds(prep, 'company');
  const companyName = entityNames(prep, 'company');
  const setup = periodRows(prep, withKnownEntity(selected.rows, company, 'company', notes), 'year');
  notes.push(...setup.notes, ...scoreTypeNotes(columns, false));
  if (!input.brands) notes.push('No brands were given, so share_of_company is unknown: brands are weighted equally.');

  const companies = new Map(input.companies.map((c) => [c.id, c]));
  const prices = pricesByCompany(input.stockPrices ?? [], companies, notes);
  const groups = brandGroups(prep, setup, company);
  // Per brand cell: the brand's share of its company (NaN when unknown), the weight of its value.
  const shares = Float64Array.from(groups.cells.firstRow, (row) => prep.brands.get(prep.brandId[row]!)?.share_of_company ?? NaN);
  const withoutCompany = new Set<number>();

  const out: CompanyRollupRow[] = [];
  for (const info of columns) {
    const { value, nBrands, weighted } = groupValues(groups, cellValues(groups.cells, prep.table.numbers(info.column), keepMask(prep, info, mode)), shares);
    for (let g = 0; g < groups.count; g++) {
      const weighting: CompanyWeighting = weighted[g] === 1 ? 'share_of_company' : 'equal';
      const row = groups.firstRow[g]!;
      const study = prep.studies.get(prep.studyId[row]!)!;
      const companyId = company[row]!;
      const record = companies.get(companyId);
      if (!record) withoutCompany.add(companyId);
      const result = [...(record?.financials ?? []), ...(record?.latest_financials ? [record.latest_financials] : [])].find((f) => f.fiscal_year === study.year);
      const price = prices.get(companyId)?.get(study.year);
      out.push({
        company_id: companyId,
        company_name: record?.name ?? companyName(row),
        ...marketFields(study),
        year: study.year,
        ...metricFields(info),
        value: orNull(value[g]!),
        weighting,
        n_brands: nBrands[g]!,
        currency: result?.currency ?? record?.currency ?? null,
        revenue: result?.revenue ?? null,
        operating_income: result?.operating_income ?? null,
        net_income: result?.net_income ?? null,
        market_cap: result?.market_cap ?? null,
        avg_close_price: price ? orNull(price.avg) : null,
        year_end_close_price: price ? orNull(price.last) : null,
      });
    }
  }
  if (withoutCompany.size > 0) {
    notes.push(`No company record was given for ${[...withoutCompany].sort((a, b) => a - b).join(', ')}: their results are null.`);
  }
  const columnOrder = new Map(columns.map((c, i) => [c.column, i]));
  out.sort(
    (a, b) =>
      compareText(a.company_name, b.company_name) ||
      a.company_id - b.company_id ||
      compareText(a.market, b.market) ||
      a.year - b.year ||
      columnOrder.get(a.column)! - columnOrder.get(b.column)!,
  );
  return resultTable(out, SCHEMA, {
    source: 'companyRollup',
    notes,
    missing: toMissingData(selected.missing, []),
    audience: selected.audience,
    years: [...new Set(out.map((r) => r.year))].sort((a, b) => a - b),
    columns: columns.map((c) => c.column),
    weighting: WEIGHTING,
    dedupe: dedupeInfo(prep, setup.rows, columns, mode),
  });
}
