/**
 * Shows a chart or a table in a tslab (TypeScript) Jupyter notebook.
 *
 * A table (`FrameTable`) is one output with an HTML table and its text form (`text/html` and
 * `text/plain`): for a table HTML is the right representation, and every front end renders it.
 *
 * A chart is ONE output carrying four
 * representations: the Vega-Lite spec as `application/vnd.vegalite.v5+json` (interactive in
 * JupyterLab 4 and VS Code, whose renderers stop at v5: no front end renders a v6 MIME type), an
 * SVG and a PNG image (shown by nbconvert's HTML export, GitHub and viewers without a Vega
 * renderer, which drop outputs that only carry a Vega-Lite MIME type) and a text fallback. No
 * `text/html`: it outranks the Vega renderer in JupyterLab and in nbconvert.
 *
 * The builders write Vega-Lite 6 specs; the bundle carries the same spec under the v5 `$schema`
 * (a test compiles every builder's spec with vega-lite 5 without a warning).
 *
 * tslab's public `display.raw()` emits one MIME type per call, so the bundle goes through the
 * kernel's own `lastWriteDisplayData` (undocumented, in `tslab/dist/jupyter`), which takes a
 * whole Jupyter display_data message.
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { FrameTable, type FrameMeta, type TableFormatOptions } from '../frames/frame-table.js';
import { type ChartSpec, VEGA_LITE_SCHEMA } from '../charts/chart-spec.js';
import { type PngOptions, renderPng, renderSvg, svgSize } from '../charts/render.js';

/**
 * A Jupyter MIME bundle: the `data` and `metadata` of a display_data message.
 *
 * @example
 * const bundle: MimeBundle = await toMimeBundle(spec);
 * bundle.data['image/svg+xml'] // '<svg ...'
 */
