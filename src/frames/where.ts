/**
 * `where`: a typed filter. Column conditions are evaluated over the typed arrays into a mask (text
 * conditions once per distinct value, through the dictionary), combined with and / or / not, and
 * turned into the selected row positions: no row objects are built.
 *
 * Missing values match only `null` / `isNull`: every comparison (`eq`, `ne`, `in`, `notIn`,
 * ranges) is false on them, as in SQL and polars. `not` keeps every row its condition does not
 * keep, missing values included.
 *
 * Every condition narrows one mask in place, and the common tests (a value, a range) run as one
 * branch-free interval check per row over the column's own typed array: with a mask per condition
 * and a callback per row and test, a two-condition filter of a million rows measured about 3.5x
 * the hand-written loop; a where now costs about what that loop costs.
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
  has(name: string): boolean;
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
  const unknown = [...new Set(names.filter((n) => !table.has(n)))];
  if (unknown.length > 0) {
    throw new DataError(`where() names ${unknown.length === 1 ? 'a column' : 'columns'} the table does not have.`, unknown, table.columnNames);
  }
  const mask = new Uint8Array(table.length).fill(1);
  narrow(table, where, mask);
  return positionsOf(mask);
}

/** The positions of the set bytes of a mask, ascending. */
function positionsOf(mask: Uint8Array): Int32Array {
  const n = mask.length;
  let count = 0;
  for (let i = 0; i < n; i++) count += mask[i]!;
  const out = new Int32Array(count);
  if (count === 0) return out;
  // Branch-free: every position is written, the next one overwrites it unless it was kept (a
  // branch per row mispredicts at every change, and a filter keeps rows all through the table).
  // The last kept row is at or before the last position written past it.
  let j = 0;
  let i = 0;
  for (; j < count - 1; i++) {
    out[j] = i;
    j += mask[i]!;
  }
  while (mask[i] !== 1) i++;
  out[count - 1] = i;
  return out;
}

/** Narrows `mask` (1 = kept) to the rows that also pass `where`. */
function narrow(table: WhereSource, where: Where, mask: Uint8Array): void {
  const n = mask.length;
  for (const [key, value] of Object.entries(where as Record<string, unknown>)) {
    if (key === 'and' && Array.isArray(value)) {
      for (const w of value as Where[]) narrow(table, w, mask);
    } else if (key === 'or' && Array.isArray(value)) {
      const any = new Uint8Array(n);
      for (const w of value as Where[]) {
        const m = new Uint8Array(n).fill(1);
        narrow(table, w, m);
        for (let i = 0; i < n; i++) any[i]! |= m[i]!;
      }
      andInto(mask, any);
    } else if (key === 'not' && typeof value === 'object' && value !== null && !(value instanceof Date) && !isTests(value)) {
      const m = new Uint8Array(n).fill(1);
      narrow(table, value as Where, m);
      for (let i = 0; i < n; i++) m[i] = 1 - m[i]!;
      andInto(mask, m);
    } else {
      narrowBy(key, table.columnOrUndefined(key)!, value as Condition, mask);
    }
  }
}

function andInto(mask: Uint8Array, m: Uint8Array): void {
  for (let i = 0; i < mask.length; i++) mask[i]! &= m[i]!;
}

function narrowBy(name: string, column: FrameColumn, condition: Condition, mask: Uint8Array): void {
  const tests: Exclude<Condition, Scalar | null> = condition === null ? { isNull: true } : isTests(condition) ? condition : { eq: condition };
  if (typeof condition === 'object' && condition !== null && !(condition instanceof Date) && !isTests(condition)) {
    throw new DataError(`The condition on '${name}' is not a value or an object of tests (${[...TESTS].join(', ')}): ${JSON.stringify(condition)}.`, [], []);
  }
  if (column.kind === 'string') textMask(name, column.codes, column.dictionary, tests, mask);
  else numberMask(name, column, tests, mask);
}

type Tests = Exclude<Condition, Scalar | null>;

/** Text: each test is decided once per distinct value; rows read their code's answer. */
function textMask(name: string, codes: Int32Array, dictionary: readonly string[], tests: Tests, mask: Uint8Array): void {
  const text = (v: unknown, test: string): string => {
    if (typeof v !== 'string') throw new DataError(`Column '${name}' holds text; ${test} was given ${JSON.stringify(v)}.`, [], []);
    return v;
  };
  // ok[code + 1]: whether a row of that code passes; ok[0] is the missing value's (code -1).
  const ok = new Uint8Array(dictionary.length + 1).fill(1);
  const keep = (pass: (s: string) => boolean, nulls: boolean) => {
    for (let c = 0; c < dictionary.length; c++) if (ok[c + 1] && !pass(dictionary[c]!)) ok[c + 1] = 0;
    if (!nulls) ok[0] = 0;
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
  for (let i = 0; i < n; i++) mask[i]! &= ok[codes[i]! + 1]!;
}

/** The values `lo <= v <= hi` keep (empty when lo > hi); the range tests and `eq` narrow it. */
interface Interval {
  lo: number;
  hi: number;
  set: boolean;
}

/** The next double above x (x finite): `gt x` is `gte nextUp(x)`, so every range test is one interval. */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const bits = new Float64Array([x]);
  const word = new BigInt64Array(bits.buffer);
  word[0] = word[0]! + (x > 0 ? 1n : -1n);
  return bits[0]!;
}

