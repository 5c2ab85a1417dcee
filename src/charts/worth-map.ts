/**
 * Worth map: brands (or categories) of a worth-map tool placed by brand stature (x) and brand
 * strength (y), both percentile ranks of the study, with the quadrant lines at 50 and labels placed
 * so that they do not overlap.
 */
import { UsageError } from '../errors.js';
import type { BrandWorthMap, CategoryWorthMap } from '../schemas/turbo-pitch.js';
import { type ChartOptions, type ChartSpec, VEGA_LITE_SCHEMA, chartTitle, labelLength } from './chart-spec.js';
import { published } from './vega-lite-spec.js';
import { CHART_FONT_SIZES, CHART_PALETTE, chartTheme } from './chart-theme.js';
import { measureText } from './measure-text.js';
import { type Box, placeLabels } from './place-labels.js';
import { POWER_GRID_QUADRANTS } from './power-grid.js';
import { quadrantCaptions, quadrantFrame } from './quadrant-frame.js';
import { uniqueLabels } from './truncate-label.js';

interface Point {
  key: string;
  name: string;
  study: number | null;
  x: number;
  y: number;
}

function pointsOf(map: BrandWorthMap | CategoryWorthMap): Point[] {
  const byKey = new Map<string, Partial<Point> & { key: string }>();
  for (const d of map.data) {
    const isBrand = 'brand_id' in d;
    const id = isBrand ? d.brand_id : d.category_id;
    const key = `${id}|${d.study_id}`;
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = { key, name: (isBrand ? d.brand_name : d.category_name) ?? String(id), study: d.study_id }));
    if (d.key === map.x_key && d.value !== null) p.x = d.value;
    if (d.key === map.y_key && d.value !== null) p.y = d.value;
  }
  return [...byKey.values()].filter((p): p is Point => p.x !== undefined && p.y !== undefined);
}

/**
 * A worth map of `client.turboPitch.brandWorthMap(...)` or `categoryWorthMap(...)`.
 *
 * @example
 * const map = await client.turboPitch.brandWorthMap({ brands: [368, 412, 977], studies: 381 });
 * const svg = await renderSvg(worthMapChart(map));
 */
export function worthMapChart(map: BrandWorthMap | CategoryWorthMap, options: ChartOptions = {}): ChartSpec {
  const points = pointsOf(map);
  if (points.length === 0) throw new UsageError('The worth map has no point with both axes: nothing to draw.');
  const studies = new Set(points.map((p) => p.study));
  const named = points.map((p) => ({ ...p, name: studies.size > 1 ? `${p.name} (study ${p.study})` : p.name }));
  const width = options.width ?? 440;
  const height = options.height ?? 440;
  const font = CHART_FONT_SIZES.mark;
  const labels = uniqueLabels(named.map((p) => ({ key: p.key, name: p.name })), labelLength(options));
  // Point labels keep clear of the quadrant captions in the corners.
  const pad = 6;
  const captionH = Math.ceil(font * 1.15) + pad;
  const captionW = (text: string) => Math.ceil(measureText(text, font, true)) + 2 + pad;
  const reserved: Box[] = [
    { x0: 0, y0: 0, x1: captionW(POWER_GRID_QUADRANTS.niche), y1: captionH },
    { x0: width - captionW(POWER_GRID_QUADRANTS.leadership), y0: 0, x1: width, y1: captionH },
    { x0: 0, y0: height - captionH, x1: captionW(POWER_GRID_QUADRANTS.new), y1: height },
    { x0: width - captionW(POWER_GRID_QUADRANTS.eroded), y0: height - captionH, x1: width, y1: height },
  ];
  const placed = placeLabels(
    named.map((p) => ({ x: (p.x / 100) * width, y: height - (p.y / 100) * height, text: labels.get(p.key) ?? p.name })),
    { width, height, fontSize: font, radius: 4, reserved, overflowRight: 110 },
  );
  const values = named.map((p, i) => {
    const at = placed[i] ?? null;
    return {
      name: p.name,
      label: labels.get(p.key) ?? p.name,
      x: p.x,
      y: p.y,
      label_align: at === null ? 'none' : at.align,
      label_x: at === null ? null : (at.x / width) * 100,
      label_y: at === null ? null : 100 - (at.y / height) * 100,
    };
  });
  const xOf = (field: string) => ({ field, type: 'quantitative' as const, title: map.x_label ?? 'Brand stature', scale: { domain: [0, 100], nice: false } });
  const yOf = (field: string) => ({ field, type: 'quantitative' as const, title: map.y_label ?? 'Brand strength', scale: { domain: [0, 100], nice: false } });
  const labelLayer = (align: 'left' | 'right' | 'center') => ({
    transform: [{ filter: `datum.label_align === '${align}'` }],
    mark: { type: 'text' as const, align, baseline: 'middle' as const, fontSize: font, color: '#333333', aria: false },
    encoding: { x: xOf('label_x'), y: yOf('label_y'), text: { field: 'label', type: 'nominal' as const } },
  });
  const isBrand = map.data.some((d) => 'brand_id' in d);
  return published({
    $schema: VEGA_LITE_SCHEMA,
    title: chartTitle(options, isBrand ? 'Brand worth map' : 'Category worth map', `Percentile ranks in the study; audience ${map.audience_id ?? 1}, stud${studies.size > 1 ? 'ies' : 'y'} ${[...studies].join(', ')}.`),
    config: chartTheme,
    width,
    height,
    layer: [
      ...quadrantFrame(50, quadrantCaptions(POWER_GRID_QUADRANTS), xOf, yOf, font),
      {
        data: { values },
        layer: [
          {
            mark: { type: 'point', filled: true, size: 64, opacity: 1, color: CHART_PALETTE[0], stroke: 'white', strokeWidth: 1 },
            encoding: {
              x: xOf('x'),
              y: yOf('y'),
              tooltip: [
                { field: 'name', type: 'nominal', title: isBrand ? 'Brand' : 'Category' },
                { field: 'x', type: 'quantitative', title: map.x_label ?? 'x', format: '.1f' },
                { field: 'y', type: 'quantitative', title: map.y_label ?? 'y', format: '.1f' },
              ],
            },
          },
          labelLayer('left'),
          labelLayer('right'),
          labelLayer('center'),
        ],
      },
    ],
  });
}
