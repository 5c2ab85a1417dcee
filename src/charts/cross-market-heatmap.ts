/**
 * Cross-market heatmap: entities (brands, companies or sectors) down, markets across, each cell
 * coloured by the metric and labelled with its value; one grid per metric.
 */
import type { CrossMarketRow } from '../frames/types.js';
import { bandLabels } from './band-labels.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import { chartTheme } from './chart-theme.js';
import { entityKey, entityNames, entityNoun } from './entity-names.js';
import { type HeatColour, heatColour, legendLength } from './heat-colour.js';
import { type MetricPanel, type MetricPanelOptions, metricList, metricPanels, oneScoreType, panelColumns, panelTitle, startsRow } from './metric-panels.js';
import { scaleKey } from './heat-scale.js';
import { metricLegendTitle, metricTitle, scoreFormat } from './metric-title.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { SCORE_TYPES } from '../schemas/score-types.js';
import { truncateLabel, uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `crossMarketHeatmap`.
 *
 * @example
 * crossMarketHeatmap(rows, { column: 'differentiation_rank', sort: 'name' });
 */
export interface CrossMarketHeatmapOptions extends ChartOptions, MetricPanelOptions {
  /** Row order: by the entity's cross-market mean (of the first metric), highest first (default), or by name. */
  sort?: 'mean' | 'name';
  /**
   * Column order: market names (as the rows' `market` has them), e.g. the order of a table beside
   * the chart; markets of the rows not named here follow by name. Default: by name.
   */
  markets?: readonly string[];
  /**
   * The focus entity's id (a brand, company or sector id): its row label is bold and its cells are
   * outlined, so the brand a deck is about stands out among its competitors.
   */
  focus?: number;
  /** Width of one cell in pixels. Default 72 (a 13 px market name of 9 characters fits level). */
  cellWidth?: number;
  /** Height of one cell in pixels. Default 28. */
  cellHeight?: number;
}

/**
 * Markets × brands (or sectors, or companies), coloured by the metric, values labelled. A
 * percentile rank column (`*_rank`) is the natural choice: ranks are comparable across markets,
 * and the colours diverge around the median 50. Other score types get a scale of their own.
 * Market names are written level when they fit a cell, on two or three lines when their words do,
 * and slanted only when neither.
 *
 * Rows: `crossMarket(...).rows()`, one per entity × market × metric column. Missing values leave
 * the cell blank. The row label is the brand's local name when every market uses it, else its
 * global name; the tooltip gives the local name of each market. With several metric columns (and
 * no `column` option) each metric gets a grid of its own, the grids side by side with the same
 * rows and markets, on one colour scale when they share a score type.
 *
 * @example
 * const spec = crossMarketHeatmap(rows, { column: 'differentiation_rank' });
 * await writeFile('heatmap.png', await renderPng(spec, { scale: 2 }));
 * const pillars = crossMarketHeatmap(rows, { columns: 2 }); // one grid per pillar, two a row
 */
export function crossMarketHeatmap(rows: readonly CrossMarketRow[], options: CrossMarketHeatmapOptions = {}): ChartSpec {
  const panels = metricPanels(rows, options.column, 'cross-market heatmap');
  const picked = panels.flatMap((p) => p.rows);
  const first = firstRow(picked, 'cross-market heatmap');
  const year = pickOne(picked.map((r) => r.year), undefined, 'year', 'year');
  const max = labelLength(options);
  const multi = panels.length > 1;

  const names = entityNames(picked);
  const byName = options.sort === 'name';
  const keys = entityOrderKeys(panels, names, byName);
  const labels = uniqueLabels(keys.map((key) => ({ key, name: names.get(key) ?? key })), max);
  const present = distinct(picked.map((r) => r.market));
  const named = (options.markets ?? []).filter((m) => present.includes(m));
  const markets = [...new Set([...named, ...present.filter((m) => !named.includes(m)).sort(compareNames)])];
  // Long enough for names that wrap onto lines (`Bosnia and Herzegovina`); a cell holds about 9 characters a line.
  const marketLabels = new Map(markets.map((m) => [m, truncateLabel(m, 24)]));
  const cellWidth = options.cellWidth ?? 72;
  const cellHeight = options.cellHeight ?? 28;
  const layout: GridLayout = {
    entityOrder: keys.map((k) => labels.get(k) ?? k),
    entityLabel: (r) => labels.get(entityKey(r)) ?? r.entity_name,
    marketOrder: markets.map((m) => marketLabels.get(m) ?? m),
    marketLabel: (r) => marketLabels.get(r.market) ?? r.market,
    cellWidth,
    cellHeight,
    noun: entityNoun(first.entity_kind),
    brands: picked.some((r) => r.entity_kind === 'brand'),
    legendLength: legendLength(keys.length, cellHeight),
    focus: options.focus === undefined ? undefined : labels.get([...names.keys()].find((k) => picked.some((r) => entityKey(r) === k && r.entity_id === options.focus)) ?? ''),
  };
  // One colour scale per score type: grids of ranks share theirs (and one legend).
  const colours = new Map<string, HeatColour>();
  for (const p of panels) {
    const key = scaleKey(p);
    if (!colours.has(key)) colours.set(key, heatColour(panels.filter((q) => scaleKey(q) === key).flatMap((q) => q.rows.map((r) => r.value ?? NaN)), p.scoreType, 'value'));
  }
  const sorted = byName ? 'Rows sorted by name' : `Rows sorted by the cross-market mean${multi ? ` of ${first.metric_name.toLowerCase()}` : ''}`;
  const size = { width: options.width ?? { step: cellWidth }, height: options.height ?? { step: cellHeight } };

  if (!multi) {
    const panel = grid(firstRow(panels, 'cross-market heatmap'), colours, layout, {
      marketTitle: 'Market',
      entityTitle: layout.noun,
      legendTitle: metricLegendTitle(first.metric_name, first.score_type),
    });
    return {
      $schema: VEGA_LITE_SCHEMA,
      title: chartTitle(options, `${first.metric_name} across markets`, `${metricTitle(first.metric_name, first.score_type)}, ${year}. ${sorted}; blank cells have no data.`),
      config: chartTheme,
      // Grey behind the cells, so a missing value reads as a gap in the grid rather than as white.
      view: { fill: '#F0F0F0', stroke: null },
      ...size,
      ...panel,
    };
  }

  const shared = oneScoreType(panels);
  const columns = panelColumns(panels.length, options.columns, 2);
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, `${metricList(panels)} across markets`, `${shared === undefined ? '' : `${SCORE_TYPES[shared].label}, `}${year}. ${sorted}; blank cells have no data.`),
    config: { ...chartTheme, view: { ...chartTheme.view, fill: '#F0F0F0' } },
    columns,
    spacing: { column: 14, row: 18 },
    concat: panels.map((p, i) => ({
      title: panelTitle(p.title),
      ...size,
      ...grid(p, colours, layout, {
        marketTitle: null,
        entityTitle: startsRow(i, columns) ? layout.noun : undefined,
        // One legend for grids of one score type, named by it; else one legend per grid.
        legendTitle: shared === undefined ? metricLegendTitle(p.metricName, p.scoreType) : [SCORE_TYPES[shared].label],
      }),
    })),
    resolve: { scale: { color: shared === undefined ? 'independent' : 'shared' } },
  });
}

