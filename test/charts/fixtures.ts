/**
 * Small hand-written rows for the chart tests, typed with the frames row contracts. Values are
 * written out (no randomness) so a chart's look is reproducible; the helpers only fill in the
 * derived fields (means, ranks, changes) the frames layer would compute.
 */
import type {
  ArchetypeRow,
  CompanyRollupRow,
  CrossMarketRow,
  CrossYearRow,
  SectorSummaryRow,
  SectorValueRow,
  TidyRow,
} from '../../src/frames/types.js';
import type { ScoreType } from '../../src/schemas/score-types.js';

export const MARKETS = {
  GB: { country_id: 826, market: 'United Kingdom', country_code: 'GB' },
  DE: { country_id: 276, market: 'Germany', country_code: 'DE' },
  FR: { country_id: 250, market: 'France', country_code: 'FR' },
  US: { country_id: 840, market: 'United States', country_code: 'US' },
  JP: { country_id: 392, market: 'Japan', country_code: 'JP' },
  BR: { country_id: 76, market: 'Brazil', country_code: 'BR' },
} as const;
export type MarketCode = keyof typeof MARKETS;

/** Brands: a global name, and local names where a market's survey used another one. */
export const BRANDS = [
  { id: 1, global: "Lay's", local: { GB: 'Walkers', BR: 'Elma Chips' } as Partial<Record<MarketCode, string>> },
  { id: 2, global: 'Coca-Cola', local: {} },
  { id: 3, global: 'Nestlé', local: {} },
  { id: 4, global: 'The Procter & Gamble Company Household Care', local: {} },
  { id: 5, global: 'IKEA', local: {} },
  { id: 6, global: 'Samsung Galaxy', local: {} },
  { id: 7, global: 'Mercado Libre', local: { BR: 'Mercado Livre' } },
  { id: 8, global: 'Apple', local: {} },
] as const;

const PILLARS = {
  differentiation: 'Differentiation',
  relevance: 'Relevance',
  esteem: 'Esteem',
  knowledge: 'Knowledge',
} as const;
export type Pillar = keyof typeof PILLARS;

function metricKey(metric: string, metricName: string, scoreType: ScoreType, column: string) {
  return { metric, metric_name: metricName, metric_group: 'pillars', score_type: scoreType, column };
}

/** Differentiation percentile ranks, brand id → market → value (null: not studied there). */
const DIFF_RANK: Record<number, Partial<Record<MarketCode, number | null>>> = {
  1: { GB: 71.2, DE: 55.4, FR: 48.9, US: 62.3, JP: 12.5, BR: 88.1 },
  2: { GB: 93.5, DE: 91.2, FR: 89.7, US: 96.4, JP: 85.0, BR: 94.8 },
  3: { GB: 44.1, DE: 58.3, FR: 61.0, US: 35.2, JP: 50.5, BR: 47.7 },
  4: { GB: 22.4, DE: 18.9, FR: null, US: 30.1, JP: 8.3, BR: 15.6 },
  5: { GB: 80.2, DE: 86.6, FR: 77.3, US: 69.9, JP: 74.4, BR: null },
  6: { GB: 66.0, DE: 63.5, FR: 59.2, US: 58.7, JP: 41.3, BR: 72.9 },
  7: { BR: 90.3, US: 4.2 },
  8: { GB: 97.1, DE: 95.5, FR: 96.0, US: 98.8, JP: 97.9, BR: 92.6 },
};

const nameIn = (brandId: number, cc: MarketCode): { entity_name: string; global_name: string } => {
  const b = BRANDS.find((x) => x.id === brandId);
  if (!b) throw new Error(`no brand ${brandId}`);
  return { entity_name: (b.local as Partial<Record<MarketCode, string>>)[cc] ?? b.global, global_name: b.global };
};

