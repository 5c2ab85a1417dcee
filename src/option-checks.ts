/**
 * Checks of numeric options (page sizes, time limits, retry counts, concurrency): a value out of
 * range is a UsageError naming the option and its valid range, never silently replaced by a
 * default (`perPage: 0` once quietly gave 25 records).
 */
import { UsageError } from './errors.js';

const shown = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));

/**
 * An integer option within [min, max].
 *
 * @example
 * checkInteger('concurrency', 8, { min: 1, max: 64 }) // 8
 * checkInteger('perPage', 2.5, { min: 1, max: 1000 }) // throws UsageError: perPage must be a whole number from 1 to 1000; got 2.5.
 */
export function checkInteger(name: string, value: unknown, range: { min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    const to = range.max === Number.POSITIVE_INFINITY ? `${range.min} or more` : `from ${range.min} to ${range.max}`;
    throw new UsageError(`${name} must be a whole number ${to}; got ${shown(value)}.`);
  }
  return value;
}

/**
 * A number option within [min, max] (a unit, e.g. `ms`, is named in the message).
 *
 * @example
 * checkNumber('timeoutMs', 0, { min: 1, max: 600_000, unit: 'ms' }) // throws UsageError
 */
export function checkNumber(name: string, value: unknown, range: { min: number; max: number; unit?: string }): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < range.min || value > range.max) {
    const unit = range.unit ? ` ${range.unit}` : '';
    throw new UsageError(`${name} must be a number from ${range.min} to ${range.max}${unit}; got ${shown(value)}.`);
  }
  return value;
}
