/**
 * Labels of a band axis (one label per column of a heatmap): level when they fit their column,
 * broken into lines at spaces when each word fits (`United` / `Kingdom`), slanted only when
 * neither does. Slanted text is slower to read, so it is the last resort, not the default.
 */
import { CHART_FONT_SIZES } from './chart-theme.js';
import { measureText } from './measure-text.js';

/** Pixels kept free between the labels of neighbouring columns. */
const LABEL_GAP = 6;
/** Line height of wrapped labels, in pixels, for the theme's label size. */
const LINE_HEIGHT = CHART_FONT_SIZES.label + 2;
/** More lines than this and a label is slanted instead. */
const MAX_LINES = 3;

/** How a band axis draws its labels. */
export interface BandLabels {
  mode: 'level' | 'wrapped' | 'slanted';
  /** Vega-Lite axis properties that draw them so (angle, alignment, line breaks, padding). */
  axis: Record<string, unknown>;
}

/**
 * The layout of band labels `band` pixels apart, on an axis at the top or bottom of the plot.
 *
 * @example
 * bandLabels(['Brazil', 'France'], 64, 'top').mode // 'level'
 * bandLabels(['United Kingdom', 'Brazil'], 64, 'top').mode // 'wrapped': 'United' above 'Kingdom'
 */
export function bandLabels(labels: readonly string[], band: number, orient: 'top' | 'bottom'): BandLabels {
  const room = band - LABEL_GAP;
  const width = (text: string): number => measureText(text, CHART_FONT_SIZES.label, false);
  if (labels.every((l) => width(l) <= room)) return { mode: 'level', axis: { labelAngle: 0, labelAlign: 'center' } };

  const wrapped = labels.map((l) => wrapWords(l, room, width));
  if (wrapped.every((lines) => lines !== undefined && lines.length <= MAX_LINES)) {
    const lines = new Map(labels.map((l, i) => [l, wrapped[i] ?? [l]]));
    const most = Math.max(...[...lines.values()].map((l) => l.length));
    // Vega draws the lines of a label downwards from its anchor. At the top of a plot the short
    // labels get empty lines first, so that every label's last line sits just above the plot, and
    // the padding grows by the extra lines.
    const padded = [...lines].map(([label, l]) => [label, orient === 'top' ? [...Array<string>(most - l.length).fill(''), ...l] : l] as const);
    const multi = padded.filter(([, l]) => l.length > 1);
    return {
      mode: 'wrapped',
      axis: {
        labelAngle: 0,
        labelAlign: 'center',
        labelLineHeight: LINE_HEIGHT,
        ...(orient === 'top' ? { labelPadding: 3 + (most - 1) * LINE_HEIGHT } : {}),
        labelExpr: `${JSON.stringify(Object.fromEntries(multi))}[datum.label] || datum.label`,
      },
    };
  }
  return {
    mode: 'slanted',
    axis: orient === 'top' ? { labelAngle: -40, labelAlign: 'left' } : { labelAngle: -40, labelAlign: 'right', labelBaseline: 'top' },
  };
}

/** The words of `text` in as few lines as fit `room` pixels, or undefined when a word alone does not. */
export function wrapWords(text: string, room: number, width: (t: string) => number): string[] | undefined {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (width(word) > room) return undefined;
    const joined = line === '' ? word : `${line} ${word}`;
    if (width(joined) <= room) line = joined;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
