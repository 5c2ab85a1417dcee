/**
 * Brandscape data generated on demand (REFERENCE §12): values exist only for the (study x audience)
 * blocks a request touches, computed from the world's latent traits and kept in a bounded cache.
 *
 * What a cell holds, for brand b, metric m, study s (market, year), audience a:
 *
 *   z = trait(b, m)                       factor mix + the metric's own part, persistent
 *     + trend(b, m) * (t - 2022)          brand and sector trends
 *     + deviation(b, market, m)           persistent brand-in-market difference
 *     + reach(b, market) * familiarity(m) known at home, less abroad
 *     + noise(b, study, m)                yearly noise
 *     + skew(b) . profile(a) * w(m)       audiences see brands differently
 *     + sampling noise / sqrt(base)       small bases are noisier
 *   (+ category(b, c, m) for usage, preference and recommendation, which differ by category)
 *
 * Score types follow from z: `_c` is z plus the market's response style (raw construct scores are
 * less comparable across markets than ranks; archetypes are standardised within the study),
 * `_pct` a logistic share, `_rank` the percentile within the study and audience (0-100), the index
 * scores 100 x level / mean level over the brandscape or the brand's category.
 */
import { SCORE_TYPES } from '../../schemas/score-types.js';
import { AUDIENCES, FACTORS, METRICS, type AudienceDef, type MetricDef } from './reference-data.js';
import { gauss3, gauss4, h2, h3, h4, unit } from './rng.js';
import type { StudyModel } from './studies.js';
import type { BrandscapeStore, MetricColumn } from './types.js';
import type { BrandModel, World } from './world.js';

/** Brands whose base is below this have no imagery or archetype scores (too few respondents). */
export const MIN_BASE = 50;
/** Respondents rate about this many brands each: base ≈ respondents x 40 / brands. */
const BRANDS_PER_RESPONDENT = 40;
/** Memory for computed values: audience blocks, and studies' shared latents (least recently used go first). */
const CACHE_BUDGET_BYTES = 40 * 2 ** 20;
const STUDY_LATENT_BUDGET_BYTES = 16 * 2 ** 20;

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/** A new array: `f` of each element (a plain loop: typed-array `map` with a closure is slow in V8). */
function mapValues(values: Float64Array, f: (v: number, i: number) => number): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f(values[i] as number, i);
  return out;
}

/**
 * Percentile ranks (0-100, one decimal) of `values` among the values of `domain` (NaN = missing,
 * left out). Ties share the mean rank. With `inDomain` false the values are outsiders placed among
 * the domain's values (a brand ranked against a set it is not part of).
 */
export function percentileRanks(domain: Float64Array, values: Float64Array = domain, inDomain = true): Float64Array {
  const valid = new Float64Array(domain.length);
  let n = 0;
  for (let i = 0; i < domain.length; i++) {
    const v = domain[i] as number;
    if (v === v) valid[n++] = v;
  }
  const sorted = valid.subarray(0, n).sort();
  const out = new Float64Array(values.length);
  const others = inDomain ? n - 1 : n;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v !== v || n === 0) {
      out[i] = Number.NaN;
      continue;
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) < v) lo = mid + 1;
      else hi = mid;
    }
    let equal = 0;
    while (lo + equal < n && sorted[lo + equal] === v) equal += 1;
    const tied = inDomain ? Math.max(0, equal - 1) : equal;
    out[i] = others <= 0 ? 50 : round1(clamp((100 * (lo + tied / 2)) / others, 0, 100));
  }
  return out;
}

/** Scores standardised against a set: (z - mean) / sd of the set, three decimals (archetypes). */
export function standardise(set: Float64Array, values: Float64Array = set): Float64Array {
  let n = 0;
  let sum = 0;
  for (const v of set) if (v === v) (n += 1), (sum += v);
  const mean = n > 0 ? sum / n : 0;
  let ss = 0;
  for (const v of set) if (v === v) ss += (v - mean) ** 2;
  const sd = (n > 1 ? Math.sqrt(ss / (n - 1)) : 1) || 1;
  return mapValues(values, (v) => (v === v ? round3(clamp((v - mean) / sd, -5, 5)) : Number.NaN));
}

