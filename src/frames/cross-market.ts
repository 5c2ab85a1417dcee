/**
 * `crossMarket`: one year, several markets. A brand (or brands, a company's brands, a sector's
 * brands; or companies and sectors as wholes) x market matrix for chosen metrics and score types.
 */
import { DataError } from '../errors.js';
import type { ScoreType } from '../schemas/score-types.js';
import type { BrandscapeInput, BrandscapeSelection, MissingData } from './brandscape-input.js';
import { dedupeInfo, keepMask, type DedupeInfo } from './dedupe.js';
import { entityOf } from './entity-of.js';
import type { FrameMeta, FrameTable } from './frame-table.js';
import { missingCells, missingCellsNote, toMissingData } from './missing-cells.js';
import { brandGroups, brandWeightsNote, cellValues, groupValues, periodRows } from './period-cells.js';
import { prepareBrandscape, marketFields, metricFields } from './prepare-brandscape.js';
import { resolveColumns, scoreTypeNotes } from './resolve-columns.js';
import { ENTITY_KINDS, MARKET_KINDS, METRIC_KINDS, resultTable, type ResultSchema } from './result-table.js';
import { selectRows, withKnownEntity } from './select-rows.js';
import { compareText, mean, orNull, ranksDescending } from './stats.js';
import type { CrossMarketRow, EntityKind } from './types.js';

export interface CrossMarketOptions extends BrandscapeSelection {
  /** The calendar year compared. */
  year: number;
  /**
   * Row grain: each brand (default), or the brands of each company or sector taken together: the
   * mean of the brands' values, each brand weighted equally (a brand's value is the mean of its rows).
   */
  by?: EntityKind;
}

export interface CrossMarketMeta extends FrameMeta {
  readonly source: 'crossMarket';
  readonly year: number;
  readonly audience: number;
  readonly by: EntityKind;
  readonly columns: readonly string[];
  readonly scoreTypes: readonly ScoreType[];
  readonly markets: readonly string[];
  readonly dedupe: DedupeInfo;
  /** Markets, brands (...) asked for without data, and the markets where an entity has no rows. */
  readonly missing: MissingData;
}

const SCHEMA: ResultSchema = {
  columns: [
    'entity_kind', 'entity_id', 'entity_name', 'global_name', 'country_id', 'market', 'country_code',
    'metric', 'metric_name', 'metric_group', 'score_type', 'column', 'year', 'value', 'cross_market_mean',
    'diff_from_mean', 'market_rank', 'markets_compared', 'n_rows',
  ],
  kinds: {
    ...ENTITY_KINDS, ...MARKET_KINDS, ...METRIC_KINDS,
    year: 'int', value: 'float', cross_market_mean: 'float', diff_from_mean: 'float', market_rank: 'int', markets_compared: 'int', n_rows: 'int',
  },
};

/**
 * Compares entities across the markets of one year: each market's value, the difference from the
 * entity's cross-market mean, its rank among the markets (1 = highest; ties share a rank) and the
 * number of rows behind each cell (after de-duplication). A brand's cell is the mean of its rows in
 * that market (US quarterly waves: the mean of the wave means); a company's or sector's is the mean of
 * its brands' values, so a brand with rows in several categories counts once, as in `companyRollup`
 * (which can weight brands by `share_of_company`) and `sectorSummary`. Percentile ranks are the default
 * score type: they are comparable across markets, raw construct scores less so.
 *
 * @example
 * const input = { rows, catalogue, studies }; // see loadComparisonInput
 * const result = crossMarket(input, { year: 2024, metrics: ['differentiation', 'relevance'], brands: [368] });
 * result.rows(); // [{ entity_name: 'Facebook', market: 'Brazil', value: 71.3, market_rank: 2, ... }, ...]
 * const df = await toDanfo(result); // brandscape-kit/danfo
 */
export function crossMarket(input: BrandscapeInput, options: CrossMarketOptions): FrameTable<CrossMarketRow, CrossMarketMeta> {
  const prep = prepareBrandscape(input);
  const by = options.by ?? 'brand';
  const mode = options.dedupe ?? 'auto';
  const columns = resolveColumns(prep, options.metrics, options.scoreTypes);
  const selected = selectRows(prep, options, [options.year]);
  const notes = [...selected.notes];
  const entity = entityOf(prep, by);
  const setup = periodRows(prep, withKnownEntity(selected.rows, entity.ids, by, notes), 'year');
  notes.push(...setup.notes, ...scoreTypeNotes(columns, true));
  if (by !== 'brand') notes.push(brandWeightsNote(by));
  const groups = brandGroups(prep, setup, entity.ids);

  // Groups of each entity (its markets), in first-appearance order, and the markets they cover.
  const groupsOfEntity = new Map<number, number[]>();
  const cellsOfEntity = new Map<number, Set<string>>();
  for (let g = 0; g < groups.count; g++) {
    const row = groups.firstRow[g]!;
    const id = entity.ids[row]!;
    const list = groupsOfEntity.get(id);
    if (list) list.push(g);
    else groupsOfEntity.set(id, [g]);
    const cells = cellsOfEntity.get(id) ?? new Set<string>();
    cells.add(`${setup.country[row]!}:${setup.period[row]!}`);
    cellsOfEntity.set(id, cells);
  }
  const nameOf = (id: number) => entity.globalName(groups.firstRow[groupsOfEntity.get(id)![0]!]!);
  const absent = missingCells(prep, setup, cellsOfEntity, nameOf, 'every-market');
  notes.push(...missingCellsNote(absent));

  const out: CrossMarketRow[] = [];
  for (const info of columns) {
    const { value, nRows } = groupValues(groups, cellValues(groups.cells, prep.table.numbers(info.column), keepMask(prep, info, mode)));
    for (const [id, list] of groupsOfEntity) {
      const values = list.map((g) => value[g]!);
      const present = values.filter((v) => Number.isFinite(v));
      const marketMean = mean(present);
      const ranks = ranksDescending(values);
      list.forEach((g, i) => {
        const row = groups.firstRow[g]!;
        const study = prep.studies.get(prep.studyId[row]!)!;
        const v = values[i]!;
        out.push({
          entity_kind: by,
          entity_id: id,
          entity_name: entity.name(row),
          global_name: entity.globalName(row),
          ...marketFields(study),
          ...metricFields(info),
          year: options.year,
          value: orNull(v),
          cross_market_mean: orNull(marketMean),
          diff_from_mean: orNull(v - marketMean),
          market_rank: orNull(ranks[i]!),
          markets_compared: present.length,
          n_rows: nRows[g]!,
        });
      });
    }
  }
  if (out.length === 0) throw new DataError('The comparison has no cells.', ['rows'], []);
  const columnOrder = new Map(columns.map((c, i) => [c.column, i]));
  out.sort(
    (a, b) =>
      compareText(a.global_name, b.global_name) ||
      a.entity_id - b.entity_id ||
      columnOrder.get(a.column)! - columnOrder.get(b.column)! ||
      compareText(a.market, b.market),
  );
  return resultTable(out, SCHEMA, {
    source: 'crossMarket',
    notes,
    year: options.year,
    audience: selected.audience,
    by,
    columns: columns.map((c) => c.column),
    scoreTypes: [...new Set(columns.map((c) => c.scoreType))],
    markets: [...new Set(out.map((r) => r.market))].sort(),
    dedupe: dedupeInfo(prep, setup.rows, columns, mode),
    missing: toMissingData(selected.missing, absent),
  });
}
