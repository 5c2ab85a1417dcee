/**
 * The one theme every chart of the toolkit uses: fonts, sizes, colours. Builders embed it in each
 * spec (`config`), so a spec looks the same wherever it is rendered: in Node through `renderPng`,
 * or in JupyterLab from the Vega-Lite MIME type.
 */
import type { VegaLiteConfig } from './vega-lite-spec.js';

/**
 * Categorical palette: Okabe & Ito's colours, distinguishable with the common colour-vision
 * deficiencies. Yellow comes last because it is faint on white lines and labels.
 *
 * @example
 * const colour = { scale: { range: [...CHART_PALETTE] } };
 */
export const CHART_PALETTE = [
  '#0072B2', // blue
  '#E69F00', // orange
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#56B4E9', // sky blue
  '#D55E00', // vermillion
  '#000000', // black
  '#F0E442', // yellow
] as const;

/** Vega colour schemes safe for colour-blind readers: single-hue sequential, blue–orange diverging. */
export const CHART_SCHEMES = { sequential: 'blues', diverging: 'blueorange' } as const;

/** Colours with a meaning shared by several charts (above/below a reference, up/down a trend). */
export const CHART_COLOURS = {
  above: '#0072B2',
  below: '#E69F00',
  up: '#0072B2',
  down: '#D55E00',
  flat: '#8C8C8C',
  reference: '#333333',
  muted: '#8C8C8C',
  quadrant: '#BBBBBB',
} as const;

/**
 * The three colours (RGB) of every value-coloured grid: orange below the middle, white at it, blue
 * above (colour-blind safe). Heatmaps and the tables beside them (HTML cells, the workbook's
 * colour-scale rules) use these same colours, so a value has one colour wherever it is shown.
 */
export const HEAT_SCALE_COLOURS = {
  low: [0xf4, 0xb1, 0x83],
  mid: [0xff, 0xff, 0xff],
  high: [0x7f, 0xb8, 0xe0],
} as const satisfies Record<string, readonly [number, number, number]>;

/**
 * Font stack: DejaVu Sans first because `renderPng` loads exactly that face (see render.ts); the
 * rest is for browsers without it. Quoted because the family name has a space.
 */
export const CHART_FONT = "'DejaVu Sans', Verdana, Helvetica, Arial, sans-serif";

/** Font sizes in pixels: never below the HTML report's table text (13 px), so a chart reads as easily as the table beside it, and on a slide. */
export const CHART_FONT_SIZES = { title: 18, subtitle: 13, axisTitle: 13, label: 13, legendTitle: 13, legendLabel: 13, mark: 13 } as const;

/**
 * The Vega-Lite config of every chart.
 *
 * @example
 * const spec = { ...mySpec, config: chartTheme };
 */
export const chartTheme = {
  font: CHART_FONT,
  background: 'white',
  padding: 12,
  title: {
    fontSize: CHART_FONT_SIZES.title,
    subtitleFontSize: CHART_FONT_SIZES.subtitle,
    subtitleColor: '#555555',
    anchor: 'start',
    offset: 12,
    color: '#222222',
  },
  axis: {
    labelFontSize: CHART_FONT_SIZES.label,
    titleFontSize: CHART_FONT_SIZES.axisTitle,
    titleFontWeight: 'normal',
    titleColor: '#333333',
    labelColor: '#333333',
    // Builders truncate long names themselves (full name in the tooltip); a pixel limit on top of
    // that would cut them again, by Vega's rough width estimate.
    labelLimit: 400,
    gridColor: '#E6E6E6',
    domainColor: '#888888',
    tickColor: '#888888',
  },
  header: {
    labelFontSize: CHART_FONT_SIZES.axisTitle,
    titleFontSize: CHART_FONT_SIZES.axisTitle,
    labelFontWeight: 'bold',
    labelLimit: 400,
  },
  legend: {
    labelFontSize: CHART_FONT_SIZES.legendLabel,
    titleFontSize: CHART_FONT_SIZES.legendTitle,
    titleFontWeight: 'normal',
    labelLimit: 400,
    orient: 'right',
  },
  text: { fontSize: CHART_FONT_SIZES.mark },
  range: { category: [...CHART_PALETTE] },
  view: { stroke: null },
} satisfies VegaLiteConfig;
