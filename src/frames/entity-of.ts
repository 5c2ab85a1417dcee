/**
 * `entityOf`: the entity of each row for a comparison's row grain (brand, company or sector) and
 * the names to show for it. Companies and sectors come from the rows' includes, else from `brands`;
 * a brand's local name from the row, its global name from `brands` or the brand include.
 */
import { DataError } from '../errors.js';
import { INT_NULL } from './frame-table.js';
import { intColumn, textAt, type PreparedBrandscape } from './prepare-brandscape.js';

/** The entity of each row for a comparison's row grain, with its display and global names. */
export function entityOf(prep: PreparedBrandscape, by: 'brand' | 'company' | 'sector'): { ids: Int32Array; name: (row: number) => string; globalName: (row: number) => string } {
  if (by === 'brand') {
    const names = brandNames(prep);
    return { ids: prep.brandId, name: names.local, globalName: names.global };
  }
  const names = entityNames(prep, by);
  return { ids: entityIds(prep, by), name: names, globalName: names };
}

/** A per-row id column for companies or sectors: from the rows' includes, else from `brands`. */
export function entityIds(prep: PreparedBrandscape, kind: 'company' | 'sector'): Int32Array {
  const fromRows = intColumn(prep.table, `${kind}_id`);
  const ids = fromRows ? Int32Array.from(fromRows) : new Int32Array(prep.n).fill(INT_NULL);
  let unknown = 0;
  for (let i = 0; i < prep.n; i++) {
    if (ids[i] !== INT_NULL) continue;
    const brand = prep.brands.get(prep.brandId[i]!);
    const id = kind === 'company' ? brand?.company?.id : brand?.sector?.id;
    if (id === undefined) unknown++;
    else ids[i] = id;
  }
  if (unknown === prep.n && prep.n > 0) {
    throw new DataError(`The ${kind} of the brands is not known.`, [`${kind}_id`], prep.table.columnNames, {
      hint: `Load the rows with include: ['${kind}'], or pass brands loaded with include: ['${kind}'].`,
    });
  }
  return ids;
}

/** Names for ids of a per-row entity column: from a `<kind>_name` column, else from `brands`. */
export function entityNames(prep: PreparedBrandscape, kind: 'company' | 'sector'): (row: number) => string {
  const names = prep.table.has(`${kind}_name`) ? prep.table.column(`${kind}_name`) : undefined;
  return (row) => {
    const fromRow = textAt(names, row);
    if (fromRow !== null) return fromRow;
    const brand = prep.brands.get(prep.brandId[row]!);
    const entity = kind === 'company' ? brand?.company : brand?.sector;
    return entity?.name ?? `${kind === 'company' ? 'Company' : 'Sector'} ${entity?.id ?? '?'}`;
  };
}

/** A brand's local name on a row, and its global name (brands input, brand include, else the local name). */
export function brandNames(prep: PreparedBrandscape): { local: (row: number) => string; global: (row: number) => string } {
  const local = prep.table.has('brand_name') ? prep.table.column('brand_name') : undefined;
  const global = prep.table.has('global_name') ? prep.table.column('global_name') : undefined;
  const localOf = (row: number) => textAt(local, row) ?? prep.brands.get(prep.brandId[row]!)?.name ?? `Brand ${prep.brandId[row]!}`;
  return {
    local: localOf,
    global: (row) => prep.brands.get(prep.brandId[row]!)?.name ?? textAt(global, row) ?? localOf(row),
  };
}
