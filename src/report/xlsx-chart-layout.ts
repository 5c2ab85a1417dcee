/**
 * Where a section's chart goes on its sheet, so that a laptop screen shows it with its table.
 *
 * The screen: a 1366 x 768 laptop with Excel maximised shows about 1280 x 480 pixels of sheet at
 * 100 % zoom (row numbers, ribbon, formula bar, tabs and taskbar take the rest). In it, in order
 * of preference:
 *
 * 1. **Beside** the table, from its first row: the chart is laid out again to the room right of
 *    the table (its views narrowed with `fitWidth`; then its legends above and its title in
 *    lines; then a facet's columns as rows: `narrowLayout`), its text at full size, or shrunk to
 *    the room when that keeps its text at 11 px or more (0.85 of its size). A long table and a
 *    tall chart then scroll together, and the picture is not under the frozen header, which
 *    would cut it in two.
 * 2. **Below** a short table (one that ends in the top half of the screen): the table and the top
 *    of the chart are seen together on opening.
 * 3. **Above** a table that is too wide to leave room beside it and too long to show a chart
 *    under it: the chart first, under the section's title, the table after it, the chart made
 *    shorter (its views: `fitHeight`), or shrunk to 0.85 at most, to leave the table's header
 *    and first rows on the screen. The sheet's header
 *    is not frozen then (it would freeze the chart with it); with a cell of the table selected,
 *    Excel shows the table's headers in place of the column letters as its rows scroll.
 *
 * A chart below or above is as wide as it was drawn (at least 800 px, `renderPng`'s deck width),
 * and never wider than the screen.
 */
import type { ChartSpec } from '../charts/chart-spec.js';
import { fitHeight, fitWidth, renderSvg, svgSize } from '../charts/render.js';
import { narrowLayout } from '../charts/narrow.js';

/** Pixels of sheet a 1366 px laptop screen shows at 100 % zoom, across. */
export const VISIBLE_SHEET_PIXELS = 1280;
/** Rows of sheet such a screen shows under Excel's ribbon (20 px rows). */
export const VISIBLE_SHEET_ROWS = 24;
/** The gap between a table and a chart beside it: one default column. */
export const CHART_GAP_PIXELS = 64;
/** The narrowest room worth laying a chart out in beside its table. */
const MIN_BESIDE_PIXELS = 360;
/** The most a chart is shrunk to fit beside or above its table (its 13 px text to 11 px). */
const MIN_TEXT_SCALE = 0.85;
/** The narrowest cell of a heatmap (a step of a discrete axis) that holds "100" at 13 px. */
const MIN_CELL_PIXELS = 36;
/** The shortest row of a heatmap that holds its 13 px numbers. */
const MIN_ROW_PIXELS = 20;
/**
 * The tallest a chart above its table is shown: the screen's rows less the title's two, a blank
 * one and the table's header and first three rows (20 px each).
 */
const ABOVE_MAX_PIXELS = (VISIBLE_SHEET_ROWS - 2 - 1 - 4) * 20;
/** A chart below a table is seen on opening when the table ends in the screen's top half. */
const SHORT_TABLE_ROWS = VISIBLE_SHEET_ROWS / 2;
/** The width a chart below or above its table is drawn at, at least (as `renderPng`'s default). */
const DECK_WIDTH = 800;

/** A chart laid out for its sheet: the spec to draw, where, and at what size it is shown (pixels). */
export interface SheetChart {
  where: 'beside' | 'below' | 'above';
  /** The spec to draw: the section's, or the same laid out to the room it has. */
  spec: ChartSpec;
  /** The drawing's own size (CSS pixels). */
  drawn: { width: number; height: number };
  /** The size it is shown at on the sheet: the drawing's, or smaller to fit. */
  shown: { width: number; height: number };
}

/** Where a table sits: its width in pixels and the 1-based row after it and its notes. */
export interface TableExtent {
  width: number;
  endRow: number;
}

const shownAt = (drawn: { width: number; height: number }, room: number) => {
  const k = Math.min(1, room / drawn.width);
  return { width: Math.round(drawn.width * k), height: Math.round(drawn.height * k) };
};

/**
 * Lays a section's chart out for its sheet (see the file's comment for the rule).
 *
 * @example
 * const chart = await layOutChart(section.chart, { width: 620, endRow: 40 }); // where: 'beside'
 */
