/**
 * `sectorSummary`: distribution of brand values per sector x market x year. Sectors, not
 * categories, are the unit that is comparable across markets (categories vary by market and year).
 */
import type { BrandscapeInput, BrandscapeSelection, MissingData } from './brandscape-input.js';
import { dedupeInfo, keepMask, type DedupeInfo, type DedupeMode } from './dedupe.js';
import { brandNames, entityIds, entityNames } from './entity-of.js';
import type { FrameMeta, FrameTable } from './frame-table.js';
import { toMissingData } from './missing-cells.js';
import { brandGroups, cellValues, periodRows, type BrandGroups, type PeriodRows } from './period-cells.js';
import { prepareBrandscape, type MetricInfo, type PreparedBrandscape, marketFields, metricFields } from './prepare-brandscape.js';
import { resolveColumns, scoreTypeNotes } from './resolve-columns.js';
import { MARKET_KINDS, METRIC_KINDS, resultTable, type ResultSchema } from './result-table.js';
import { selectRows, withKnownEntity } from './select-rows.js';
import { compareText, mean, orNull, quantileSorted, sampleStd } from './stats.js';
import type { SectorSummaryRow, SectorValueRow } from './types.js';

export interface SectorSummaryOptions extends BrandscapeSelection {
  /** Years to summarise (default: every year in the rows); each must have rows. */
  years?: readonly number[];
}

export interface SectorSummaryMeta extends FrameMeta {
  readonly source: 'sectorSummary' | 'sectorValues';
  readonly audience: number;
  readonly years: readonly number[];
  readonly columns: readonly string[];
  /**
   * What one observation is: a brand for category-agnostic columns; a brand in one category for
   * the columns listed in `dedupe.categorySpecificColumns` (and for every column with `dedupe: 'none'`).
   */
  readonly observation: string;
  readonly dedupe: DedupeInfo;
  /** Years, markets and sectors asked for without data (with `missing: 'note'`). */
  readonly missing: MissingData;
}

const SUMMARY_SCHEMA: ResultSchema = {
  columns: [
    'sector_id', 'sector_name', 'country_id', 'market', 'country_code', 'year', 'metric', 'metric_name', 'metric_group',
    'score_type', 'column', 'count', 'mean', 'median', 'std', 'min', 'q1', 'q3', 'max',
  ],
  kinds: {
    ...MARKET_KINDS, ...METRIC_KINDS,
    sector_id: 'int', sector_name: 'string', year: 'int', count: 'int',
    mean: 'float', median: 'float', std: 'float', min: 'float', q1: 'float', q3: 'float', max: 'float',
  },
};

const VALUES_SCHEMA: ResultSchema = {
  columns: [
    'sector_id', 'sector_name', 'country_id', 'market', 'country_code', 'year', 'metric', 'metric_name', 'metric_group',
    'score_type', 'column', 'brand_id', 'brand_name', 'value',
  ],
  kinds: { ...MARKET_KINDS, ...METRIC_KINDS, sector_id: 'int', sector_name: 'string', year: 'int', brand_id: 'int', brand_name: 'string', value: 'float' },
};

interface Observations {
  prep: PreparedBrandscape;
  setup: PeriodRows;
  sector: Int32Array;
  sectorName: (row: number) => string;
  columns: MetricInfo[];
  audience: number;
  notes: string[];
  missing: MissingData;
  mode: DedupeMode;
  /** Observation cells (sector, brand[, category], market, year) for one column, grouped by sector, market and year. */
  groupsFor(info: MetricInfo): BrandGroups;
}

function observations(input: BrandscapeInput, options: SectorSummaryOptions): Observations {
  const prep = prepareBrandscape(input);
  const mode = options.dedupe ?? 'auto';
  const columns = resolveColumns(prep, options.metrics, options.scoreTypes);
  const selected = selectRows(prep, options, options.years);
  const notes = [...selected.notes];
  const sector = entityIds(prep, 'sector');
  const setup = periodRows(prep, withKnownEntity(selected.rows, sector, 'sector', notes), 'year');
  notes.push(...setup.notes, ...scoreTypeNotes(columns, true));
  let byBrand: BrandGroups | undefined;
  let byCategory: BrandGroups | undefined;
  return {
    prep,
    setup,
    sector,
    sectorName: entityNames(prep, 'sector'),
    columns,
    audience: selected.audience,
    notes,
    missing: toMissingData(selected.missing, []),
    mode,
    groupsFor(info) {
      // Per-category observations where the rows are kept per category.
      if (keepMask(prep, info, mode) === undefined) return (byCategory ??= brandGroups(prep, setup, sector, [prep.categoryId]));
      return (byBrand ??= brandGroups(prep, setup, sector));
    },
  };
}

