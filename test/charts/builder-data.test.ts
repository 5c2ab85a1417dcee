/**
 * What each builder does with the rows: which slice it charts, names, sorting, derived values and
 * the errors it gives when the rows are ambiguous.
 */
import { describe, expect, it } from 'vitest';
import {
  DataError,
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
import { truncateLabel } from '../../src/charts/truncate-label.js';
import { measureText } from '../../src/charts/measure-text.js';
import type { CrossMarketRow } from '../../src/frames/types.js';
import * as f from './fixtures.js';
import { axisLabels, channels, compileMessages, dataRows, panelsOf, panelTitleOf, subtitleOf } from './helpers.js';

/** The order of a channel's categories: its `sort` array, or the explicit domain of its scale. */
const sortOf = (spec: unknown, channel: string): unknown => {
  const def = channels(spec).find((c) => c.channel === channel && (Array.isArray(c.def.sort) || Array.isArray((c.def.scale as { domain?: unknown } | undefined)?.domain)))?.def;
  return Array.isArray(def?.sort) ? def.sort : (def?.scale as { domain?: unknown } | undefined)?.domain;
};

describe('crossMarketHeatmap', () => {
  it('labels a row with the global name when markets use different local names, and keeps local names in the cells', () => {
    const spec = crossMarketHeatmap(f.crossMarketRows());
    const lays = dataRows(spec).filter((r) => r.global_name === "Lay's");
    expect(new Set(lays.map((r) => r.entity))).toEqual(new Set(["Lay's"]));
    expect(lays.find((r) => r.market === 'United Kingdom')?.name).toBe('Walkers');
    expect(lays.find((r) => r.market === 'Brazil')?.name).toBe('Elma Chips');
  });

  it('sorts rows by the cross-market mean and leaves missing values out', () => {
    const spec = crossMarketHeatmap(f.crossMarketRows());
    const order = sortOf(spec, 'y') as string[];
    expect(order[0]).toBe('Apple');
    expect(order[order.length - 1]).toBe('The Procter & Gamble…');
    expect(dataRows(spec).some((r) => r.value === null)).toBe(false);
    expect(sortOf(crossMarketHeatmap(f.crossMarketRows(), { sort: 'name' }), 'y')).toEqual([...order].sort((a, b) => a.localeCompare(b)));
  });

  it('orders the markets by name, or as given (the table beside it), the rest by name after them', () => {
    const markets = [...new Set(f.crossMarketRows().map((r) => r.market))];
    const byName = [...markets].sort((a, b) => a.localeCompare(b, 'en'));
    expect(sortOf(crossMarketHeatmap(f.crossMarketRows()), 'x')).toEqual(byName);
    const given = [...byName].reverse().slice(0, 2);
    expect(sortOf(crossMarketHeatmap(f.crossMarketRows(), { markets: [...given, 'Atlantis'] }), 'x')).toEqual([...given, ...byName.filter((m) => !given.includes(m))]);
  });

  it('draws a grid per metric column unless `column` picks one, and names the choices when it is not there', () => {
    const rows = [...f.crossMarketRows(), ...f.crossMarketRows(undefined, { metric: 'esteem', metric_name: 'Esteem', score_type: 'rank', column: 'esteem_rank' })];
    expect(panelsOf(crossMarketHeatmap(rows)).map(panelTitleOf)).toEqual(['Differentiation (percentile rank)', 'Esteem (percentile rank)']);
    expect(() => crossMarketHeatmap(rows, { column: 'knowledge_rank' })).toThrow(DataError);
    expect(() => crossMarketHeatmap(rows, { column: 'knowledge_rank' })).toThrow(/knowledge_rank.*Available: differentiation_rank, esteem_rank/);
    const one = crossMarketHeatmap(rows, { column: 'esteem_rank' });
    expect(one).not.toHaveProperty('concat');
    expect(dataRows(one).length).toBeGreaterThan(0);
  });

  it('colours ranks on a diverging scale around 50, high in blue', () => {
    const spec = crossMarketHeatmap(f.crossMarketRows());
    const colour = channels(spec).find((c) => c.channel === 'color' && c.field === 'value')?.def.scale;
    // The tables' colours at the same fixed points (HEAT_SCALE_COLOURS): orange at 0, white at 50, blue at 100.
    expect(colour).toMatchObject({ domain: [0, 50, 100], range: ['#f4b183', '#ffffff', '#7fb8e0'], interpolate: 'rgb' });
  });

  it('says in the subtitle how the rows are sorted', () => {
    expect(subtitleOf(crossMarketHeatmap(f.crossMarketRows()))).toContain('Rows sorted by the cross-market mean;');
    expect(subtitleOf(crossMarketHeatmap(f.crossMarketRows(), { sort: 'mean' }))).toContain('Rows sorted by the cross-market mean;');
    const byName = subtitleOf(crossMarketHeatmap(f.crossMarketRows(), { sort: 'name' }));
    expect(byName).toContain('Rows sorted by name;');
    expect(byName).not.toContain('mean');
  });

  it('refuses to draw nothing', () => {
    expect(() => crossMarketHeatmap([])).toThrow(DataError);
  });
});

describe('crossMarketBars', () => {
  it('shows one entity, highest market first, with the mean as a rule and local names by their markets', () => {
    const spec = crossMarketBars(f.crossMarketRows(), { entityId: 1 });
    const bars = dataRows(spec).filter((r) => 'market' in r);
    expect(sortOf(spec, 'y')).toEqual(['Brazil (Elma Chips)', 'United Kingdom (Walkers)', 'United States', 'Germany', 'France', 'Japan']);
    const mean = dataRows(spec).find((r) => 'mean' in r && !('market' in r));
    expect(mean?.mean).toBeCloseTo((71.2 + 55.4 + 48.9 + 62.3 + 12.5 + 88.1) / 6, 6);
    expect(mean?.label).toBe('Mean 56');
    expect(bars.find((r) => r.market_name === 'Japan')?.position).toBe('Below the mean');
  });

  it('asks which entity when the rows hold several', () => {
    expect(() => crossMarketBars(f.crossMarketRows())).toThrow(/several entities \(1, 2, .*'entityId'/);
  });
});

describe('crossYearLines', () => {
  it('keeps a percentile-rank axis within 0-100 even when values touch the ends', () => {
    const rows = f.crossYearWaveRows(['US']).map((r, i) => (i === 0 ? { ...r, value: 99.9 } : i === 1 ? { ...r, value: 0.4 } : r));
    const domains: unknown[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'y' && value !== null && typeof value === 'object' && 'scale' in value) domains.push((value.scale as { domain?: unknown }).domain);
          visit(value);
        }
      }
    };
    visit(crossYearLines(rows));
    expect(domains).toContainEqual([0, 100]);
  });

  it('draws small multiples per market when there are several, one panel otherwise', () => {
    expect(crossYearLines(f.crossYearRows())).toHaveProperty('facet');
    expect(crossYearLines(f.crossYearRows(['GB']))).not.toHaveProperty('facet');
    const single = crossYearLines(f.crossYearRows(), { smallMultiples: false });
    expect(single).not.toHaveProperty('facet');
    expect(new Set(dataRows(single).map((r) => r.series)).has('Walkers (GB)')).toBe(true);
  });

  it('orders the legend by the lines’ last values and uses local names in one market', () => {
    const spec = crossYearLines(f.crossYearRows(['GB']));
    expect(sortOf(spec, 'color')).toEqual(['Apple', 'Coca-Cola', 'Walkers', 'Nestlé', 'The Procter & Gamble…']);
  });

  it('keeps only the entities asked for', () => {
    const spec = crossYearLines(f.crossYearRows(['GB']), { entityIds: [2, 8] });
    expect(new Set(dataRows(spec).map((r) => r.series))).toEqual(new Set(['Apple', 'Coca-Cola']));
  });

  it('places quarterly waves between years and labels each tick with its period', async () => {
    const spec = crossYearLines(f.crossYearWaveRows(['US']));
    expect(compileMessages(spec)).toEqual([]);
    const x = channels(spec).find((c) => c.channel === 'x')?.def;
    expect(x?.title).toBe('Period');
    expect(x?.axis).toMatchObject({ values: [2020, 2021, 2022, 2023, 2024, 2024.25, 2024.5, 2024.75] });
    expect(subtitleOf(spec)).toContain('2020–2024 Q4');
    expect(axisLabels(await renderSvg(spec), 'X')).toEqual([['2020', '2021', '2022', '2023', '2024 Q1', '2024 Q2', '2024 Q3', '2024 Q4']]);
  });

  it('tells a Q1 wave from a year by its label, though both sit at the year', async () => {
    // Only first-quarter waves: every period_order is a whole number.
    const rows = f.crossYearRows(['US']).map((r) => ({ ...r, period: `${r.year} Q1` }));
    expect(rows.every((r) => Number.isInteger(r.period_order))).toBe(true);
    const spec = crossYearLines(rows);
    expect(channels(spec).find((c) => c.channel === 'x')?.def.title).toBe('Period');
    expect(subtitleOf(spec)).toContain('2020 Q1–2024 Q1');
    expect(axisLabels(await renderSvg(spec), 'X')).toEqual([['2020 Q1', '2021 Q1', '2022 Q1', '2023 Q1', '2024 Q1']]);
  });

  it('labels full years as years, whole numbers without separators', async () => {
    const spec = crossYearLines(f.crossYearRows(['GB']));
    expect(channels(spec).find((c) => c.channel === 'x')?.def.title).toBe('Year');
    expect(axisLabels(await renderSvg(spec), 'X')).toEqual([['2020', '2021', '2022', '2023', '2024']]);
  });

  it('labels a position shared by one market’s year and another’s Q1 wave with the year, and keeps periods in tooltips', async () => {
    const spec = crossYearLines(f.crossYearWaveRows(['GB', 'US']));
    const x = channels(spec).find((c) => c.channel === 'x')?.def;
    const labels = `${String((x?.axis as { labelExpr?: string } | undefined)?.labelExpr)}`;
    expect(labels).toContain('"2024","2024 Q2","2024 Q3","2024 Q4"');
    expect(new Set(dataRows(spec).filter((r) => r.period_order === 2024).map((r) => r.period))).toEqual(new Set(['2024', '2024 Q1']));
    // Small panels: quarter labels that would overlap are left out; the years stay.
    const panels = axisLabels(await renderSvg(spec), 'X');
    expect(panels).toHaveLength(2);
    for (const drawn of panels) expect(drawn).toEqual(expect.arrayContaining(['2020', '2021', '2022', '2023', '2024']));
  });
});

