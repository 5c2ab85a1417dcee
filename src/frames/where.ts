/**
 * `where`: a typed filter. Column conditions are evaluated over the typed arrays into a mask (text
 * conditions once per distinct value, through the dictionary), combined with and / or / not, and
 * turned into the selected row positions: no row objects are built.
 *
 * Missing values match only `null` / `isNull`: every comparison (`eq`, `ne`, `in`, `notIn`,
 * ranges) is false on them, as in SQL and polars. `not` keeps every row its condition does not
 * keep, missing values included.
 */
import { DataError } from '../errors.js';
import { BOOL_NULL, INT_NULL, type FrameColumn } from './column.js';

/** A value to compare with: a number, text, boolean or date as the column holds them (dates also as ISO text or epoch ms). */
export type Scalar = string | number | boolean | Date;

/** The condition on one column: a value (equals; `null` = missing) or an object of tests, all of which must hold. */
export type Condition =
  | Scalar
  | null
  | {
      eq?: Scalar | null;
      ne?: Scalar;
      in?: readonly (Scalar | null)[];
      notIn?: readonly Scalar[];
      gt?: Scalar;
      gte?: Scalar;
      lt?: Scalar;
      lte?: Scalar;
      isNull?: boolean;
      notNull?: boolean;
    };

/**
 * A filter: column conditions (all must hold), or `and` / `or` / `not` of filters.
 *
 * @example
 * { country_code: 'GB', year: { gte: 2023 } }
 * { or: [{ brand_id: { in: [6, 23] } }, { differentiation_rank: { gt: 90 } }] }
 * { not: { sector_name: null } }
 */
export type Where = { and: readonly Where[] } | { or: readonly Where[] } | { not: Where } | { readonly [column: string]: Condition };

/** What `where` reads of a table. */
export interface WhereSource {
  readonly length: number;
  readonly columnNames: string[];
  columnOrUndefined(name: string): FrameColumn | undefined;
}

const TESTS = new Set(['eq', 'ne', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'isNull', 'notNull']);

/** The columns a filter names, in order (to report every unknown one at once). */
function namesOf(where: Where, out: string[]): string[] {
  if (typeof where !== 'object' || where === null || Array.isArray(where)) {
    throw new DataError(`A where filter is an object of column conditions, or { and: [...] }, { or: [...] }, { not: ... }; got ${JSON.stringify(where)}.`, [], []);
  }
  const record = where as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if ((key === 'and' || key === 'or') && Array.isArray(value)) for (const w of value as Where[]) namesOf(w, out);
    else if (key === 'not' && typeof value === 'object' && value !== null && !(value instanceof Date) && !isTests(value)) namesOf(value as Where, out);
    else out.push(key);
  }
  return out;
}

function isTests(value: unknown): value is Exclude<Condition, Scalar | null> {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && Object.keys(value).length > 0 && Object.keys(value).every((k) => TESTS.has(k));
}

/**
 * The positions of the rows a filter keeps, in table order.
 *
 * @example selectionOf(table, { year: 2024, differentiation_rank: { notNull: true } }) // Int32Array [0, 3, ...]
 */
export function selectionOf(table: WhereSource, where: Where): Int32Array {
  const names = namesOf(where, []);
  const unknown = [...new Set(names.filter((n) => table.columnOrUndefined(n) === undefined))];
  if (unknown.length > 0) {
    throw new DataError(`where() names ${unknown.length === 1 ? 'a column' : 'columns'} the table does not have.`, unknown, table.columnNames);
  }
  const mask = maskOf(table, where);
  let count = 0;
  for (let i = 0; i < mask.length; i++) count += mask[i]!;
  const out = new Int32Array(count);
  for (let i = 0, j = 0; j < count; i++) if (mask[i] === 1) out[j++] = i;
  return out;
}

function maskOf(table: WhereSource, where: Where): Uint8Array {
  const n = table.length;
  let mask: Uint8Array | undefined;
  const and = (m: Uint8Array) => {
    if (!mask) mask = m;
    else for (let i = 0; i < n; i++) mask[i]! &= m[i]!;
  };
  for (const [key, value] of Object.entries(where as Record<string, unknown>)) {
    if (key === 'and' && Array.isArray(value)) {
      for (const w of value as Where[]) and(maskOf(table, w));
    } else if (key === 'or' && Array.isArray(value)) {
      const any = new Uint8Array(n);
      for (const w of value as Where[]) {
        const m = maskOf(table, w);
        for (let i = 0; i < n; i++) any[i]! |= m[i]!;
      }
      and(any);
    } else if (key === 'not' && typeof value === 'object' && value !== null && !(value instanceof Date) && !isTests(value)) {
      const m = maskOf(table, value as Where);
      for (let i = 0; i < n; i++) m[i] = 1 - m[i]!;
      and(m);
    } else {
      and(conditionMask(key, table.columnOrUndefined(key)!, n, value as Condition));
    }
  }
  return mask ?? new Uint8Array(n).fill(1);
}

function conditionMask(name: string, column: FrameColumn, n: number, condition: Condition): Uint8Array {
  const tests: Exclude<Condition, Scalar | null> = condition === null ? { isNull: true } : isTests(condition) ? condition : { eq: condition as Scalar };
  if (typeof condition === 'object' && condition !== null && !(condition instanceof Date) && !isTests(condition)) {
    throw new DataError(`The condition on '${name}' is not a value or an object of tests (${[...TESTS].join(', ')}): ${JSON.stringify(condition)}.`, [], []);
  }
  return column.kind === 'string' ? textMask(name, column.codes, column.dictionary, tests) : numberMask(name, column, n, tests);
}

type Tests = Exclude<Condition, Scalar | null>;