interface StudyStatic {
  study: StudyModel;
  /** Distinct brands, ascending, as positions in world.brands. */
  unique: Int32Array;
  /** Their ids. */
  uniqueIds: Int32Array;
  /** Row -> index into `unique`. */
  rowUnique: Int32Array;
  /** Row -> category slot; rows of one category share a slot. */
  rowCategory: Int32Array;
  categorySlots: number;
  /** Per distinct brand: how known it is in this market (home, global, regional, foreign). */
  reach: Float64Array;
  /** Time in years, quarters in between. */
  t: number;
  /** Distinguishes waves for yearly noise. */
  noiseKey: number;
  /** The audience-independent part of each latent metric (All Adults' latent), per distinct brand. */
  latents: Map<number, Float64Array>;
}

interface BlockCache {
  base: Float64Array;
  latents: Map<number, Float64Array>;
  columns: Map<number, Float64Array>;
  bytes: number;
}

export interface BrandscapeInternals extends BrandscapeStore {
  /**
   * Latent values of a metric for the distinct brands of a block (NaN where the brand has no
   * score), and those brands' ids: what the archetypes tool scores against other sets.
   */
  latentsOf(studyId: number, audienceId: number, metricKey: string): { brandIds: Int32Array; z: Float64Array };
}

export function createBrandscapeStore(world: World, studies: readonly StudyModel[], seed: number): BrandscapeInternals {
  const brands = world.brands;
  const brandPos = new Map(brands.map((b, i) => [b.id, i]));
  const countryRegion = new Map(world.markets.map((m) => [m.id, m.regionId]));
  const audienceById = new Map(AUDIENCES.map((a) => [a.id, a]));
  const studyById = new Map(studies.map((s) => [s.id, s]));

  // ---- columns and latent metrics ----------------------------------------------------------------
  const columns: MetricColumn[] = [];
  const metricOfColumn: MetricDef[] = [];
  METRICS.forEach((metric, i) => {
    for (const scoreType of metric.scoreTypes) {
      columns.push({ name: metric.key + SCORE_TYPES[scoreType].suffix, metricId: i + 1, metricKey: metric.key, groupKey: metric.groupKey, scoreType, index: columns.length });
      metricOfColumn.push(metric);
    }
  });
  const latentMetrics = METRICS.filter((m) => m.loadings.length > 0);
  const latentIndex = new Map(latentMetrics.map((m, i) => [m.key, i]));
  const L = latentMetrics.length;
  const F = FACTORS.length;
  const familiarity = FACTORS.indexOf('familiarity');
  const traits = new Float64Array(brands.length * L);
  const trends = new Float64Array(brands.length * L);
  const famLoad = new Float64Array(L);
  const audWeight = new Float64Array(L);
  latentMetrics.forEach((metric, li) => {
    const loadings = new Float64Array(F);
    for (const [factor, weight] of metric.loadings) loadings[FACTORS.indexOf(factor)] = weight;
    const norm = Math.sqrt(loadings.reduce((s, w) => s + w * w, 0) + metric.unique ** 2) || 1;
    famLoad[li] = (loadings[familiarity] ?? 0) / norm;
    audWeight[li] = metric.audienceWeight ?? 0.3;
    brands.forEach((brand, b) => {
      let trait = metric.unique * gauss3(seed ^ 0x7a17, brand.id, li);
      let trend = 0;
      for (let f = 0; f < F; f++) {
        trait += (loadings[f] ?? 0) * (brand.factors[f] ?? 0);
        trend += (loadings[f] ?? 0) * (brand.trends[f] ?? 0);
      }
      traits[b * L + li] = trait / norm;
      trends[b * L + li] = trend / norm;
    });
  });
  /** A market's response style: some markets tick more boxes than others. */
  const marketShift = (countryId: number, li: number) => 0.3 * gauss3(seed ^ 0x57e1, countryId, 0) + 0.15 * gauss3(seed ^ 0x57e2, countryId, li);

  // ---- row-id layout ---------------------------------------------------------------------------
  // Studies released at start-up first, then the unreleased ones: releasing one gives its rows ids
  // nobody has seen, and no existing id moves.
  const layout = [...studies].sort((a, b) => Number(b.released) - Number(a.released) || a.id - b.id);
  const blockStarts: { studyId: number; audienceId: number; start: number; length: number }[] = [];
  const firstRow = new Map<string, number>();
  let nextRowId = 1;
  for (const study of layout) {
    for (const audienceId of study.rows.audienceIds) {
      blockStarts.push({ studyId: study.id, audienceId, start: nextRowId, length: study.rows.length });
      firstRow.set(`${study.id}:${audienceId}`, nextRowId);
      nextRowId += study.rows.length;
    }
  }

  // ---- per-study statics -------------------------------------------------------------------------
  const statics = new Map<number, StudyStatic>();
  const staticOf = (study: StudyModel): StudyStatic => {
    let st = statics.get(study.id);
    if (st) return st;
    const rows = study.rows;
    const ids: number[] = [];
    const rowUnique = new Int32Array(rows.length);
    const categorySlot = new Map<number, number>();
    const rowCategory = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const brandId = rows.brandIds[i] as number;
      if (ids.at(-1) !== brandId) ids.push(brandId);
      rowUnique[i] = ids.length - 1;
      const categoryId = rows.categoryIds[i] as number;
      let slot = categorySlot.get(categoryId);
      if (slot === undefined) categorySlot.set(categoryId, (slot = categorySlot.size));
      rowCategory[i] = slot;
    }
    const uniqueIds = Int32Array.from(ids);
    const unique = new Int32Array(ids.length);
    const reach = new Float64Array(ids.length);
    const region = countryRegion.get(study.countryId);
    for (let u = 0; u < ids.length; u++) {
      const b = brandPos.get(ids[u] as number) ?? 0;
      unique[u] = b;
      const brand = brands[b] as BrandModel;
      reach[u] = brand.homeCountryId === study.countryId ? 1 : brand.scope === 'global' ? 0.35 : countryRegion.get(brand.homeCountryId) === region ? 0 : -0.5;
    }
    st = {
      study,
      unique,
      uniqueIds,
      rowUnique,
      rowCategory,
      categorySlots: categorySlot.size,
      reach,
      t: study.year + (study.quarter === null ? 0.5 : (study.quarter - 0.5) / 4),
      noiseKey: study.countryId * 1000 + (study.year - 2000) * 5 + (study.quarter ?? 0),
      latents: new Map(),
    };
    statics.set(study.id, st);
    return st;
  };

  // ---- block cache (LRU by insertion order of a Map) ---------------------------------------------
  const cache = new Map<string, BlockCache>();
  let cachedBytes = 0;
  const blockOf = (st: StudyStatic, audience: AudienceDef): BlockCache => {
    const key = `${st.study.id}:${audience.id}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const perBrand = (st.study.respondents * BRANDS_PER_RESPONDENT) / Math.max(1, st.unique.length);
    const base = new Float64Array(st.unique.length);
    for (let u = 0; u < base.length; u++) {
      const jitter = 0.85 + 0.3 * unit(h4(seed ^ 0xba5e, st.uniqueIds[u] as number, st.study.id, audience.id));
      base[u] = Math.max(0, Math.round(perBrand * audience.share * jitter));
    }
    const block: BlockCache = { base, latents: new Map(), columns: new Map(), bytes: base.byteLength };
    cache.set(key, block);
    cachedBytes += block.bytes;
    return block;
  };
  const remember = (block: BlockCache, bytes: number) => {
    block.bytes += bytes;
    cachedBytes += bytes;
    for (const [key, old] of cache) {
      if (cachedBytes <= CACHE_BUDGET_BYTES || old === block) break;
      cache.delete(key);
      cachedBytes -= old.bytes;
    }
  };

  // Studies whose shared latents are held, least recently used first.
  const latentStudies = new Map<number, { st: StudyStatic; bytes: number }>();
  let latentBytes = 0;
  const rememberStudy = (st: StudyStatic, bytes: number) => {
    const entry = latentStudies.get(st.study.id) ?? { st, bytes: 0 };
    latentStudies.delete(st.study.id);
    entry.bytes += bytes;
    latentStudies.set(st.study.id, entry);
    latentBytes += bytes;
    for (const [id, old] of latentStudies) {
      if (latentBytes <= STUDY_LATENT_BUDGET_BYTES || old.st === st) break;
      old.st.latents.clear();
      latentStudies.delete(id);
      latentBytes -= old.bytes;
    }
  };

  /**
   * The audience-independent latent of a metric in a study: trait, trend, market deviation, reach
   * and yearly noise. Shared by every audience of the study (computed once, kept with the study).
   */
  const studyLatent = (st: StudyStatic, li: number): Float64Array => {
    const hit = st.latents.get(li);
    if (hit) return hit;
    const { unique, uniqueIds, reach, t, noiseKey, study } = st;
    const z = new Float64Array(unique.length);
    const dt = t - 2022;
    const fam = famLoad[li] as number;
    const marketKey = study.countryId * 128 + li;
    const marketSeed = seed ^ 0x3a4c;
    const noiseSeed = seed ^ 0x9ea7;
    for (let u = 0; u < unique.length; u++) {
      const b = unique[u] as number;
      const id = uniqueIds[u] as number;
      z[u] =
        (traits[b * L + li] as number) +
        (trends[b * L + li] as number) * dt +
        0.35 * gauss3(marketSeed, id, marketKey) +
        (reach[u] as number) * fam +
        0.12 * gauss4(noiseSeed, id, noiseKey, li);
    }
    st.latents.set(li, z);
    rememberStudy(st, z.byteLength);
    return z;
  };

  /** Latent z of a factor-driven metric for each distinct brand of a block: the study's, plus the audience's view. */
  const latent = (st: StudyStatic, audience: AudienceDef, block: BlockCache, li: number): Float64Array => {
    if (audience.id === 1) return studyLatent(st, li);
    const hit = block.latents.get(li);
    if (hit) return hit;
    const shared = studyLatent(st, li);
    const { unique, uniqueIds, study } = st;
    const z = new Float64Array(unique.length);
    const aw = audWeight[li] as number;
    const noiseSeed = h3(seed ^ 0xa0d1, study.id, audience.id);
    for (let u = 0; u < unique.length; u++) {
      const brand = brands[unique[u] as number] as BrandModel;
      const skew = brand.ageSkew * audience.age + brand.genderSkew * audience.gender + brand.incomeSkew * audience.income;
      z[u] = (shared[u] as number) + skew * aw + (0.8 / Math.sqrt(Math.max(block.base[u] as number, 1))) * gauss3(noiseSeed, uniqueIds[u] as number, li);
    }
    block.latents.set(li, z);
    remember(block, z.byteLength);
    return z;
  };

  /** Latent z per distinct brand, or per row for metrics that differ by category; NaN = no score. */
  const metricLatent = (st: StudyStatic, audience: AudienceDef, block: BlockCache, metric: MetricDef): { z: Float64Array; perRow: boolean; shift: number } => {
    const { study } = st;
    if (metric.derivedFrom) {
      const [a, b] = metric.derivedFrom.map((key) => latentIndex.get(key) ?? 0) as [number, number];
      const zb = latent(st, audience, block, b);
      const z = mapValues(latent(st, audience, block, a), (v, i) => 0.65 * (v + (zb[i] as number)));
      return { z, perRow: false, shift: (marketShift(study.countryId, a) + marketShift(study.countryId, b)) / 2 };
    }
    const li = latentIndex.get(metric.key) ?? 0;
    const shift = marketShift(study.countryId, li);
    let z = latent(st, audience, block, li);
    if (metric.lastYear !== undefined && study.year > metric.lastYear) {
      z = new Float64Array(z.length).fill(Number.NaN);
    } else if (metric.groupKey === 'imagery' || metric.groupKey === 'archetypes') {
      // Too few respondents for attribute scores.
      z = mapValues(z, (v, u) => ((block.base[u] as number) < MIN_BASE ? Number.NaN : v));
    }
    if (!metric.byCategory) return { z, perRow: false, shift };
    const rows = study.rows;
    const perRow = new Float64Array(rows.length);
    const categorySeed = seed ^ 0xca7e;
    const marketSeed = h2(seed ^ 0xca7f, study.countryId);
    for (let i = 0; i < rows.length; i++) {
      const id = rows.brandIds[i] as number;
      const categoryId = rows.categoryIds[i] as number;
      perRow[i] = (z[st.rowUnique[i] as number] as number) + 0.45 * gauss4(categorySeed, id, categoryId, li) + 0.1 * gauss4(marketSeed, id, categoryId, li);
    }
    return { z: perRow, perRow: true, shift };
  };

  /** Every column of one metric for the rows of a block. */
  const computeMetric = (st: StudyStatic, audience: AudienceDef, block: BlockCache, metric: MetricDef, metricColumns: readonly MetricColumn[]): void => {
    const rows = st.study.rows;
    const n = rows.length;
    const rowUnique = st.rowUnique;
    const toRows = (values: Float64Array, perRow: boolean) => {
      if (perRow) return values;
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) out[i] = values[rowUnique[i] as number] as number;
      return out;
    };
    const store = (column: MetricColumn, values: Float64Array) => {
      block.columns.set(column.index, values);
      remember(block, values.byteLength);
    };
    if (metric.scoreTypes.includes('value')) {
      const column = metricColumns.find((c) => c.scoreType === 'value');
      if (column) store(column, toRows(block.base, false));
      return;
    }
    const { z, perRow, shift } = metricLatent(st, audience, block, metric);
    const has = (type: MetricColumn['scoreType']) => metric.scoreTypes.includes(type);
    const offset = metric.pctOffset ?? 0;
    const c = has('c') ? (metric.standardised ? standardise(z) : mapValues(z, (v) => (v === v ? round3(clamp(v + shift, -5, 5)) : Number.NaN))) : undefined;
    const level = mapValues(z, (v) => (v === v ? 100 / (1 + Math.exp(-(0.85 * (v + shift) + offset))) : Number.NaN));
    const pct = has('pct') ? mapValues(level, (v) => (v === v ? round1(v) : Number.NaN)) : undefined;
    for (const column of metricColumns) {
      switch (column.scoreType) {
        case 'c':
          if (c) store(column, toRows(c, perRow));
          break;
        case 'pct':
          if (pct) store(column, toRows(pct, perRow));
          break;
        case 'rank':
          // Percentile within the study and audience, of the score the row shows.
          store(column, toRows(percentileRanks(c ?? pct ?? level), perRow));
          break;
        case 'brandscape_index': {
          let sum = 0;
          let count = 0;
          for (const v of level) if (v === v) (sum += v), (count += 1);
          const mean = count > 0 ? sum / count : Number.NaN;
          store(column, toRows(mapValues(level, (v) => (v === v && mean > 0 ? clamp(Math.round((100 * v) / mean), 0, 999) : Number.NaN)), perRow));
          break;
        }
        case 'category_index': {
          const rowLevel = toRows(level, perRow);
          const sums = new Float64Array(st.categorySlots);
          const counts = new Float64Array(st.categorySlots);
          for (let i = 0; i < n; i++) {
            const v = rowLevel[i] as number;
            if (v !== v) continue;
            const slot = st.rowCategory[i] as number;
            sums[slot] = (sums[slot] as number) + v;
            counts[slot] = (counts[slot] as number) + 1;
          }
          store(
            column,
            mapValues(rowLevel, (v, i) => {
              const slot = st.rowCategory[i] as number;
              const mean = (sums[slot] as number) / ((counts[slot] as number) || 1);
              return v === v && mean > 0 ? clamp(Math.round((100 * v) / mean), 0, 999) : Number.NaN;
            }),
          );
          break;
        }
        case 'value':
          break;
      }
    }
  };

  const columnsOfMetric = new Map<string, MetricColumn[]>();
  for (const column of columns) columnsOfMetric.set(column.metricKey, [...(columnsOfMetric.get(column.metricKey) ?? []), column]);

  const context = (studyId: number, audienceId: number) => {
    const study = studyById.get(studyId);
    const audience = audienceById.get(audienceId);
    if (!study || !audience) throw new RangeError(`No brandscape block for study ${studyId} and audience ${audienceId}.`);
    const st = staticOf(study);
    return { st, audience, block: blockOf(st, audience) };
  };

  return {
    columns,
    studyIds: () => layout.filter((s) => s.released).map((s) => s.id),
    rowsOf(studyId) {
      const study = studyById.get(studyId);
      if (!study) throw new RangeError(`No study ${studyId}.`);
      return study.rows;
    },
    firstRowId(studyId, audienceId) {
      const start = firstRow.get(`${studyId}:${audienceId}`);
      if (start === undefined) throw new RangeError(`No brandscape block for study ${studyId} and audience ${audienceId}.`);
      return start;
    },
    locate(rowId) {
      let lo = 0;
      let hi = blockStarts.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const block = blockStarts[mid];
        if (!block) break;
        if (rowId < block.start) hi = mid - 1;
        else if (rowId >= block.start + block.length) lo = mid + 1;
        else return studyById.get(block.studyId)?.released ? { studyId: block.studyId, audienceId: block.audienceId, rowIndex: rowId - block.start } : undefined;
      }
      return undefined;
    },
    values(studyId, audienceId, columnIndexes) {
      const { st, audience, block } = context(studyId, audienceId);
      return columnIndexes.map((index) => {
        let values = block.columns.get(index);
        if (!values) {
          const metric = metricOfColumn[index];
          const column = columns[index];
          if (!metric || !column) return new Float64Array(st.study.rows.length).fill(Number.NaN);
          computeMetric(st, audience, block, metric, columnsOfMetric.get(metric.key) ?? []);
          values = block.columns.get(index) ?? new Float64Array(st.study.rows.length).fill(Number.NaN);
        }
        return values;
      });
    },
    latentsOf(studyId, audienceId, metricKey) {
      const { st, audience, block } = context(studyId, audienceId);
      const metric = METRICS.find((m) => m.key === metricKey);
      if (!metric) throw new RangeError(`No metric ${metricKey}.`);
      const { z } = metricLatent(st, audience, block, metric);
      return { brandIds: st.uniqueIds, z };
    },
  };
}
