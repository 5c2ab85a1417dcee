/**
 * What a designer fixed after looking at the charts: value labels clear of the mean's rule, rank
 * axes of line charts on the whole 0–100 scale, no legend that lists one thing, labels level when
 * they fit, and no unrounded number anywhere a reader (or a screen reader) meets it.
 */
import { describe, expect, it } from 'vitest';
import {
  archetypeHeatmap,
  companyView,
  crossMarketBars,
  crossMarketHeatmap,
  crossYearLines,
  pillarsProfile,
  powerGrid,
  renderSvg,
  sectorDistribution,
  slopeChart,
} from '../../src/index.js';
import { bandLabels } from '../../src/charts/band-labels.js';
import { chartTitle, type ChartSpec } from '../../src/charts/chart-spec.js';
import { CHART_FONT_SIZES } from '../../src/charts/chart-theme.js';
import { measureText } from '../../src/charts/measure-text.js';
import type { CrossMarketRow, CrossYearRow } from '../../src/frames/types.js';
import * as f from './fixtures.js';
import { axisLabels, channels, compileMessages, dataRows, subtitleOf, unroundedSvgText, unroundedText } from './helpers.js';

/** The markup of the first x axis's labels in a rendered SVG. */
const xLabelGroup = (svg: string): string => {
  const at = svg.indexOf('aria-label="X-axis');
  return /role-axis-label"[^>]*>([\s\S]*?)<\/g>/.exec(svg.slice(at))?.[1] ?? '';
};
const colourLegends = (spec: unknown) => channels(spec).filter((c) => c.channel === 'color' && c.field !== undefined && c.def.scale !== null);

describe('crossMarketBars: value labels and the mean', () => {
  /** Every label's box in pixels, and the rule's position, for each entity of the fixture. */
  function clashes(rows: readonly CrossMarketRow[], entityId: number): string[] {
    const spec = crossMarketBars(rows, { entityId });
    const width = (spec as { width: number }).width;
    const mean = dataRows(spec).find((r) => typeof r.mean === 'number' && !('market' in r))?.mean as number;
    const px = (v: number) => (v / 100) * width;
    return dataRows(spec)
      .filter((r) => typeof r.label === 'string' && 'market' in r)
      .flatMap((r) => {
        const w = measureText(String(r.label), CHART_FONT_SIZES.mark, false);
        const x = px(Number(r.label_x));
        const [x0, x1] = r.label_align === 'left' ? [x, x + w] : [x - w, x];
        return px(mean) > x0 - 1 && px(mean) < x1 + 1 ? [`${String(r.market)}: label ${String(r.label)} at ${x0.toFixed(0)}–${x1.toFixed(0)} px, rule at ${px(mean).toFixed(0)} px`] : [];
      });
  }

  it('never lets the rule cross a value label, for any brand of the fixture', () => {
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) expect(clashes(f.crossMarketRows(), id), `brand ${id}`).toEqual([]);
  });

  it('puts a label the rule would cross inside its bar, or past the rule when the bar is too short', () => {
    // Lay's: Germany 55.4 against a mean of 56.3; the label just past the bar would sit on the rule.
    const germany = dataRows(crossMarketBars(f.crossMarketRows(), { entityId: 1 })).find((r) => r.market_name === 'Germany');
    expect(germany).toMatchObject({ label: '55', label_align: 'right' });
    expect(Number(germany?.label_x)).toBeLessThan(55.4);
    // A short bar just under a low mean: no room inside, so the label goes past the rule.
    const rows = f.crossMarketRows({ 1: { GB: 3, DE: 4, FR: 6 } });
    const gb = dataRows(crossMarketBars(rows, { entityId: 1 })).find((r) => r.market_name === 'United Kingdom');
    expect(gb?.label_align).toBe('left');
    expect(Number(gb?.label_x)).toBeGreaterThan((3 + 4 + 6) / 3);
    expect(clashes(rows, 1)).toEqual([]);
  });

  it('writes the mean’s label above the plot, where no value label is', () => {
    const spec = crossMarketBars(f.crossMarketRows(), { entityId: 1 });
    const meanText = JSON.stringify(spec).match(/"mark":\{"type":"text"[^}]*"y":-4[^}]*\}/)?.[0];
    expect(meanText).toContain('"baseline":"bottom"');
  });

  it('draws no legend when every bar is on one side of the mean (one market)', () => {
    const spec = crossMarketBars(f.crossMarketRows({ 1: { GB: 71.2 } }), { entityId: 1 });
    expect(colourLegends(spec).every((c) => c.def.legend === null)).toBe(true);
    expect(colourLegends(crossMarketBars(f.crossMarketRows(), { entityId: 1 })).some((c) => c.def.legend !== null)).toBe(true);
  });
});

