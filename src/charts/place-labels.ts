/**
 * Greedy label placement for scatter plots: Vega-Lite has no collision avoidance for text, so a
 * builder that knows its pixel scales places each point's label at the first of eight positions
 * around the point that overlaps no other label, point or reserved box, inside the plot. A label
 * that fits nowhere is left out (its point keeps its tooltip).
 */
import { measureText } from './measure-text.js';

export interface LabelPoint {
  /** Pixels from the plot's left edge. */
  x: number;
  /** Pixels from the plot's top edge. */
  y: number;
  text: string;
}

export interface PlacedLabel {
  /** Anchor in pixels; the text's vertical middle is at `y`. */
  x: number;
  y: number;
  align: 'left' | 'right' | 'center';
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlaceLabelsOptions {
  width: number;
  height: number;
  fontSize: number;
  /** Radius of the point marks, in pixels. */
  radius: number;
  /** Areas labels must avoid besides the points, e.g. quadrant captions. */
  reserved?: readonly Box[];
  /** How far labels may reach past the plot's right edge, in pixels (into the chart's margin). Default 0. */
  overflowRight?: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * One placement (or null) per point, in the order given: earlier points get the better spots.
 *
 * @example
 * placeLabels([{ x: 10, y: 10, text: 'Apple' }], { width: 400, height: 400, fontSize: 11, radius: 4 })
 * // [{ x: 17, y: 10, align: 'left' }]
 */
export function placeLabels(points: readonly LabelPoint[], options: PlaceLabelsOptions): (PlacedLabel | null)[] {
  const { width, height, fontSize, radius } = options;
  const h = Math.ceil(fontSize * 1.15);
  const gap = radius + 3;
  const taken: Box[] = [...(options.reserved ?? [])];
  const dots: Box[] = points.map((p) => ({ x0: p.x - radius - 1, y0: p.y - radius - 1, x1: p.x + radius + 1, y1: p.y + radius + 1 }));
  return points.map((p, index) => {
    const w = Math.ceil(measureText(p.text, fontSize, false)) + 1;
    // Right, left, above, below, then the diagonals; then the same a little further out.
    const candidates: PlacedLabel[] = [1, 2].flatMap((ring) => {
      const g = gap * ring;
      const r = radius * ring;
      return [
        { x: p.x + g, y: p.y, align: 'left' as const },
        { x: p.x - g, y: p.y, align: 'right' as const },
        { x: p.x, y: p.y - g - h / 2, align: 'center' as const },
        { x: p.x, y: p.y + g + h / 2, align: 'center' as const },
        { x: p.x + r, y: p.y - r - h / 2, align: 'left' as const },
        { x: p.x + r, y: p.y + r + h / 2, align: 'left' as const },
        { x: p.x - r, y: p.y - r - h / 2, align: 'right' as const },
        { x: p.x - r, y: p.y + r + h / 2, align: 'right' as const },
      ];
    });
    const right = width + (options.overflowRight ?? 0);
    for (const c of candidates) {
      const x0 = c.align === 'left' ? c.x : c.align === 'right' ? c.x - w : c.x - w / 2;
      const box = { x0, y0: c.y - h / 2, x1: x0 + w, y1: c.y + h / 2 };
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > right || box.y1 > height) continue;
      if (taken.some((t) => overlaps(t, box))) continue;
      if (dots.some((d, i) => i !== index && overlaps(d, box))) continue;
      taken.push(box);
      return c;
    }
    return null;
  });
}
