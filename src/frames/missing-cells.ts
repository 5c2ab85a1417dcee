/**
 * `missingCells`: the market x period cells of a comparison where an entity has no rows. A
 * comparison's result has a row per cell with rows (its value may still be null); a cell without
 * any row has no result row at all, so a table or chart built from the rows would not show the gap
 * unless it is listed.
 */
import type { MissingCell, MissingData } from './brandscape-input.js';
import type { PeriodRows } from './period-cells.js';
import type { PreparedBrandscape } from './prepare-brandscape.js';
import type { MissingSelection } from './select-rows.js';
import { compareNames } from './compare-names.js';

/** The label of a period code (`year * 10 + quarter`): `2024`, or `2024 Q2` for a wave. */
export function periodLabel(code: number): string {
  const year = Math.floor(code / 10);
  const quarter = code % 10;
  return quarter > 0 ? `${year} Q${quarter}` : String(year);
}

/**
 * The cells each entity lacks. The comparison's cells are every market x period with rows in the
 * selection; `scope` says which of them an entity is expected in: every one (`crossMarket`: each
 * entity in each market of the year) or only the periods of markets where it has rows
 * (`crossYear`: a series per entity and market, over that market's periods).
 *
 * @param present Entity id -> the `country:period` keys of the cells it has rows in.
 * @param name Entity id -> the name to list it under.
 */
export function missingCells(
  prep: PreparedBrandscape,
  setup: PeriodRows,
  present: ReadonlyMap<number, ReadonlySet<string>>,
  name: (entityId: number) => string,
  scope: 'every-market' | 'own-markets',
): MissingCell[] {
  // Every market x period of the selection, with the market's names.
  const cells = new Map<string, { countryId: number; period: number; market: string; code: string }>();
  for (let k = 0; k < setup.rows.length; k++) {
    const row = setup.rows[k]!;
    const key = `${setup.country[row]!}:${setup.period[row]!}`;
    if (cells.has(key)) continue;
    const study = prep.studies.get(prep.studyId[row]!)!;
    cells.set(key, { countryId: study.countryId, period: setup.period[row]!, market: study.market, code: study.countryCode });
  }
  const ordered = [...cells.entries()].sort(([, a], [, b]) => compareNames(a.market, b.market) || a.period - b.period);
  const out: MissingCell[] = [];
  for (const [entityId, keys] of present) {
    const markets = scope === 'own-markets' ? new Set([...keys].map((k) => Number(k.slice(0, k.indexOf(':'))))) : undefined;
    for (const [key, cell] of ordered) {
      if (keys.has(key) || (markets !== undefined && !markets.has(cell.countryId))) continue;
      out.push({ entity_id: entityId, entity_name: name(entityId), market: cell.market, country_code: cell.code, period: periodLabel(cell.period) });
    }
  }
  return out;
}

/** The `missing` metadata of a comparison: what the selection lacked, and the cells entities lack. */
export function toMissingData(selection: MissingSelection, cells: readonly MissingCell[]): MissingData {
  return { ...selection, cells };
}

/** A note on cells without data, short enough to read (the full list is in `meta.missing.cells`). */
export function missingCellsNote(cells: readonly MissingCell[]): string[] {
  if (cells.length === 0) return [];
  const shown = cells.slice(0, 6).map((c) => `${c.entity_name} in ${c.market} ${c.period}`);
  const more = cells.length > shown.length ? `, and ${cells.length - shown.length} more` : '';
  return [`No data for ${shown.join(', ')}${more}.`];
}