/** Text: each test is decided once per distinct value; rows read their code's answer. */
function textMask(name: string, codes: Int32Array, dictionary: readonly string[], tests: Tests): Uint8Array {
  const text = (v: unknown, test: string): string => {
    if (typeof v !== 'string') throw new DataError(`Column '${name}' holds text; ${test} was given ${JSON.stringify(v)}.`, [], []);
    return v;
  };
  const ok = new Uint8Array(dictionary.length).fill(1);
  let nullOk = 1;
  const keep = (pass: (s: string) => boolean, nulls: boolean) => {
    for (let c = 0; c < dictionary.length; c++) if (ok[c] && !pass(dictionary[c]!)) ok[c] = 0;
    if (!nulls) nullOk = 0;
  };
  if (tests.eq !== undefined) {
    if (tests.eq === null) keep(() => false, true);
    else {
      const x = text(tests.eq, 'eq');
      keep((s) => s === x, false);
    }
  }
  if (tests.ne !== undefined) {
    const x = text(tests.ne, 'ne');
    keep((s) => s !== x, false);
  }
  if (tests.in !== undefined) {
    const set = new Set(tests.in.filter((v) => v !== null).map((v) => text(v, 'in')));
    keep((s) => set.has(s), tests.in.includes(null));
  }
  if (tests.notIn !== undefined) {
    const set = new Set(tests.notIn.map((v) => text(v, 'notIn')));
    keep((s) => !set.has(s), false);
  }
  if (tests.gt !== undefined) {
    const x = text(tests.gt, 'gt');
    keep((s) => s > x, false);
  }
  if (tests.gte !== undefined) {
    const x = text(tests.gte, 'gte');
    keep((s) => s >= x, false);
  }
  if (tests.lt !== undefined) {
    const x = text(tests.lt, 'lt');
    keep((s) => s < x, false);
  }
  if (tests.lte !== undefined) {
    const x = text(tests.lte, 'lte');
    keep((s) => s <= x, false);
  }
  if (tests.isNull === true || tests.notNull === false) keep(() => false, true);
  if (tests.notNull === true || tests.isNull === false) keep(() => true, false);
  const n = codes.length;
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    mask[i] = c < 0 ? nullOk : ok[c]!;
  }
  return mask;
}

/** Numbers, dates and booleans: the column's values compared as numbers, missing values apart. */
function numberMask(name: string, column: Exclude<FrameColumn, { kind: 'string' }>, n: number, tests: Tests): Uint8Array {
  const kind = column.kind;
  const values = column.values;
  const toNumber = (v: unknown, test: string): number => {
    if (kind === 'bool' && typeof v === 'boolean') return v ? 1 : 0;
    if (kind === 'date') {
      if (v instanceof Date) return v.getTime();
      if (typeof v === 'string' && Number.isFinite(Date.parse(v))) return Date.parse(v);
    }
    if (typeof v === 'number' && kind !== 'bool' && !Number.isNaN(v)) return v;
    throw new DataError(`Column '${name}' holds ${kind === 'date' ? 'dates' : kind === 'bool' ? 'booleans' : 'numbers'}; ${test} was given ${JSON.stringify(v)}.`, [], []);
  };
  // Missing marker per kind: NaN (float, date) never compares true; int and bool markers are guarded.
  const nullAt: (i: number) => boolean =
    kind === 'int' ? (i) => values[i] === INT_NULL : kind === 'bool' ? (i) => values[i] === BOOL_NULL : (i) => values[i] !== values[i];
  const mask = new Uint8Array(n).fill(1);
  const guarded = kind === 'int' || kind === 'bool';
  /** Keeps the rows (non-missing unless `nulls`) whose value passes. */
  const range = (pass: (v: number) => boolean) => {
    if (guarded) {
      for (let i = 0; i < n; i++) if (mask[i] && (nullAt(i) || !pass(values[i]!))) mask[i] = 0;
    } else {
      for (let i = 0; i < n; i++) if (mask[i] && !pass(values[i]!)) mask[i] = 0;
    }
  };
  if (tests.eq !== undefined) {
    if (tests.eq === null) keepNulls(true);
    else {
      const x = toNumber(tests.eq, 'eq');
      range((v) => v === x);
    }
  }
  if (tests.ne !== undefined) {
    const x = toNumber(tests.ne, 'ne');
    range((v) => v === v && v !== x);
  }
  if (tests.in !== undefined) {
    const set = new Set(tests.in.filter((v) => v !== null).map((v) => toNumber(v, 'in')));
    const nulls = tests.in.includes(null);
    for (let i = 0; i < n; i++) if (mask[i]) mask[i] = nullAt(i) ? (nulls ? 1 : 0) : set.has(values[i]!) ? 1 : 0;
  }
  if (tests.notIn !== undefined) {
    const set = new Set(tests.notIn.map((v) => toNumber(v, 'notIn')));
    range((v) => v === v && !set.has(v));
  }
  if (tests.gt !== undefined) {
    const x = toNumber(tests.gt, 'gt');
    range((v) => v > x);
  }
  if (tests.gte !== undefined) {
    const x = toNumber(tests.gte, 'gte');
    range((v) => v >= x);
  }
  if (tests.lt !== undefined) {
    const x = toNumber(tests.lt, 'lt');
    range((v) => v < x);
  }
  if (tests.lte !== undefined) {
    const x = toNumber(tests.lte, 'lte');
    range((v) => v <= x);
  }
  if (tests.isNull === true || tests.notNull === false) keepNulls(true);
  if (tests.notNull === true || tests.isNull === false) keepNulls(false);
  return mask;

  function keepNulls(missing: boolean) {
    for (let i = 0; i < n; i++) if (mask[i] && nullAt(i) !== missing) mask[i] = 0;
  }
}

