// Issue 5 targets: a 5,000-point faceted chart renders to PNG in under 0.5 s warm; the 20 charts
// of a report render in under 10 s. Issue 10: the charts of a report show several metrics at once
// (one panel per metric); their figure holds them to the same budget per chart, 0.5 s. Baseline measured in the same run: Vega's own compile + toSVG
// of the same specs (the part no PNG renderer can skip), so the ratio shows what resvg and the
// toolkit add on top.
import { compile } from 'vega-lite';
import * as vega from 'vega';
import {
  archetypeHeatmap,
  companyView,
  crossMarketBars,
  crossMarketHeatmap,
  crossYearLines,
  pillarsProfile,
  powerGrid,
  renderPng,
  sectorDistribution,
  slopeChart,
} from '../../dist/index.js';
import { report, timeMedian } from './lib.mjs';

// Deterministic pseudo-random values, so every run charts the same data.
let seed = 42;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const round1 = (x) => Math.round(x * 10) / 10;

const MARKETS = ['United Kingdom', 'Germany', 'France', 'United States', 'Japan', 'Brazil', 'Spain', 'Italy', 'Mexico', 'India', 'Canada', 'Australia'].map((market, i) => ({
  country_id: i + 1,
  market,
  country_code: market.slice(0, 2).toUpperCase() + i,
}));
const BRANDS = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `${['Nova', 'Crest', 'Vale', 'Orbit', 'Lumen', 'Harbor', 'Pico', 'Summit'][i % 8]} ${['Foods', 'Bank', 'Mobile', 'Motors', 'Home'][i % 5]} ${i + 1}` }));
const metric = (key, name, type = 'rank') => ({ metric: key, metric_name: name, metric_group: 'pillars', score_type: type, column: `${key}_${type}` });

function crossMarketRows(brands, markets, m = metric('differentiation', 'Differentiation')) {
  return brands.flatMap((b) => {
    const values = markets.map(() => (rnd() < 0.08 ? null : round1(rnd() * 100)));
    const present = values.filter((v) => v !== null);
    const mean = present.reduce((a, c) => a + c, 0) / present.length;
    const sorted = [...present].sort((a, c) => c - a);
    return markets.map((mk, i) => ({
      entity_kind: 'brand', entity_id: b.id, entity_name: b.name, global_name: b.name, ...mk, ...m, year: 2024,
      value: values[i], cross_market_mean: mean, diff_from_mean: values[i] === null ? null : values[i] - mean,
      market_rank: values[i] === null ? null : sorted.indexOf(values[i]) + 1, markets_compared: present.length, n_rows: 1,
    }));
  });
}

function crossYearRows(brands, markets, periods, m = metric('esteem', 'Esteem')) {
  return brands.flatMap((b) =>
    markets.flatMap((mk) => {
      let v = 20 + rnd() * 60;
      return periods.map((order) => {
        v = Math.max(0, Math.min(100, v + (rnd() - 0.5) * 8));
        const year = Math.floor(order);
        const q = Math.round((order - year) * 4) + 1;
        return {
          entity_kind: 'brand', entity_id: b.id, entity_name: b.name, global_name: b.name, ...mk, ...m, year,
          period: Number.isInteger(order) ? String(year) : `${year} Q${q}`, period_order: order, value: round1(v), change: null, change_over_span: null, trend: null, n_rows: 1,
        };
      });
    }),
  );
}

function tidyPillars(brands, mk) {
  return brands.flatMap((b) =>
    ['differentiation', 'relevance', 'esteem', 'knowledge'].map((p) => ({
      ...mk, ...metric(p, p[0].toUpperCase() + p.slice(1)), study_id: 1, year: 2024, audience_id: 1, brand_id: b.id, brand_name: b.name, global_name: b.name,
      category_id: 1, category_name: 'Category', sector_id: 1, sector_name: 'Sector', company_id: null, company_name: null, is_duplicate: false, value: round1(rnd() * 100),
    })),
  );
}

