/**
 * Company view: a company's aggregated brand metric against its share price, by year.
 */
import type { CompanyRollupRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle } from './chart-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { metricTitle, scoreFormat, scoreScale } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';

/**
 * Options of `companyView`.
 *
 * @example
 * companyView(rows, { companyId: 77, price: 'year_end' });
 */
export interface CompanyViewOptions extends ChartOptions {
  /** The company (`company_id`); needed when the rows hold several. */
  companyId?: number;
  /** The metric column; needed when the rows hold several. */
  column?: string;
  /** Which share price: the year's average daily close (default) or its last close. */
  price?: 'average' | 'year_end';
}

const PRICE_COLOUR = '#000000';

/**
 * The company's brand metric (weighted over its brands, one line per market) on the left axis,
 * and its share price by year (black dashed line) on the right axis. Private companies have no
 * price: the chart shows the metric alone and says so.
 *
 * Two axes invite reading a correlation into how the lines cross; they cross wherever the two
 * scales happen to put them. Compare directions of change, not positions.
 *
 * Rows: `companyRollup(...).rows()`.
 *
 * @example
 * const spec = companyView(rows, { companyId: 77, column: 'esteem_rank', price: 'year_end' });
 */
export function companyView(rows: readonly CompanyRollupRow[], options: CompanyViewOptions = {}): ChartSpec {
  firstRow(rows, 'company view');
  const companyId = pickOne(rows.map((r) => r.company_id), options.companyId, 'company', 'companyId');
  const ofCompany = rows.filter((r) => r.company_id === companyId);
  const column = pickOne(ofCompany.map((r) => r.column), options.column, 'metric column', 'column');
  const picked = ofCompany.filter((r) => r.column === column);
  const first = firstRow(picked, 'company view');
  const useAverage = (options.price ?? 'average') === 'average';
  const markets = distinct(picked.map((r) => r.market)).sort((a, b) => a.localeCompare(b));
  const years = distinct(picked.map((r) => r.year)).sort((a, b) => a - b);

  const prices = new Map<number, { price: number; currency: string | null }>();
  for (const r of picked) {
    const price = useAverage ? r.avg_close_price : r.year_end_close_price;
    if (price !== null && !prices.has(r.year)) prices.set(r.year, { price, currency: r.currency });
  }
  const currency = [...prices.values()].find((p) => p.currency !== null)?.currency ?? null;
  const priceName = `${useAverage ? 'Average share price' : 'Year-end share price'}${currency ? ` (${currency})` : ''}`;
  const metric = metricTitle(first.metric_name, first.score_type);
  const scale = scoreScale(first.score_type);

  const metricValues = picked
    .filter((r) => r.value !== null)
    .map((r) => ({
      year: r.year,
      series: r.market,
      value: r.value,
      brands: r.n_brands,
      weighting: r.weighting === 'share_of_company' ? "By the brands' share of the company" : 'Equal',
    }));
  const priceValues = [...prices.entries()].sort(([a], [b]) => a - b).map(([year, p]) => ({ year, series: priceName, price: p.price }));
  const domain = [...markets, ...(priceValues.length > 0 ? [priceName] : [])];
  const range = [...markets.map((_, i) => CHART_PALETTE[i % CHART_PALETTE.length] ?? '#0072B2'), PRICE_COLOUR];
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: null,
    scale: { domain, range },
    // Line symbols, dashed for the price, so the legend matches the lines.
    legend: { orient: 'bottom' as const, direction: 'horizontal' as const, symbolType: 'stroke', symbolStrokeWidth: 2.5, symbolSize: 300 },
  };
  const strokeDash = { field: 'series', type: 'nominal' as const, title: null, scale: { domain, range: [...markets.map(() => [1, 0]), [6, 4]] } };
  const x = { field: 'year', type: 'ordinal' as const, title: 'Year', sort: years, axis: { labelAngle: 0 } };
  const where = markets.length <= 3 ? markets.join(' and ').replace(/ and (?=.* and )/, ', ') : `${markets.length} markets`;
  const priceWords = `${useAverage ? 'average' : 'year-end'} share price${currency ? ` in ${currency}` : ''}`;
  const subtitle =
    priceValues.length > 0
      ? `${metric} of its brands in ${where} (left axis) and the ${priceWords} (right axis, dashed).`
      : `${metric} of its brands in ${where}. No share price: the company is not listed.`;

  const metricLayer = {
    data: { values: metricValues },
    encoding: {
      x,
      y: { field: 'value', type: 'quantitative' as const, title: metric, ...(scale.domain ? { scale: { domain: scale.domain } } : { scale: { zero: false } }) },
      color,
    },
    layer: [
      { mark: { type: 'line' as const, strokeWidth: 2.5 }, encoding: { strokeDash } },
      {
        mark: { type: 'point' as const, filled: true, size: 50, opacity: 1 },
        encoding: {
          tooltip: [
            { field: 'series', type: 'nominal' as const, title: 'Market' },
            { field: 'year', type: 'ordinal' as const, title: 'Year' },
            { field: 'value', type: 'quantitative' as const, title: metric, format: scoreFormat(first.score_type, 'tooltip') },
            { field: 'brands', type: 'quantitative' as const, title: 'Brands' },
            { field: 'weighting', type: 'nominal' as const, title: 'Weighted' },
          ],
        },
      },
    ],
  };
  const priceLayer = {
    data: { values: priceValues },
    encoding: {
      x,
      y: { field: 'price', type: 'quantitative' as const, title: priceName, scale: { zero: false, padding: 8 }, axis: { orient: 'right' as const, grid: false } },
      color,
    },
    layer: [
      { mark: { type: 'line' as const, strokeWidth: 2 }, encoding: { strokeDash } },
      {
        mark: { type: 'point' as const, shape: 'square', filled: true, size: 40, opacity: 1 },
        encoding: {
          tooltip: [
            { field: 'year', type: 'ordinal' as const, title: 'Year' },
            { field: 'price', type: 'quantitative' as const, title: priceName, format: ',.2f' },
          ],
        },
      },
    ],
  };

  return {
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${first.company_name}: brand ${first.metric_name.toLowerCase()} and share price`, subtitle),
    config: chartTheme,
    width: options.width ?? 480,
    height: options.height ?? 280,
    layer: priceValues.length > 0 ? [metricLayer, priceLayer] : [metricLayer],
    // Two quantities in different units: each gets its own scale and axis.
    resolve: { scale: { y: 'independent' } },
  };
}
