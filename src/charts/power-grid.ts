/**
 * Power grid: brand strength (differentiation × relevance) against brand stature (esteem ×
 * knowledge), in four labelled quadrants.
 */
import { UsageError } from '../errors.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { published } from './vega-lite-spec.js';
import { CHART_FONT_SIZES, CHART_PALETTE, chartTheme } from './chart-theme.js';
import { entityNoun } from './entity-names.js';
import { measureText } from './measure-text.js';
import { type BrandPillars, type PillarRow, type PillarSelection, pillarValues } from './pillar-values.js';
import { type Box, placeLabels } from './place-labels.js';
import { quadrantCaptions, quadrantFrame } from './quadrant-frame.js';
import { uniqueLabels } from './truncate-label.js';
import { compareNames } from '../frames/compare-names.js';

/**
 * Options of `powerGrid`.
 *
 * @example
 * powerGrid(rows, { market: 'GB', period: 2024, split: 60 });
 */
export interface PowerGridOptions extends ChartOptions, Omit<PillarSelection, 'scoreType'> {
  /** Where the quadrants divide, on both axes. Default 50 (the median brand of the study). */
  split?: number;
}

/**
 * Captions of the quadrants, in the usual brand-asset terms.
 *
 * @example
 * rows.filter((r) => r.quadrant === POWER_GRID_QUADRANTS.leadership)
 */
export const POWER_GRID_QUADRANTS = {
  leadership: 'Leadership',
  niche: 'Niche or unrealised potential',
  new: 'New or unfocused',
  eroded: 'Eroded or declining',
} as const;

/**
 * Brand strength and stature from the four pillar percentile ranks of each brand:
 *
 * - strength = √(differentiation_rank × relevance_rank)
 * - stature = √(esteem_rank × knowledge_rank)
 *
 * The geometric mean orders brands exactly as the product does, but stays on the 0–100 scale of
 * its inputs, so the quadrants can divide at 50: a brand at 50 on both pillars sits on the line.
 * (The raw product of two ranks would put the median brand near 25 of 100.) Brands missing one of
 * the four ranks are left out; the subtitle says how many.
 *
 * Rows: tidy, cross-market or cross-year rows holding the four `*_rank` pillar columns (see
 * `pillarsProfile` for how one market, period and audience are chosen). Labels carry local names,
 * placed so that they do not overlap; a label with no free spot is left to the tooltip.
 *
 * @example
 * const spec = powerGrid(tidyRows, { market: 'GB', period: 2024 });
 */
