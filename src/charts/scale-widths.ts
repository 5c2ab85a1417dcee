/**
 * A spec's view widths (or heights) scaled by a factor: how a chart is made to fill a page or a
 * slide, or to leave room, without touching its data, marks or text sizes.
 */
import type { ChartSpec } from './chart-spec.js';

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
  return scaleViews(spec, factor, 'width');
}

/**
 * The same for view heights: how a chart is made shorter to leave room under it.
 *
 * @example
 * scaleHeights({ height: { step: 26 }, mark: 'rect' }, 0.8) // { height: { step: 21 }, mark: 'rect' }
 */
export function scaleHeights(spec: ChartSpec, factor: number): ChartSpec {
  return scaleViews(spec, factor, 'height');
}

function scaleViews(spec: ChartSpec, factor: number, key: 'width' | 'height'): ChartSpec {
  const scale = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(scale);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    const size = out[key];
    if (typeof size === 'number') out[key] = Math.max(1, Math.round(size * factor));
    else if (typeof size === 'object' && size !== null && typeof (size as { step?: unknown }).step === 'number') {
      out[key] = { ...size, step: Math.max(1, Math.round((size as { step: number }).step * factor)) };
    }
    for (const nested of NESTED) if (nested in out) out[nested] = scale(out[nested]);
    return out;
  };
  return scale(spec) as ChartSpec;
}