describe('slopeChart', () => {
  it('pairs the first and last periods by default and colours by direction', () => {
    const spec = slopeChart(f.crossYearRows(), { market: 'GB' });
    const rows = dataRows(spec);
    expect(new Set(rows.map((r) => r.period))).toEqual(new Set(['2020', '2024']));
    expect(rows.find((r) => r.name === 'Coca-Cola')?.direction).toBe('Down');
    expect(rows.find((r) => r.name === 'Walkers')?.direction).toBe('Up');
    expect(rows.find((r) => r.name === 'Walkers' && r.side === 'from')?.label).toBe('Walkers  60');
  });

  it('keeps end labels at least a line apart', () => {
    // Five brands within two points of each other in 2024.
    const rows = f.crossYearRows(['GB']).map((r) => (r.year === 2024 ? { ...r, value: 50 + r.entity_id / 4 } : r));
    const spec = slopeChart(rows, { from: '2020', to: '2024' });
    const height = (spec as { height: number }).height;
    const labels = dataRows(spec).filter((r) => r.side === 'to').map((r) => Number(r.label_y));
    const domain = channels(spec).find((c) => c.field === 'value')?.def.scale as { domain: [number, number] };
    const px = labels.map((v) => ((domain.domain[1] - v) / (domain.domain[1] - domain.domain[0])) * height).sort((a, b) => a - b);
    for (let i = 1; i < px.length; i++) expect((px[i] ?? 0) - (px[i - 1] ?? 0)).toBeGreaterThanOrEqual(13.99);
  });

  it('asks which market when the rows hold several', () => {
    expect(() => slopeChart(f.crossYearRows())).toThrow(/'market'/);
  });
});

