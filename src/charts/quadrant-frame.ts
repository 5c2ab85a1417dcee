/**
 * The frame of a quadrant chart (the power grid, the TurboPitch worth maps): the two dividing rules
 * at `at` on both axes and a bold caption in each corner.
 */
import { CHART_COLOURS } from './chart-theme.js';

export interface QuadrantCaption {
  x: number;
  y: number;
  text: string;
  align: 'left' | 'right';
  baseline: 'top' | 'bottom';
}

type AxisOf = (field: string) => { field: string; type: 'quantitative' };

/**
 * Vega-Lite layers for the dividing rules and the corner captions.
 *
 * @example
 * layer: [...quadrantFrame(50, captions, xOf, yOf, 11), pointsLayer]
 */
export function quadrantFrame(at: number, captions: readonly QuadrantCaption[], xOf: AxisOf, yOf: AxisOf, fontSize: number) {
  return [
    {
      data: { values: [{ at }] },
      layer: [
        { mark: { type: 'rule' as const, color: CHART_COLOURS.quadrant, strokeWidth: 1.5 }, encoding: { x: xOf('at') } },
        { mark: { type: 'rule' as const, color: CHART_COLOURS.quadrant, strokeWidth: 1.5 }, encoding: { y: yOf('at') } },
      ],
    },
    ...captions.map((q) => ({
      data: { values: [q] },
      mark: { type: 'text' as const, align: q.align, baseline: q.baseline, fontWeight: 'bold' as const, fontSize, color: CHART_COLOURS.muted },
      encoding: { x: xOf('x'), y: yOf('y'), text: { field: 'text', type: 'nominal' as const } },
    })),
  ];
}

/**
 * The four corner captions, top left (`niche`), top right (`leadership`), bottom left (`new`) and
 * bottom right (`eroded`), on a 0-100 scale.
 *
 * @example
 * quadrantCaptions(POWER_GRID_QUADRANTS)[1] // { text: 'Leadership', x: 99, y: 99, align: 'right', baseline: 'top' }
 */
export function quadrantCaptions(texts: { niche: string; leadership: string; new: string; eroded: string }): QuadrantCaption[] {
  return [
    { text: texts.niche, x: 1, y: 99, align: 'left', baseline: 'top' },
    { text: texts.leadership, x: 99, y: 99, align: 'right', baseline: 'top' },
    { text: texts.new, x: 1, y: 1, align: 'left', baseline: 'bottom' },
    { text: texts.eroded, x: 99, y: 1, align: 'right', baseline: 'bottom' },
  ];
}
