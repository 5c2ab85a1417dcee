/**
 * Values of brandscape rows per unit (brand, company, sector, ...) x market x period, the step
 * every comparison shares.
 *
 * Two levels: rows are first averaged per unit and study, then study values per unit, market and
 * period. For a market studied once a year the two are the same mean. For US quarterly waves
 * aggregated to a year, each wave counts once whatever its number of rows (the mean of the wave
 * means), so a brand in more categories in one wave does not outweigh the other waves.
 *
 * Entities made of brands (companies, sectors) add a third level (`brandGroups`, `groupValues`):
 * each brand's value comes first, from its own rows, and the entity combines brand values. Averaging
 * the entity's rows directly would count a brand studied in two categories twice wherever its
 * per-category rows are kept (usage, preference and recommendation under `auto` de-duplication,
 * every column under `none`).
 */
import { groupIndex, groupSegments, type GroupIndex } from './group-index.js';
import type { PreparedBrandscape } from './prepare-brandscape.js';

/** `year`: US quarterly waves aggregated to their calendar year; `wave`: every study its own period. */
export type PeriodMode = 'year' | 'wave';

export interface PeriodRows {
  /**
   * Selected rows. Where a market-year has both a full-year study and quarterly waves, year mode
   * leaves out the waves and wave mode the full-year study.
   */
  readonly rows: Int32Array;
  /** Per table row: the study's country id. */
  readonly country: Int32Array;
  /** Per table row: `year * 10 + quarter` (quarter 0 for full-year studies; always 0 in year mode). */
  readonly period: Int32Array;
  readonly notes: readonly string[];
}

/** Period codes for the selected rows under a period mode. */
export function periodRows(prep: PreparedBrandscape, rows: Int32Array, mode: PeriodMode): PeriodRows {
  const country = new Int32Array(prep.n);
  const period = new Int32Array(prep.n);
  const fullYear = new Set<string>();
  const waves = new Set<string>();
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    const s = prep.studies.get(prep.studyId[row]!)!;
    country[row] = s.countryId;
    period[row] = s.year * 10 + (mode === 'wave' ? (s.quarter ?? 0) : 0);
    (s.quarter === null ? fullYear : waves).add(`${s.countryId}:${s.year}`);
  }
  const notes: string[] = [];
  // A market-year with both a full-year study and waves: year mode keeps the full-year study (the
  // year's figure), wave mode keeps the waves. Both at once would give the full year and Q1 the
  // same period order, and compute Q1's change against its own year.
  const both = [...waves].filter((key) => fullYear.has(key));
  if (both.length > 0) {
    const keepWaves = mode === 'wave';
    const out: number[] = [];
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const s = prep.studies.get(prep.studyId[row]!)!;
      const key = `${s.countryId}:${s.year}`;
      const drop = keepWaves ? s.quarter === null && waves.has(key) : s.quarter !== null && fullYear.has(key);
      if (!drop) out.push(row);
    }
    notes.push(
      keepWaves
        ? `Full-year studies were left out where the same market and year has quarterly waves (${both.length} market-year${both.length === 1 ? '' : 's'}): each wave is a period of its own.`
        : `Quarterly waves were left out where the same market and year has a full-year study (${both.length} market-year${both.length === 1 ? '' : 's'}).`,
    );
    return { rows: Int32Array.from(out), country, period, notes };
  }
  if (mode === 'year' && waves.size > 0) notes.push('Quarterly waves (US) are aggregated to their calendar year: the mean of the wave values, each wave weighted equally.');
  return { rows, country, period, notes };
}

/** Cells of unit keys x market x period over the selected rows. */
export interface Cells {
  readonly count: number;
  /** A table row of each cell (for its keys and names). */
  readonly firstRow: Int32Array;
  /** Groups of unit keys x study. */
  readonly studyLevel: GroupIndex;
  /** Study-level group -> cell. */
  readonly cellOf: Int32Array;
}

export function buildCells(prep: PreparedBrandscape, setup: PeriodRows, unitKeys: readonly Int32Array[]): Cells {
  const studyLevel = groupIndex([...unitKeys, prep.studyId], setup.rows);
  const cells = groupIndex([...unitKeys, setup.country, setup.period], studyLevel.firstRow);
  return { count: cells.count, firstRow: cells.firstRow, studyLevel, cellOf: cells.groupOf };
}

export interface CellValues {
  /** Mean of the study means of each cell; NaN where no row has a value. */
  readonly value: Float64Array;
  /** Rows with a value behind each cell. */
  readonly nRows: Int32Array;
}

/**
 * Aggregates one column into the cells. `keep` (per table row) leaves out rows with 0, which is how
 * de-duplication applies per column.
 */