describe('pillarsProfile', () => {
  it('drops duplicate rows of brands studied in several categories', () => {
    const values = dataRows(pillarsProfile(f.pillarTidyRows())).filter((r) => r.name === 'Coca-Cola');
    expect(values.map((r) => r.value)).toEqual([93.5, 88.0, 77.1, 99.2]);
  });

  it('shows the pillars in their fixed order and brands by mean, highest first', () => {
    const spec = pillarsProfile(f.pillarTidyRows());
    expect(sortOf(spec, 'yOffset')).toEqual(['Differentiation', 'Relevance', 'Esteem', 'Knowledge']);
    expect((sortOf(spec, 'y') as string[])[0]).toBe('Apple');
  });

  it('reads cross-market rows the same way as tidy rows', () => {
    const tidy = dataRows(pillarsProfile(f.pillarTidyRows()));
    const cross = dataRows(pillarsProfile(f.pillarCrossMarketRows()));
    expect(cross.map((r) => [r.name, r.pillar, r.value])).toEqual(tidy.map((r) => [r.name, r.pillar, r.value]));
  });

  it('uses All Adults unless told otherwise, and says which audiences exist', () => {
    const rows = [...f.pillarTidyRows(), ...f.pillarTidyRows().map((r) => ({ ...r, audience_id: 7, value: 1 }))];
    expect(dataRows(pillarsProfile(rows)).every((r) => r.value !== 1)).toBe(true);
    expect(dataRows(pillarsProfile(rows, { audienceId: 7 })).every((r) => r.value === 1)).toBe(true);
    expect(() => pillarsProfile(rows, { audienceId: 9 })).toThrow(/audience 9/);
  });

  it('names the pillar columns it needs when the rows have none', () => {
    expect(() => pillarsProfile(f.crossMarketRows().map((r) => ({ ...r, metric: 'usage', column: 'usage_pct', score_type: 'pct' as const })))).toThrow(/differentiation_rank/);
  });
});