export interface MimeBundle {
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * Options of `display` and `toMimeBundle`.
 *
 * @example
 * await display(spec, { scale: 1 }); // a PNG at the chart's own size (default 2: sharp on high-density screens)
 */
export interface DisplayOptions extends PngOptions {
  /**
   * Where the bundle goes. Default: the tslab kernel running the notebook. Tests and other
   * kernels pass their own.
   */
  write?: (bundle: MimeBundle) => void;
}

/**
 * Options of `display(table)` and `tableMimeBundle`: how the table is shown (`toHtml()`'s and
 * `toString()`'s options), and where the bundle goes.
 *
 * @example
 * await display(table, { rows: 20 }); // the first and last 10 rows
 */
export interface TableDisplayOptions extends TableFormatOptions {
  /** Where the bundle goes. Default: the tslab kernel running the notebook. */
  write?: (bundle: MimeBundle) => void;
}

/**
 * The MIME bundle `display(table)` emits: the table as HTML (`toHtml()`) and as text (`toString()`).
 *
 * @example
 * Object.keys(tableMimeBundle(table).data) // ['text/html', 'text/plain']
 */
export function tableMimeBundle(table: FrameTable<object, FrameMeta>, options: TableFormatOptions = {}): MimeBundle {
  return { data: { 'text/html': table.toHtml(options), 'text/plain': table.toString(options) }, metadata: {} };
}

/** The `$schema` of the spec a notebook output carries: Vega-Lite 5, the newest front ends render. */
export const NOTEBOOK_VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/**
 * The spec as a notebook output carries it: the same spec under the Vega-Lite 5 `$schema`.
 *
 * @example
 * toVegaLiteV5(powerGrid(rows)).$schema // 'https://vega.github.io/schema/vega-lite/v5.json'
 */
export function toVegaLiteV5(spec: ChartSpec): ChartSpec {
  return { ...spec, $schema: NOTEBOOK_VEGA_LITE_SCHEMA };
}

/**
 * The Vega-Lite MIME type of a spec, versioned by the major version of its `$schema` (front ends
 * register renderers per major version: `application/vnd.vegalite.v6+json` for Vega-Lite 6).
 *
 * @example
 * vegaLiteMimeType(crossMarketHeatmap(rows)) // 'application/vnd.vegalite.v6+json'
 * vegaLiteMimeType(toVegaLiteV5(crossMarketHeatmap(rows))) // 'application/vnd.vegalite.v5+json', what display() emits
 */
export function vegaLiteMimeType(spec: ChartSpec): string {
  const schema = typeof spec.$schema === 'string' ? spec.$schema : VEGA_LITE_SCHEMA;
  const major = /\/vega-lite\/v(\d+)/.exec(schema)?.[1] ?? /\/vega-lite\/v(\d+)/.exec(VEGA_LITE_SCHEMA)?.[1] ?? '6';
  return `application/vnd.vegalite.v${major}+json`;
}

/**
 * The MIME bundle `display()` emits: the Vega-Lite 5 spec, an SVG, a PNG (at `scale`, default 2,
 * shown at the chart's size: sharp on high-density screens) and text, nothing else.
 *
 * @example
 * const bundle = await toMimeBundle(spec);
 * Object.keys(bundle.data) // ['application/vnd.vegalite.v5+json', 'image/svg+xml', 'image/png', 'text/plain']
 */
export async function toMimeBundle(spec: ChartSpec, options: DisplayOptions = {}): Promise<MimeBundle> {
  const svg = await renderSvg(spec, options);
  const { width, height } = svgSize(svg);
  const v5 = toVegaLiteV5(spec);
  // The PNG is the SVG's fallback: the same layout, not widened to a slide's width.
  const png = await renderPng(spec, { ...options, scale: options.scale ?? 2, minWidth: 0 });
  return {
    data: {
      [vegaLiteMimeType(v5)]: v5,
      'image/svg+xml': svg,
      'image/png': png.toString('base64'),
      'text/plain': describe(spec, width, height),
    },
    metadata: { 'image/png': { width, height } },
  };
}

/**
 * Shows a chart or a table in a tslab notebook cell. A chart is one output: Vega-Lite 5 spec, SVG,
 * PNG and text; await it: rendering the image is asynchronous, and the output must be written while
 * the cell runs. A table is one output: an HTML table (`toHtml()`) and its text (`toString()`), with
 * `toHtml()`'s options (`rows`, `columns`, `decimals`, ...).
 *
 * @throws UsageError outside a tslab kernel (unless `write` is given).
 * @example
 * // in a notebook cell
 * import { display, powerGrid } from 'brandscape-kit';
 * await display(powerGrid(rows));
 * await display(table.where({ year: 2024 }), { rows: 20 });
 */
export async function display(spec: ChartSpec, options?: DisplayOptions): Promise<void>;
export async function display(table: FrameTable<object, FrameMeta>, options?: TableDisplayOptions): Promise<void>;
export async function display(shown: ChartSpec | FrameTable<object, FrameMeta>, options: DisplayOptions | TableDisplayOptions = {}): Promise<void> {
  const write = options.write ?? tslabWriter();
  // The overloads pair a table with TableDisplayOptions and a chart with DisplayOptions.
  if (shown instanceof FrameTable) write(tableMimeBundle(shown, options as TableDisplayOptions));
  else write(await toMimeBundle(shown, options));
}

type WriteDisplayData = (message: { data: Record<string, unknown>; metadata: Record<string, unknown>; transient: Record<string, unknown> }, update: boolean) => void;

/**
 * Writes a display_data message to the notebook cell that is running, or, with `update`, replaces
 * the output carrying the same `transient.display_id` (a progress line).
 */
export type DisplayWriter = (bundle: MimeBundle & { transient?: Record<string, unknown> }, update?: boolean) => void;

/**
 * The running tslab kernel's display writer, or undefined outside a tslab kernel. Looked up from
 * this package's dependencies first, then next to the kernel's own entry script (a notebook may
 * run a tslab installed elsewhere); the writer is only set while the kernel executes a cell.
 */
export function findTslabWriter(): DisplayWriter | undefined {
  const candidates: (() => unknown)[] = [() => createRequire(import.meta.url)('tslab/dist/jupyter') as unknown];
  const entry = process.argv[1];
  if (entry !== undefined) {
    candidates.push(() => createRequire(realpathSync(entry))(join(dirname(realpathSync(entry)), '..', 'dist', 'jupyter')));
  }
  for (const load of candidates) {
    let mod: unknown;
    try {
      mod = load();
    } catch {
      continue;
    }
    const writer: unknown = typeof mod === 'object' && mod !== null ? Reflect.get(mod, 'lastWriteDisplayData') : undefined;
    if (typeof writer === 'function') {
      // Narrowed to a function above; its signature is tslab's (dist/jupyter.d.ts).
      const fn = writer as WriteDisplayData;
      return (bundle, update = false) => fn({ data: bundle.data, metadata: bundle.metadata, transient: bundle.transient ?? {} }, update);
    }
  }
  return undefined;
}

function tslabWriter(): (bundle: MimeBundle) => void {
  const writer = findTslabWriter();
  if (writer !== undefined) return (bundle) => writer(bundle);
  throw new UsageError('display() shows charts and tables in a Jupyter notebook run by the tslab kernel, and no tslab kernel is running this code.', {
    hint:
      'In a notebook: tslab is an optional dependency of brandscape-kit; install it in your project (npm install tslab@^1.0.22), ' +
      "then 'npx brandscape notebook' registers this project's kernel and opens Jupyter ('npx brandscape init' makes a project with both). " +
      'Outside a notebook, use renderSvg() or renderPng() and write the result to a file, or pass a write function.',
  });
}

/** The text/plain fallback: what the chart is, for consoles and screen readers. */
function describe(spec: ChartSpec, width: number, height: number): string {
  const words = (t: unknown): string => (typeof t === 'string' ? t : Array.isArray(t) ? t.filter((x) => typeof x === 'string').join(' ') : '');
  const title: unknown = spec.title;
  const block = typeof title === 'object' && title !== null && !Array.isArray(title) ? (title as { text?: unknown; subtitle?: unknown }) : { text: title };
  const text = words(block.text) || 'Chart';
  const subtitle = words(block.subtitle);
  return `${text}.${subtitle ? ` ${subtitle}` : ''} (Vega-Lite chart, ${Math.round(width)} × ${Math.round(height)} px)`;
}
