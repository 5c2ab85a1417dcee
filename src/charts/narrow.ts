/**
 * A chart made narrower for a narrow room (a workbook sheet beside its table) without shrinking
 * its text: legends under the plot rather than right of it, and a long title in lines. Its views
 * are then narrowed by `fitWidth`; what is left is text, which keeps its size.
 */
import { wrapWords } from './band-labels.js';
import type { ChartSpec } from './chart-spec.js';
import { CHART_FONT_SIZES } from './chart-theme.js';
import { measureText } from './measure-text.js';

/**
 * A copy of the spec for a room `width` pixels wide: every legend at the right (or left) moved
 * above the plot and laid out across (a tall chart's legend is then seen with its top), and the
 * chart's title and subtitle wrapped into lines of at most `width`. With `stack`, a facet's columns
 * become rows. Data, marks
 * and text sizes are left alone.
 *
 * @example
 * const narrow = narrowLayout(spec, 560);
 * const { svg } = await fitWidth(narrow, { width: 560 });
 */
export function narrowLayout(spec: ChartSpec, width: number, options: { stack?: boolean } = {}): ChartSpec {
  const moved = legendsAbove(options.stack ? stacked(spec) : spec);
  const title = moved['title'];
  if (title === undefined) return moved;
  return { ...moved, title: wrapTitle(title, width) };
}

function legendsAbove(spec: ChartSpec): ChartSpec {
  const above = (legend: Record<string, unknown>) => {
    const orient = legend['orient'];
    if (orient !== undefined && orient !== 'right' && orient !== 'left') return legend;
    const { gradientLength, ...rest } = legend;
    // A gradient across is about as long as it stood, within what its labels need.
    return { ...rest, orient: 'top', direction: 'horizontal', ...(typeof gradientLength === 'number' ? { gradientLength: Math.max(160, Math.min(gradientLength, 240)) } : {}) };
  };
  const move = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(move);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'data') out[key] = value;
      else if (key === 'legend' && typeof value === 'object' && value !== null) out[key] = above(value as Record<string, unknown>);
      else out[key] = move(value);
    }
    return out;
  };
  const moved = move(spec) as ChartSpec;
  // Channels without a legend of their own take the config's: above too.
  const config = typeof moved['config'] === 'object' && moved['config'] !== null ? (moved['config'] as Record<string, unknown>) : {};
  const legend = typeof config['legend'] === 'object' && config['legend'] !== null ? config['legend'] : {};
  return { ...moved, config: { ...config, legend: { ...legend, orient: 'top', direction: 'horizontal' } } };
}

/**
 * The spec with a facet's columns as rows (the top level only). Concatenated panels are left as
 * they are: their builders drew the row labels on the first panel of each row only.
 */
function stacked(spec: ChartSpec): ChartSpec {
  const { facet, ...rest } = spec as Record<string, unknown>;
  const f = facet as { column?: Record<string, unknown>; row?: unknown } | undefined;
  if (!f?.column || f.row !== undefined) return spec;
  const { column, ...others } = f;
  const header = typeof column['header'] === 'object' && column['header'] !== null ? column['header'] : {};
  // A row's header reads across above its panel, as the column's did, and each panel keeps its
  // own column labels (a shared axis would label the first only, above the first header).
  const resolve = (rest['resolve'] ?? {}) as { axis?: Record<string, unknown> };
  return {
    ...rest,
    facet: { ...others, row: { ...column, header: { ...header, labelOrient: 'top', labelAngle: 0, labelAnchor: 'start' } } },
    resolve: { ...resolve, axis: { ...resolve.axis, x: 'independent' } },
  };
}

/** A title (a string, lines, or `{ text, subtitle }`) with its text and subtitle wrapped to `width`. */
function wrapTitle(title: unknown, width: number): unknown {
  const wrap = (text: unknown, size: number, bold: boolean): unknown => {
    const lines = typeof text === 'string' ? [text] : Array.isArray(text) && text.every((t) => typeof t === 'string') ? (text) : undefined;
    if (!lines) return text;
    const wrapped = lines.flatMap((line) => wrapWords(line, width, (t) => measureText(t, size, bold)) ?? [line]);
    return wrapped.length === 1 ? wrapped[0] : wrapped;
  };
  if (typeof title === 'string' || Array.isArray(title)) return wrap(title, CHART_FONT_SIZES.title, true);
  if (typeof title !== 'object' || title === null) return title;
  const t = title as Record<string, unknown>;
  return {
    ...t,
    text: wrap(t['text'], typeof t['fontSize'] === 'number' ? t['fontSize'] : CHART_FONT_SIZES.title, true),
    ...(t['subtitle'] === undefined ? {} : { subtitle: wrap(t['subtitle'], typeof t['subtitleFontSize'] === 'number' ? t['subtitleFontSize'] : CHART_FONT_SIZES.subtitle, false) }),
  };
}