describe('powerGrid', () => {
  it('computes strength and stature as geometric means of the pillar ranks, and the quadrant', () => {
    const apple = dataRows(powerGrid(f.pillarTidyRows())).find((r) => r.name === 'Apple');
    expect(apple?.strength).toBeCloseTo(Math.sqrt(97.1 * 84.4), 1);
    expect(apple?.stature).toBeCloseTo(Math.sqrt(96.1 * 97.7), 1);
    expect(apple?.quadrant).toBe('Leadership');
    const mercado = dataRows(powerGrid(f.pillarTidyRows())).find((r) => r.name === 'Mercado Libre');
    expect(mercado?.quadrant).toBe('Niche or unrealised potential');
  });

  it('places labels without overlaps', () => {
    const spec = powerGrid(f.pillarTidyRows());
    const { width, height } = spec as { width: number; height: number };
    const boxes = dataRows(spec)
      .filter((r) => typeof r.label_x === 'number' && typeof r.label_y === 'number')
      .map((r) => {
        const x = (Number(r.label_x) / 100) * width;
        const y = height - (Number(r.label_y) / 100) * height;
        const w = measureText(String(r.label), 11, false);
        const x0 = r.label_align === 'left' ? x : r.label_align === 'right' ? x - w : x - w / 2;
        return { x0, x1: x0 + w, y0: y - 6, y1: y + 6 };
      });
    expect(boxes.length).toBe(8);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1).toBe(false);
    }
  });

  it('leaves out brands without all four ranks and says so', () => {
    const rows = f.pillarTidyRows().filter((r) => !(r.brand_id === 5 && r.metric === 'knowledge'));
    const spec = powerGrid(rows);
    expect(dataRows(spec).some((r) => r.name === 'IKEA')).toBe(false);
    expect(subtitleOf(spec)).toContain('1 brand without all four ranks left out');
  });
});

describe('archetypeHeatmap', () => {
  it('puts cultural and competitive scores side by side, naming the competitive set', () => {
    const spec = archetypeHeatmap(f.archetypeRows());
    const panels = new Set(dataRows(spec).map((r) => r.panel));
    expect(panels).toEqual(new Set(['Cultural: against all brands', 'Competitive: against Snacks and soft drinks competitors']));
    expect(sortOf(spec, 'x')).toEqual(['Hero', 'Sage', 'Explorer', 'Outlaw', 'Magician', 'Lover', 'Jester', 'Caregiver']);
  });

  it('shows only the cultural panel when no row has competitive scores', () => {
    const rows = f.archetypeRows().map((r) => ({ ...r, competitive_rank: null, competitive_score: null }));
    expect(new Set(dataRows(archetypeHeatmap(rows)).map((r) => r.panel))).toEqual(new Set(['Cultural: against all brands']));
  });

  it('sorts brands by an archetype and can colour by index score', () => {
    const spec = archetypeHeatmap(f.archetypeRows(), { sortBy: 'sage', value: 'score' });
    const sage = f.archetypeRows().filter((r) => r.archetype === 'sage').sort((a, b) => (b.cultural_score ?? 0) - (a.cultural_score ?? 0));
    expect((sortOf(spec, 'y') as string[])[0]).toBe(truncateLabel(sage[0]?.brand_name ?? ''));
    expect(channels(spec).find((c) => c.channel === 'color' && c.field === 'value')?.def.scale).toMatchObject({ domain: [expect.any(Number), 100, expect.any(Number)] });
    expect(() => archetypeHeatmap(f.archetypeRows(), { sortBy: 'wizard' })).toThrow(DataError);
  });
});