describe('crossYearLines: the value axis', () => {
  const y = (spec: ChartSpec) => channels(spec).find((c) => c.channel === 'y' && c.field === 'value')?.def.scale as { domain?: number[] } | undefined;

  it('shows percentile ranks on their whole 0–100 scale, even when the lines stay between 50 and 70', () => {
    const rows = f.crossYearRows(['GB']).filter((r) => r.entity_id === 1);
    expect(Math.min(...rows.map((r) => r.value ?? 0))).toBeGreaterThan(50);
    expect(Math.max(...rows.map((r) => r.value ?? 0))).toBeLessThan(71);
    expect(y(crossYearLines(rows))?.domain).toEqual([0, 100]);
    expect(y(slopeChart(rows))?.domain).toEqual([0, 100]);
  });

  it('widens other score types to their reference value, so the reader sees which side of average a line is on', () => {
    const index: CrossYearRow[] = f.crossYearRows(['GB']).map((r) => ({ ...r, score_type: 'brandscape_index', column: 'esteem_brandscape_index', value: 110 + (r.value ?? 0) / 5 }));
    const domain = y(crossYearLines(index))?.domain ?? [];
    expect(domain[0]).toBeLessThanOrEqual(100);
    expect(domain[1]).toBeGreaterThanOrEqual(110 + 96.1 / 5);
  });
});

describe('legends that say nothing', () => {
  it('a line chart of one line has none, and its title names the brand', () => {
    const rows = f.crossYearRows(['GB']).filter((r) => r.entity_id === 2);
    const spec = crossYearLines(rows);
    expect(compileMessages(spec)).toEqual([]);
    expect(colourLegends(spec).every((c) => c.def.legend === null)).toBe(true);
    expect((spec.title as { text: string }).text).toBe('Coca-Cola: Esteem over time');
  });

  it('one brand in several markets gets a line per market in one panel, with a legend of markets', () => {
    const spec = crossYearLines(f.crossYearRows().filter((r) => r.entity_id === 2));
    expect(spec).not.toHaveProperty('facet');
    expect(new Set(dataRows(spec).map((r) => r.series))).toEqual(new Set(['Germany', 'United Kingdom', 'United States']));
    expect(colourLegends(spec).find((c) => c.def.legend !== null)?.title).toBe('Market');
    // Asked for panels, it gets them, still without a one-item legend.
    const panels = crossYearLines(f.crossYearRows().filter((r) => r.entity_id === 2), { smallMultiples: true });
    expect(panels).toHaveProperty('facet');
    expect(colourLegends(panels).every((c) => c.def.legend === null)).toBe(true);
  });

  it('a slope chart where every line goes one way says so instead of a one-colour legend', () => {
    const rows = f.crossYearRows(['GB']).filter((r) => [1, 3, 4].includes(r.entity_id)); // each up by more than the rank trend threshold
    const spec = slopeChart(rows);
    expect(colourLegends(spec).every((c) => c.def.legend === null)).toBe(true);
    expect(subtitleOf(spec)).toContain('Every line goes up.');
  });

  it('a slope chart names the brands it leaves out (no value in both years), and keeps a count with its noun across lines', () => {
    const all = f.crossYearRows(['GB']).filter((r) => [1, 3, 4].includes(r.entity_id));
    const first = all.reduce((a, r) => (r.period_order < a.period_order ? r : a)).period;
    const gone = all.find((r) => r.entity_id === 4)!;
    // Brand 4 without its first year: left out of the chart, by name.
    const rows = all.filter((r) => !(r.entity_id === 4 && r.period === first));
    const subtitle = subtitleOf(slopeChart(rows));
    expect(subtitle).toContain(`${gone.global_name} left out: no value in both ${first} and`);
    // A long subtitle broken into lines never ends a line with a bare number ("1" / "brand").
    const long = chartTitle({}, 'x', 'Differentiation (percentile rank), United Kingdom and Germany. 1 brand without both values left out of some panels.');
    const lines = [long.subtitle ?? []].flat();
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(0, -1)) expect(line).not.toMatch(/ \d+$/);
    expect(lines.join(' ')).toContain('1 brand');
  });

  it('a company view of one market without a share price has none', () => {
    const rows = f.companyRows().filter((r) => r.country_code === 'GB').map((r) => ({ ...r, avg_close_price: null, year_end_close_price: null }));
    expect(colourLegends(companyView(rows)).every((c) => c.def.legend === null)).toBe(true);
    expect(colourLegends(companyView(f.companyRows())).some((c) => c.def.legend !== null)).toBe(true);
  });
});

