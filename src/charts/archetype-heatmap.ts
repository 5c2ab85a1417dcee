/**
 * Archetype heatmap: brands × archetypes, cultural and competitive scores side by side.
 */
import type { ArchetypeRow } from '../frames/types.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { type LayeredPanel, published } from './vega-lite-spec.js';
import { bandLabels } from './band-labels.js';
import { CHART_FONT_SIZES, chartTheme } from './chart-theme.js';
import { heatColour, legendLength } from './heat-colour.js';
import { distinct, firstRow, pickOne } from './pick-one.js';
import { uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `archetypeHeatmap`.
 *
 * @example
 * archetypeHeatmap(rows, { value: 'score', sortBy: 'hero' });
 */
export interface ArchetypeHeatmapOptions extends ChartOptions {
  /** Colour and label by percentile rank (default; 0–100, comparable) or by index score (100 = the set's average). */
  value?: 'rank' | 'score';
  /** The study, when the rows hold several. */
  studyId?: number;
  /** The audience, when the rows hold several. */
  audienceId?: number;
  /** Brand order: by name (default), or by the brand's rank on this archetype key, highest first. */
  sortBy?: 'name' | (string & {});
}

/**
 * Brands down, archetypes across, one panel for the cultural scores (against every brand of the
 * study) and one for the competitive scores (against the competitive set, named in the header),
 * on one colour scale: percentile ranks diverge around the median 50, index scores around 100.
 * Archetypes keep the order of the rows; a panel is left out when no row has its scores.
 *
 * Rows: `archetypeMatrix(...).rows()`. `brand_name` is shown as given.
 *
 * @example
 * const spec = archetypeHeatmap(rows, { sortBy: 'hero' });
 */
export function archetypeHeatmap(rows: readonly ArchetypeRow[], options: ArchetypeHeatmapOptions = {}): ChartSpec {
  firstRow(rows, 'archetype heatmap');
  const study = pickOne(rows.map((r) => r.study_id), options.studyId, 'study', 'studyId');
  const inStudy = rows.filter((r) => r.study_id === study);
  const audience = pickOne(inStudy.map((r) => r.audience_id), options.audienceId, 'audience', 'audienceId');
  const picked = inStudy.filter((r) => r.audience_id === audience);
  const useRank = (options.value ?? 'rank') === 'rank';

  const comparisons = distinct(picked.filter((r) => (useRank ? r.competitive_rank : r.competitive_score) !== null).map((r) => r.comparison_name));
  const cultural = 'Cultural: against all brands';
  const competitive = comparisons.length === 1 ? `Competitive: against ${comparisons[0] ?? ''}` : 'Competitive: against each competitive set';
  const archetypes = distinct(picked.map((r) => r.archetype_name));
  const brandIds = distinct(picked.map((r) => r.brand_id));
  const nameOf = new Map(picked.map((r) => [r.brand_id, r.brand_name]));
  const sortKey = options.sortBy !== undefined && options.sortBy !== 'name' ? options.sortBy : undefined;
  if (sortKey !== undefined) pickOne(picked.map((r) => r.archetype), sortKey, 'archetype', 'sortBy');
  const sortValue = new Map(picked.filter((r) => r.archetype === sortKey).map((r) => [r.brand_id, (useRank ? r.cultural_rank : r.cultural_score) ?? -Infinity]));
  brandIds.sort((a, b) => (sortKey === undefined ? 0 : (sortValue.get(b) ?? -Infinity) - (sortValue.get(a) ?? -Infinity)) || compareNames(nameOf.get(a) ?? '', nameOf.get(b) ?? ''));
  const labels = uniqueLabels(brandIds.map((id) => ({ key: id, name: nameOf.get(id) ?? String(id) })), labelLength(options));

  const values = picked.flatMap((r) => {
    const base = { brand: labels.get(r.brand_id) ?? r.brand_name, name: r.brand_name, archetype: r.archetype_name };
    const out = [];
    const cv = useRank ? r.cultural_rank : r.cultural_score;
    if (cv !== null) out.push({ ...base, panel: cultural, value: cv, rank: r.cultural_rank, score: r.cultural_score, against: 'All brands of the study' });
    const kv = useRank ? r.competitive_rank : r.competitive_score;
    if (kv !== null) out.push({ ...base, panel: competitive, value: kv, rank: r.competitive_rank, score: r.competitive_score, against: `${r.comparison_name} (${r.comparison_type})` });
    return out;
  });
  firstRow(values, 'archetype heatmap (no row has scores)');
  const panels = distinct(values.map((v) => v.panel));
  const colour = heatColour(values.map((v) => v.value), useRank ? 'rank' : 'brandscape_index', 'value');
  const what = useRank ? 'Percentile rank' : 'Index score';

  const cellWidth = 44;
  const panel: LayeredPanel = {
    width: options.width ?? { step: cellWidth },
    height: options.height ?? { step: 26 },
    encoding: {
      x: { field: 'archetype', type: 'nominal', sort: archetypes, title: 'Archetype', axis: { orient: 'top', domain: false, ticks: false, ...bandLabels(archetypes, cellWidth, 'top').axis } },
      y: { field: 'brand', type: 'nominal', sort: brandIds.map((id) => labels.get(id) ?? String(id)), title: 'Brand', axis: { domain: false, ticks: false } },
      tooltip: [
        { field: 'name', type: 'nominal', title: 'Brand' },
        { field: 'archetype', type: 'nominal', title: 'Archetype' },
        { field: 'against', type: 'nominal', title: 'Compared with' },
        { field: 'rank', type: 'quantitative', title: 'Percentile rank', format: '.1f' },
        { field: 'score', type: 'quantitative', title: 'Index score (100 = average)', format: '.0f' },
      ],
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: { color: { field: 'value', type: 'quantitative', title: [what, useRank ? '' : '(100 = average)'].filter(Boolean), scale: colour.scale, legend: { gradientLength: legendLength(brandIds.length, 26), format: '.0f' } } },
      },
      {
        mark: { type: 'text', baseline: 'middle', fontSize: CHART_FONT_SIZES.mark, aria: false },
        encoding: {
          text: { field: 'value', type: 'quantitative', format: '.0f' },
          color: { condition: { test: colour.darkTest, value: 'white' }, value: '#222222' },
        },
      },
    ],
  };
  // Archetype rows name neither market nor year; the caller's subtitle can.
  const who = audience === 1 ? 'All Adults' : `audience ${audience}`;
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, 'Brand archetypes', `${what} of each archetype; ${who}.`),
    config: chartTheme,
    data: { values },
    facet: { column: { field: 'panel', type: 'nominal', title: null, sort: panels, header: { labelAnchor: 'start', labelPadding: 4 } } },
    spec: panel,
    resolve: { scale: { color: 'shared' } },
  });
}
