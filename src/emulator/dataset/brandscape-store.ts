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
import { gauss3, gauss4, h2, h3, h3After2, h4, h4After3, noise, unit } from './rng.js';
import type { StudyModel } from './studies.js';
import type { BlockCodes, BrandscapeStore, MetricColumn } from './types.js';
import type { BrandModel, World } from './world.js';
import { NULL_CODE, VALUE_OF_CODE, tenthsCode, thousandthsCode, wholeCode } from './value-codes.js';

/** Brands whose base is below this have no imagery or archetype scores (too few respondents). */
export const MIN_BASE = 50;
/** Respondents rate about this many brands each: base ≈ respondents x 40 / brands. */
const BRANDS_PER_RESPONDENT = 40;
/** Memory for computed values: audience blocks, and studies' shared latents (least recently used go first). */
const CACHE_BUDGET_BYTES = 40 * 2 ** 20;
const STUDY_LATENT_BUDGET_BYTES = 16 * 2 ** 20;

/**
 * The largest the persistent part of a latent gets (in standard units). Unbounded, a few brands sit
 * so far out in a market that they are last (rank 0) or first (rank 100) there every year, which
 * no real brand is; softly bounded (tanh), the brands at the edge are close enough for the yearly
 * noise to change their order.
 */
const PERSISTENT_BOUND = 1.4;

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/**
 * 100 / (1 + e^-x) from a table with linear interpolation (steps of 1/512 over [-24, 24], error
 * below 1e-5): the logistic turns millions of latents into percentages per second of page serving,
 * and Math.exp was the largest single cost of generating them.
 */
const LOGISTIC_STEPS_PER_UNIT = 512;
const LOGISTIC_RANGE = 24;
const LOGISTIC = (() => {
  const table = new Float64Array(2 * LOGISTIC_RANGE * LOGISTIC_STEPS_PER_UNIT + 2);
  for (let k = 0; k < table.length; k++) table[k] = 100 / (1 + Math.exp(-(k / LOGISTIC_STEPS_PER_UNIT - LOGISTIC_RANGE)));
  return table;
})();
function logistic100(x: number): number {
  const t = (x + LOGISTIC_RANGE) * LOGISTIC_STEPS_PER_UNIT;
  if (!(t > 0)) return t === t ? 0 : Number.NaN;
  if (t >= LOGISTIC.length - 2) return 100;
  const k = t | 0;
  const lo = LOGISTIC[k] as number;
  return lo + ((LOGISTIC[k + 1] as number) - lo) * (t - k);
}

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
  for (const v of set) {
    if (v === v) {
      n += 1;
      sum += v;
    }
  }
  const mean = n > 0 ? sum / n : 0;
  let ss = 0;
  for (const v of set) if (v === v) ss += (v - mean) ** 2;
  const sd = (n > 1 ? Math.sqrt(ss / (n - 1)) : 1) || 1;
  return mapValues(values, (v) => (v === v ? round3(clamp((v - mean) / sd, -5, 5)) : Number.NaN));
}

let belowScratch = new Int32Array(1024);

/**
 * Percentile ranks (tenths codes) of the first `n` coded scores among themselves, into `out`: what
 * `percentileRanks` gives for the decoded values, by counting instead of sorting (codes are small
 * integers, and ranks only need how many scores lie below and level with each).
 */
