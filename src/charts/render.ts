/**
 * The rendering adapter (DESIGN.md rule 5): Vega-Lite spec → Vega → SVG → PNG, in Node, without a
 * browser or the `canvas` package. This file and nothing else in the toolkit imports vega,
 * vega-lite and @resvg/resvg-js, and only lazily with `import()` inside the functions: vega has a
 * top-level `await`, so a tslab notebook cell (which turns imports into `require()`) could not
 * load a module that imported it statically, and the CLI does not pay vega's load time unless it
 * draws a chart.
 */
import { existsSync } from 'node:fs';
import type { Loader, ViewOptions } from 'vega';
import { UsageError } from '../errors.js';
import type { ChartSpec } from './chart-spec.js';
import { forVegaLite } from './vega-lite-spec.js';
import { scaleHeights, scaleWidths } from './scale-widths.js';
import { FontMissingError } from './font-missing-error.js';
import { measureText } from './measure-text.js';

/**
 * Font files the PNG renderer loads: the regular and bold faces of one family, and fallbacks.
 *
 * @example
 * const fonts: ChartFonts = { ...DEFAULT_CHART_FONTS, fallback: ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'] };
 */
export interface ChartFonts {
  /** Family name the files declare, e.g. `DejaVu Sans`. */
  family: string;
  regular: string;
  bold: string;
  /**
   * Fonts for characters the family lacks (DejaVu Sans has no Chinese, Japanese or Korean), used
   * when they exist. Missing files are skipped: they only matter for names in those scripts.
   */
  fallback?: readonly string[];
}

/**
 * DejaVu Sans, as the Debian package `fonts-dejavu-core` installs it. Loaded explicitly (no
 * system font lookup), so the PNG of a spec is the same bytes on every machine with the package.
 *
 * @example
 * // fonts installed somewhere else
 * await renderPng(spec, { fonts: { ...DEFAULT_CHART_FONTS, regular: '/opt/fonts/DejaVuSans.ttf', bold: '/opt/fonts/DejaVuSans-Bold.ttf' } });
 */
export const DEFAULT_CHART_FONTS: ChartFonts = {
  family: 'DejaVu Sans',
  regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  // Japanese, Chinese and Korean local brand names draw as empty boxes without one of these
  // (Debian packages fonts-noto-cjk, or the smaller fonts-droid-fallback).
  fallback: [
    '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
    '/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf',
  ],
};

/**
 * Options of `renderSvg`.
 *
 * @example
 * const svg = await renderSvg(spec, { onWarning: (message) => console.warn(message) });
 */
export interface RenderOptions {
  /**
   * Receives Vega-Lite's and Vega's warnings (e.g. a field the data lacks). Without it they are
   * dropped: a library should not print to the console on its own.
   */
  onWarning?: (message: string) => void;
}

/**
 * Options of `renderPng`.
 *
 * @example
 * const png = await renderPng(spec, { scale: 2 });
 */
export interface PngOptions extends RenderOptions {
  /** Pixel density: 2 gives a PNG twice the chart's size in each direction, sharp on slides. Default 2. */
  scale?: number;
  /**
   * The narrowest the chart is drawn, in CSS pixels before `scale`: a narrower chart has its view
   * widths scaled up (at most 2.5 times) to about this width, so that by default a chart is at least
   * 1600 px wide, a full-width figure on a slide. Wider charts are drawn as they are. `0` draws
   * every chart at its own size. Default 800.
   */
  minWidth?: number;
  /** The fonts to draw text with. Default `DEFAULT_CHART_FONTS`. */
  fonts?: ChartFonts;
}

type Logger = NonNullable<ViewOptions['logger']>;

interface ChartLogger extends Logger {
  readonly errors: string[];
}

/**
 * Vega's logger interface, forwarding warnings to `onWarning` and collecting errors. Built from
 * closures, not a class: Vega calls some logger methods detached from the logger.
 */
function chartLogger(onWarning: ((message: string) => void) | undefined): ChartLogger {
  let level = 2; // vega-util's Warn
  const errors: string[] = [];
  const text = (args: unknown[]): string => args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
  const logger: ChartLogger = {
    errors,
    level(next?: number) {
      if (next === undefined) return level;
      level = next;
      return logger;
    },
    error(...args: unknown[]) {
      errors.push(text(args));
      return logger;
    },
    warn(...args: unknown[]) {
      if (level >= 2) onWarning?.(text(args));
      return logger;
    },
    info() {
      return logger;
    },
    debug() {
      return logger;
    },
  };
  return logger;
}

