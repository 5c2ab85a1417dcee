/**
 * The rendering adapter: fonts loaded explicitly (with a clear error when missing), the same
 * bytes for the same spec, no data fetched, Vega's warnings forwarded, bad specs refused.
 */
import { describe, expect, it } from 'vitest';
import { FontMissingError, UsageError, renderPng, renderSvg } from '../../src/index.js';
import { DEFAULT_CHART_FONTS } from '../../src/charts/render.js';
import { truncateLabel } from '../../src/charts/truncate-label.js';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { VEGA_LITE_SCHEMA } from '../../src/charts/chart-spec.js';
import { chartTheme } from '../../src/charts/chart-theme.js';
import { pngSize } from './helpers.js';

const tiny: ChartSpec = {
  $schema: VEGA_LITE_SCHEMA,
  title: 'Tiny',
  config: chartTheme,
  data: { values: [{ a: 'Alpha', b: 3 }, { a: 'Beta', b: 5 }] },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal', title: 'Letter' }, y: { field: 'b', type: 'quantitative', title: 'Count' } },
};

describe('renderPng', () => {
  it('fails with a typed error naming the missing font and the Debian package', async () => {
    const fonts = { ...DEFAULT_CHART_FONTS, bold: '/nonexistent/DejaVuSans-Bold.ttf' };
    const error = await renderPng(tiny, { fonts }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FontMissingError);
    expect(error).toMatchObject({ code: 'font_missing', fontFile: '/nonexistent/DejaVuSans-Bold.ttf', debianPackage: 'fonts-dejavu-core' });
    expect(String((error as Error).message)).toMatch(/DejaVu Sans Bold.*\/nonexistent\/DejaVuSans-Bold\.ttf.*fonts-dejavu-core/s);
  });

  it('gives the same bytes for the same spec, and scales', async () => {
    const a = await renderPng(tiny, { scale: 2, minWidth: 0 });
    const b = await renderPng(structuredClone(tiny), { scale: 2, minWidth: 0 });
    expect(Buffer.compare(a, b)).toBe(0);
    const one = pngSize(await renderPng(tiny, { scale: 1, minWidth: 0 }));
    expect(pngSize(a)).toEqual({ width: one.width * 2, height: one.height * 2 });
  });

  it('draws at deck resolution by default: a full-width figure at least 1600 px wide at scale 2', async () => {
    const wide = { ...tiny, width: 300, height: 200 };
    const asDrawn = pngSize(await renderPng(wide, { scale: 1, minWidth: 0 }));
    expect(asDrawn.width).toBeLessThan(400);
    const deck = pngSize(await renderPng(wide));
    expect(deck.width).toBeGreaterThanOrEqual(1600);
    expect(deck.width).toBeLessThanOrEqual(1620);
    expect(deck.height).toBe(asDrawn.height * 2);
  });

  it('draws text in DejaVu Sans, not a serif fallback', async () => {
    // The PNG equals resvg's rendering of the SVG with DejaVu Sans as the only font, and differs
    // from the rendering with DejaVu Serif: the family in the SVG resolves to the sans face.
    const { Resvg } = await import('@resvg/resvg-js');
    const svg = await renderSvg(tiny);
    const raster = (file: string, family: string) =>
      new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [file], defaultFontFamily: family } }).render().asPng();
    const png = await renderPng(tiny, { scale: 1, minWidth: 0, fonts: { ...DEFAULT_CHART_FONTS, bold: DEFAULT_CHART_FONTS.regular, fallback: [] } });
    expect(Buffer.compare(png, raster(DEFAULT_CHART_FONTS.regular, 'DejaVu Sans'))).toBe(0);
    expect(Buffer.compare(png, raster('/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf', 'DejaVu Serif'))).not.toBe(0);
  });

  it('refuses scales out of range', async () => {
    await expect(renderPng(tiny, { scale: 0 })).rejects.toThrow(UsageError);
  });
});

describe('renderSvg', () => {
  it('lays text out with DejaVu Sans widths, so long labels are not cut by an estimate', async () => {
    const name = truncateLabel('A brand name of quite some length indeed', 24);
    const svg = await renderSvg({ ...tiny, data: { values: [{ a: name, b: 1 }] } });
    expect(svg).toContain(`>${name}</text>`);
    expect(svg).toContain("font-family=\"'DejaVu Sans', Verdana");
  });

  it('gives each mark with a tooltip a native <title> and names it by the tooltip, never by raw field names', async () => {
    const svg = await renderSvg({
      ...tiny,
      data: { values: [{ market_label: 'France', b: 3.14159, name: 'Veros <FR>' }] },
      encoding: {
        x: { field: 'market_label', type: 'nominal', title: null },
        y: { field: 'b', type: 'quantitative', title: 'Esteem' },
        tooltip: [
          { field: 'name', type: 'nominal', title: 'Brand' },
          { field: 'b', type: 'quantitative', title: 'Esteem', format: '.0f' },
        ],
      },
    });
    expect(svg).toContain('<title>Brand: Veros &lt;FR&gt;\nEsteem: 3</title>');
    expect(svg).toContain('aria-label="Brand: Veros &lt;FR&gt;; Esteem: 3"');
    expect(svg).not.toMatch(/aria-label="[^"]*market_label/);
  });

  it('never fetches data: specs must carry their data inline', async () => {
    const remote: ChartSpec = { ...tiny, data: { url: 'https://example.com/data.json' } };
    await expect(renderSvg(remote)).rejects.toThrow(/data\.values/);
  });

  it('forwards warnings and refuses specs that do not compile', async () => {
    const warnings: string[] = [];
    await renderSvg({ ...tiny, encoding: { ...(tiny['encoding'] as object), color: { field: 'a', type: 'quantitative', scale: { type: 'band' } } } }, {
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings.length).toBeGreaterThan(0);
    await expect(renderSvg({ mark: 'nonsense' })).rejects.toThrow(UsageError);
  });
});