export function rankCodes(codes: Uint16Array, n: number, out: Uint16Array): void {
  let lo = NULL_CODE;
  let hi = -1;
  let valid = 0;
  for (let i = 0; i < n; i++) {
    const k = codes[i] as number;
    if (k === NULL_CODE) continue;
    valid += 1;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  if (valid === 0) {
    out.fill(NULL_CODE, 0, n);
    return;
  }
  // below[j]: how many scores have a code below lo + j.
  const size = hi - lo + 2;
  if (belowScratch.length < size) belowScratch = new Int32Array(size);
  const below = belowScratch;
  below.fill(0, 0, size);
  for (let i = 0; i < n; i++) {
    const k = codes[i] as number;
    if (k !== NULL_CODE) below[k - lo + 1] = (below[k - lo + 1] as number) + 1;
  }
  for (let j = 1; j < size; j++) below[j] = (below[j] as number) + (below[j - 1] as number);
  // A score's rank depends only on 2 x less + tied (its mean position among the others, doubled).
  const table = rankTable(valid - 1);
  for (let i = 0; i < n; i++) {
    const k = codes[i] as number;
    if (k === NULL_CODE) {
      out[i] = NULL_CODE;
      continue;
    }
    const less = below[k - lo] as number;
    out[i] = table[2 * less + ((below[k - lo + 1] as number) - less - 1)] as number;
  }
}

/** Rank codes by doubled mean position, for `others` other scores; the last few tables are kept (most blocks share a size). */
const rankTables = new Map<number, Uint16Array>();
function rankTable(others: number): Uint16Array {
  let table = rankTables.get(others);
  if (table) return table;
  table = new Uint16Array(2 * Math.max(others, 0) + 1);
  // The same arithmetic as percentileRanks: (100 x (less + tied / 2)) / others.
  for (let t = 0; t < table.length; t++) table[t] = tenthsCode(others <= 0 ? 50 : clamp((100 * (t / 2)) / others, 0, 100));
  if (rankTables.size >= 16) rankTables.delete(rankTables.keys().next().value as number);
  rankTables.set(others, table);
  return table;
}

/** An index score's code: 100 x level / mean level, a whole number in [0, 999]; null without a level. */
const indexCode = (level: number, mean: number): number => (level === level && mean > 0 ? wholeCode(clamp(Math.round((100 * level) / mean), 0, 999)) : NULL_CODE);

/**
 * Memory of evicted caches, handed out again. Computing a block needs ~300 KB of slabs; allocating
 * them fresh made V8 collect (and mark the whole dataset) many times a second, since it counts new
 * ArrayBuffer memory towards its next full collection. There is one pool per kind of slab (per-brand
 * arrays, latents, value codes), and each pool's slabs have one size, the largest any study needs,
 * so a slab freed by one block always fits the next: pools with best or size-class fits missed one
 * take in ten, because a block of a large market is evicted while one of a small market is computed.
 * Contents of a reused slab are stale; callers track what they have written (done flags).
 */
class SlabPool {
  private readonly free: ArrayBuffer[] = [];
  /** Slabs allocated so far (not handed out again from the free list). */
  allocated = 0;

  /** `bytes`: the size of every slab; `keep`: at most this many free slabs are kept. */
  constructor(
    readonly bytes: number,
    private readonly keep: number,
  ) {}

  private take(bytes: number): ArrayBuffer {
    // Larger than the pool's size (a study added after start-up): allocated as asked, never pooled.
    if (bytes > this.bytes) {
      this.allocated++;
      return new ArrayBuffer(bytes);
    }
    const slab = this.free.pop();
    if (slab) return slab;
    this.allocated++;
    return new ArrayBuffer(this.bytes);
  }

  float64(length: number): Float64Array {
    return new Float64Array(this.take(8 * length), 0, length);
  }

  uint16(length: number): Uint16Array {
    return new Uint16Array(this.take(2 * length), 0, length);
  }

  /** Gives a slab (through any view of it) back; beyond `keep` free slabs it is left to the collector. */
  release(view: { buffer: ArrayBufferLike } | undefined): void {
    if (view && view.buffer.byteLength === this.bytes && this.free.length < this.keep && view.buffer instanceof ArrayBuffer) this.free.push(view.buffer);
  }
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
  /** Per distinct brand, the hashes its market deviation and yearly noise start from (rng.ts `h3After2`, `h4After3`). */
  marketHash: Int32Array;
  noiseHash: Int32Array;
  /**
   * The audience-independent part of each latent metric (All Adults' latent), per distinct brand:
   * metric li's values are `latents[li * unique.length ...]`, valid where `latentDone[li]` is 1.
   * Allocated on first use, dropped when the study's latents are evicted.
   */
  latents: Float64Array | undefined;
  latentDone: Uint8Array;
}

interface BlockCache {
  base: Float64Array;
  /** Per distinct brand, for audiences other than All Adults: the brand's skew towards the audience, and its sampling noise's scale. */
  skew: Float64Array;
  noiseScale: Float64Array;
  /** Per distinct brand, the hash its sampling noise starts from (`h2(h3(seed ^ 0xa0d1, study, audience), id)`). */
  noiseHash: Int32Array;
  /** The audience's latents (not for All Adults, whose are the study's), laid out like `StudyStatic.latents`. */
  latents: Float64Array | undefined;
  latentDone: Uint8Array;
  /**
   * Value codes (value-codes.ts) of every column, column by column (`BlockCodes`): column j's start
   * at `codeOffset[j]`, one per distinct brand or, for columns that differ by category, one per row;
   * valid where `codeDone[j]` is 1. One allocation per block, on first use.
   */
  codes: Uint16Array | undefined;
  codeOffset: Int32Array;
  codeDone: Uint8Array;
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
  // Columns that differ by category are kept per row, the rest per distinct brand (see BlockCodes).
  const byRow = Uint8Array.from(columns, (c) => (metricOfColumn[c.index]?.byCategory || c.scoreType === 'category_index' ? 1 : 0));
  const rowColumns = byRow.reduce((sum, x) => sum + x, 0);
  const codeSlabLength = (brands: number, rows: number) => rowColumns * rows + (columns.length - rowColumns) * brands;
  const columnOffsets = (brands: number, rows: number) => {
    const offsets = new Int32Array(columns.length);
    let at = 0;
    columns.forEach((c, j) => {
      offsets[j] = at;
      at += byRow[j] === 1 ? rows : brands;
    });
    return offsets;
  };
  const latentMetrics = METRICS.filter((m) => m.loadings.length > 0);
  const latentIndex = new Map(latentMetrics.map((m, i) => [m.key, i]));
  const L = latentMetrics.length;
  const F = FACTORS.length;
  const familiarity = FACTORS.indexOf('familiarity');
  // Metric by metric (metric li's at li * B): a study's latent reads one metric's run of brands.
  const B = brands.length;
  const traits = new Float64Array(B * L);
  const trends = new Float64Array(B * L);
  // Audience skews of each brand, as arrays (blocks read them for every distinct brand).
  const ageSkew = Float64Array.from(brands, (b) => b.ageSkew);
  const genderSkew = Float64Array.from(brands, (b) => b.genderSkew);
  const incomeSkew = Float64Array.from(brands, (b) => b.incomeSkew);
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
      traits[li * B + b] = trait / norm;
      trends[li * B + b] = trend / norm;
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
    const noiseKey = study.countryId * 1000 + (study.year - 2000) * 5 + (study.quarter ?? 0);
    st = {
      study,
      unique,
      uniqueIds,
      rowUnique,
      rowCategory,
      categorySlots: categorySlot.size,
      reach,
      t: study.year + (study.quarter === null ? 0.5 : (study.quarter - 0.5) / 4),
      noiseKey,
      marketHash: Int32Array.from(uniqueIds, (id) => h2(seed ^ 0x3a4c, id)),
      noiseHash: Int32Array.from(uniqueIds, (id) => h3(seed ^ 0x9ea7, id, noiseKey)),
      latents: undefined,
      latentDone: new Uint8Array(L),
    };
    statics.set(study.id, st);
    return st;
  };

  // ---- block cache (LRU by insertion order of a Map) ---------------------------------------------
  // One slab size per kind: the largest any study needs.
  const maxBrands = Math.max(1, ...studies.map((s) => new Set(s.rows.brandIds).size));
  const maxRows = Math.max(1, ...studies.map((s) => s.rows.length));
  const perBrandSlabs = new SlabPool(8 * 4 * maxBrands, 16);
  const latentSlabs = new SlabPool(8 * L * maxBrands, 16);
  const codeSlabs = new SlabPool(2 * codeSlabLength(maxBrands, maxRows), 16);
  const cache = new Map<string, BlockCache>();
  // With slabs of fixed sizes the budget holds a fixed number of blocks (counting what each may come
  // to hold), and each block made evicts one, whose slabs the new one reuses.
  const cacheBlocks = Math.max(4, Math.floor(CACHE_BUDGET_BYTES / (perBrandSlabs.bytes + latentSlabs.bytes + codeSlabs.bytes)));
  const blockOf = (st: StudyStatic, audience: AudienceDef): BlockCache => {
    const key = `${st.study.id}:${audience.id}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    // The least recently used blocks make room first, so that the new block takes their slabs.
    // Nobody reads an evicted block's slabs any more (codeColumns' views are read before the next call).
    for (const [oldKey, old] of cache) {
      if (cache.size < cacheBlocks) break;
      cache.delete(oldKey);
      codeSlabs.release(old.codes);
      latentSlabs.release(old.latents);
      perBrandSlabs.release(old.base);
    }
    const { unique, uniqueIds, study } = st;
    // A respondent rates about BRANDS_PER_RESPONDENT brands, and no brand more than once.
    const perBrand = Math.min(study.respondents, (study.respondents * BRANDS_PER_RESPONDENT) / Math.max(1, unique.length));
    const n = unique.length;
    // Four arrays in one recycled slab.
    const perBrandSlab = perBrandSlabs.float64(4 * n);
    const base = perBrandSlab.subarray(0, n);
    const skew = perBrandSlab.subarray(n, 2 * n);
    const noiseScale = perBrandSlab.subarray(2 * n, 3 * n);
    const noiseHash = new Int32Array(perBrandSlab.buffer, perBrandSlab.byteOffset + 24 * n, n);
    const blockSeed = h3(seed ^ 0xa0d1, study.id, audience.id);
    const baseSeed = seed ^ 0xba5e;
    const { age, gender, income, share } = audience;
    for (let u = 0; u < n; u++) {
      const id = uniqueIds[u] as number;
      const b = unique[u] as number;
      const jitter = 0.85 + 0.3 * unit(h4(baseSeed, id, study.id, audience.id));
      const count = Math.max(0, Math.round(perBrand * share * jitter));
      base[u] = count;
      skew[u] = (ageSkew[b] as number) * age + (genderSkew[b] as number) * gender + (incomeSkew[b] as number) * income;
      noiseScale[u] = 0.8 / Math.sqrt(Math.max(count, 1));
      noiseHash[u] = h2(blockSeed, id);
    }
    const block: BlockCache = {
      base,
      skew,
      noiseScale,
      noiseHash,
      latents: undefined,
      latentDone: new Uint8Array(L),
      codes: undefined,
      codeDone: new Uint8Array(columns.length),
      codeOffset: columnOffsets(n, study.rows.length),
    };
    cache.set(key, block);
    return block;
  };

  // Studies whose shared latents are held, least recently used first; like blocks, a fixed number.
  const latentStudies = new Map<number, StudyStatic>();
  const latentStudyLimit = Math.max(2, Math.floor(STUDY_LATENT_BUDGET_BYTES / latentSlabs.bytes));
  const allocateStudyLatents = (st: StudyStatic): Float64Array => {
    for (const [id, old] of latentStudies) {
      if (latentStudies.size < latentStudyLimit) break;
      latentSlabs.release(old.latents);
      old.latents = undefined;
      old.latentDone.fill(0);
      latentStudies.delete(id);
    }
    const slab = latentSlabs.float64(L * st.unique.length);
    st.latents = slab;
    latentStudies.set(st.study.id, st);
    return slab;
  };

  /**
   * The audience-independent latent of a metric in a study: trait, trend, market deviation, reach
   * and yearly noise. Shared by every audience of the study (computed once, kept with the study).
   * A view into the study's latents: read it, never write it.
   */
  const studyLatent = (st: StudyStatic, li: number): Float64Array => {
    const { unique, reach, t, study, marketHash, noiseHash } = st;
    const n = unique.length;
    const slab = st.latents ?? allocateStudyLatents(st);
    const z = slab.subarray(li * n, (li + 1) * n);
    if (st.latentDone[li] === 1) return z;
    const dt = t - 2022;
    const fam = famLoad[li] as number;
    const marketKey = study.countryId * 128 + li;
    const offset = li * B;
    // Normal noise from h3(seed ^ 0x3a4c, id, marketKey) and h4(seed ^ 0x9ea7, id, noiseKey, li), via per-brand hashes.
    for (let u = 0; u < n; u++) {
      const b = unique[u] as number;
      const persistent =
        (traits[offset + b] as number) +
        (trends[offset + b] as number) * dt +
        0.35 * noise(h3After2(marketHash[u] as number, marketKey)) +
        (reach[u] as number) * fam;
      z[u] = PERSISTENT_BOUND * Math.tanh(persistent / PERSISTENT_BOUND) + 0.12 * noise(h4After3(noiseHash[u] as number, li));
    }
    st.latentDone[li] = 1;
    return z;
  };

  /** Latent z of a factor-driven metric for each distinct brand of a block: the study's, plus the audience's view. A view: never write it. */
  const latent = (st: StudyStatic, audience: AudienceDef, block: BlockCache, li: number): Float64Array => {
    if (audience.id === 1) return studyLatent(st, li);
    const n = st.unique.length;
    if (!block.latents) block.latents = latentSlabs.float64(L * n);
    const z = block.latents.subarray(li * n, (li + 1) * n);
    if (block.latentDone[li] === 1) return z;
    const shared = studyLatent(st, li);
    const { skew, noiseScale, noiseHash } = block;
    const aw = audWeight[li] as number;
    for (let u = 0; u < n; u++) {
      z[u] = (shared[u] as number) + (skew[u] as number) * aw + (noiseScale[u] as number) * noise(h3After2(noiseHash[u] as number, li));
    }
    block.latentDone[li] = 1;
    return z;
  };

  /**
   * Latent z of a metric, per distinct brand or, for metrics that differ by category, per row;
   * NaN = no score. Written into `out` (at least as long as the study's rows), or a cached view
   * returned as it is when nothing needs changing: never write the result.
   */
  const metricLatent = (st: StudyStatic, audience: AudienceDef, block: BlockCache, metric: MetricDef, out: Float64Array): { z: Float64Array; perRow: boolean; shift: number } => {
    const { study } = st;
    const n = st.unique.length;
    if (metric.derivedFrom) {
      const [a, b] = metric.derivedFrom.map((key) => latentIndex.get(key) ?? 0) as [number, number];
      const za = latent(st, audience, block, a);
      const zb = latent(st, audience, block, b);
      // Bounded like the latents it is made of (a brand at the edge of both would sit alone at the edge).
      for (let u = 0; u < n; u++) out[u] = PERSISTENT_BOUND * Math.tanh((0.65 * ((za[u] as number) + (zb[u] as number))) / PERSISTENT_BOUND);
      return { z: out.subarray(0, n), perRow: false, shift: (marketShift(study.countryId, a) + marketShift(study.countryId, b)) / 2 };
    }
    const li = latentIndex.get(metric.key) ?? 0;
    const shift = marketShift(study.countryId, li);
    let z = latent(st, audience, block, li);
    if (metric.lastYear !== undefined && study.year > metric.lastYear) {
      z = out.subarray(0, n).fill(Number.NaN);
    } else if (metric.groupKey === 'imagery' || metric.groupKey === 'archetypes') {
      // Too few respondents for attribute scores.
      const base = block.base;
      for (let u = 0; u < n; u++) out[u] = (base[u] as number) < MIN_BASE ? Number.NaN : (z[u] as number);
      z = out.subarray(0, n);
    }
    if (!metric.byCategory) return { z, perRow: false, shift };
    const rows = study.rows;
    const categorySeed = seed ^ 0xca7e;
    const marketSeed = h2(seed ^ 0xca7f, study.countryId);
    const yearSeed = h2(seed ^ 0xca80, st.noiseKey);
    // Per row, from the brand's value (z may be `out` itself: rows are written after reading).
    const perRow = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const id = rows.brandIds[i] as number;
      const categoryId = rows.categoryIds[i] as number;
      // The brand's part in its category persists from year to year: bounded with the rest (see PERSISTENT_BOUND).
      const persistent = (z[st.rowUnique[i] as number] as number) + 0.45 * gauss4(categorySeed, id, categoryId, li) + 0.1 * gauss4(marketSeed, id, categoryId, li);
      // Yearly noise outside the bound (inside it, the edge would flatten it away).
      perRow[i] = PERSISTENT_BOUND * Math.tanh(persistent / PERSISTENT_BOUND) + 0.08 * gauss4(yearSeed, id, categoryId, li);
    }
    out.set(perRow);
    return { z: out.subarray(0, rows.length), perRow: true, shift };
  };

  // Scratch space for one metric's computation, reused (never cached, never returned).
  let scratchSize = 0;
  let zScratch = new Float64Array(0);
  let levelScratch = new Float64Array(0);
  let cScratch = new Uint16Array(0);
  let pctScratch = new Uint16Array(0);
  let codeScratch = new Uint16Array(0);
  let slotSums = new Float64Array(64);
  let slotCounts = new Float64Array(64);
  const scratchFor = (n: number) => {
    if (n <= scratchSize) return;
    scratchSize = Math.max(n, 2 * scratchSize);
    zScratch = new Float64Array(scratchSize);
    levelScratch = new Float64Array(scratchSize);
    cScratch = new Uint16Array(scratchSize);
    pctScratch = new Uint16Array(scratchSize);
    codeScratch = new Uint16Array(scratchSize);
  };

  /** Every column of one metric for a block, as value codes in the block's code slab. */
  const computeMetric = (st: StudyStatic, audience: AudienceDef, block: BlockCache, metric: MetricDef, metricColumns: readonly MetricColumn[]): void => {
    const n = st.study.rows.length;
    const rowUnique = st.rowUnique;
    const brands = st.unique.length;
    if (!block.codes) block.codes = codeSlabs.uint16(codeSlabLength(brands, n));
    const slab = block.codes;
    /** Stores a column's codes, per distinct brand or per row as the column is laid out (`byRow`). */
    const store = (column: MetricColumn, codes: Uint16Array, perRow: boolean) => {
      const j = column.index;
      const offset = block.codeOffset[j] as number;
      if (byRow[j] === 1) {
        if (perRow) slab.set(codes.subarray(0, n), offset);
        else for (let i = 0; i < n; i++) slab[offset + i] = codes[rowUnique[i] as number] as number;
      } else {
        if (perRow) throw new RangeError(`Column ${column.name} is kept per brand but was computed per row.`);
        slab.set(codes.subarray(0, brands), offset);
      }
      block.codeDone[j] = 1;
    };
    scratchFor(n);
    if (metric.scoreTypes.includes('value')) {
      const column = metricColumns.find((c) => c.scoreType === 'value');
      if (column) {
        const base = block.base;
        for (let u = 0; u < base.length; u++) codeScratch[u] = wholeCode(base[u] as number);
        store(column, codeScratch, false);
      }
      return;
    }
    const { z, perRow, shift } = metricLatent(st, audience, block, metric, zScratch);
    const m = z.length;
    const has = (type: MetricColumn['scoreType']) => metric.scoreTypes.includes(type);
    const offset = metric.pctOffset ?? 0;
    const level = levelScratch;
    for (let u = 0; u < m; u++) {
      const v = z[u] as number;
      level[u] = v === v ? logistic100(0.85 * (v + shift) + offset) : Number.NaN;
    }
    let c: Uint16Array | undefined;
    if (has('c')) {
      c = cScratch;
      if (metric.standardised) {
        const standardised = standardise(z);
        for (let u = 0; u < m; u++) c[u] = thousandthsCode(standardised[u] as number);
      } else for (let u = 0; u < m; u++) c[u] = thousandthsCode((z[u] as number) + shift);
    }
    let pct: Uint16Array | undefined;
    if (has('pct')) {
      pct = pctScratch;
      for (let u = 0; u < m; u++) pct[u] = tenthsCode(level[u] as number);
    }
    const codes = codeScratch;
    for (const column of metricColumns) {
      switch (column.scoreType) {
        case 'c':
          if (c) store(column, c, perRow);
          break;
        case 'pct':
          if (pct) store(column, pct, perRow);
          break;
        case 'rank': {
          // Percentile within the study and audience, of the score the row shows.
          const shown = c ?? pct;
          if (shown) rankCodes(shown, m, codes);
          else {
            const ranks = percentileRanks(level.subarray(0, m));
            for (let u = 0; u < m; u++) codes[u] = tenthsCode(ranks[u] as number);
          }
          store(column, codes, perRow);
          break;
        }
        case 'brandscape_index': {
          let sum = 0;
          let count = 0;
          for (let u = 0; u < m; u++) {
            const v = level[u] as number;
            if (v === v) {
              sum += v;
              count += 1;
            }
          }
          const mean = count > 0 ? sum / count : Number.NaN;
          for (let u = 0; u < m; u++) codes[u] = indexCode(level[u] as number, mean);
          store(column, codes, perRow);
          break;
        }
        case 'category_index': {
          const slots = st.categorySlots;
          const rowCategory = st.rowCategory;
          if (slotSums.length < slots) {
            slotSums = new Float64Array(slots);
            slotCounts = new Float64Array(slots);
          }
          const sums = slotSums.fill(0, 0, slots);
          const counts = slotCounts.fill(0, 0, slots);
          for (let i = 0; i < n; i++) {
            const v = level[perRow ? i : (rowUnique[i] as number)] as number;
            if (v !== v) continue;
            const slot = rowCategory[i] as number;
            sums[slot] = (sums[slot] as number) + v;
            counts[slot] = (counts[slot] as number) + 1;
          }
          for (let i = 0; i < n; i++) {
            const slot = rowCategory[i] as number;
            codes[i] = indexCode(level[perRow ? i : (rowUnique[i] as number)] as number, (sums[slot] as number) / ((counts[slot] as number) || 1));
          }
          store(column, codes, true);
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

  const codeColumns = (studyId: number, audienceId: number, columnIndexes: readonly number[]): BlockCodes => {
    const { st, audience, block } = context(studyId, audienceId);
    for (const index of columnIndexes) {
      const metric = metricOfColumn[index];
      if (!metric) throw new RangeError(`No brandscape column ${index}.`);
      if (block.codeDone[index] !== 1) computeMetric(st, audience, block, metric, columnsOfMetric.get(metric.key) ?? []);
    }
    return { codes: block.codes ?? new Uint16Array(0), offset: block.codeOffset, byRow, brandOfRow: st.rowUnique };
  };

  return {
    columns,
    cacheStats: () => ({
      blocks: cache.size,
      blockLimit: cacheBlocks,
      latentStudies: latentStudies.size,
      slabsAllocated: perBrandSlabs.allocated + latentSlabs.allocated + codeSlabs.allocated,
    }),
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
    codeColumns,
    values(studyId, audienceId, columnIndexes) {
      const { codes, offset, brandOfRow } = codeColumns(studyId, audienceId, columnIndexes);
      return columnIndexes.map((j) => {
        const values = new Float64Array(brandOfRow.length);
        const start = offset[j] as number;
        for (let i = 0; i < values.length; i++) values[i] = VALUE_OF_CODE[codes[start + (byRow[j] === 1 ? i : (brandOfRow[i] as number))] as number] as number;
        return values;
      });
    },
    latentsOf(studyId, audienceId, metricKey) {
      const { st, audience, block } = context(studyId, audienceId);
      const metric = METRICS.find((m) => m.key === metricKey);
      if (!metric) throw new RangeError(`No metric ${metricKey}.`);
      const { z } = metricLatent(st, audience, block, metric, new Float64Array(st.study.rows.length));
      return { brandIds: st.uniqueIds, z: z.slice() };
    },
  };
}
