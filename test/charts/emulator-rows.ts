/**
 * Realistic chart input: frames rows computed from the emulator's data, loaded over HTTP with the
 * client, as a report would get them. Several metric columns per row set (the four pillars), so the
 * builders draw small multiples. Used by emulator-charts.test.ts, which also writes every chart as a
 * PNG to look at when CHART_PREVIEW_DIR is set.
 */
import { createClient } from '../../src/client/create-client.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { archetypeMatrix } from '../../src/frames/archetype-matrix.js';
import { companyRollup } from '../../src/frames/company-rollup.js';
import { crossMarket } from '../../src/frames/cross-market.js';
import { crossYear } from '../../src/frames/cross-year.js';
import { loadComparisonInput } from '../../src/load/load-comparison-input.js';
import { sectorSummary, sectorValues } from '../../src/frames/sector-summary.js';
import { toTidy } from '../../src/frames/to-tidy.js';
import type { ArchetypeRow, CompanyRollupRow, CrossMarketRow, CrossYearRow, SectorSummaryRow, SectorValueRow, TidyRow } from '../../src/frames/types.js';
import { sharedDataset } from '../helpers/client-harness.js';

export const PILLAR_METRICS = ['differentiation', 'relevance', 'esteem', 'knowledge'] as const;
export const YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025] as const;

export interface EmulatorRows {
  markets: string[];
  /** 3 brands x 6 markets x the 4 pillar ranks, 2024. */
  crossMarket: CrossMarketRow[];
  /** The same 3 brands x 3 markets x 2019-2025 x the 4 pillar ranks. */
  crossYear: CrossYearRow[];
  /** Sector summaries of the 4 pillar ranks in the 6 markets, 2024. */
  sectorSummary: SectorSummaryRow[];
  sectorValues: SectorValueRow[];
  /** One listed company's brands in 3 markets, 2019-2025, the 4 pillar ranks. */
  companyRollup: CompanyRollupRow[];
  /** Tidy rows of the first market in 2024 (pillars profile, power grid). */
  tidy: TidyRow[];
  archetypes: ArchetypeRow[];
}

/**
 * Loads the rows from an emulator of its own (closed before returning).
 *
 * @example
 * const rows = await loadEmulatorRows();
 * crossMarketHeatmap(rows.crossMarket);
 */
export async function loadEmulatorRows(): Promise<EmulatorRows> {
  const emulator: Emulator = await createEmulator({ port: 0, dataset: sharedDataset() });
  try {
    const client = createClient({ baseUrl: emulator.url, token: emulator.token, env: {} });
    const studies = await client.studies.all({ filter: { year_numbers: [2024], released: true }, include: ['country', 'year'] });
    const available = [...new Set(studies.map((s) => s.country?.code ?? ''))].filter(Boolean).sort();
    // The US (quarterly waves besides the full year) and five others.
    const markets = ['US', ...available.filter((c) => c !== 'US').slice(0, 5)];
    const input = await loadComparisonInput(client, { countryCodes: markets, years: [...YEARS], metricKeys: [...PILLAR_METRICS] });
    const metrics = [...PILLAR_METRICS];

    // Three brands studied in every market in 2024, with long and short names among them.
    const all = crossMarket(input, { year: 2024, metrics: ['differentiation'] }).rows();
    const inAll = [...new Set(all.map((r) => r.entity_id))].filter((id) => all.filter((r) => r.entity_id === id && r.value !== null).length === markets.length);
    const brands = inAll.slice(0, 3);
    if (brands.length < 3) throw new Error(`only ${brands.length} brands are in all of ${markets.join(', ')}`);

    const threeMarkets = markets.slice(0, 3);
    const cm = crossMarket(input, { year: 2024, metrics, brands }).rows();
    const cy = crossYear(input, { metrics, brands, markets: threeMarkets }).rows();
    const ss = sectorSummary(input, { metrics, years: [2024] }).rows();
    const sv = sectorValues(input, { metrics, years: [2024] }).rows();
    const tidy = toTidy(input, { metrics: metrics.map((m) => `${m}_rank`) }).rows().filter((r) => r.country_code === markets[1] && r.year === 2024);

    // A listed company (with share prices) among the owners of the most brands.
    const brandCount = new Map<number, number>();
    for (const b of input.brands ?? []) if (b.company?.id !== undefined) brandCount.set(b.company.id, (brandCount.get(b.company.id) ?? 0) + 1);
    const owners = [...brandCount].sort((a, b) => b[1] - a[1]).map(([id]) => id).slice(0, 10);
    let rollup: CompanyRollupRow[] = [];
    for (const id of owners) {
      const withCompany = await loadComparisonInput(client, { countryCodes: threeMarkets, years: [...YEARS], metricKeys: metrics, companies: [id] });
      rollup = companyRollup(withCompany, { companies: [id], metrics }).rows();
      if (rollup.some((r) => r.avg_close_price !== null) && new Set(rollup.map((r) => r.country_code)).size > 1) break;
    }
    if (!rollup.some((r) => r.avg_close_price !== null)) throw new Error('no listed company among the brands');

    // Archetypes of one study: cultural, and competitive against the category of its first row.
    const study = studies.find((s) => s.country?.code === markets[1] && s.period?.name === 'Full Year');
    if (!study) throw new Error(`no full-year study of ${markets[1]} in 2024`);
    const category = tidy[0]?.category_id;
    if (category === undefined) throw new Error('no tidy rows');
    const [cultural, competitive] = await Promise.all([
      client.archetypes({ studies: study.id, comparison: 'cultural' }),
      client.archetypes({ studies: study.id, comparison: 'competitive', categories: category }),
    ]);
    const archetypes = archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: category } }).rows();

    return { markets, crossMarket: cm, crossYear: cy, sectorSummary: ss, sectorValues: sv, companyRollup: rollup, tidy, archetypes };
  } finally {
    await emulator.close();
  }
}