/** Rows by the first metric's cross-market mean (or by name): one order for every grid, so a row reads across. */
function entityOrderKeys(panels: readonly MetricPanel<CrossMarketRow>[], names: ReadonlyMap<string, string>, byName: boolean): string[] {
  const means = new Map<string, number>();
  for (const r of panels[0]?.rows ?? []) if (r.cross_market_mean !== null) means.set(entityKey(r), r.cross_market_mean);
  return [...names.keys()].sort((a, b) => {
    if (!byName) {
      const d = (means.get(b) ?? -Infinity) - (means.get(a) ?? -Infinity);
      if (d !== 0) return d;
    }
    return compareNames(names.get(a) ?? '', names.get(b) ?? '');
  });
}

/**
 * The heatmap's row order, as entity ids, for a table beside it to show its rows in the same order.
 *
 * @example
 * crossMarketTable(result, { entityOrder: crossMarketHeatmapOrder(result.rows()) });
 */
export function crossMarketHeatmapOrder(rows: readonly CrossMarketRow[], options: Pick<CrossMarketHeatmapOptions, 'column' | 'sort'> = {}): number[] {
  if (rows.length === 0) return [];
  const panels = metricPanels(rows, options.column, 'cross-market heatmap');
  const picked = panels.flatMap((p) => p.rows);
  const ids = new Map(picked.map((r) => [entityKey(r), r.entity_id]));
  return entityOrderKeys(panels, entityNames(picked), options.sort === 'name').map((k) => ids.get(k)!);
}