/** `crossMarket` rows of `differentiation_rank`, 2024, with means and market ranks filled in. */
export function crossMarketRows(
  table: Record<number, Partial<Record<MarketCode, number | null>>> = DIFF_RANK,
  metric: { metric: string; metric_name: string; score_type: ScoreType; column: string } = {
    metric: 'differentiation',
    metric_name: 'Differentiation',
    score_type: 'rank',
    column: 'differentiation_rank',
  },
): CrossMarketRow[] {
  const rows: CrossMarketRow[] = [];
  for (const [id, byMarket] of Object.entries(table)) {
    const brandId = Number(id);
    const present = Object.values(byMarket).filter((v): v is number => v !== null && v !== undefined);
    const mean = present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
    const sorted = [...present].sort((a, b) => b - a);
    for (const [cc, value] of Object.entries(byMarket) as [MarketCode, number | null][]) {
      rows.push({
        entity_kind: 'brand',
        entity_id: brandId,
        ...nameIn(brandId, cc),
        ...MARKETS[cc],
        ...metricKey(metric.metric, metric.metric_name, metric.score_type, metric.column),
        year: 2024,
        value,
        cross_market_mean: mean,
        diff_from_mean: value === null || mean === null ? null : value - mean,
        market_rank: value === null ? null : sorted.indexOf(value) + 1,
        markets_compared: present.length,
        n_rows: value === null ? 0 : 1,
      });
    }
  }
  return rows;
}

/** Esteem percentile ranks per brand and period, in GB, DE and US; 2024 Q1..Q2 waves only where said. */
const ESTEEM_BY_YEAR: Record<number, Partial<Record<MarketCode, Record<number, number>>>> = {
  1: { GB: { 2020: 60.1, 2021: 62.4, 2022: 65.0, 2023: 66.2, 2024: 70.3 }, DE: { 2020: 52.0, 2021: 50.3, 2022: 49.9, 2023: 51.2, 2024: 53.8 }, US: { 2020: 58.0, 2021: 57.1, 2022: 59.5, 2023: 61.0, 2024: 62.2 } },
  2: { GB: { 2020: 85.2, 2021: 84.0, 2022: 80.3, 2023: 78.8, 2024: 77.1 }, DE: { 2020: 82.0, 2021: 83.5, 2022: 84.9, 2023: 85.2, 2024: 86.0 }, US: { 2020: 90.1, 2021: 89.5, 2022: 88.2, 2023: 86.0, 2024: 84.3 } },
  3: { GB: { 2020: 40.0, 2021: 45.2, 2022: 47.9, 2023: 52.3, 2024: 55.0 }, DE: { 2020: 61.2, 2021: 60.0, 2022: 58.1, 2023: 57.7, 2024: 56.9 }, US: { 2020: 33.0, 2021: 34.8, 2022: 36.0, 2023: 35.5, 2024: 38.2 } },
  4: { GB: { 2020: 20.5, 2021: 19.0, 2022: 25.4, 2023: 28.8, 2024: 27.0 }, DE: { 2020: 15.0, 2021: 17.3, 2022: 16.0, 2023: 18.2, 2024: 21.0 }, US: { 2020: 28.0, 2021: 26.1, 2022: 24.9, 2023: 22.0, 2024: 20.2 } },
  8: { GB: { 2020: 92.0, 2021: 93.1, 2022: 94.4, 2023: 95.0, 2024: 96.1 }, DE: { 2020: 90.5, 2021: 91.0, 2022: 91.9, 2023: 92.2, 2024: 93.0 }, US: { 2020: 97.0, 2021: 97.2, 2022: 97.9, 2023: 98.1, 2024: 98.5 } },
};

/** `crossYear` rows of `esteem_rank` over 2020–2024 with changes and trends filled in. */
export function crossYearRows(markets: readonly MarketCode[] = ['GB', 'DE', 'US']): CrossYearRow[] {
  const rows: CrossYearRow[] = [];
  for (const [id, byMarket] of Object.entries(ESTEEM_BY_YEAR)) {
    const brandId = Number(id);
    for (const cc of markets) {
      const series = byMarket[cc];
      if (!series) continue;
      const years = Object.keys(series).map(Number).sort((a, b) => a - b);
      const firstValue = series[years[0] ?? 0] ?? 0;
      const lastValue = series[years[years.length - 1] ?? 0] ?? 0;
      const span = lastValue - firstValue;
      let previous: number | null = null;
      for (const year of years) {
        const value = series[year] ?? null;
        rows.push({
          entity_kind: 'brand',
          entity_id: brandId,
          ...nameIn(brandId, cc),
          ...MARKETS[cc],
          ...metricKey('esteem', 'Esteem', 'rank', 'esteem_rank'),
          year,
          period: String(year),
          period_order: year,
          value,
          change: previous === null || value === null ? null : value - previous,
          change_over_span: span,
          trend: Math.abs(span) < 1 ? 'flat' : span > 0 ? 'up' : 'down',
          n_rows: 1,
        });
        previous = value;
      }
    }
  }
  return rows;
}

