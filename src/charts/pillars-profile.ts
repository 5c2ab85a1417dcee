/**
 * Pillars profile: differentiation, relevance, esteem and knowledge of each brand, side by side.
 */
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { published } from './vega-lite-spec.js';
import { CHART_FONT_SIZES, CHART_PALETTE, chartTheme } from './chart-theme.js';
import { entityNoun } from './entity-names.js';
import { SCORE_TYPES } from '../schemas/score-types.js';
import { scoreFormat } from './metric-title.js';
import { scoreScale } from './heat-scale.js';
import { PILLARS, type PillarRow, type PillarSelection, pillarValues } from './pillar-values.js';
import { uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `pillarsProfile`.
 *
 * @example
 * pillarsProfile(rows, { market: 'GB', sort: 'name' });
 */
export interface PillarsProfileOptions extends ChartOptions, PillarSelection {
  /** Brand order: by the mean of the four pillars, highest first (default), or by name. */
  sort?: 'mean' | 'name';
}

/**
 * The four pillars per brand as grouped horizontal bars (one group per brand, one colour per
 * pillar, always in the order differentiation, relevance, esteem, knowledge), values labelled.
 *
 * Rows: tidy rows (`tidy(...)`; duplicates of brands studied in several categories are dropped,
 * audience 1 is used unless `audienceId` says otherwise), cross-market rows or cross-year rows,
 * holding the `differentiation`, `relevance`, `esteem` and `knowledge` metrics with one score type
 * (percentile ranks by default). One market and one period are charted; pass `market` and
 * `period` when the rows hold several.
 *
 * @example
 * const spec = pillarsProfile(rows, { market: 'GB', period: 2024 });
 */
export function pillarsProfile(rows: readonly PillarRow[], options: PillarsProfileOptions = {}): ChartSpec {
  const table = pillarValues(rows, options, 'pillars profile');
  const mean = (b: (typeof table.brands)[number]): number => {
    const v = PILLARS.map((p) => b.values[p]).filter((x): x is number => x !== null);
    return v.length === 0 ? -Infinity : v.reduce((a, c) => a + c, 0) / v.length;
  };
  const brands = [...table.brands].sort((a, b) => (options.sort === 'name' ? 0 : mean(b) - mean(a)) || compareNames(a.name, b.name));
  const labels = uniqueLabels(brands.map((b) => ({ key: b.key, name: b.name })), labelLength(options));
  const pillarOrder = PILLARS.map((p) => table.pillarNames[p]);
  const values = brands.flatMap((b) =>
    PILLARS.flatMap((p) => {
      const value = b.values[p];
      return value === null ? [] : [{ brand: labels.get(b.key) ?? b.name, name: b.name, global_name: b.global_name, pillar: table.pillarNames[p], value }];
    }),
  );
  const scale = scoreScale(table.scoreType);
  const noun = entityNoun(table.kind);
  const isBrand = table.kind === 'brand';
  const label = SCORE_TYPES[table.scoreType].label;
  const format = scoreFormat(table.scoreType);

  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, 'Brand pillars', `${label} of differentiation, relevance, esteem and knowledge; ${table.market}, ${table.period}.`),
    config: chartTheme,
    data: { values },
    width: options.width ?? 420,
    // The step is per brand (the position band), not per bar (the offset band).
    height: options.height ?? { step: 56, for: 'position' },
    encoding: {
      y: { field: 'brand', type: 'nominal', sort: brands.map((b) => labels.get(b.key) ?? b.name), title: noun, axis: { ticks: false, labelPadding: 6 } },
      yOffset: { field: 'pillar', type: 'nominal', sort: pillarOrder, scale: { paddingInner: 0.1 } },
      x: { field: 'value', type: 'quantitative', title: label, ...(scale.domain ? { scale: { domain: scale.domain } } : {}), axis: { format } },
      tooltip: [
        { field: 'name', type: 'nominal', title: isBrand ? `${noun} (local name)` : noun },
        ...(isBrand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
        { field: 'pillar', type: 'nominal', title: 'Pillar' },
        { field: 'value', type: 'quantitative', title: label, format: scoreFormat(table.scoreType, 'tooltip') },
      ],
    },
    layer: [
      // Colour on the bars only: small value labels in pale pillar colours would be hard to read.
      {
        mark: { type: 'bar' },
        encoding: {
          color: {
            field: 'pillar',
            type: 'nominal',
            title: 'Pillar',
            sort: pillarOrder,
            scale: { domain: pillarOrder, range: CHART_PALETTE.slice(0, 4) },
            legend: { orient: 'top', direction: 'horizontal', title: null },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', baseline: 'middle', dx: 3, fontSize: CHART_FONT_SIZES.mark, color: '#444444', aria: false },
        encoding: { text: { field: 'value', type: 'quantitative', format } },
      },
    ],
  });
}
