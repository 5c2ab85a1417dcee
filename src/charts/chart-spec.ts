/**
 * What every chart builder shares: the spec type, the options common to all builders, and the
 * title block.
 */
import { DEFAULT_LABEL_LENGTH } from './truncate-label.js';

/**
 * A plain Vega-Lite specification, as the builders return it: JSON-serialisable, data inline. Typed
 * as a JSON object rather than with vega-lite's own types, which need the DOM library and modern
 * module resolution in the project that compiles them; vega-lite checks a spec when it is rendered.
 *
 * @example
 * const spec: ChartSpec = powerGrid(rows);
 * spec.width = 640;
 * await writeFile('grid.vl.json', JSON.stringify(spec)); // opens in the Vega editor
 */
export interface ChartSpec {
  /** The Vega-Lite JSON schema the spec follows (`.../vega-lite/v6.json`). */
  $schema?: string;
  /** Any other property of a Vega-Lite specification (https://vega.github.io/vega-lite/docs/spec.html). */
  [property: string]: unknown;
}

/**
 * The `$schema` of every spec. Its major version follows the installed vega-lite (a test checks
 * it), and `display()` derives the notebook MIME type from it.
 *
 * @example
 * const spec = { $schema: VEGA_LITE_SCHEMA, config: chartTheme, data: { values }, mark: 'bar' };
 */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * Options every builder accepts.
 *
 * @example
 * crossMarketHeatmap(rows, { title: 'Differentiation in Europe', width: 480 });
 */
export interface ChartOptions {
  /** Replaces the title the builder writes from the data. */
  title?: string;
  /** Replaces the subtitle (year, market, score type) the builder writes from the data. */
  subtitle?: string;
  /** Width of the plot area (of one panel for small multiples), in pixels. */
  width?: number;
  /** Height of the plot area (of one panel for small multiples), in pixels. */
  height?: number;
  /** Names longer than this many characters are truncated on the chart (full name in tooltips). Default 24. */
  maxLabelLength?: number;
}

/** A chart's title block (a subset of Vega-Lite's title parameters); a long subtitle comes in lines. */
export interface ChartTitle {
  text: string;
  subtitle?: string | string[];
}

/** Subtitles wrap at about this many characters, so that they do not widen a small chart. */
const SUBTITLE_LINE = 80;

/**
 * The title block: the caller's title and subtitle win over the builder's defaults. Long
 * subtitles are broken into lines at word boundaries.
 */
export function chartTitle(options: ChartOptions, title: string, subtitle?: string): ChartTitle {
  const sub = options.subtitle ?? subtitle;
  if (sub === undefined || sub === '') return { text: options.title ?? title };
  // Lines of about equal length, so that a subtitle just over the limit does not leave one
  // word alone on its second line.
  const count = Math.ceil(sub.length / SUBTITLE_LINE);
  const limit = Math.min(SUBTITLE_LINE, Math.ceil(sub.length / count) + 8);
  const lines: string[] = [];
  let line = '';
  for (const word of sub.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > limit) {
      // A number stays with the word it counts ("1 brand"), not alone at a line's end.
      const counted = /^(.*) (\d+)$/.exec(line);
      lines.push(counted ? counted[1]! : line);
      line = counted ? `${counted[2]!} ${word}` : word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return { text: options.title ?? title, subtitle: lines.length === 1 ? (lines[0] ?? sub) : lines };
}

/** The label length option with its default. */
export function labelLength(options: ChartOptions): number {
  return options.maxLabelLength ?? DEFAULT_LABEL_LENGTH;
}

