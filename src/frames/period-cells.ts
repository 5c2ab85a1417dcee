/**
 * Values of brandscape rows per unit (brand, company, sector, ...) x market x period, the step
 * every comparison shares.
 *
 * Two levels: rows are first averaged per unit and study, then study values per unit, market and
 * period. For a market studied once a year the two are the same mean. For US quarterly waves
 * aggregated to a year, each wave counts once whatever its number of rows (the mean of the wave
 * means), so a brand in more categories in one wave does not outweigh the other waves.
 */
import type { PreparedBrandscape } from './brandscape-input.js';
import { groupIndex, type GroupIndex } from './group-index.js';

/** `year`: US quarterly waves aggregated to their calendar year; `wave`: every study its own period. */
export type PeriodMode = 'year' | 'wave';

export interface PeriodRows {
  /** Selected rows, without waves of a market-year that also has a full-year study (year mode). */
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
  if (mode === 'year') {
    // A market-year with a full-year study and waves: the full-year study is the year's figure.
    const both = [...waves].filter((key) => fullYear.has(key));
    if (both.length > 0) {
      const out: number[] = [];
      for (let k = 0; k < rows.length; k++) {
        const row = rows[k]!;
        const s = prep.studies.get(prep.studyId[row]!)!;
        if (s.quarter === null || !fullYear.has(`${s.countryId}:${s.year}`)) out.push(row);
      }
      notes.push(`Quarterly waves were left out where the same market and year has a full-year study (${both.length} market-years).`);
      return { rows: Int32Array.from(out), country, period, notes };
    }
    if (waves.size > 0) notes.push('Quarterly waves (US) are aggregated to their calendar year: the mean of the wave values, each wave weighted equally.');
  }
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