export async function layOutChart(spec: ChartSpec, table: TableExtent): Promise<SheetChart> {
  const first = await renderSvg(spec);
  const natural = svgSize(first);
  const room = VISIBLE_SHEET_PIXELS - table.width - CHART_GAP_PIXELS;
  if (room >= MIN_BESIDE_PIXELS) {
    // As drawn, then with its legends above and its title in lines, each laid out to the room:
    // the one shown larger, if its text keeps 0.85 of its size; else with its panels one under
    // the other too (a tall chart, but beside a table).
    const minFactor = narrowestFactor(spec);
    const lay = async (variant: ChartSpec): Promise<SheetChart> => {
      const drawnFirst = variant === spec ? first : await renderSvg(variant);
      const size = variant === spec ? natural : svgSize(drawnFirst);
      const laid = size.width <= room ? { spec: variant, svg: drawnFirst } : await fitWidth(variant, { width: room, minFactor }, drawnFirst);
      const drawn = laid.svg === drawnFirst ? size : svgSize(laid.svg);
      return { where: 'beside', spec: laid.spec, drawn, shown: shownAt(drawn, room) };
    };
    const fits = (chart: SheetChart) => chart.drawn.width * MIN_TEXT_SCALE <= room;
    let best = await lay(spec);
    if (best.drawn.width > room) {
      const narrow = await lay(narrowLayout(spec, room));
      if (narrow.drawn.width < best.drawn.width) best = narrow;
    }
    if (fits(best)) return best;
    const stacked = await lay(narrowLayout(spec, room, { stack: true }));
    if (fits(stacked)) return stacked;
  }
  const wide = natural.width >= DECK_WIDTH ? { spec, svg: first } : await fitWidth(spec, { width: DECK_WIDTH }, first);
  const drawn = wide.svg === first ? natural : svgSize(wide.svg);
  if (table.endRow <= SHORT_TABLE_ROWS) return { where: 'below', spec: wide.spec, drawn, shown: shownAt(drawn, VISIBLE_SHEET_PIXELS) };
  // Above the table, the chart leaves the table's header and first rows on the screen: made
  // shorter (its views, not its text), or shrunk a little, when it is taller than that.
  const shownWide = shownAt(drawn, VISIBLE_SHEET_PIXELS);
  if (shownWide.height <= ABOVE_MAX_PIXELS) return { where: 'above', spec: wide.spec, drawn, shown: shownWide };
  const short = await fitHeight(wide.spec, { height: ABOVE_MAX_PIXELS / (shownWide.width / drawn.width), minFactor: shortestFactor(wide.spec) });
  const shorter = svgSize(short.svg);
  // Shrunk to the rows left, its text to 0.85 of its size at most; never wider than the screen.
  const k = Math.min(VISIBLE_SHEET_PIXELS / shorter.width, Math.max(MIN_TEXT_SCALE, Math.min(1, ABOVE_MAX_PIXELS / shorter.height)));
  return { where: 'above', spec: short.spec, drawn: shorter, shown: { width: Math.round(shorter.width * k), height: Math.round(shorter.height * k) } };
}

/**
 * How far a chart's views may be made shorter: to 0.6 of their height, but a band axis's cells (a
 * heatmap's rows) no shorter than `MIN_ROW_PIXELS`.
 */
const shortestFactor = (spec: ChartSpec): number => stepFloor(spec, 'height', 0.6, (step) => MIN_ROW_PIXELS / step);

/**
 * How far a chart's views may be narrowed: to half (`fitWidth`'s floor), but a band axis's cells
 * (a heatmap's columns) no narrower than `MIN_CELL_PIXELS` where their labels are slanted, and not
 * at all where they are level or in lines (`bandLabels` chose that for the drawn width; narrower,
 * they would run into each other).
 */
const narrowestFactor = (spec: ChartSpec): number =>
  stepFloor(spec, 'width', 0.5, (step, view) => {
    const x = (view['encoding'] as { x?: { axis?: { labelAngle?: unknown } } } | undefined)?.x;
    const slanted = typeof x?.axis?.labelAngle === 'number' && x.axis.labelAngle !== 0;
    return slanted ? MIN_CELL_PIXELS / step : 1;
  });

/**
 * The floor of the factor a chart's view sizes may be scaled by: `floor`, raised by what each
 * view with a band step (`width: { step }` or `height: { step }`) needs (`need(step, view)`, at most 1).
 */
function stepFloor(spec: ChartSpec, key: 'width' | 'height', floor: number, need: (step: number, view: Record<string, unknown>) => number): number {
  let factor = floor;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const view = node as Record<string, unknown>;
    const size = view[key];
    const step = typeof size === 'object' && size !== null ? (size as { step?: unknown }).step : undefined;
    if (typeof step === 'number' && step > 0) factor = Math.max(factor, Math.min(1, need(step, view)));
    for (const [name, value] of Object.entries(view)) if (name !== 'data' && name !== 'config') walk(value);
  };
  walk(spec);
  return factor;
}