/** Pillar percentile ranks of eight brands in GB 2024: D, R, E, K. */
const PILLAR_RANKS: Record<number, [number, number, number, number]> = {
  1: [71.2, 80.4, 75.0, 92.3],
  2: [93.5, 88.0, 77.1, 99.2],
  3: [44.1, 72.5, 55.0, 90.4],
  4: [22.4, 35.0, 27.0, 45.5],
  5: [80.2, 58.8, 66.0, 70.1],
  6: [66.0, 61.2, 52.3, 81.0],
  7: [88.0, 30.5, 35.2, 20.4],
  8: [97.1, 84.4, 96.1, 97.7],
};

/** Tidy rows of the four pillar ranks in GB 2024 for All Adults, plus a duplicate row of brand 2 in a second category. */
export function pillarTidyRows(): TidyRow[] {
  const rows: TidyRow[] = [];
  for (const [id, ranks] of Object.entries(PILLAR_RANKS)) {
    const brandId = Number(id);
    const { entity_name, global_name } = nameIn(brandId, 'GB');
    const categories = brandId === 2 ? [{ id: 10, name: 'Soft drinks', dup: false }, { id: 11, name: 'Energy drinks', dup: true }] : [{ id: 10 + brandId, name: 'Category', dup: false }];
    for (const category of categories) {
      (Object.keys(PILLARS) as Pillar[]).forEach((pillar, i) => {
        rows.push({
          ...MARKETS.GB,
          ...metricKey(pillar, PILLARS[pillar], 'rank', `${pillar}_rank`),
          study_id: 501,
          year: 2024,
          audience_id: 1,
          brand_id: brandId,
          brand_name: entity_name,
          global_name,
          category_id: category.id,
          category_name: category.name,
          sector_id: 1,
          sector_name: 'Food & Drink',
          company_id: null,
          company_name: null,
          is_duplicate: category.dup,
          // The duplicate carries a different (wrong for aggregates) value on purpose.
          value: category.dup ? 1 : (ranks[i] ?? null),
        });
      });
    }
  }
  return rows;
}

/** The same pillar ranks as `crossMarket` rows for GB only. */
export function pillarCrossMarketRows(): CrossMarketRow[] {
  const rows: CrossMarketRow[] = [];
  for (const [id, ranks] of Object.entries(PILLAR_RANKS)) {
    const brandId = Number(id);
    (Object.keys(PILLARS) as Pillar[]).forEach((pillar, i) => {
      const value = ranks[i] ?? null;
      rows.push({
        entity_kind: 'brand',
        entity_id: brandId,
        ...nameIn(brandId, 'GB'),
        ...MARKETS.GB,
        ...metricKey(pillar, PILLARS[pillar], 'rank', `${pillar}_rank`),
        year: 2024,
        value,
        cross_market_mean: value,
        diff_from_mean: 0,
        market_rank: 1,
        markets_compared: 1,
        n_rows: 1,
      });
    });
  }
  return rows;
}

const ARCHETYPES = [
  ['hero', 'Hero'],
  ['sage', 'Sage'],
  ['explorer', 'Explorer'],
  ['outlaw', 'Outlaw'],
  ['magician', 'Magician'],
  ['lover', 'Lover'],
  ['jester', 'Jester'],
  ['caregiver', 'Caregiver'],
] as const;

/** Archetype rows of five brands: cultural and competitive (vs a collection) ranks and index scores. */
export function archetypeRows(): ArchetypeRow[] {
  const rows: ArchetypeRow[] = [];
  const brands = [1, 2, 3, 4, 8];
  brands.forEach((brandId, b) => {
    ARCHETYPES.forEach(([key, name], a) => {
      // A fixed pattern with spread across 0–100, different for each brand and archetype.
      const cultural = Math.round(((b * 37 + a * 53 + 11) % 100) * 10) / 10;
      const competitive = Math.round(((b * 29 + a * 71 + 47) % 100) * 10) / 10;
      rows.push({
        study_id: 501,
        audience_id: 1,
        brand_id: brandId,
        brand_name: nameIn(brandId, 'GB').entity_name,
        archetype: key,
        archetype_name: name,
        cultural_score: Math.round(60 + cultural * 0.8),
        cultural_rank: cultural,
        competitive_score: Math.round(60 + competitive * 0.8),
        competitive_rank: competitive,
        comparison_name: 'Snacks and soft drinks competitors',
        comparison_type: 'collection',
      });
    });
  });
  return rows;
}

