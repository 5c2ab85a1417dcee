/**
 * Notebook front ends render Vega-Lite only up to v5 (JupyterLab 4, VS Code), so display() emits
 * each builder's spec as `application/vnd.vegalite.v5+json`. Here every builder's spec, as
 * display() carries it, is compiled with vega-lite 5 (the dev dependency `vega-lite-v5`, an npm
 * alias of vega-lite@5) and must compile without a warning or an error.
 */
import { describe, expect, it } from 'vitest';
import { compile, version } from 'vega-lite-v5';
import type { TopLevelSpec } from 'vega-lite-v5';
import {
  archetypeHeatmap,
  companyView,
  crossMarketBars,
  crossMarketHeatmap,
  crossYearLines,
  pillarsProfile,
  powerGrid,
  sectorDistribution,
  slopeChart,
  type ChartSpec,
} from '../../src/index.js';
import { toMimeBundle, toVegaLiteV5 } from '../../src/notebook/display.js';
import * as f from './fixtures.js';

const BUILDERS: Record<string, () => ChartSpec> = {
  'crossMarketHeatmap': () => crossMarketHeatmap(f.crossMarketRows()),
  'crossMarketHeatmap, pillars': () => crossMarketHeatmap(f.crossMarketPillarRows()),
  'crossMarketBars': () => crossMarketBars(f.crossMarketRows(), { entityId: 1 }),
  'crossMarketBars, pillars': () => crossMarketBars(f.crossMarketPillarRows(), { entityId: 1 }),
  'crossYearLines': () => crossYearLines(f.crossYearRows()),
  'crossYearLines, waves': () => crossYearLines(f.crossYearWaveRows(['GB', 'US'])),
  'crossYearLines, pillars': () => crossYearLines(f.crossYearPillarRows()),
  'slopeChart': () => slopeChart(f.crossYearRows(), { market: 'GB' }),
  'slopeChart, pillars': () => slopeChart(f.crossYearPillarRows(['GB']), { columns: 4 }),
  'pillarsProfile': () => pillarsProfile(f.pillarTidyRows()),
  'pillarsProfile, cross-market': () => pillarsProfile(f.pillarCrossMarketRows()),
  'powerGrid': () => powerGrid(f.pillarTidyRows()),
  'archetypeHeatmap': () => archetypeHeatmap(f.archetypeRows()),
  'sectorDistribution': () => sectorDistribution(f.sectorValueRows()),
  'sectorDistribution, summaries': () => sectorDistribution(f.sectorSummaryRows()),
  'companyView': () => companyView(f.companyRows()),
};

/** Everything vega-lite 5 says while compiling a spec. */
function compileWithV5(spec: unknown): string[] {
  const messages: string[] = [];
  let level = 4;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    warn: (...args: unknown[]) => (messages.push(`warn: ${args.map(String).join(' ')}`), logger),
    error: (...args: unknown[]) => (messages.push(`error: ${args.map(String).join(' ')}`), logger),
    info: (...args: unknown[]) => (messages.push(`info: ${args.map(String).join(' ')}`), logger),
    debug: () => logger,
  };
  try {
    // The spec is JSON from another major version's builders: checking it is this test's point.
    compile(spec as TopLevelSpec, { logger });
  } catch (error) {
    messages.push(`threw: ${String(error)}`);
  }
  return messages;
}

describe('display() specs under Vega-Lite 5', () => {
  it('compiles with vega-lite 5', () => {
    expect(version.split('.')[0]).toBe('5');
  });

  it.each(Object.keys(BUILDERS))('%s compiles with vega-lite 5 without a warning', (name) => {
    const spec = toVegaLiteV5(BUILDERS[name]!());
    expect(spec.$schema).toBe('https://vega.github.io/schema/vega-lite/v5.json');
    expect(compileWithV5(spec)).toEqual([]);
  });

  it('the bundle carries that spec as the v5 MIME type', async () => {
    const bundle = await toMimeBundle(BUILDERS['powerGrid']!());
    const spec = bundle.data['application/vnd.vegalite.v5+json'];
    expect(compileWithV5(spec)).toEqual([]);
    // A spec with a warning is seen as one (the check above can fail).
    expect(compileWithV5({ ...(spec as object), encoding: { x: { field: 'x', type: 'quantitative', aggregate: 'no-such-op' } } }).length).toBeGreaterThan(0);
  });
});
