/**
 * `compareBrands`: an ad-hoc comparison of a few brands, across markets in one year or across years
 * in one or more markets, as `brandscape compare` runs it and a notebook can: brands by id or name,
 * defaults an analyst expects (All Adults, the latest full year, percentile ranks of the pillars),
 * only the brands' rows of the chosen studies loaded, then the same `crossMarket` / `crossYear`,
 * matrix and chart as the reports.
 *
 * The steps: plan (plan.ts: options, axis, metrics, years, markets, studies; pure), load (load.ts:
 * the client calls), shape (shape.ts: records, notes, table; pure). This file only runs them in turn.
 */
import { sourceOf } from '../report/report-source.js';
import { checkMarkets, loadBasics, loadRows, loadStudiesOfBrands, type CompareClient } from './load.js';
import { chooseScope, planRequest, type StudyInfo } from './plan.js';
import { shapeComparison } from './shape.js';
import { COMPARE_ERRORS } from './messages.js';
import { foldName } from '../frames/fold-name.js';
import type { ResolvedBrand } from '../load/resolve-brands.js';
import type { BrandRef } from '../report/template/template-params.js';
import { resolveAudience, toMarketCodes } from '../load/resolve-names.js';
import type { CompareBrandsOptions, Comparison } from './types.js';


/**
 * Compares brands across markets (one year) or years (per market), loading only the brands' rows
 * of the chosen studies: by default full-year studies only, US quarterly waves left out unless
 * `waves` is set. Brand names that fit several brands or none, unknown markets, metrics, groups or
 * score types, and axes that cannot be inferred are UsageErrors, raised before the rows are
 * loaded; markets, years and brands without data are listed in `notes` and `missing`.
 *
 * @example
 * const c = await compareBrands(client, { brands: ['Veros', 'polora', 6], markets: ['GB', 'DE', 'FR'] });
 * c.by; // 'market' (several markets, one year: the latest)
 * c.table; // Brand, Metric, United Kingdom, Germany, France, Mean
 * c.records[0]; // { brand_id: 305, market: 'United Kingdom', column: 'differentiation_rank', value: 71.25, cross_market_mean: ..., ... }
 * const us = await compareBrands(client, { brands: ['Veros'], markets: ['US'], metrics: ['esteem_c'] }); // by year, the last five years
 */
export async function compareBrands(client: CompareClient, options: CompareBrandsOptions): Promise<Comparison> {
  // Markets and an audience by name become codes and an id first (a request each, only when a name is given).
  const signal = options.signal ? { signal: options.signal } : {};
  const audience =
    typeof options.audience === 'string' && !/^\s*\d+\s*$/.test(options.audience) ? (await resolveAudience(client, options.audience, signal)).id : options.audience === undefined ? undefined : Number(options.audience);
  const markets = options.markets === undefined ? undefined : await toMarketCodes(client, options.markets, signal);
  const request = planRequest({ ...options, ...(markets ? { markets } : {}), ...(audience === undefined ? {} : { audience }) });
  const basics = await loadBasics(client, request, options);
  const focus = options.focus === undefined ? undefined : focusBrand(options.focus, basics.brands);
  const queries = [...basics.queries];
  // Markets: as given (each must have studies), or wherever one of the brands is studied.
  let studiedByBrands: StudyInfo[] = [];
  if (request.marketsGiven) await checkMarkets(client, request.marketsGiven, basics.studies, options.signal);
  else {
    const found = await loadStudiesOfBrands(client, basics.brands, basics.studies, options.signal);
    queries.push(found.query);
    studiedByBrands = found.studied;
  }
  const scope = chooseScope(request, basics.studies, { brandNames: basics.brands.map((b) => b.name), studiedByBrands });
  const brandIds = [...new Set(basics.brands.map((b) => b.id))];
  const { input, catalogue, metrics } = await loadRows(
    client,
    basics,
    { markets: scope.markets.map((m) => m.code), years: scope.years, audienceId: request.audienceId, brandIds, studies: scope.chosen, named: basics.named },
    options,
  );
  queries.push(...input.queries);
  const comparison = shapeComparison({ request, scope, brands: basics.brands, metrics, catalogue, audienceName: basics.audienceName, input, queries, source: sourceOf(client, options.emulated === true), ...(focus === undefined ? {} : { focus: focus.id }) });
  if (focus === undefined) return comparison;
  // The About block says the focus, after the brands.
  const said = { label: 'Focus brand', value: `${focus.name} (${focus.id})` };
  return { ...comparison, focus, asked: comparison.asked.flatMap((item) => (item.label === 'Brands' ? [item, said] : [item])) };
}

/**
 * The focus brand among the brands compared: by id, or by name (as given in `brands`, or the
 * resolved brand's name, ignoring case and accents). A UsageError naming `focus` when it is none of them.
 */
export function focusBrand(focus: BrandRef, brands: readonly ResolvedBrand[]): ResolvedBrand {
  const id = typeof focus === 'number' ? focus : /^\s*\d+\s*$/.test(focus) ? Number(focus) : undefined;
  const wanted = typeof focus === 'string' ? foldName(focus) : undefined;
  const found = brands.find((b) => (id !== undefined ? b.id === id : foldName(b.name) === wanted || (typeof b.ref === 'string' && foldName(b.ref) === wanted)));
  if (found === undefined) throw COMPARE_ERRORS.unknownFocus(focus, [...new Set(brands.map((b) => b.name))]);
  return found;
}