const SECTORS = [
  [1, 'Food & Drink'],
  [2, 'Financial Services'],
  [3, 'Technology & Telecommunications Equipment'],
  [4, 'Retail'],
  [5, 'Automotive'],
] as const;

/** Brand values of relevance percentile ranks by sector across four markets in 2024 (5 brands per sector and market). */
export function sectorValueRows(): SectorValueRow[] {
  const rows: SectorValueRow[] = [];
  const codes: MarketCode[] = ['GB', 'DE', 'FR', 'US'];
  SECTORS.forEach(([sectorId, sectorName], s) => {
    codes.forEach((cc, m) => {
      for (let i = 0; i < 5; i++) {
        const value = Math.round((((s * 23 + m * 17 + i * 41 + 7) % 90) + s * 2) * 10) / 10;
        rows.push({
          ...MARKETS[cc],
          ...metricKey('relevance', 'Relevance', 'rank', 'relevance_rank'),
          sector_id: sectorId,
          sector_name: sectorName,
          year: 2024,
          brand_id: 1000 + s * 100 + m * 10 + i,
          brand_name: `${sectorName.split(' ')[0]} brand ${cc}${i + 1}`,
          value: Math.min(100, value),
        });
      }
    });
  });
  return rows;
}

/** Sector summaries computed from `sectorValueRows`. */
export function sectorSummaryRows(): SectorSummaryRow[] {
  const groups = new Map<string, SectorValueRow[]>();
  for (const r of sectorValueRows()) {
    const key = `${r.sector_id}|${r.country_code}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const q = (sorted: number[], p: number): number => {
    const pos = (sorted.length - 1) * p;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return (sorted[lo] ?? 0) + ((sorted[hi] ?? 0) - (sorted[lo] ?? 0)) * (pos - lo);
  };
  return [...groups.values()].map((group) => {
    const sorted = group.map((r) => r.value).sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    const std = Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / (sorted.length - 1));
    const r = group[0];
    if (!r) throw new Error('empty group');
    return {
      country_id: r.country_id,
      market: r.market,
      country_code: r.country_code,
      metric: r.metric,
      metric_name: r.metric_name,
      metric_group: r.metric_group,
      score_type: r.score_type,
      column: r.column,
      sector_id: r.sector_id,
      sector_name: r.sector_name,
      year: r.year,
      count: sorted.length,
      mean,
      median: q(sorted, 0.5),
      std,
      min: sorted[0] ?? null,
      q1: q(sorted, 0.25),
      q3: q(sorted, 0.75),
      max: sorted[sorted.length - 1] ?? null,
    };
  });
}

/** A listed company's brands' differentiation in GB and US, with its share price, 2019–2024. */
export function companyRows(): CompanyRollupRow[] {
  const rows: CompanyRollupRow[] = [];
  const price: Record<number, [number, number]> = { 2019: [98.2, 104.5], 2020: [95.0, 90.1], 2021: [110.4, 121.9], 2022: [125.3, 118.0], 2023: [130.8, 142.6], 2024: [150.2, 161.0] };
  const metric: Record<'GB' | 'US', Record<number, number>> = {
    GB: { 2019: 55.2, 2020: 57.0, 2021: 61.3, 2022: 60.2, 2023: 64.8, 2024: 68.1 },
    US: { 2019: 48.0, 2020: 47.2, 2021: 50.3, 2022: 53.9, 2023: 52.1, 2024: 56.6 },
  };
  for (const cc of ['GB', 'US'] as const) {
    for (const [year, value] of Object.entries(metric[cc])) {
      const [avg, end] = price[Number(year)] ?? [null, null];
      rows.push({
        ...MARKETS[cc],
        ...metricKey('differentiation', 'Differentiation', 'rank', 'differentiation_rank'),
        company_id: 77,
        company_name: 'PepsiCo, Inc.',
        year: Number(year),
        value,
        weighting: 'share_of_company',
        n_brands: 4,
        currency: 'USD',
        revenue: null,
        operating_income: null,
        net_income: null,
        market_cap: null,
        avg_close_price: avg,
        year_end_close_price: end,
      });
    }
  }
  return rows;
}

/**
 * `crossYear(..., { waves: true })` rows: as `crossYearRows`, but the US's 2024 is four quarterly
 * waves (`2024 Q1`..`2024 Q4`, at 2024, 2024.25, 2024.5, 2024.75) instead of one full year.
 */
export function crossYearWaveRows(markets: readonly MarketCode[] = ['US']): CrossYearRow[] {
  const series = new Map<string, CrossYearRow[]>();
  for (const r of crossYearRows(markets)) {
    const periods =
      r.country_code === 'US' && r.year === 2024
        ? [1, 2, 3, 4].map((q) => ({
            ...r,
            period: `2024 Q${q}`,
            period_order: 2024 + (q - 1) / 4,
            // A wobble of up to ±1.5 points around the year's value, different for each brand.
            value: Math.min(99.9, Math.round(((r.value ?? 0) + (((r.entity_id * 7 + q * 5) % 7) - 3) / 2) * 10) / 10),
          }))
        : [r];
    const key = `${r.entity_id}|${r.country_code}`;
    series.set(key, [...(series.get(key) ?? []), ...periods]);
  }
  return [...series.values()].flatMap((list) => {
    const span = (list[list.length - 1]?.value ?? 0) - (list[0]?.value ?? 0);
    return list.map((r, i) => {
      const before = list[i - 1]?.value;
      return {
        ...r,
        change: before === undefined || before === null || r.value === null ? null : r.value - before,
        change_over_span: span,
        trend: Math.abs(span) < 1 ? ('flat' as const) : span > 0 ? ('up' as const) : ('down' as const),
      };
    });
  });
}

/** How far each pillar's fixture values sit from differentiation's (kept within 0–100). */
const PILLAR_SHIFT: Record<Pillar, number> = { differentiation: 0, relevance: 6, esteem: -9, knowledge: 14 };
const shifted = (v: number, pillar: Pillar): number => Math.round(Math.min(99.9, Math.max(0.1, v + PILLAR_SHIFT[pillar])) * 10) / 10;

/** `crossMarket` rows of the four pillar ranks for the given brands (differentiation's values, shifted per pillar). */
export function crossMarketPillarRows(brands: readonly number[] = [1, 2, 3]): CrossMarketRow[] {
  return (Object.keys(PILLARS) as Pillar[]).flatMap((pillar) => {
    const table = Object.fromEntries(
      brands.map((id) => [id, Object.fromEntries(Object.entries(DIFF_RANK[id] ?? {}).map(([cc, v]) => [cc, v === null || v === undefined ? null : shifted(v, pillar)]))]),
    ) as Record<number, Partial<Record<MarketCode, number | null>>>;
    return crossMarketRows(table, { metric: pillar, metric_name: PILLARS[pillar], score_type: 'rank', column: `${pillar}_rank` });
  });
}

/** `crossYear` rows of the four pillar ranks (esteem's values over 2020–2024, shifted per pillar), changes recomputed. */
export function crossYearPillarRows(markets: readonly MarketCode[] = ['GB', 'DE', 'US'], brands: readonly number[] = [1, 2, 3]): CrossYearRow[] {
  const base = crossYearRows(markets).filter((r) => brands.includes(r.entity_id));
  return (Object.keys(PILLARS) as Pillar[]).flatMap((pillar) => {
    const rows = base.map((r) => ({ ...r, ...metricKey(pillar, PILLARS[pillar], 'rank', `${pillar}_rank`), value: r.value === null ? null : shifted(r.value, pillar) }));
    return rows.map((r, i) => {
      const before = rows[i - 1];
      const same = before !== undefined && before.entity_id === r.entity_id && before.country_code === r.country_code;
      return { ...r, change: same && before.value !== null && r.value !== null ? r.value - before.value : null };
    });
  });
}
