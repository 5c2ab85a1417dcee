/**
 * Shows a chart in a tslab (TypeScript) Jupyter notebook as ONE output carrying three
 * representations: the Vega-Lite spec (interactive where the front end renders Vega-Lite, e.g.
 * JupyterLab), an SVG or PNG image (shown by nbconvert's HTML export, GitHub and VS Code, which
 * drop outputs that only carry a Vega-Lite MIME type) and a text fallback.
 *
 * tslab's public `display.raw()` emits one MIME type per call, so the bundle goes through the
 * kernel's own `lastWriteDisplayData` (undocumented, in `tslab/dist/jupyter`), which takes a
 * whole Jupyter display_data message.
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { type ChartSpec, VEGA_LITE_SCHEMA } from './chart-spec.js';
import { type PngOptions, renderPng, renderSvg, svgSize } from './render.js';

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
 * await display(spec, { image: 'png', scale: 2 });
 */
export interface DisplayOptions extends PngOptions {
  /** The image in the bundle: SVG (default: sharp at any zoom, small) or PNG (for viewers that do not render SVG). */
  image?: 'svg' | 'png';
  /**
   * Where the bundle goes. Default: the tslab kernel running the notebook. Tests and other
   * kernels pass their own.
   */
  write?: (bundle: MimeBundle) => void;
}

/**
 * The Vega-Lite MIME type of a spec, versioned by the major version of its `$schema` (front ends
 * register renderers per major version: `application/vnd.vegalite.v6+json` for Vega-Lite 6).
 *
 * @example
 * vegaLiteMimeType(crossMarketHeatmap(rows)) // 'application/vnd.vegalite.v6+json'
 */
export function vegaLiteMimeType(spec: ChartSpec): string {
  const schema = typeof spec.$schema === 'string' ? spec.$schema : VEGA_LITE_SCHEMA;
  const major = /\/vega-lite\/v(\d+)/.exec(schema)?.[1] ?? /\/vega-lite\/v(\d+)/.exec(VEGA_LITE_SCHEMA)?.[1] ?? '6';
  return `application/vnd.vegalite.v${major}+json`;
}

/**
 * The MIME bundle `display()` emits: Vega-Lite spec, image and text, with the image's size in the
 * metadata (a PNG at scale 2 is shown at the chart's size, sharp on high-density screens).
 *
 * @example
 * const bundle = await toMimeBundle(spec, { image: 'png', scale: 2 });
 * Object.keys(bundle.data) // ['application/vnd.vegalite.v6+json', 'image/png', 'text/plain']
 */
export async function toMimeBundle(spec: ChartSpec, options: DisplayOptions = {}): Promise<MimeBundle> {
  const svg = await renderSvg(spec, options);
  const { width, height } = svgSize(svg);
  const data: Record<string, unknown> = { [vegaLiteMimeType(spec)]: spec };
  const metadata: Record<string, unknown> = {};
  if (options.image === 'png') {
    data['image/png'] = (await renderPng(spec, options)).toString('base64');
    metadata['image/png'] = { width, height };
  } else {
    data['image/svg+xml'] = svg;
  }
  data['text/plain'] = describe(spec, width, height);
  return { data, metadata };
}

/**
 * Shows a chart in a tslab notebook cell (one output: Vega-Lite spec + image + text). Await it:
 * rendering the image is asynchronous, and the output must be written while the cell runs.
 *
 * @throws UsageError outside a tslab kernel (unless `write` is given).
 * @example
 * // in a notebook cell
 * import { display, powerGrid } from 'brandscape-kit';
 * await display(powerGrid(rows));
 */
export async function display(spec: ChartSpec, options: DisplayOptions = {}): Promise<void> {
  const write = options.write ?? tslabWriter();
  write(await toMimeBundle(spec, options));
}

type WriteDisplayData = (message: { data: Record<string, unknown>; metadata: Record<string, unknown>; transient: Record<string, unknown> }, update: boolean) => void;

/**
 * The running tslab kernel's display writer. Looked up from this package's dependencies first,
 * then next to the kernel's own entry script (a notebook may run a tslab installed elsewhere); the
 * writer is only set while the kernel executes a cell.
 */
function tslabWriter(): (bundle: MimeBundle) => void {
  const candidates: (() => unknown)[] = [() => createRequire(import.meta.url)('tslab/dist/jupyter')];
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
      return (bundle) => fn({ data: bundle.data, metadata: bundle.metadata, transient: {} }, false);
    }
  }
  throw new UsageError('display() shows charts in a tslab notebook, and no tslab kernel is running this code.', {
    hint: 'Outside a notebook, use renderSvg() or renderPng() and write the result to a file, or pass a write function.',
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