export function powerGrid(rows: readonly PillarRow[], options: PowerGridOptions = {}): ChartSpec {
  const table = pillarValues(rows, { ...options, scoreType: 'rank' }, 'power grid');
  const split = options.split ?? 50;
  if (!(split > 0 && split < 100)) throw new UsageError(`The power grid's split must be between 0 and 100; got ${split}.`);
  const complete = table.brands.flatMap((b) => {
    const { differentiation: d, relevance: r, esteem: e, knowledge: k } = b.values;
    return d === null || r === null || e === null || k === null ? [] : [{ brand: b, strength: Math.sqrt(d * r), stature: Math.sqrt(e * k), d, r, e, k }];
  });
  if (complete.length === 0) throw new UsageError('No brand has all four pillar ranks (differentiation, relevance, esteem, knowledge); the power grid needs them.');
  const left = table.brands.length - complete.length;

  const width = options.width ?? 440;
  const height = options.height ?? 440;
  const px = (v: number): number => (v / 100) * width;
  const py = (v: number): number => height - (v / 100) * height;
  const font = CHART_FONT_SIZES.mark;
  const labels = uniqueLabels(complete.map((c) => ({ key: c.brand.key, name: c.brand.name })), labelLength(options));

  // Quadrant captions sit in the plot's corners; point labels keep clear of them.
  const pad = 6;
  const captionH = Math.ceil(font * 1.15);
  const captionW = (text: string): number => Math.ceil(measureText(text, font, true)) + 2;
  const reserved: Box[] = [
    { x0: 0, y0: 0, x1: captionW(POWER_GRID_QUADRANTS.niche) + pad, y1: captionH + pad },
    { x0: width - captionW(POWER_GRID_QUADRANTS.leadership) - pad, y0: 0, x1: width, y1: captionH + pad },
    { x0: 0, y0: height - captionH - pad, x1: captionW(POWER_GRID_QUADRANTS.new) + pad, y1: height },
    { x0: width - captionW(POWER_GRID_QUADRANTS.eroded) - pad, y0: height - captionH - pad, x1: width, y1: height },
  ];
  // Strongest brands first: they get the best label spots.
  const ordered = [...complete].sort((a, b) => b.strength + b.stature - (a.strength + a.stature) || compareNames(a.brand.name, b.brand.name));
  const placed = placeLabels(
    ordered.map((c) => ({ x: px(c.stature), y: py(c.strength), text: labels.get(c.brand.key) ?? c.brand.name })),
    // Labels of brands near the right edge may run into the margin rather than be hidden.
    { width, height, fontSize: font, radius: 4, reserved, overflowRight: 110 },
  );
  const hidden = placed.filter((p) => p === null).length;

  const values = ordered.map((c, i) => {
    const p = placed[i] ?? null;
    return {
      ...brandFields(c.brand),
      label: labels.get(c.brand.key) ?? c.brand.name,
      strength: round1(c.strength),
      stature: round1(c.stature),
      differentiation: c.d,
      relevance: c.r,
      esteem: c.e,
      knowledge: c.k,
      quadrant: quadrantOf(c.strength, c.stature, split),
      label_align: p === null ? 'none' : p.align,
      label_x: p === null ? null : (p.x / width) * 100,
      label_y: p === null ? null : 100 - (p.y / height) * 100,
    };
  });
  const noun = entityNoun(table.kind);
  const isBrand = table.kind === 'brand';
  const notes = [
    left > 0 ? `${left} ${noun.toLowerCase()}${left > 1 ? 's' : ''} without all four ranks left out` : '',
    hidden > 0 ? `${hidden} label${hidden > 1 ? 's' : ''} hidden to avoid overlap (see tooltips)` : '',
  ].filter(Boolean);
  // Every layer positions on the same two scales; each gives the same title, else Vega-Lite would
  // join the layers' field names into the axis title.
  const xOf = (field: string) => ({ field, type: 'quantitative' as const, title: 'Brand stature (esteem × knowledge)', scale: { domain: [0, 100], nice: false } });
  const yOf = (field: string) => ({ field, type: 'quantitative' as const, title: 'Brand strength (differentiation × relevance)', scale: { domain: [0, 100], nice: false } });
  const labelLayer = (align: 'left' | 'right' | 'center') => ({
    transform: [{ filter: `datum.label_align === '${align}'` }],
    mark: { type: 'text' as const, align, baseline: 'middle' as const, fontSize: font, color: '#333333', aria: false },
    encoding: {
      x: xOf('label_x'),
      y: yOf('label_y'),
      text: { field: 'label', type: 'nominal' as const },
    },
  });

  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(
      options,
      'Power grid',
      `Geometric means of the pillar percentile ranks; ${table.market}, ${table.period}.${notes.length ? ` ${notes.join('; ')}.` : ''}`,
    ),
    config: chartTheme,
    width,
    height,
    layer: [
      ...quadrantFrame(split, quadrantCaptions(POWER_GRID_QUADRANTS), xOf, yOf, font),
      {
        data: { values },
        layer: [
          {
            mark: { type: 'point', filled: true, size: 64, opacity: 1, color: CHART_PALETTE[0], stroke: 'white', strokeWidth: 1 },
            encoding: {
              x: xOf('stature'),
              y: yOf('strength'),
              tooltip: [
                { field: 'name', type: 'nominal', title: isBrand ? `${noun} (local name)` : noun },
                ...(isBrand ? [{ field: 'global_name', type: 'nominal' as const, title: 'Global name' }] : []),
                { field: 'quadrant', type: 'nominal', title: 'Quadrant' },
                { field: 'strength', type: 'quantitative', title: 'Brand strength', format: '.1f' },
                { field: 'stature', type: 'quantitative', title: 'Brand stature', format: '.1f' },
                { field: 'differentiation', type: 'quantitative', title: `${table.pillarNames.differentiation} rank`, format: '.1f' },
                { field: 'relevance', type: 'quantitative', title: `${table.pillarNames.relevance} rank`, format: '.1f' },
                { field: 'esteem', type: 'quantitative', title: `${table.pillarNames.esteem} rank`, format: '.1f' },
                { field: 'knowledge', type: 'quantitative', title: `${table.pillarNames.knowledge} rank`, format: '.1f' },
              ],
            },
          },
          labelLayer('left'),
          labelLayer('right'),
          labelLayer('center'),
        ],
      },
    ],
  });
}

function brandFields(b: BrandPillars): { name: string; global_name: string } {
  return { name: b.name, global_name: b.global_name };
}

function quadrantOf(strength: number, stature: number, split: number): string {
  if (strength >= split) return stature >= split ? POWER_GRID_QUADRANTS.leadership : POWER_GRID_QUADRANTS.niche;
  return stature >= split ? POWER_GRID_QUADRANTS.eroded : POWER_GRID_QUADRANTS.new;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
