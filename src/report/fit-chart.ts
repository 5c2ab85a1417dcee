/**
 * Charts sized to the page they are on: the HTML report's charts are widened (or narrowed) to its
 * content width, so that no chart sits left of an empty margin and none is scaled down below the
 * table text's size.
 */
import type { ChartSpec } from '../charts/chart-spec.js';
import { renderSvg, svgSize } from '../charts/render.js';

/** The HTML report's content width in CSS pixels (1200 px wide, 24 px padding each side). */
export const HTML_CONTENT_WIDTH = 1152;

/** Keys under which a Vega-Lite spec nests further specs that have a width of their own. */
const NESTED = ['layer', 'concat', 'hconcat', 'vconcat', 'spec'] as const;

/**
 * A copy of the spec with every view width (a number, or the step of a discrete axis) multiplied
 * by `factor`; mark widths (`mark.width`, a bar's), data and config are left alone.
 *
 * @example
 * scaleWidths({ width: 300, mark: 'bar' }, 2) // { width: 600, mark: 'bar' }
 */
export function scaleWidths(spec: ChartSpec, factor: number): ChartSpec {
  const scale = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(scale);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    const width = out['width'];
    if (typeof width === 'number') out['width'] = Math.max(1, Math.round(width * factor));
    else if (typeof width === 'object' && width !== null && typeof (width as { step?: unknown }).step === 'number') {
      out['width'] = { ...width, step: Math.max(1, Math.round((width as { step: number }).step * factor)) };
    }
    for (const key of NESTED) if (key in out) out[key] = scale(out[key]);
    return out;
  };
  return scale(spec) as ChartSpec;
}

/** Options of `fitChart`. */
export interface FitChartOptions {
  /** The width to fill, in CSS pixels. Default `HTML_CONTENT_WIDTH`. */
  width?: number;
  /**
   * How much wider than drawn a chart may be made: a scatter or a three-column heatmap stretched
   * further would read worse than it fills. Default 2.5.
   */
  maxFactor?: number;
}

/**
 * The chart as SVG, its view widths scaled so that the whole drawing (axes, legends, titles
 * included) is as close to `width` as the spec allows. A chart's width grows about linearly with its
 * view widths, so two renders give the factor, and a third draws it. Charts without a width to
 * scale come back as drawn.
 *
 * @example
 * const { svg, width } = await fitChart(spec); // width ≈ 1152
 */
export async function fitChart(spec: ChartSpec, options: FitChartOptions = {}): Promise<{ svg: string; width: number; height: number }> {
  const target = options.width ?? HTML_CONTENT_WIDTH;
  const maxFactor = options.maxFactor ?? 2.5;
  const first = await renderSvg(spec);
  const w1 = svgSize(first).width;
  if (!(w1 > 0) || Math.abs(w1 - target) <= 4) return { svg: first, ...svgSize(first) };
  const second = await renderSvg(scaleWidths(spec, 2));
  const w2 = svgSize(second).width;
  const perFactor = w2 - w1; // the part of the width that scales
  if (!(perFactor > 1)) return { svg: first, ...svgSize(first) };
  const fixed = w1 - perFactor;
  const factor = Math.min(maxFactor, Math.max(0.5, (target - fixed) / perFactor));
  if (Math.abs(factor - 1) < 0.01) return { svg: first, ...svgSize(first) };
  const svg = await renderSvg(scaleWidths(spec, factor));
  return { svg, ...svgSize(svg) };
}