function archetypes(brands) {
  const names = ['Hero', 'Sage', 'Explorer', 'Outlaw', 'Magician', 'Lover', 'Jester', 'Caregiver', 'Creator', 'Ruler', 'Innocent', 'Everyman'];
  return brands.flatMap((b) => names.map((n) => ({
    study_id: 1, audience_id: 1, brand_id: b.id, brand_name: b.name, archetype: n.toLowerCase(), archetype_name: n,
    cultural_score: Math.round(50 + rnd() * 100), cultural_rank: round1(rnd() * 100), competitive_score: Math.round(50 + rnd() * 100), competitive_rank: round1(rnd() * 100),
    comparison_name: 'Main competitors', comparison_type: 'collection',
  })));
}

function sectorValues(m = metric('relevance', 'Relevance')) {
  const sectors = ['Food & Drink', 'Financial Services', 'Technology', 'Retail', 'Automotive', 'Travel', 'Media', 'Health'];
  return sectors.flatMap((s, si) => MARKETS.slice(0, 8).flatMap((mk) => Array.from({ length: 25 }, (_, i) => ({
    ...mk, ...m, sector_id: si + 1, sector_name: s, year: 2024, brand_id: si * 1000 + i, brand_name: `b${i}`, value: round1(rnd() * 100),
  }))));
}

function companyRows(m = metric('esteem', 'Esteem')) {
  return MARKETS.slice(0, 3).flatMap((mk) => [2018, 2019, 2020, 2021, 2022, 2023, 2024].map((year) => ({
    ...mk, ...m, company_id: 1, company_name: 'Nova Holdings plc', year, value: round1(40 + rnd() * 30), weighting: 'share_of_company', n_brands: 6,
    currency: 'GBP', revenue: null, operating_income: null, net_income: null, market_cap: null, avg_close_price: 10 + year - 2018 + rnd(), year_end_close_price: 11 + year - 2018,
  })));
}

// The 5,000-point faceted chart: esteem over 25 quarterly waves for 40 brands in 5 markets,
// lines plus a point per value, one panel per market.
const waves = Array.from({ length: 25 }, (_, i) => 2018 + i / 4);
const faceted = crossYearLines(crossYearRows(BRANDS, MARKETS.slice(0, 5), waves), { columns: 3 });
const points = faceted.data.values.length;

// The 20 charts of a report.
const gb = MARKETS[0];
const years = [2019, 2020, 2021, 2022, 2023, 2024];
const yearly = crossYearRows(BRANDS.slice(0, 12), MARKETS.slice(0, 4), years);
const cm = crossMarketRows(BRANDS.slice(0, 30), MARKETS);
const report20 = [
  crossMarketHeatmap(cm),
  crossMarketHeatmap(crossMarketRows(BRANDS.slice(0, 15), MARKETS.slice(0, 8), metric('relevance', 'Relevance'))),
  crossMarketHeatmap(crossMarketRows(BRANDS.slice(0, 15), MARKETS.slice(0, 8), metric('esteem', 'Esteem', 'brandscape_index'))),
  ...[1, 2, 3, 4].map((id) => crossMarketBars(cm, { entityId: id })),
  crossYearLines(yearly),
  crossYearLines(yearly.filter((r) => r.country_id === 1)),
  crossYearLines(yearly.filter((r) => r.country_id === 2)),
  slopeChart(yearly, { market: gb.country_code }),
  slopeChart(yearly, { market: MARKETS[1].country_code }),
  pillarsProfile(tidyPillars(BRANDS.slice(0, 12), gb)),
  pillarsProfile(tidyPillars(BRANDS.slice(12, 24), MARKETS[1])),
  powerGrid(tidyPillars(BRANDS, gb)),
  powerGrid(tidyPillars(BRANDS.slice(0, 25), MARKETS[2])),
  archetypeHeatmap(archetypes(BRANDS.slice(0, 12))),
  sectorDistribution(sectorValues()),
  companyView(companyRows()),
  companyView(companyRows(), { price: 'year_end' }),
];

