/**
 * `selectRows`: the rows a comparison works on (one audience, years, markets, brand, company and
 * sector filters), with a DataError naming what is missing and what there is whenever a step
 * empties the selection, or (with `missing: 'note'`) a list of what was asked for and not found.
 */
import { DataError } from '../errors.js';
import type { BrandscapeSelection } from './brandscape-input.js';
import { entityIds } from './entity-of.js';
import { INT_NULL } from './frame-table.js';
import type { PreparedBrandscape, StudyInfo } from './prepare-brandscape.js';
import { resolveEntities } from './resolve-entities.js';
import { foldName } from './fold-name.js';

/** What `selectRows` was asked for and found no rows for (filled only with `missing: 'note'`). */
export interface MissingSelection {
  years: number[];
  markets: (number | string)[];
  brands: number[];
  companies: number[];
  sectors: number[];
}

type Selection = Pick<BrandscapeSelection, 'audience' | 'markets' | 'brands' | 'companies' | 'sectors' | 'missing'>;

/**
 * Records what is absent (`missing: 'note'`) or throws the DataError that names it (the default).
 */
function absentOrThrow<T>(selection: Selection, absent: readonly T[], list: T[], error: () => DataError): void {
  if (absent.length === 0) return;
  if (selection.missing !== 'note') throw error();
  list.push(...absent);
}

/**
 * The rows a comparison works on: one audience, the given years (each must have rows), the given
 * markets (each must have rows in those years) and the entity filters. Every step that empties the
 * selection throws a DataError naming what is missing and what there is; with `missing: 'note'`
 * what has no rows is left out and returned in `missing` instead (a selection with no rows at all
 * is still an error).
 */
export function selectRows(
  prep: PreparedBrandscape,
  selection: Selection,
  years: readonly number[] | undefined,
): { rows: Int32Array; audience: number; notes: string[]; missing: MissingSelection } {
  const notes: string[] = [];
  const missing: MissingSelection = { years: [], markets: [], brands: [], companies: [], sectors: [] };
  const audience = selection.audience ?? 1;
  if (selection.audience === undefined) {
    const audiences = new Set(prep.audienceId);
    if (audiences.size > 1) notes.push(`Audience 1 (All Adults) was used; the rows also hold audiences ${[...audiences].filter((a) => a !== 1).sort((a, b) => a - b).join(', ')}.`);
  }
  let rows = audienceRows(prep, audience);
  let context = '';
  if (years !== undefined) {
    if (years.length === 0) throw new DataError('No years selected.', ['years'], availableYears(prep, rows).map(String));
    const present = availableYears(prep, rows);
    const absent = years.filter((y) => !present.includes(y));
    absentOrThrow(selection, absent, missing.years, () =>
      new DataError(`No rows for ${absent.length > 1 ? 'years' : 'year'} ${absent.join(', ')} (audience ${audience}).`, absent.map(String), present.map(String)),
    );
    const wanted = new Set(years);
    const out: number[] = [];
    for (let k = 0; k < rows.length; k++) if (wanted.has(prep.studies.get(prep.studyId[rows[k]!]!)!.year)) out.push(rows[k]!);
    rows = Int32Array.from(out);
    context = ` in ${years.join(', ')}`;
  }
  const markets = resolveMarkets(prep, selection, rows, context, missing);
  if (markets) {
    const out: number[] = [];
    for (let k = 0; k < rows.length; k++) if (markets.has(prep.studies.get(prep.studyId[rows[k]!]!)!.countryId)) out.push(rows[k]!);
    rows = Int32Array.from(out);
  }
  rows = entityFilter(prep, rows, selection, missing);
  if (rows.length === 0) {
    throw new DataError('The selection has no rows: no brand passes every filter in the selected markets and years.', ['rows'], availableMarkets(prep, audienceRows(prep, audience)));
  }
  notes.push(...missingNotes(missing));
  return { rows, audience, notes, missing };
}

/** The notes that say what was asked for and had no rows. */
function missingNotes(missing: MissingSelection): string[] {
  const notes: string[] = [];
  const say = (what: string, values: readonly (number | string)[]) => {
    if (values.length > 0) notes.push(`No data for the ${what} ${values.join(', ')}: left out.`);
  };
  say(missing.years.length > 1 ? 'years' : 'year', missing.years);
  say(missing.markets.length > 1 ? 'markets' : 'market', missing.markets);
  say(missing.brands.length > 1 ? 'brands' : 'brand', missing.brands);
  say(missing.companies.length > 1 ? 'companies' : 'company', missing.companies);
  say(missing.sectors.length > 1 ? 'sectors' : 'sector', missing.sectors);
  return notes;
}

