/**
 * Charts sized to the page they are on: the HTML report's charts are widened (or narrowed) to its
 * content width, so that no chart sits left of an empty margin and none is scaled down below the
 * table text's size.
 */
import type { ChartSpec } from '../charts/chart-spec.js';
import { fitWidth } from '../charts/render.js';

/** The HTML report's content width in CSS pixels (1200 px wide, 24 px padding each side). */
export const HTML_CONTENT_WIDTH = 1152;

/**
 * The chart as SVG, as wide as the HTML report's content (`fitWidth`).
 *
 * @example
 * const svg = await fitChart(spec); // about 1152 px wide
 */
export async function fitChart(spec: ChartSpec): Promise<string> {
  return (await fitWidth(spec, { width: HTML_CONTENT_WIDTH })).svg;
}