interface GridLayout {
  entityOrder: string[];
  entityLabel: (r: CrossMarketRow) => string;
  marketOrder: string[];
  marketLabel: (r: CrossMarketRow) => string;
  cellWidth: number;
  cellHeight: number;
  noun: string;
  brands: boolean;
  legendLength: number;
  /** The focus entity's row label, when there is one. */
  focus: string | undefined;
}

interface GridTitles {
  marketTitle: string | null;
  /** Undefined hides the entity axis (grids after the first of a row show the same rows). */
  entityTitle: string | undefined;
  legendTitle: string[];
}

function grid(panel: MetricPanel<CrossMarketRow>, colours: ReadonlyMap<string, HeatColour>, layout: GridLayout, titles: GridTitles): LayeredPanel {
  const { scoreType } = panel;
  const colour = colours.get(scaleKey(panel)) ?? heatColour([], scoreType, 'value');
  const values = panel.rows
    .filter((r) => r.value !== null)
    .map((r) => ({
      entity: layout.entityLabel(r),
      market_label: layout.marketLabel(r),
      market: r.market,
      name: r.entity_name,
      global_name: r.global_name,
      value: r.value,
      mean: r.cross_market_mean,
      market_rank: r.market_rank === null ? null : `${r.market_rank} of ${r.markets_compared}`,
    }));
  const tooltipFormat = scoreFormat(scoreType, 'tooltip');
  const marketAxis = bandLabels(layout.marketOrder, layout.cellWidth, 'top');
  return {
    data: { values },
    encoding: {
      x: {
        field: 'market_label',
        type: 'nominal',
        // The same columns in every grid, even where a metric lacks a market.
        scale: { domain: layout.marketOrder },
        title: titles.marketTitle,
        axis: { orient: 'top', domain: false, ticks: false, ...marketAxis.axis },
      },
      y: {
        field: 'entity',
        type: 'nominal',
        scale: { domain: layout.entityOrder },
        ...(titles.entityTitle === undefined
          ? { title: null, axis: null }
          : { title: titles.entityTitle, axis: { domain: false, ticks: false, ...(layout.focus === undefined ? {} : { labelFontWeight: { condition: { test: `datum.value === ${JSON.stringify(layout.focus)}`, value: 'bold' }, value: 'normal' } }) } }),
      },
      tooltip: [
        { field: 'name', type: 'nominal', title: layout.brands ? `${layout.noun} (local name)` : layout.noun },
        ...(layout.brands ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
        { field: 'market', type: 'nominal', title: 'Market' },
        { field: 'value', type: 'quantitative', title: panel.title, format: tooltipFormat },
        { field: 'mean', type: 'quantitative', title: 'Cross-market mean', format: tooltipFormat },
        { field: 'market_rank', type: 'nominal', title: 'Rank among markets' },
      ],
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          color: { field: 'value', type: 'quantitative', title: titles.legendTitle, scale: colour.scale, legend: { orient: 'right', gradientLength: layout.legendLength, format: scoreFormat(scoreType) } },
        },
      },
      ...(layout.focus === undefined
        ? []
        : [
            {
              // The focus row outlined, over the cells' white borders.
              transform: [{ filter: `datum.entity === ${JSON.stringify(layout.focus)}` }],
              mark: { type: 'rect' as const, fill: null, stroke: '#222222', strokeWidth: 2, aria: false },
            },
          ]),
      {
        mark: { type: 'text', baseline: 'middle', aria: false },
        encoding: {
          text: { field: 'value', type: 'quantitative', format: scoreFormat(scoreType) },
          color: { condition: { test: colour.darkTest, value: 'white' }, value: '#222222' },
        },
      },
    ],
  };
}