/**
 * Compiles a Vega-Lite spec and renders it to an SVG string, with Vega's SVG renderer. Text is laid
 * out with DejaVu Sans' widths (the face `renderPng` draws with; Verdana is the nearest fallback in
 * a browser), as there is no canvas in Node to measure it.
 *
 * @example
 * const svg = await renderSvg(crossMarketHeatmap(rows));
 * await writeFile('heatmap.svg', svg);
 */
export async function renderSvg(spec: ChartSpec, options: RenderOptions = {}): Promise<string> {
  return toSvg(spec, options);
}

async function toSvg(spec: ChartSpec, options: RenderOptions): Promise<string> {
  const [vl, vega] = await Promise.all([import('vega-lite'), import('vega')]);
  useDejaVuMetrics(vega);
  const logger = chartLogger(options.onWarning);
  let vegaSpec;
  try {
    vegaSpec = vl.compile(forVegaLite(spec), { logger }).spec;
  } catch (error) {
    throw new UsageError(`The chart spec does not compile with Vega-Lite: ${error instanceof Error ? error.message : String(error)}.`, {
      hint: 'Check the spec against https://vega.github.io/vega-lite/docs/.',
      cause: error,
    });
  }
  // Charts never fetch (DESIGN.md): data must come inline. Checked on the compiled spec, where
  // every data source of every layer and facet has been gathered into one list.
  const remote = (vegaSpec.data ?? []).flatMap((d) => ('url' in d && d.url !== undefined ? [typeof d.url === 'string' ? d.url : JSON.stringify(d.url)] : []));
  if (remote.length > 0) {
    throw new UsageError(`The chart spec asks to load ${remote.join(', ')}; charts render only data given inline in the spec (data.values).`);
  }
  const view = new vega.View(vega.parse(vegaSpec), { renderer: 'none', logger, loader: noFetchLoader(vega.loader()) });
  try {
    await view.runAsync();
    const titles = describeFromTooltips(Reflect.get(view.scenegraph(), 'root'));
    const svg = await view.toSVG();
    if (logger.errors.length > 0) throw new UsageError(`Vega could not render the chart: ${logger.errors.join('; ')}.`);
    return withTooltipTitles(svg, titles);
  } finally {
    view.finalize();
  }
}

/**
 * Renders a Vega-Lite spec to a PNG: `renderSvg`, then resvg with the fonts loaded explicitly, so
 * the same spec gives the same bytes. Rasterising runs on libuv's thread pool, so several charts
 * rendered with `Promise.all` use several cores.
 *
 * @throws FontMissingError when a font file is missing (install `fonts-dejavu-core`).
 * @example
 * const png = await renderPng(powerGrid(rows), { scale: 2 });
 * await writeFile('power-grid.png', png);
 */
export async function renderPng(spec: ChartSpec, options: PngOptions = {}): Promise<Buffer> {
  const fonts = options.fonts ?? DEFAULT_CHART_FONTS;
  checkFonts(fonts);
  const scale = options.scale ?? 2;
  if (!(scale > 0 && scale <= 8)) throw new UsageError(`The PNG scale must be above 0 and at most 8; got ${scale}.`);
  const minWidth = options.minWidth ?? 800;
  // Tooltips and ARIA labels are invisible in a raster image, and building their text for every
  // mark is a quarter of Vega's time on a 5,000-point chart: drop them.
  const raster = forRaster(spec);
  const first = await toSvg(raster, options);
  const svg = svgSize(first).width >= minWidth ? first : (await fitWidth(raster, { ...options, width: minWidth }, first)).svg;
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(svg, {
    font: {
      // No system font lookup: the output must not depend on what else is installed.
      loadSystemFonts: false,
      fontFiles: [fonts.regular, fonts.bold, ...(fonts.fallback ?? []).filter((file) => existsSync(file))],
      // Vega writes the theme's font stack; without these, resvg falls back to a serif face.
      defaultFontFamily: fonts.family,
      sansSerifFamily: fonts.family,
    },
    fitTo: { mode: 'zoom', value: scale },
    logLevel: 'off',
  });
  return image.asPng();
}

/**
 * Options of `fitWidth`.
 *
 * @example
 * const { svg } = await fitWidth(spec, { width: 1152 });
 */
export interface FitWidthOptions extends RenderOptions {
  /** The width to fill, in CSS pixels. */
  width: number;
  /**
   * How much wider than drawn a chart may be made: a scatter or a three-column heatmap stretched
   * further would read worse than it fills. Default 2.5.
   */
  maxFactor?: number;
  /**
   * How much narrower than drawn a chart's views may be made: cells narrower than half would no
   * longer hold their numbers. Default 0.5.
   */
  minFactor?: number;
}