const nextDown = (x: number): number => -nextUp(-x);

/** Numbers, dates and booleans: the column's values compared as numbers, missing values apart. */
function numberMask(name: string, column: Exclude<FrameColumn, { kind: 'string' }>, tests: Tests, mask: Uint8Array): void {
  const kind = column.kind;
  const values = column.values;
  const n = values.length;
  const toNumber = (v: unknown, test: string): number => {
    if (kind === 'bool' && typeof v === 'boolean') return v ? 1 : 0;
    if (kind === 'date') {
      if (v instanceof Date) return v.getTime();
      if (typeof v === 'string' && Number.isFinite(Date.parse(v))) return Date.parse(v);
    }
    if (typeof v === 'number' && kind !== 'bool' && !Number.isNaN(v)) return v;
    throw new DataError(`Column '${name}' holds ${kind === 'date' ? 'dates' : kind === 'bool' ? 'booleans' : 'numbers'}; ${test} was given ${JSON.stringify(v)}.`, [], []);
  };
  // Missing marker per kind: NaN (float, date) fails every comparison by itself; the int and bool
  // markers are kept out of every interval below (INT_NULL is the lowest int, BOOL_NULL above 1).
  const isNull: (i: number) => boolean =
    kind === 'int' ? (i) => values[i] === INT_NULL : kind === 'bool' ? (i) => values[i] === BOOL_NULL : (i) => values[i] !== values[i];
  const interval: Interval = { lo: -Infinity, hi: Infinity, set: false };
  const atLeast = (lo: number) => ((interval.lo = Math.max(interval.lo, lo)), (interval.set = true));
  const atMost = (hi: number) => ((interval.hi = Math.min(interval.hi, hi)), (interval.set = true));
  /** Keeps the rows (never missing ones) whose value passes: the slow path, for ne / notIn. */
  const keepIf = (pass: (v: number) => boolean) => {
    for (let i = 0; i < n; i++) if (mask[i] && (isNull(i) || !pass(values[i]!))) mask[i] = 0;
  };
  if (tests.eq !== undefined) {
    if (tests.eq === null) keepNulls(true);
    else {
      const x = toNumber(tests.eq, 'eq');
      atLeast(x);
      atMost(x);
    }
  }
  if (tests.ne !== undefined) {
    const x = toNumber(tests.ne, 'ne');
    keepIf((v) => v !== x);
  }
  if (tests.in !== undefined) {
    const set = new Set(tests.in.filter((v) => v !== null).map((v) => toNumber(v, 'in')));
    const nulls = tests.in.includes(null);
    for (let i = 0; i < n; i++) if (mask[i]) mask[i] = isNull(i) ? (nulls ? 1 : 0) : set.has(values[i]!) ? 1 : 0;
  }
  if (tests.notIn !== undefined) {
    const set = new Set(tests.notIn.map((v) => toNumber(v, 'notIn')));
    keepIf((v) => !set.has(v));
  }
  if (tests.gt !== undefined) {
    const x = toNumber(tests.gt, 'gt');
    if (x === Infinity) {
      atLeast(Infinity);
      atMost(-Infinity);
    } else atLeast(x === -Infinity ? -Number.MAX_VALUE : nextUp(x));
  }
  if (tests.gte !== undefined) atLeast(toNumber(tests.gte, 'gte'));
  if (tests.lt !== undefined) {
    const x = toNumber(tests.lt, 'lt');
    if (x === -Infinity) {
      atLeast(Infinity);
      atMost(-Infinity);
    } else atMost(x === Infinity ? Number.MAX_VALUE : nextDown(x));
  }
  if (tests.lte !== undefined) atMost(toNumber(tests.lte, 'lte'));
  if (tests.isNull === true || tests.notNull === false) keepNulls(true);
  if (tests.notNull === true || tests.isNull === false) keepNulls(false);
  if (!interval.set) return;
  const { lo, hi } = interval;
  switch (column.kind) {
    case 'float':
    case 'date':
      return inFloat64(column.values, lo, hi, mask);
    case 'int':
      // Whole numbers only: gte 2.5 is gte 3; the marker (the lowest int) is below any bound.
      return inInt32(column.values, Math.max(Math.ceil(lo), INT_NULL + 1), Math.floor(hi), mask);
    case 'bool':
      return inUint8(column.values, Math.max(Math.ceil(lo), 0), Math.min(Math.floor(hi), 1), mask);
  }

  function keepNulls(missing: boolean) {
    for (let i = 0; i < n; i++) if (mask[i] && isNull(i) !== missing) mask[i] = 0;
  }
}

// One loop per element type (monomorphic); NaN fails both comparisons, so missing floats drop out.

function inFloat64(values: Float64Array, lo: number, hi: number, mask: Uint8Array): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    mask[i]! &= +(v >= lo) & +(v <= hi);
  }
}

function inInt32(values: Int32Array, lo: number, hi: number, mask: Uint8Array): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    mask[i]! &= +(v >= lo) & +(v <= hi);
  }
}

function inUint8(values: Uint8Array, lo: number, hi: number, mask: Uint8Array): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    mask[i]! &= +(v >= lo) & +(v <= hi);
  }
}