describe('labels level when they fit', () => {
  it('heatmap markets: level when every name fits its column, on lines when each word does, slanted only when one does not', async () => {
    const short = f.crossMarketRows().filter((r) => ['FR', 'DE', 'JP', 'BR'].includes(r.country_code));
    expect(bandLabels(['Brazil', 'France', 'Germany', 'Japan'], 72, 'top').mode).toBe('level');
    const level = await renderSvg(crossMarketHeatmap(short));
    expect(axisLabels(level, 'X')).toEqual([['Brazil', 'France', 'Germany', 'Japan']]);
    expect(xLabelGroup(level)).not.toContain('rotate(');

    const wrapped = bandLabels(['United Kingdom', 'Brazil'], 72, 'top');
    expect(wrapped.mode).toBe('wrapped');
    const svg = await renderSvg(crossMarketHeatmap(f.crossMarketRows()));
    expect(svg).toMatch(/<tspan>United<\/tspan><tspan[^>]*>Kingdom<\/tspan>/);
    expect(xLabelGroup(svg)).not.toContain('rotate(');

    expect(bandLabels(['Liechtensteinische', 'Brazil'], 72, 'top').mode).toBe('slanted');
  });

  it('a heatmap highlights the focus brand: its row label bold, its cells outlined', async () => {
    const rows = f.crossMarketRows().filter((r) => r.column === f.crossMarketRows()[0]!.column);
    const focus = rows[0]!;
    const svg = await renderSvg(crossMarketHeatmap(rows, { focus: focus.entity_id }));
    const bold = [...svg.matchAll(/<text[^>]*font-weight="bold"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(bold).toContain(focus.global_name);
    const outlined = svg.match(/<path[^>]*stroke="#222222" stroke-width="2"/g) ?? [];
    expect(outlined.length).toBe(new Set(rows.filter((r) => r.entity_id === focus.entity_id && r.value !== null).map((r) => r.market)).size);
    const plain = await renderSvg(crossMarketHeatmap(rows));
    expect(plain).not.toMatch(/stroke="#222222" stroke-width="2"/);
  });

  it('years on a line chart are level when they fit between their ticks; quarterly waves slant', () => {
    const x = (spec: ChartSpec) => channels(spec).find((c) => c.channel === 'x' && c.field === 'period_order')?.def.axis as { labelAngle?: number };
    expect(x(crossYearLines(f.crossYearRows()))?.labelAngle).toBe(0);
    expect(x(crossYearLines(f.crossYearWaveRows(['US'])))?.labelAngle).toBe(-40);
  });
});

describe('numbers rounded for display', () => {
  // Values as arithmetic leaves them: means and differences with float noise.
  const noisy = (v: number | null) => (v === null ? null : v + 0.1 + 0.2 - 0.3 + 1e-13);
  const crossMarket = f.crossMarketRows().map((r) => ({ ...r, value: noisy(r.value), cross_market_mean: noisy(r.cross_market_mean), diff_from_mean: r.diff_from_mean === null ? null : 3.0999999999999996 }));
  const crossYear = f.crossYearRows().map((r) => ({ ...r, value: noisy(r.value), change: r.change === null ? null : 3.0999999999999996 }));
  const CASES: [string, () => ChartSpec][] = [
    ['crossMarketHeatmap', () => crossMarketHeatmap(crossMarket)],
    ['crossMarketBars', () => crossMarketBars(crossMarket, { entityId: 1 })],
    ['crossYearLines', () => crossYearLines(crossYear)],
    ['slopeChart', () => slopeChart(crossYear, { market: 'GB' })],
    ['pillarsProfile', () => pillarsProfile(f.pillarTidyRows().map((r) => ({ ...r, value: noisy(r.value) })))],
    ['powerGrid', () => powerGrid(f.pillarTidyRows().map((r) => ({ ...r, value: noisy(r.value) })))],
    ['archetypeHeatmap', () => archetypeHeatmap(f.archetypeRows().map((r) => ({ ...r, cultural_rank: noisy(r.cultural_rank) })))],
    ['sectorDistribution', () => sectorDistribution(f.sectorValueRows().map((r) => ({ ...r, value: noisy(r.value) ?? 0 })))],
    ['sectorDistribution of summaries', () => sectorDistribution(f.sectorSummaryRows())],
    ['companyView', () => companyView(f.companyRows().map((r) => ({ ...r, value: noisy(r.value), avg_close_price: noisy(r.avg_close_price) })))],
  ];

  it.each(CASES)('%s prints no unrounded number in its spec, its drawing or its descriptions', async (_, make) => {
    const spec = make();
    expect(unroundedText(spec)).toEqual([]);
    expect(unroundedSvgText(await renderSvg(spec))).toEqual([]);
  });

  it('keeps the full values in the data', () => {
    const values = dataRows(crossMarketBars(crossMarket, { entityId: 1 })).map((r) => r.value);
    expect(values).toContain(noisy(71.2));
  });
});
