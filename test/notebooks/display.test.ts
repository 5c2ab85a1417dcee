/**
 * display(): one notebook output with the Vega-Lite 5 spec, SVG and PNG images and a text
 * fallback. The tslab kernel itself is exercised by executing the notebooks
 * (test/notebooks/notebooks.test.ts); here the bundle goes to an injected writer.
 */
import { describe, expect, it } from 'vitest';
import { version } from 'vega-lite';
import { UsageError, crossMarketBars, display } from '../../src/index.js';
import { toMimeBundle, vegaLiteMimeType } from '../../src/notebook/display.js';
import type { MimeBundle } from '../../src/index.js';
import { VEGA_LITE_SCHEMA } from '../../src/charts/chart-spec.js';
import * as f from '../charts/fixtures.js';
import { pngSize } from '../charts/helpers.js';

const spec = crossMarketBars(f.crossMarketRows(), { entityId: 1 });

describe('display', () => {
  it('uses the Vega-Lite MIME type of the installed major version', () => {
    const major = version.split('.')[0];
    expect(VEGA_LITE_SCHEMA).toBe(`https://vega.github.io/schema/vega-lite/v${major}.json`);
    expect(vegaLiteMimeType(spec)).toBe(`application/vnd.vegalite.v${major}+json`);
  });

  it('writes one bundle: the Vega-Lite 5 spec, an SVG, a PNG and text, and no HTML', async () => {
    const written: MimeBundle[] = [];
    await display(spec, { write: (b) => written.push(b) });
    expect(written).toHaveLength(1);
    const data = written[0]?.data ?? {};
    expect(Object.keys(data)).toEqual(['application/vnd.vegalite.v5+json', 'image/svg+xml', 'image/png', 'text/plain']);
    expect(data['application/vnd.vegalite.v5+json']).toEqual({ ...spec, $schema: 'https://vega.github.io/schema/vega-lite/v5.json' });
    expect(String(data['image/svg+xml'])).toMatch(/^<svg/);
    expect(data['text/plain']).toMatch(/^Lay's: Differentiation across markets\./);
  });

  it('shows the PNG at the chart size, drawn at twice the density by default', async () => {
    const bundle = await toMimeBundle(spec);
    const png = Buffer.from(String(bundle.data['image/png']), 'base64');
    const meta = bundle.metadata['image/png'] as { width: number; height: number };
    expect(pngSize(png)).toEqual({ width: meta.width * 2, height: meta.height * 2 });
    const once = await toMimeBundle(spec, { scale: 1 });
    expect(pngSize(Buffer.from(String(once.data['image/png']), 'base64'))).toEqual({ width: meta.width, height: meta.height });
  });

  it('says what to do outside a notebook', async () => {
    await expect(display(spec)).rejects.toThrow(UsageError);
    await expect(display(spec)).rejects.toThrow(/renderPng/);
  });
});
