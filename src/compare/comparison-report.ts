/**
 * The picture and the report of a comparison (`compareBrands`): its chart, and a one-section
 * `ReportSpec` for the workbook and HTML writers. Kept apart from `compare-brands.ts` so that a
 * comparison printed as a table or as text loads neither the chart builders nor the report
 * builder (the `compare` command imports this only when `--out` asks for a file that draws).
 */
import { crossMarketBars } from '../charts/cross-market-bars.js';
import { crossMarketHeatmap, crossMarketHeatmapOrder } from '../charts/cross-market-heatmap.js';
import { crossYearLines } from '../charts/cross-year-lines.js';
import type { ChartSpec } from '../charts/chart-spec.js';
import { BrandscapeError } from '../errors.js';
import { toolkitVersion } from '../version.js';
import { queriesTable, readingNotes, sourceText } from '../report/build-report.js';
import { crossMarketTable } from '../report/comparison-tables.js';
import type { Comparison } from './types.js';
import type { AboutItem, ReportSpec, ReportTable } from '../report/report-spec.js';

/**
 * The comparison's chart: a heatmap of brands x markets per metric (bars against the mean for one
 * brand) across markets, or lines over the periods per metric across years. Throws a DataError when there is nothing to draw.
 *
 * @example
 * await writeFile('pillars.png', await renderPng(comparisonChart(comparison), { scale: 2 }));
 */
export function comparisonChart(comparison: Comparison): ChartSpec {
  const title = { title: comparison.title, ...(comparison.focus === undefined ? {} : { focus: comparison.focus.id }) };
  if (comparison.by === 'year') return crossYearLines(comparison.result.rows(), title);
  const rows = comparison.result.rows();
  // One brand: bars against its mean read better than a one-row heatmap.
  return new Set(rows.map((r) => r.entity_id)).size === 1 ? crossMarketBars(rows) : crossMarketHeatmap(rows, { ...title, markets: comparison.markets.map((m) => m.name) });
}

/**
 * The comparison as a one-section `ReportSpec` (its table, chart and notes, and an About block of
 * what was asked, the studies and the queries), for `writeXlsx` (with `sheets: { about: false,
 * data: false }`: one sheet) and `writeHtml`. A chart that cannot be drawn leaves a note instead.
 *
 * @example
 * const spec = comparisonReport(comparison);
 * await writeXlsx(spec, 'pillars.xlsx', { sheets: { about: false, data: false } });
 */
export function comparisonReport(comparison: Comparison, options: { generatedAt?: Date } = {}): ReportSpec {
  const generatedAt = (options.generatedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const notes = [...comparison.notes];
  let chart: ChartSpec | null = null;
  try {
    chart = comparisonChart(comparison);
  } catch (error) {
    if (!(error instanceof BrandscapeError)) throw error;
    notes.push(`The chart could not be drawn: ${error.message}`);
  }
  const { source } = comparison;
  const items: AboutItem[] = [
    { label: 'Comparison', value: comparison.title },
    { label: 'Generated', value: generatedAt },
    { label: 'Toolkit', value: `brandscape-kit ${toolkitVersion()}` },
    { label: 'Data source', value: sourceText(source) },
    { label: 'API version', value: source.apiVersion },
    { label: 'Studies', value: comparison.studies.map((s) => `${s.id} ${s.market} ${s.period}`).join('; ') },
  ];
  const parameters: ReportTable = {
    columns: [
      { key: 'name', header: 'Parameter', format: 'text' },
      { key: 'value', header: 'Value', format: 'text' },
    ],
    rows: comparison.asked.map((a) => [a.label, a.value]),
    keyColumns: 1,
    colourScales: [],
  };
  const empty: ReportTable = { columns: [], rows: [], keyColumns: 0, colourScales: [] };
  return {
    title: comparison.title,
    description: comparison.summary,
    template: 'compare',
    madeBy: 'brandscape compare',
    generatedAt,
    about: { items, parameters, queries: queriesTable(comparison.queries) },
    notes: [...readingNotes({ sections: [] }, comparison.audience.id), ...notes],
    sections: [{ index: 1, kind: comparison.by === 'market' ? 'cross-market' : 'cross-year', title: comparison.title, description: comparison.summary, table: tableBesideChart(comparison, chart), chart, notes, summary: comparison.summary }],
    data: empty,
  };
}

/**
 * The comparison's table as shown with its chart: beside a heatmap, in the heatmap's row order (by
 * the cross-market mean, as its subtitle says), so that chart and table read alike; else as it is
 * (brands in the order given).
 */
function tableBesideChart(comparison: Comparison, chart: ChartSpec | null): ReportTable {
  if (chart === null || comparison.by !== 'market') return comparison.table;
  const rows = comparison.result.rows();
  if (new Set(rows.map((r) => r.entity_id)).size < 2) return comparison.table;
  return crossMarketTable(comparison.result, {
    markets: comparison.markets,
    entityOrder: crossMarketHeatmapOrder(rows),
    ...(comparison.focus === undefined ? {} : { focus: comparison.focus.id }),
  });
}