describe('sectorDistribution', () => {
  it('draws brand values as box plots, sectors by median', () => {
    const spec = sectorDistribution(f.sectorValueRows());
    const boxes = dataRows(spec).filter((r) => 'q1' in r);
    expect(boxes).toHaveLength(5);
    expect(boxes.reduce((n, b) => n + Number(b.count), 0)).toBe(f.sectorValueRows().length);
    const order = sortOf(spec, 'y') as string[];
    expect(order).toHaveLength(5);
    expect(order).toContain('Technology & Telecommun…');
  });

  it('computes quartiles as the frames do, whiskers within 1.5 interquartile ranges, and draws brands beyond them as points', () => {
    const template = f.sectorValueRows()[0];
    if (!template) throw new Error('fixture');
    const values = [10, 20, 30, 40, 50, 60, 70, 200];
    const rows = values.map((value, i) => ({ ...template, brand_id: i, brand_name: `b${i}`, value }));
    const spec = sectorDistribution(rows);
    // numpy's linear quantiles: q1 = 27.5, median 45, q3 = 62.5; reach 1.5 x 35 = 52.5.
    expect(dataRows(spec).find((r) => 'q1' in r)).toMatchObject({ q1: 27.5, median: 45, q3: 62.5, lo: 10, hi: 70, count: 8 });
    expect(dataRows(spec).filter((r) => 'brand' in r).map((r) => r.value)).toEqual([200]);
  });

  it('orders sectors by their median (interpolated for even counts), not their mean', () => {
    const template = f.sectorValueRows()[0];
    if (!template) throw new Error('fixture');
    const sectors: [number, string, number[]][] = [
      [1, 'Skewed', [10, 20, 30, 100]], // median 25, mean 40
      [2, 'Tight', [28, 29, 31, 32]], // median 30, mean 30
      [3, 'Low', [1, 2]], // median 1.5
      [4, 'Between', [24, 26, 27]], // median 26: between the two interpolated medians
    ];
    const rows = sectors.flatMap(([id, name, values]) => values.map((value, i) => ({ ...template, sector_id: id, sector_name: name, brand_id: id * 100 + i, value })));
    expect(sortOf(sectorDistribution(rows), 'y')).toEqual(['Tight', 'Between', 'Skewed', 'Low']);
  });

  it('draws summaries as the spread of market means, a point per market', () => {
    const spec = sectorDistribution(f.sectorSummaryRows());
    expect(dataRows(spec).filter((r) => 'market' in r)).toHaveLength(5 * 4);
    // Boxes from the lowest market mean to the highest.
    const means = f.sectorSummaryRows().filter((r) => r.sector_id === 1).map((r) => r.mean ?? NaN);
    expect(dataRows(spec).find((r) => 'q1' in r && r.sector_name === 'Food & Drink')).toMatchObject({ lo: Math.min(...means), hi: Math.max(...means), count: 4 });
    expect(channels(spec).some((c) => c.channel === 'tooltip' && c.field === 'market')).toBe(true);
  });
});

describe('companyView', () => {
  it('puts the metric per market and the share price on independent axes', () => {
    const spec = companyView(f.companyRows());
    expect(spec).toMatchObject({ resolve: { scale: { y: 'independent' } } });
    const prices = dataRows(spec).filter((r) => 'price' in r);
    expect(prices.map((r) => r.year)).toEqual([2019, 2020, 2021, 2022, 2023, 2024]);
    expect(prices[0]?.series).toBe('Average share price (USD)');
    const end = dataRows(companyView(f.companyRows(), { price: 'year_end' })).filter((r) => 'price' in r);
    expect(end[0]?.price).toBe(104.5);
  });

  it('shows the metric alone for a private company and says why', () => {
    const rows = f.companyRows().map((r) => ({ ...r, avg_close_price: null, year_end_close_price: null, currency: null }));
    const spec = companyView(rows);
    expect(compileMessages(spec)).toEqual([]);
    expect(dataRows(spec).some((r) => 'price' in r)).toBe(false);
    expect(subtitleOf(spec)).toContain('not listed');
  });
});

describe('names', () => {
  it('truncates long names on the chart and keeps the full name for tooltips', () => {
    const rows: CrossMarketRow[] = f.crossMarketRows().filter((r) => r.entity_id === 4);
    const spec = crossMarketHeatmap(rows, { maxLabelLength: 12 });
    const row = dataRows(spec)[0];
    expect(row?.entity).toBe('The Procter…');
    expect(row?.name).toBe('The Procter & Gamble Company Household Care');
  });
});