/**
 * The chart as SVG with its view widths scaled (`scaleWidths`) so that the whole drawing (axes,
 * legends, titles included) is as close to `width` as the spec allows; text keeps its size. A
 * chart's width grows about linearly with its view widths, so two renders give the factor and a
 * third draws it. A chart without a width to scale comes back as drawn.
 *
 * @example
 * const { svg, spec: wide } = await fitWidth(crossMarketHeatmap(rows), { width: 1152 });
 */
export async function fitWidth(spec: ChartSpec, options: FitWidthOptions, drawn?: string): Promise<{ svg: string; spec: ChartSpec }> {
  return fitSize(spec, 'width', options.width, options, drawn);
}

/**
 * The chart with its view heights scaled (`scaleHeights`) so that the drawing is as close to
 * `height` as the spec allows (as `fitWidth` does across); text keeps its size. Internal: the
 * workbook writer makes a chart above its table short enough to show the table's first rows.
 */
export async function fitHeight(spec: ChartSpec, options: RenderOptions & { height: number; minFactor?: number; maxFactor?: number }, drawn?: string): Promise<{ svg: string; spec: ChartSpec }> {
  return fitSize(spec, 'height', options.height, options, drawn);
}

async function fitSize(
  spec: ChartSpec,
  dimension: 'width' | 'height',
  target: number,
  options: RenderOptions & { minFactor?: number; maxFactor?: number },
  drawn?: string,
): Promise<{ svg: string; spec: ChartSpec }> {
  const scaled = dimension === 'width' ? scaleWidths : scaleHeights;
  const maxFactor = options.maxFactor ?? 2.5;
  const first = drawn ?? (await toSvg(spec, options));
  const s1 = svgSize(first)[dimension];
  if (!(s1 > 0) || Math.abs(s1 - target) <= 4) return { svg: first, spec };
  const s2 = svgSize(await toSvg(scaled(spec, 2), {}))[dimension];
  const perFactor = s2 - s1; // the part of the size that scales
  if (!(perFactor > 1)) return { svg: first, spec };
  const factor = Math.min(maxFactor, Math.max(options.minFactor ?? 0.5, (target - (s1 - perFactor)) / perFactor));
  if (Math.abs(factor - 1) < 0.01) return { svg: first, spec };
  const fitted = scaled(spec, factor);
  return { svg: await toSvg(fitted, options), spec: fitted };
}

/** A copy of the spec without tooltips and ARIA attributes; the pixels are the same. */
function forRaster(spec: ChartSpec): ChartSpec {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'data' || key === 'config') out[key] = value;
      else if (key === 'encoding' && typeof value === 'object' && value !== null) {
        const { tooltip: _tooltip, ...rest } = value as Record<string, unknown>;
        out[key] = strip(rest);
      } else out[key] = strip(value);
    }
    return out;
  };
  const stripped = strip(spec) as ChartSpec;
  const config = typeof spec['config'] === 'object' && spec['config'] !== null ? spec['config'] : {};
  return { ...stripped, config: { ...config, aria: false } };
}

/** A node of Vega's scenegraph, as far as tooltips and descriptions go. */
interface SceneNode {
  items?: SceneNode[];
  marktype?: string;
  tooltip?: unknown;
  description?: unknown;
}

/** The lines of a mark's tooltip (`Title: value`), or none. */
/** A scenegraph value as the text Vega shows: arrays (multi-line text) joined, nothing for null. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(textOf).join(',');
  return JSON.stringify(value) ?? '';
}

function tooltipLines(tooltip: unknown): string[] {
  if (tooltip === null || tooltip === undefined || tooltip === '') return [];
  if (typeof tooltip !== 'object') return [textOf(tooltip)];
  return Object.entries(tooltip as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && value !== '' && !(typeof value === 'number' && Number.isNaN(value)))
    .map(([key, value]) => `${key}: ${String(value)}`);
}

/**
 * Makes each mark's accessible name its tooltip (`Brand: Veros; Esteem: 88`), whose parts carry the
 * builders' titles, instead of Vega-Lite's default, which names fields without a title by their
 * raw names (`market_label: France`). Marks without a tooltip (value labels, rules) lose the
 * default name: the mark under them, or the axis, says the same. Returns each name's tooltip lines,
 * for `withTooltipTitles`.
 */