// The charts of a report on the four pillars: one panel per pillar in each.
const PILLARS = [metric('differentiation', 'Differentiation'), metric('relevance', 'Relevance'), metric('esteem', 'Esteem'), metric('knowledge', 'Knowledge')];
const pillars = (make) => PILLARS.flatMap((m) => make(m));
const cmPillars = pillars((m) => crossMarketRows(BRANDS.slice(0, 12), MARKETS.slice(0, 6), m));
const cyPillars = pillars((m) => crossYearRows(BRANDS.slice(0, 6), MARKETS.slice(0, 3), years, m));
const reportPillars = [
  crossMarketHeatmap(cmPillars),
  ...[1, 2, 3].map((id) => crossMarketBars(cmPillars, { entityId: id })),
  crossYearLines(cyPillars),
  crossYearLines(cyPillars.filter((r) => r.entity_id === 1)),
  slopeChart(cyPillars, { market: gb.country_code }),
  sectorDistribution(pillars((m) => sectorValues(m))),
  companyView(pillars((m) => companyRows(m))),
];
const panels = reportPillars.reduce((n, s) => n + (s.concat?.length ?? s.vconcat?.length ?? 1), 0);

// Vega alone: compile + parse + View + toSVG, the ideal floor of any SVG/PNG pipeline. Given the
// spec as renderPng draws it (no tooltips, no ARIA labels: invisible in a PNG).
const forRaster = (node) => {
  if (Array.isArray(node)) return node.map(forRaster);
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'data' || k === 'config') out[k] = v;
    else if (k === 'encoding') out[k] = forRaster(Object.fromEntries(Object.entries(v).filter(([c]) => c !== 'tooltip')));
    else out[k] = forRaster(v);
  }
  return out;
};
async function vegaSvg(spec) {
  const raster = { ...forRaster(spec), config: { ...spec.config, aria: false } };
  const view = new vega.View(vega.parse(compile(raster).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

// Cold: the first report render in a fresh process pays the lazy load of vega, vega-lite, resvg.
let t = performance.now();
for (const spec of report20) await renderPng(spec, { scale: 2 });
const coldReportS = (performance.now() - t) / 1000;

const pngMs = await timeMedian(() => renderPng(faceted, { scale: 2 }), { runs: 7, warmup: 2 });
const svgOnlyMs = await timeMedian(() => vegaSvg(faceted), { runs: 7, warmup: 2 });
report({
  name: `${points.toLocaleString('en-US')}-point faceted chart (5 panels, 40 lines) to PNG at 2x, warm`,
  value: pngMs / 1000,
  unit: 's',
  target: 0.5,
  detail: `vega compile+toSVG alone ${svgOnlyMs.toFixed(0)} ms; PNG pipeline ${(pngMs / svgOnlyMs).toFixed(2)}x that`,
});

t = performance.now();
for (const spec of report20) await renderPng(spec, { scale: 2 });
const sequentialS = (performance.now() - t) / 1000;
t = performance.now();
await Promise.all(report20.map((spec) => renderPng(spec, { scale: 2 })));
const concurrentS = (performance.now() - t) / 1000;
t = performance.now();
for (const spec of report20) await vegaSvg(spec);
const vegaS = (performance.now() - t) / 1000;
t = performance.now();
for (const spec of reportPillars) await renderPng(spec, { scale: 2 });
const pillarsS = (performance.now() - t) / 1000;
t = performance.now();
for (const spec of reportPillars) await vegaSvg(spec);
const pillarsVegaS = (performance.now() - t) / 1000;
report({
  name: `${reportPillars.length} report charts of the four pillars (${panels} panels) to PNG at 2x, warm`,
  value: pillarsS,
  unit: 's',
  target: 0.5 * reportPillars.length,
  detail: `vega compile+toSVG alone ${pillarsVegaS.toFixed(2)} s; PNG pipeline ${(pillarsS / pillarsVegaS).toFixed(2)}x that`,
});
report({
  name: '20 report charts to PNG at 2x, one after another (first run, cold)',
  value: coldReportS,
  unit: 's',
  target: 10,
  detail: `includes loading vega, vega-lite and resvg once`,
});
report({
  name: '20 report charts to PNG at 2x, one after another (warm)',
  value: sequentialS,
  unit: 's',
  target: 10,
  detail: `vega compile+toSVG alone ${vegaS.toFixed(2)} s; PNG pipeline ${(sequentialS / vegaS).toFixed(2)}x that; with Promise.all ${concurrentS.toFixed(2)} s`,
});
