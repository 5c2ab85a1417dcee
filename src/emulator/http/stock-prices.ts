/**
 * `GET /stock-prices`: about 600,000 daily prices generated on demand. Helper filters narrow to
 * index ranges of the store; only when a field filter or sort asks for it are rows materialised.
 */
import { RESOURCES } from '../../catalogue/endpoints.js';
import type { StockPrice } from '../../schemas/companies.js';
import { notFound } from './api-error.js';
import { slims, type Ctx } from './bindings.js';
import { fromDateTime, fromIdList } from './filter-values.js';
import { fieldPredicate, toComparator, validateQuery } from './list-engine.js';
import type { ParsedQuery } from './parse-query.js';

const spec = RESOURCES['stock-prices'];

function served(index: number, record: StockPrice, query: ParsedQuery, ctx: Ctx): Record<string, unknown> {
  const keep = query.fields.get(spec.fieldsKey);
  const out: Record<string, unknown> = {};
  const includes = () => {
    for (const name of query.include) {
      if (name === 'company') out['company'] = slims.company(ctx, ctx.ds.stockPrices.companyOf(index));
      if (name === 'stock_exchange') out['stock_exchange'] = slims.stockExchange(ctx, ctx.ds.stockPrices.exchangeOf(index));
    }
  };
  for (const [key, value] of Object.entries(record)) {
    if (key === 'created_at') includes();
    if (!keep || keep.includes(key)) out[key] = value;
  }
  return out;
}

export function listStockPrices(query: ParsedQuery, ctx: Ctx, page: { page: number; perPage: number }, strictParams: boolean) {
  validateQuery(spec, query, { strictParams });
  const store = ctx.ds.stockPrices;
  const companies = query.filters.has('companies') ? fromIdList('companies', query.filters.get('companies') ?? '') : undefined;
  const exchanges = query.filters.has('stock_exchanges') ? fromIdList('stock_exchanges', query.filters.get('stock_exchanges') ?? '') : undefined;
  const ranges = store.ranges(companies, exchanges);
  const tests: ((r: StockPrice) => boolean)[] = [];
  for (const [name, value] of query.filters) {
    const caps = spec.fields[name as keyof typeof spec.fields];
    if (caps) {
      const test = fieldPredicate(name, caps, value);
      tests.push((r) => test(r));
    } else if (name === 'updated_since') {
      const since = fromDateTime(name, value);
      tests.push((r) => r.updated_at !== null && Date.parse(r.updated_at) > since);
    }
  }
  const offset = (page.page - 1) * page.perPage;
  const idOrder = query.sort.length === 0 || (query.sort.length === 1 && query.sort[0]?.field === 'id' && !query.sort[0].desc);
  if (tests.length === 0 && idOrder) {
    // Fast path: ranges are in id order; page by arithmetic.
    const total = ranges.reduce((n, [a, b]) => n + (b - a), 0);
    const data: Record<string, unknown>[] = [];
    let skip = offset;
    for (const [a, b] of ranges) {
      if (data.length >= page.perPage) break;
      if (skip >= b - a) {
        skip -= b - a;
        continue;
      }
      for (let i = a + skip; i < b && data.length < page.perPage; i++) data.push(served(i, store.row(i), query, ctx));
      skip = 0;
    }
    return { data, total };
  }
  const selected: { index: number; record: StockPrice }[] = [];
  for (const [a, b] of ranges) {
    for (let i = a; i < b; i++) {
      const record = store.row(i);
      if (tests.every((t) => t(record))) selected.push({ index: i, record });
    }
  }
  if (!idOrder) {
    const compare = toComparator(query.sort);
    selected.sort((x, y) => compare(x.record, y.record) || x.index - y.index);
  }
  return {
    data: selected.slice(offset, offset + page.perPage).map((s) => served(s.index, s.record, query, ctx)),
    total: selected.length,
  };
}

export function getStockPrice(id: number, query: ParsedQuery, ctx: Ctx, strictParams: boolean) {
  validateQuery(spec, query, { strictParams });
  const index = id - 1;
  if (index < 0 || index >= ctx.ds.stockPrices.count) throw notFound(`No stock price with id ${id}.`);
  return served(index, ctx.ds.stockPrices.row(index), query, ctx);
}