function describeFromTooltips(root: unknown): Map<string, string> {
  const titles = new Map<string, string>();
  const visit = (node: SceneNode | undefined): void => {
    if (node === undefined || node === null) return;
    if (node.marktype !== undefined && node.items !== undefined) {
      // A mark: its items are the drawn shapes (a group mark's items hold further marks).
      for (const item of node.items) {
        if (node.marktype !== 'group' && item.description !== undefined) {
          const lines = tooltipLines(item.tooltip);
          if (lines.length === 0) item.description = undefined;
          else {
            const label = lines.join('; ');
            item.description = label;
            titles.set(label, lines.join('\n'));
          }
        }
        visit(item);
      }
    } else for (const child of node.items ?? []) visit(child);
  };
  visit(root as SceneNode);
  return titles;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const XML_UNESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&apos;': "'" };

/**
 * Vega's SVG renderer writes tooltips nowhere (only its browser handler shows them): each mark with
 * a tooltip gets a native SVG `<title>`, which browsers show on hover without any script, so a
 * chart in a self-contained HTML file, a notebook's SVG output or an SVG file opened alone is
 * interactive as far as reading a value goes.
 */
function withTooltipTitles(svg: string, titles: ReadonlyMap<string, string>): string {
  if (titles.size === 0) return svg;
  // Value labels drawn over a mark (a heatmap's numbers) would catch the pointer and hide the
  // mark's title under them: they let it through.
  const through = svg.replace(/<g class="mark-text role-mark([^"]*)" aria-hidden="true">/g, '<g class="mark-text role-mark$1" aria-hidden="true" pointer-events="none">');
  return through.replace(/<(path|rect|text|line|circle|image|g)\b([^>]*?)\saria-label="([^"]*)"([^>]*?)(\/?)>/g, (tag, name: string, before: string, label: string, after: string, selfClosing: string) => {
    if (!/role="graphics-symbol"/.test(before + after)) return tag;
    const plain = label.replace(/&(amp|lt|gt|quot|#39|apos);/g, (e) => XML_UNESCAPES[e]!);
    const title = titles.get(plain);
    if (title === undefined) return tag;
    const escaped = title.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
    return selfClosing === '' ? `${tag}<title>${escaped}</title>` : `<${name}${before} aria-label="${label}"${after}><title>${escaped}</title></${name}>`;
  });
}

/** Width and height of an SVG from its root element, in CSS pixels. */
export function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  return { width, height };
}

/** The fields of a Vega scenegraph text item that text measurement reads. */
interface TextItem {
  fontSize?: number | string | null;
  fontWeight?: number | string | null;
  limit?: number | null;
}

/**
 * Vega's text width in Node, from DejaVu Sans' advance widths instead of its 0.8 em per character
 * estimate (see measure-text.ts). Vega calls this both to lay out text (where a `limit` caps the
 * width) and, while truncating, on prefixes of the text: capping at the limit serves both, since a
 * prefix that does not fit still compares as not fitting.
 */
function dejaVuWidth(item: TextItem, text: unknown): number {
  const size = item.fontSize === null || item.fontSize === undefined ? 11 : Number(item.fontSize) || 0;
  const value = textOf(text).trim();
  if (size <= 0 || value === '') return 0;
  const weight = item.fontWeight;
  const bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
  const width = measureText(value, size, bold);
  const limit = Number(item.limit);
  return limit > 0 ? Math.min(width, limit) : width;
}

/**
 * Installs `dejaVuWidth` as Vega's text measure. `textMetrics` is a documented extension point of
 * vega-scenegraph (vl-convert replaces it the same way) but missing from vega's type definitions.
 * It is process-wide; it only matters where there is no canvas, that is in Node.
 */
function useDejaVuMetrics(vega: object): void {
  const metrics: unknown = Reflect.get(vega, 'textMetrics');
  if (typeof metrics === 'object' && metrics !== null && Reflect.get(metrics, 'width') !== dejaVuWidth) {
    Reflect.set(metrics, 'width', dejaVuWidth);
  }
}

function checkFonts(fonts: ChartFonts): void {
  if (!existsSync(fonts.regular)) throw new FontMissingError(fonts.family, fonts.regular);
  if (!existsSync(fonts.bold)) throw new FontMissingError(`${fonts.family} Bold`, fonts.bold);
}

/** A loader that refuses to fetch, should anything in a spec still try (e.g. an image mark's URL). */
function noFetchLoader(base: Loader): Loader {
  const refuse = (uri: string): Promise<never> =>
    Promise.reject(new UsageError(`The chart spec asks to load ${uri}; charts render only data given inline in the spec (data.values).`));
  return { ...base, load: refuse, sanitize: refuse, http: refuse, file: refuse };
}