export function cellValues(cells: Cells, values: Float64Array, keep: Uint8Array | undefined): CellValues {
  const { studyLevel } = cells;
  const sum1 = new Float64Array(studyLevel.count);
  const cnt1 = new Float64Array(studyLevel.count);
  const rows = studyLevel.rows;
  const groupOf = studyLevel.groupOf;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (keep !== undefined && keep[row] === 0) continue;
    const v = values[row]!;
    if (v !== v) continue;
    const g = groupOf[k]!;
    sum1[g]! += v;
    cnt1[g]!++;
  }
  const sum2 = new Float64Array(cells.count);
  const cnt2 = new Float64Array(cells.count);
  const nRows = new Int32Array(cells.count);
  for (let g = 0; g < studyLevel.count; g++) {
    const c = cnt1[g]!;
    if (c === 0) continue;
    const cell = cells.cellOf[g]!;
    sum2[cell]! += sum1[g]! / c;
    cnt2[cell]!++;
    nRows[cell]! += c;
  }
  const value = new Float64Array(cells.count);
  for (let c = 0; c < cells.count; c++) value[c] = cnt2[c]! > 0 ? sum2[c]! / cnt2[c]! : NaN;
  return { value, nRows };
}

/**
 * Brand cells under an entity, and the entity x market x period groups they make. With `extraKeys`
 * (e.g. the category) a brand has one cell per key value, and each counts as one observation.
 */
export interface BrandGroups {
  /** One cell per entity x brand (x extra keys) x market x period. */
  readonly cells: Cells;
  /** Entity x market x period groups. */
  readonly count: number;
  /** A table row of each group (for its keys and names). */
  readonly firstRow: Int32Array;
  /** The cells of group g are `order[start[g]] .. order[start[g + 1] - 1]`. */
  readonly order: Int32Array;
  readonly start: Int32Array;
}

/**
 * Groups brand cells by entity, market and period. `entity` is a per-row id column (company or
 * sector ids, or the brand ids themselves, in which case each group is one brand).
 */
export function brandGroups(prep: PreparedBrandscape, setup: PeriodRows, entity: Int32Array, extraKeys: readonly Int32Array[] = []): BrandGroups {
  const unitKeys = entity === prep.brandId ? [entity, ...extraKeys] : [entity, prep.brandId, ...extraKeys];
  const cells = buildCells(prep, setup, unitKeys);
  const groups = groupIndex([entity, setup.country, setup.period], cells.firstRow);
  const { order, start } = groupSegments(groups);
  return { cells, count: groups.count, firstRow: groups.firstRow, order, start };
}

export interface GroupValues {
  /** Mean of each group's brand values; NaN where no brand has a value. */
  readonly value: Float64Array;
  /** Brands (cells) with a value in each group. */
  readonly nBrands: Int32Array;
  /** Rows behind each group's value. */
  readonly nRows: Int32Array;
  /** 1 where the brands were weighted by `weights`, 0 where equally. */
  readonly weighted: Uint8Array;
}

/**
 * Combines brand values into their groups: each brand with a value counts once, equally, or by
 * `weights` (per cell) when every brand of the group with a value has a positive weight.
 */
export function groupValues(groups: BrandGroups, values: CellValues, weights?: Float64Array): GroupValues {
  const { order, start } = groups;
  const value = new Float64Array(groups.count);
  const nBrands = new Int32Array(groups.count);
  const nRows = new Int32Array(groups.count);
  const weighted = new Uint8Array(groups.count);
  for (let g = 0; g < groups.count; g++) {
    let byWeight = weights !== undefined;
    let count = 0;
    for (let p = start[g]!; p < start[g + 1]!; p++) {
      const cell = order[p]!;
      if (!Number.isFinite(values.value[cell]!)) continue;
      count++;
      nRows[g]! += values.nRows[cell]!;
      if (byWeight && !(weights![cell]! > 0 && Number.isFinite(weights![cell]!))) byWeight = false;
    }
    nBrands[g] = count;
    if (count === 0) {
      value[g] = NaN;
      continue;
    }
    let sum = 0;
    let total = 0;
    for (let p = start[g]!; p < start[g + 1]!; p++) {
      const cell = order[p]!;
      const v = values.value[cell]!;
      if (!Number.isFinite(v)) continue;
      const w = byWeight ? weights![cell]! : 1;
      sum += w * v;
      total += w;
    }
    value[g] = sum / total;
    weighted[g] = byWeight ? 1 : 0;
  }
  return { value, nBrands, nRows, weighted };
}

/** The note of a comparison whose rows are companies or sectors, on how their brands were combined. */
export function brandWeightsNote(kind: 'company' | 'sector'): string {
  return `Each ${kind}'s value is the mean of its brands' values in the market and period (equal weights), a brand's value being the mean of its own rows: a brand studied in several categories counts once.`;
}
