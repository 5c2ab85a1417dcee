/**
 * Company view: a company's aggregated brand metric against its share price, by year.
 */
import type { CompanyRollupRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import { CHART_PALETTE, chartTheme } from './chart-theme.js';
import { type MetricPanel, type MetricPanelOptions, inLastRow, metricList, metricPanels, panelColumns, panelTitle, scoreWords, sharedDomains } from './metric-panels.js';
import { lineDomain, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { compareNames } from '../frames/compare-names.js';
import { listText } from '../frames/list-text.js';

/**
 * Options of `companyView`.
 *
 * @example
 * companyView(rows, { companyId: 77, price: 'year_end' });
 */
export interface CompanyViewOptions extends ChartOptions, MetricPanelOptions {
  /** The company (`company_id`); needed when the rows hold several. */
  companyId?: number;
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
 * Rows: `companyRollup(...).rows()`. With several metric columns (and no `column` option), each
 * metric gets a panel (one line per market) and the share price a panel of its own, so no panel
 * needs two axes.
 *
 * @example
 * const spec = companyView(rows, { companyId: 77, column: 'esteem_rank', price: 'year_end' });
 */
export function companyView(rows: readonly CompanyRollupRow[], options: CompanyViewOptions = {}): ChartSpec {
  firstRow(rows, 'company view');
  const companyId = pickOne(rows.map((r) => r.company_id), options.companyId, 'company', 'companyId');
  const ofCompany = rows.filter((r) => r.company_id === companyId);
  const panels = metricPanels(ofCompany, options.column, 'company view');
  const picked = panels.flatMap((p) => p.rows);
  const first = firstRow(picked, 'company view');
  const useAverage = (options.price ?? 'average') === 'average';
  const markets = distinct(picked.map((r) => r.market)).sort(compareNames);
  const years = distinct(picked.map((r) => r.year)).sort((a, b) => a - b);

  const prices = new Map<number, { price: number; currency: string | null }>();
  for (const r of picked) {
    const price = useAverage ? r.avg_close_price : r.year_end_close_price;
    if (price !== null && !prices.has(r.year)) prices.set(r.year, { price, currency: r.currency });
  }
  const currency = [...prices.values()].find((p) => p.currency !== null)?.currency ?? null;
  const priceName = `${useAverage ? 'Average share price' : 'Year-end share price'}${currency ? ` (${currency})` : ''}`;
  const priceValues = [...prices.entries()].sort(([a], [b]) => a - b).map(([year, p]) => ({ year, series: priceName, price: p.price }));
  const domain = [...markets, ...(priceValues.length > 0 ? [priceName] : [])];
  const range = [...markets.map((_, i) => CHART_PALETTE[i % CHART_PALETTE.length] ?? '#0072B2'), PRICE_COLOUR];
  const lines: Lines = {
    color: {
      field: 'series',
      type: 'nominal',
      title: null,
      scale: { domain, range },
      // Line symbols, dashed for the price, so the legend matches the lines; no legend for one
      // line (the subtitle names its market).
      legend: domain.length > 1 ? { orient: 'bottom', direction: 'horizontal', symbolType: 'stroke', symbolStrokeWidth: 2.5, symbolSize: 300 } : null,
    },
    strokeDash: { field: 'series', type: 'nominal', title: null, scale: { domain, range: [...markets.map(() => [1, 0]), [6, 4]] } },
    x: { field: 'year', type: 'ordinal', title: 'Year', sort: years, axis: { labelAngle: 0 } },
  };
  const domains = sharedDomains(panels, (p) => p.rows.map((r) => r.value), lineDomain);
  const where = markets.length <= 3 ? listText(markets) : `${markets.length} markets`;
  const priceWords = `${useAverage ? 'average' : 'year-end'} share price${currency ? ` in ${currency}` : ''}`;
  const priceAxis = (orient: 'left' | 'right') => ({
    field: 'price',
    type: 'quantitative' as const,
    title: priceName,
    scale: { zero: false, padding: 8 },
    // Prices to the cent where it matters, whole numbers without trailing zeros on the ticks.
    axis: { orient, grid: orient === 'left', format: ',.2~f', ...(orient === 'left' ? { title: null } : {}) },
  });

  if (panels.length === 1) {
    const panel = firstRow(panels, 'company view');
    const metric = panel.title;
    const subtitle =
      priceValues.length > 0
        ? `${metric} of its brands in ${where} (left axis) and the ${priceWords} (right axis, dashed).`
        : `${metric} of its brands in ${where}. No share price: the company is not listed.`;
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${first.company_name}: brand ${first.metric_name.toLowerCase()} and share price`, subtitle),
      config: chartTheme,
      width: options.width ?? 480,
      height: options.height ?? 280,
      layer: priceValues.length > 0 ? [metricLayer(panel, domains, lines, metric), priceLayer(priceValues, priceName, lines, priceAxis('right'))] : [metricLayer(panel, domains, lines, metric)],
      // Two quantities in different units: each gets its own scale and axis.
      resolve: { scale: { y: 'independent' } },
    };
  }

  // Several metrics: a panel each, and the share price in a panel of its own rather than on a
  // second axis, which would invite reading meaning into where the lines cross.
  const unit = scoreWords(panels);
  const count = panels.length + (priceValues.length > 0 ? 1 : 0);
  const columns = panelColumns(count, options.columns, 3);
  const size = { width: options.width ?? 240, height: options.height ?? 160 };
  const xTitled = (i: number) => ({ ...lines, x: { ...lines.x, title: inLastRow(i, count, columns) ? 'Year' : null } });
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(
      options,
      `${first.company_name}: ${panels.length > 2 ? 'brand metrics' : `brand ${metricList(panels).toLowerCase()}`}${priceValues.length > 0 ? ', with the share price' : ''}`,
      `${unit === undefined ? 'Metrics' : unit} of its brands in ${where}${priceValues.length > 0 ? `, and the ${priceWords}` : '. No share price: the company is not listed'}.`,
    ),
    config: chartTheme,
    columns,
    spacing: { column: 20, row: 24 },
    concat: [
      ...panels.map((p, i) => ({ title: panelTitle(p.title), ...size, ...metricLayer(p, domains, xTitled(i), null) })),
      ...(priceValues.length > 0 ? [{ title: panelTitle(priceName), ...size, ...priceLayer(priceValues, priceName, xTitled(panels.length), priceAxis('left')) }] : []),
    ],
  });
}

interface Lines {
  color: Record<string, unknown> & { field: string; type: 'nominal' };
  strokeDash: Record<string, unknown> & { field: string; type: 'nominal' };
  x: { field: string; type: 'ordinal'; title: string | null; sort: number[]; axis: { labelAngle: number } };
}

/** The metric's lines, one per market, on the metric's scale. */
function metricLayer(panel: MetricPanel<CompanyRollupRow>, domains: ReadonlyMap<string, [number, number]>, lines: Lines, yTitle: string | null): LayeredPanel {
  const values = panel.rows
    .filter((r) => r.value !== null)
    .map((r) => ({
      year: r.year,
      series: r.market,
      value: r.value,
      brands: r.n_brands,
      weighting: r.weighting === 'share_of_company' ? "By the brands' share of the company" : 'Equal',
    }));
  return {
    data: { values },
    encoding: {
      x: lines.x,
      // In a panel the scale is padded as the price's is, so that the top labels sit alike and the
      // panel titles line up across a row.
      y: {
        field: 'value',
        type: 'quantitative',
        title: panel.title,
        scale: { domain: domains.get(panel.column) ?? [0, 100], nice: false, ...(yTitle === null ? { padding: 8 } : {}) },
        axis: { format: scoreFormat(panel.scoreType), ...(yTitle === null ? { title: null } : {}) },
      },
      color: lines.color,
    },
    layer: [
      { mark: { type: 'line', strokeWidth: 2.5 }, encoding: { strokeDash: lines.strokeDash } },
      {
        mark: { type: 'point', filled: true, size: 50, opacity: 1 },
        encoding: {
          tooltip: [
            { field: 'series', type: 'nominal', title: 'Market' },
            { field: 'year', type: 'ordinal', title: 'Year' },
            { field: 'value', type: 'quantitative', title: panel.title, format: scoreFormat(panel.scoreType, 'tooltip') },
            { field: 'brands', type: 'quantitative', title: 'Brands', format: ',d' },
            { field: 'weighting', type: 'nominal', title: 'Weighted' },
          ],
        },
      },
    ],
  };
}

/** The share price by year: a black dashed line. */
function priceLayer(values: readonly { year: number; series: string; price: number }[], priceName: string, lines: Lines, y: Record<string, unknown> & { field: string; type: 'quantitative' }): LayeredPanel {
  return {
    data: { values: [...values] },
    encoding: { x: lines.x, y, color: lines.color },
    layer: [
      { mark: { type: 'line', strokeWidth: 2 }, encoding: { strokeDash: lines.strokeDash } },
      {
        mark: { type: 'point', shape: 'square', filled: true, size: 40, opacity: 1 },
        encoding: {
          tooltip: [
            { field: 'year', type: 'ordinal', title: 'Year' },
            { field: 'price', type: 'quantitative', title: priceName, format: ',.2f' },
          ],
        },
      },
    ],
  };
}
