/**
 * `crossYear`: one market or several, several years: values per year (or per US quarterly wave),
 * year-on-year change, change over the span, and a trend direction.
 */
import type { ScoreType } from '../schemas/score-types.js';
import type { BrandscapeInput, BrandscapeSelection, MissingData } from './brandscape-input.js';
import { dedupeInfo, keepMask, type DedupeInfo } from './dedupe.js';
import { entityOf } from './entity-of.js';
import type { FrameMeta, FrameTable } from './frame-table.js';
import { missingCells, missingCellsNote, periodLabel, toMissingData } from './missing-cells.js';
import { brandGroups, brandWeightsNote, cellValues, groupValues, periodRows, type PeriodMode } from './period-cells.js';
import { prepareBrandscape, marketFields, metricFields } from './prepare-brandscape.js';
import { resolveColumns, scoreTypeNotes } from './resolve-columns.js';
import { ENTITY_KINDS, MARKET_KINDS, METRIC_KINDS, resultTable, type ResultSchema } from './result-table.js';
import { selectRows, withKnownEntity } from './select-rows.js';
import { compareText, orNull } from './stats.js';
import { TREND_THRESHOLDS, trendOf, trendThreshold } from './trend-rule.js';
import type { CrossYearRow, EntityKind } from './types.js';

export interface CrossYearOptions extends BrandscapeSelection {
  /** Years to compare (default: every year in the rows); each must have rows. */
  years?: readonly number[];
  /**
   * Keep US quarterly waves as periods of their own (default false: aggregated to their year). A
   * full-year study of a market-year that has waves is then left out (noted in the metadata).
   */
  waves?: boolean;
  /**
   * Row grain: each brand (default), or the brands of each company or sector taken together: the
   * mean of the brands' values, each brand weighted equally (a brand's value is the mean of its rows).
   */
  by?: EntityKind;
  /**
   * Largest change over the span still called `flat`: one number, or per score type. Default: the
   * toolkit's trend rule (trend-rule.ts: rank 5 and pct 3 points, c 0.2, indexes 10 index points,
   * raw values 5% of the series' first value).
   */
  flatTolerance?: number | Partial<Record<ScoreType, number>>;
}

export interface CrossYearMeta extends FrameMeta {
  readonly source: 'crossYear';
  readonly audience: number;
  readonly by: EntityKind;
  readonly periods: PeriodMode;
  readonly years: readonly number[];
  readonly columns: readonly string[];
  readonly flatTolerance: Readonly<Record<string, number>>;
  readonly dedupe: DedupeInfo;
  /** Years, markets, brands (...) asked for without data, and the periods of a market where an entity has no rows. */
  readonly missing: MissingData;
}

/**
 * The trend rule's thresholds (trend-rule.ts), per score type; `value` is 0 here because its
 * threshold is relative (5% of each series' first value), applied per series.
 */
export const DEFAULT_FLAT_TOLERANCE: Readonly<Record<ScoreType, number>> = { ...TREND_THRESHOLDS, value: 0 };

const SCHEMA: ResultSchema = {
  columns: [
    'entity_kind', 'entity_id', 'entity_name', 'global_name', 'country_id', 'market', 'country_code',
    'metric', 'metric_name', 'metric_group', 'score_type', 'column', 'year', 'period', 'period_order',
    'value', 'change', 'change_over_span', 'trend', 'n_rows',
  ],
  kinds: {
    ...ENTITY_KINDS, ...MARKET_KINDS, ...METRIC_KINDS,
    year: 'int', period: 'string', period_order: 'float', value: 'float', change: 'float', change_over_span: 'float', trend: 'string', n_rows: 'int',
  },
};

export { trendOf };

/**
 * Follows entities over years in each market. Each period's value is the mean of the brand's rows in
 * that market and period (a company's or sector's: the mean of its brands' values); US quarterly
 * waves are aggregated to their year (the mean of the wave values) unless `waves: true`, which keeps
 * each wave as a period and leaves out a full-year study of the same market and year. `change` is from the previous period with a value;
 * `change_over_span` from the first to the last period with a value, and `trend` its direction.
 *
 * @example
 * const result = crossYear(input, { markets: ['GB'], years: [2022, 2023, 2024], metrics: ['esteem'], brands: [368] });
 * result.rows(); // [{ period: '2022', value: 61.2, change: null, change_over_span: 4.1, trend: 'up', ... }, ...]
 * crossYear(input, { markets: ['US'], metrics: ['esteem'], waves: true }); // periods '2024 Q1', '2024 Q2', ...
 */
