/**
 * The four pillars (differentiation, relevance, esteem, knowledge) of each brand in one study
 * context, from whichever frames rows the caller has: tidy rows, cross-market rows or cross-year
 * rows. Shared by the pillars profile and the power grid.
 */
import { DataError } from '../errors.js';
import type { CrossMarketRow, CrossYearRow, TidyRow } from '../frames/types.js';
import type { ScoreType } from '../schemas/score-types.js';
import { entityKey } from './entity-names.js';
import { distinct, firstRow, pickOne } from './pick-one.js';

/**
 * Rows the pillar charts accept.
 *
 * @example
 * const rows: PillarRow[] = [...tidyRows, ...crossMarketRows];
 */
export type PillarRow = TidyRow | CrossMarketRow | CrossYearRow;

/** The pillar metric keys, in the order charts show them. */
export const PILLARS = ['differentiation', 'relevance', 'esteem', 'knowledge'] as const;
export type Pillar = (typeof PILLARS)[number];

/**
 * Which slice of the rows to chart, when they hold several.
 *
 * @example
 * pillarsProfile(rows, { market: 'US', period: '2024 Q2', audienceId: 1 });
 */
export interface PillarSelection {
  /** Score type of the pillar columns. Default `rank` (percentile ranks), or the only one the rows hold. */
  scoreType?: ScoreType;
  /** Market (`country_code`). */
  market?: string;
  /** Year (tidy and cross-market rows) or period (`period` of cross-year rows, e.g. `2024 Q2`). */
  period?: string | number;
  /** Audience of tidy rows. Default 1 (All Adults) when present. */
  audienceId?: number;
}

export interface BrandPillars {
  key: string;
  /** Local name in the market. */
  name: string;
  global_name: string;
  values: Record<Pillar, number | null>;
}

export interface PillarTable {
  brands: BrandPillars[];
  market: string;
  period: string;
  scoreType: ScoreType;
  /** Display names of the pillars, from the rows' `metric_name`. */
  pillarNames: Record<Pillar, string>;
  /** The brands are entities of this kind (always `brand` for tidy rows). */
  kind: 'brand' | 'company' | 'sector';
}

const isPillar = (metric: string): metric is Pillar => (PILLARS as readonly string[]).includes(metric);

interface Flat {
  key: string;
  name: string;
  global_name: string;
  kind: 'brand' | 'company' | 'sector';
  country_code: string;
  market: string;
  period: string;
  audience: number | null;
  metric: Pillar;
  metric_name: string;
  score_type: ScoreType;
  value: number | null;
}

function isTidy(row: PillarRow): row is TidyRow {
  return 'is_duplicate' in row;
}
function isCrossYear(row: PillarRow): row is CrossYearRow {
  return 'period' in row;
}

function flatten(row: PillarRow): Flat | undefined {
  const metric = row.metric;
  if (!isPillar(metric)) return undefined;
  const common = { country_code: row.country_code, market: row.market, metric, metric_name: row.metric_name, score_type: row.score_type, value: row.value };
  if (isTidy(row)) {
    // Pillars are category-agnostic: the duplicates of a brand studied in several categories
    // repeat (or, in other metrics, differ from) its one non-duplicate row; counting them twice
    // would be wrong, so they are dropped.
    if (row.is_duplicate) return undefined;
    return { ...common, key: `brand:${row.brand_id}`, name: row.brand_name, global_name: row.global_name, kind: 'brand', period: String(row.year), audience: row.audience_id };
  }
  const period = isCrossYear(row) ? row.period : String(row.year);
  return { ...common, key: entityKey(row), name: row.entity_name, global_name: row.global_name, kind: row.entity_kind, period, audience: null };
}

/**
 * Gathers the four pillars per brand for one market, period and audience.
 *
 * @example
 * const table = pillarValues(tidyRows, { market: 'GB', period: 2024 });
 * table.brands[0].values.esteem // 66.2
 */
export function pillarValues(rows: readonly PillarRow[], selection: PillarSelection = {}, chart = 'pillar chart'): PillarTable {
  firstRow(rows, chart);
  const pillars = rows.flatMap((r) => flatten(r) ?? []);
  // Percentile ranks unless the rows hold the pillars in one other score type only.
  const types = distinct(pillars.map((f) => f.score_type));
  const scoreType = selection.scoreType ?? (types.includes('rank') || types.length === 0 ? 'rank' : pickOne(types, undefined, 'pillar score type', 'scoreType'));
  const flat = pillars.filter((f) => f.score_type === scoreType);
  if (flat.length === 0) {
    const present = [...new Set(rows.map((r) => r.column))];
    throw new DataError(`The rows hold no pillar columns with ${scoreType} scores.`, PILLARS.map((p) => `${p}_${scoreType}`), present);
  }
  const market = pickOne(flat.map((f) => f.country_code), selection.market, 'market', 'market');
  const inMarket = flat.filter((f) => f.country_code === market);
  const period = pickOne(inMarket.map((f) => f.period), selection.period === undefined ? undefined : String(selection.period), 'period', 'period');
  const inPeriod = inMarket.filter((f) => f.period === period);
  const audiences = inPeriod.flatMap((f) => (f.audience === null ? [] : [f.audience]));
  const audience = audiences.length === 0 ? null : pickOne(audiences, selection.audienceId ?? (audiences.includes(1) ? 1 : undefined), 'audience', 'audienceId');
  const picked = inPeriod.filter((f) => f.audience === audience);
  const first = firstRow(picked, chart);

  const pillarNames: Record<Pillar, string> = { differentiation: 'Differentiation', relevance: 'Relevance', esteem: 'Esteem', knowledge: 'Knowledge' };
  const brands = new Map<string, BrandPillars>();
  for (const f of picked) {
    pillarNames[f.metric] = f.metric_name;
    let brand = brands.get(f.key);
    if (brand === undefined) {
      brand = { key: f.key, name: f.name, global_name: f.global_name, values: { differentiation: null, relevance: null, esteem: null, knowledge: null } };
      brands.set(f.key, brand);
    }
    if (brand.values[f.metric] === null) brand.values[f.metric] = f.value;
  }
  return { brands: [...brands.values()], market: first.market, period, scoreType, pillarNames, kind: first.kind };
}