/** Resolves market filters (ids, ISO codes or names) to country ids, naming the ones without rows. */
function resolveMarkets(prep: PreparedBrandscape, selection: Selection, rows: Int32Array, context: string, absentList: MissingSelection): Set<number> | undefined {
  const markets = selection.markets;
  if (markets === undefined) return undefined;
  if (markets.length === 0) throw new DataError(`No markets selected${context}.`, ['markets'], availableMarkets(prep, rows));
  const present = new Map<number, StudyInfo>();
  for (let k = 0; k < rows.length; k++) {
    const s = prep.studies.get(prep.studyId[rows[k]!]!)!;
    present.set(s.countryId, s);
  }
  const out = new Set<number>();
  const missing: (number | string)[] = [];
  for (const m of markets) {
    const match = [...present.values()].find((s) =>
      typeof m === 'number' ? s.countryId === m : s.countryCode.toUpperCase() === m.trim().toUpperCase() || foldName(s.market) === foldName(m),
    );
    if (match) out.add(match.countryId);
    else missing.push(m);
  }
  absentOrThrow(selection, missing, absentList.markets, () =>
    new DataError(`No rows for market${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${context}.`, missing.map(String), availableMarkets(prep, rows)),
  );
  return out;
}

/** `Market (CODE)` labels of the markets with rows among `rows`. */
function availableMarkets(prep: PreparedBrandscape, rows: Int32Array): string[] {
  const seen = new Map<number, string>();
  for (let k = 0; k < rows.length; k++) {
    const s = prep.studies.get(prep.studyId[rows[k]!]!)!;
    if (!seen.has(s.countryId)) seen.set(s.countryId, s.countryCode ? `${s.market} (${s.countryCode})` : s.market);
  }
  return [...seen.values()].sort();
}

/** Rows of one audience, with a DataError naming the audiences there are when it has none. */
export function audienceRows(prep: PreparedBrandscape, audience: number): Int32Array {
  const out: number[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < prep.n; i++) {
    const a = prep.audienceId[i]!;
    seen.add(a);
    if (a === audience) out.push(i);
  }
  if (out.length === 0) {
    throw new DataError(`No rows for audience ${audience}${audience === 1 ? ' (All Adults)' : ''}.`, [`audience ${audience}`], [...seen].sort((a, b) => a - b).map((a) => `audience ${a}`), {
      hint: 'Load the rows with filter: { audiences: <id> }, or pass the audience the rows have.',
    });
  }
  return Int32Array.from(out);
}

/** Keeps rows whose brand, company and sector pass the selection's filters. */
function entityFilter(prep: PreparedBrandscape, rows: Int32Array, selection: Selection, missing: MissingSelection): Int32Array {
  const tests: ((row: number) => boolean)[] = [];
  const kindOf = { brands: 'brand', companies: 'company', sectors: 'sector' } as const;
  const check = (name: 'brands' | 'companies' | 'sectors', refs: readonly (number | string)[] | undefined, perRow: () => Int32Array) => {
    if (refs === undefined) return;
    if (refs.length === 0) throw new DataError(`The selection of ${name} is empty.`, [name], []);
    // Names are resolved against every row given (not only the selected ones), so that a brand
    // named but without rows in these markets is reported as missing, not as unknown.
    const ids = resolveEntities(prep, kindOf[name], refs);
    const wanted = new Set(ids);
    const values = perRow();
    const present = new Set<number>();
    for (let k = 0; k < rows.length; k++) present.add(values[rows[k]!]!);
    const absent = ids.filter((id) => !present.has(id));
    absentOrThrow(selection, absent, missing[name], () =>
      new DataError(`No rows for the selected ${name} ${absent.join(', ')}.`, absent.map(String), [...present].filter((v) => v !== INT_NULL).sort((a, b) => a - b).map(String)),
    );
    tests.push((row) => wanted.has(values[row]!));
  };
  check('brands', selection.brands, () => prep.brandId);
  check('companies', selection.companies, () => entityIds(prep, 'company'));
  check('sectors', selection.sectors, () => entityIds(prep, 'sector'));
  if (tests.length === 0) return rows;
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k]!;
    if (tests.every((t) => t(row))) out.push(row);
  }
  return Int32Array.from(out);
}

/** Years with rows among `rows`, ascending. */
function availableYears(prep: PreparedBrandscape, rows: Int32Array): number[] {
  const years = new Set<number>();
  for (let k = 0; k < rows.length; k++) years.add(prep.studies.get(prep.studyId[rows[k]!]!)!.year);
  return [...years].sort((a, b) => a - b);
}

/** Rows whose entity is known (an `INT_NULL` id drops the row, with a note). */
export function withKnownEntity(rows: Int32Array, ids: Int32Array, kind: string, notes: string[]): Int32Array {
  let unknown = 0;
  const out: number[] = [];
  for (let k = 0; k < rows.length; k++) {
    if (ids[rows[k]!] === INT_NULL) unknown++;
    else out.push(rows[k]!);
  }
  if (unknown === 0) return rows;
  notes.push(`${unknown} ${unknown === 1 ? 'row was' : 'rows were'} left out: ${unknown === 1 ? 'its' : 'their'} brand's ${kind} is not known.`);
  return Int32Array.from(out);
}