export function crossYear(input: BrandscapeInput, options: CrossYearOptions): FrameTable<CrossYearRow, CrossYearMeta> {
  const prep = prepareBrandscape(input);
  const by = options.by ?? 'brand';
  const mode = options.dedupe ?? 'auto';
  const periods: PeriodMode = options.waves ? 'wave' : 'year';
  const columns = resolveColumns(prep, options.metrics, options.scoreTypes);
  const selected = selectRows(prep, options, options.years);
  const notes = [...selected.notes];
  const entity = entityOf(prep, by);
  const setup = periodRows(prep, withKnownEntity(selected.rows, entity.ids, by, notes), periods);
  notes.push(...setup.notes, ...scoreTypeNotes(columns, false));
  if (by !== 'brand') notes.push(brandWeightsNote(by));
  const groups = brandGroups(prep, setup, entity.ids);

  // Series: entity x market; groups of a series in period order.
  const series = new Map<string, number[]>();
  for (let g = 0; g < groups.count; g++) {
    const row = groups.firstRow[g]!;
    const key = `${entity.ids[row]!}:${setup.country[row]!}`;
    const list = series.get(key);
    if (list) list.push(g);
    else series.set(key, [g]);
  }
  for (const list of series.values()) list.sort((a, b) => setup.period[groups.firstRow[a]!]! - setup.period[groups.firstRow[b]!]!);
  const cellsOfEntity = new Map<number, Set<string>>();
  const rowOfEntity = new Map<number, number>();
  for (let g = 0; g < groups.count; g++) {
    const row = groups.firstRow[g]!;
    const id = entity.ids[row]!;
    const cells = cellsOfEntity.get(id) ?? new Set<string>();
    cells.add(`${setup.country[row]!}:${setup.period[row]!}`);
    cellsOfEntity.set(id, cells);
    if (!rowOfEntity.has(id)) rowOfEntity.set(id, row);
  }
  const absent = missingCells(prep, setup, cellsOfEntity, (id) => entity.globalName(rowOfEntity.get(id)!), 'own-markets');
  notes.push(...missingCellsNote(absent));

  const tolerance = (type: ScoreType) =>
    typeof options.flatTolerance === 'number' ? options.flatTolerance : (options.flatTolerance?.[type] ?? DEFAULT_FLAT_TOLERANCE[type]);
  const given = (type: ScoreType) => typeof options.flatTolerance === 'number' || options.flatTolerance?.[type] !== undefined;
  // The trend rule's threshold of raw values is relative to the series' first value.
  const seriesTolerance = (type: ScoreType, first: number) => (type === 'value' && !given(type) ? trendThreshold('value', first) : tolerance(type));
  const out: CrossYearRow[] = [];
  for (const info of columns) {
    const { value, nRows } = groupValues(groups, cellValues(groups.cells, prep.table.numbers(info.column), keepMask(prep, info, mode)));
    for (const list of series.values()) {
      const present = list.filter((g) => Number.isFinite(value[g]!));
      const span = present.length >= 2 ? value[present[present.length - 1]!]! - value[present[0]!]! : NaN;
      const trend = trendOf(span, present.length >= 2 ? seriesTolerance(info.scoreType, value[present[0]!]!) : tolerance(info.scoreType));
      let previous = NaN;
      for (const g of list) {
        const row = groups.firstRow[g]!;
        const study = prep.studies.get(prep.studyId[row]!)!;
        const code = setup.period[row]!;
        const year = Math.floor(code / 10);
        const quarter = code % 10;
        const v = value[g]!;
        out.push({
          entity_kind: by,
          entity_id: entity.ids[row]!,
          entity_name: entity.name(row),
          global_name: entity.globalName(row),
          ...marketFields(study),
          ...metricFields(info),
          year,
          period: periodLabel(code),
          period_order: quarter > 0 ? year + (quarter - 1) / 4 : year,
          value: orNull(v),
          change: orNull(v - previous),
          change_over_span: orNull(span),
          trend,
          n_rows: nRows[g]!,
        });
        if (Number.isFinite(v)) previous = v;
      }
    }
  }
  const columnOrder = new Map(columns.map((c, i) => [c.column, i]));
  out.sort(
    (a, b) =>
      compareText(a.global_name, b.global_name) ||
      a.entity_id - b.entity_id ||
      compareText(a.market, b.market) ||
      columnOrder.get(a.column)! - columnOrder.get(b.column)! ||
      a.period_order - b.period_order,
  );
  return resultTable(out, SCHEMA, {
    source: 'crossYear',
    notes,
    audience: selected.audience,
    by,
    periods,
    years: [...new Set(out.map((r) => r.year))].sort((a, b) => a - b),
    columns: columns.map((c) => c.column),
    flatTolerance: Object.fromEntries(columns.map((c) => [c.column, tolerance(c.scoreType)])),
    dedupe: dedupeInfo(prep, setup.rows, columns, mode),
    missing: toMissingData(selected.missing, absent),
  });
}
