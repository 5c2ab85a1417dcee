/**
 * Builders chart one slice of the rows (one metric column, one year, one market...). When the
 * rows hold several and the caller did not say which, guessing would chart the wrong thing
 * silently: these helpers pick the only one or throw an error that lists the choices.
 */
import { DataError, UsageError } from '../errors.js';

/** Values in order of first appearance, without duplicates. */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/**
 * The one value of a dimension the chart shows: `chosen` when given (and present), else the only
 * value present.
 *
 * @example
 * pickOne(rows.map((r) => r.column), options.column, 'metric column', 'column') // 'differentiation_rank'
 */
export function pickOne<T extends string | number>(values: Iterable<T>, chosen: T | undefined, what: string, option: string): T {
  const present = distinct(values);
  if (chosen !== undefined) {
    if (present.includes(chosen)) return chosen;
    throw new DataError(`The rows have no ${what} ${String(chosen)}.`, [String(chosen)], present.map(String));
  }
  const [only, ...others] = present;
  if (only === undefined) throw new DataError(`The rows have no ${what}.`, [what], []);
  if (others.length > 0) {
    throw new UsageError(`The rows hold several ${plural(what)} (${present.map(String).join(', ')}); choose one with the option '${option}'.`);
  }
  return only;
}

function plural(word: string): string {
  return /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
}

/**
 * The first row, or a clear error when a builder gets no rows at all (an empty chart would say
 * nothing).
 */
export function firstRow<T>(rows: readonly T[], chart: string): T {
  const first = rows[0];
  if (first === undefined) throw new DataError(`No rows to draw the ${chart}.`, ['rows'], []);
  return first;
}