function metaOf(o: Observations, source: SectorSummaryMeta['source'], years: readonly number[]): SectorSummaryMeta {
  return {
    source,
    notes: o.notes,
    audience: o.audience,
    years,
    columns: o.columns.map((c) => c.column),
    observation: 'a brand (a brand in one category for category-specific columns)',
    dedupe: dedupeInfo(o.prep, o.setup.rows, o.columns, o.mode),
    missing: o.missing,
  };
}

/**
 * Summarises brand values per sector, market and year: count, mean, median, sample standard
 * deviation, min, quartiles (linear interpolation, as pandas) and max. A brand's value is the mean
 * of its rows in that market and year (de-duplicated; US waves: the mean of the wave values);
 * category-specific columns (usage, preference, recommendation) count each brand-category pair.
 *
 * @example
 * const summary = sectorSummary(input, { metrics: ['esteem'], years: [2024], markets: ['GB', 'DE'] });
 * summary.rows(); // [{ sector_name: 'Automotive', market: 'Germany', count: 41, mean: 52.3, median: 51.9, ... }, ...]
 */
export function sectorSummary(input: BrandscapeInput, options: SectorSummaryOptions): FrameTable<SectorSummaryRow, SectorSummaryMeta> {
  const o = observations(input, options);
  const out: SectorSummaryRow[] = [];
  for (const info of o.columns) {
    const groups = o.groupsFor(info);
    const { value } = cellValues(groups.cells, o.prep.table.numbers(info.column), keepMask(o.prep, info, o.mode));
    const { order, start } = groups;
    for (let g = 0; g < groups.count; g++) {
      const values: number[] = [];
      for (let p = start[g]!; p < start[g + 1]!; p++) {
        const v = value[order[p]!]!;
        if (Number.isFinite(v)) values.push(v);
      }
      const sorted = Float64Array.from(values).sort();
      out.push({
        ...cellKey(o, groups.firstRow[g]!, info),
        count: sorted.length,
        mean: orNull(mean(sorted)),
        median: orNull(quantileSorted(sorted, 0.5)),
        std: orNull(sampleStd(sorted)),
        min: orNull(sorted.length > 0 ? sorted[0]! : NaN),
        q1: orNull(quantileSorted(sorted, 0.25)),
        q3: orNull(quantileSorted(sorted, 0.75)),
        max: orNull(sorted.length > 0 ? sorted[sorted.length - 1]! : NaN),
      });
    }
  }
  const columnOrder = new Map(o.columns.map((c, i) => [c.column, i]));
  out.sort(
    (a, b) =>
      compareText(a.sector_name, b.sector_name) ||
      a.sector_id - b.sector_id ||
      compareText(a.market, b.market) ||
      a.year - b.year ||
      columnOrder.get(a.column)! - columnOrder.get(b.column)!,
  );
  return resultTable(out, SUMMARY_SCHEMA, metaOf(o, 'sectorSummary', [...new Set(out.map((r) => r.year))].sort((a, b) => a - b)));
}

/** What a summary or value row is about: sector, market, year and metric column (shared by both outputs). */
function cellKey(o: Observations, row: number, info: MetricInfo) {
  const study = o.prep.studies.get(o.prep.studyId[row]!)!;
  return {
    sector_id: o.sector[row]!,
    sector_name: o.sectorName(row),
    ...marketFields(study),
    year: study.year,
    ...metricFields(info),
  };
}

/**
 * The values `sectorSummary` summarises, one row per observation (for box plots and strip charts).
 *
 * @example
 * const values = sectorValues(input, { metrics: ['esteem'], years: [2024], sectors: [7] });
 * values.rows(); // [{ sector_name: 'Automotive', market: 'Germany', brand_name: 'Volkswagen', value: 63.1, ... }, ...]
 */
export function sectorValues(input: BrandscapeInput, options: SectorSummaryOptions): FrameTable<SectorValueRow, SectorSummaryMeta> {
  const o = observations(input, options);
  const names = brandNames(o.prep);
  const out: SectorValueRow[] = [];
  for (const info of o.columns) {
    const { cells } = o.groupsFor(info);
    const { value } = cellValues(cells, o.prep.table.numbers(info.column), keepMask(o.prep, info, o.mode));
    for (let c = 0; c < cells.count; c++) {
      const v = value[c]!;
      if (!Number.isFinite(v)) continue;
      const row = cells.firstRow[c]!;
      out.push({
        ...cellKey(o, row, info),
        brand_id: o.prep.brandId[row]!,
        brand_name: names.local(row),
        value: v,
      });
    }
  }
  return resultTable(out, VALUES_SCHEMA, metaOf(o, 'sectorValues', [...new Set(out.map((r) => r.year))].sort((a, b) => a - b)));
}
