/**
 * A spec's view widths scaled by a factor: how a chart is made to fill a page or a slide without
 * touching its data, marks or text sizes.
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

