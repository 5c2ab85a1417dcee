/**
 * Parses filter values as the service reads them: comma-separated lists, `1`/`0` flags, dates in
 * `YYYY-MM-DD[ HH:MM:SS]`. A value of the wrong kind is a 400 that names the parameter.
 */
import { badRequest } from './api-error.js';
import { splitList } from './parse-query.js';

export function fromIdList(name: string, value: string): Set<number> {
  const ids = new Set<number>();
  for (const part of splitList(value)) {
    if (!/^-?\d+$/.test(part)) throw badRequest(`filter[${name}] expects comma-separated integers, got '${part}'.`);
    ids.add(Number(part));
  }
  return ids;
}

export function fromCodeList(value: string): Set<string> {
  return new Set(splitList(value).map((c) => c.toUpperCase()));
}

/** `1`/`true` on, `0`/`false` off (flags are switched on with 1, §3.2; one page says `true`). */
export function fromFlag(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === '') return true;
  if (v === '0' || v === 'false') return false;
  throw badRequest(`filter[${name}] is a flag: send 1 or 0, not '${value}'.`);
}

export function fromInt(name: string, value: string): number {
  if (!/^\s*-?\d+\s*$/.test(value)) throw badRequest(`filter[${name}] expects an integer, got '${value}'.`);
  return Number.parseInt(value, 10);
}

/** A moment as milliseconds since the epoch; date-only values mean midnight UTC. */
export function fromDateTime(name: string, value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value.trim());
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)) : Number.NaN;
  if (!Number.isFinite(ms)) throw badRequest(`filter[${name}] expects a date-time 'YYYY-MM-DD HH:MM:SS' (or 'YYYY-MM-DD'), got '${value}'.`);
  return ms;
}

/**
 * A record's value as text: a string as it is, a number or boolean as `String` writes it, anything
 * else (an object) as JSON.
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Case-insensitive "contains any of" over comma-separated needles. */
export function likeMatcher(value: string): (candidate: unknown) => boolean {
  const needles = splitList(value).map((n) => n.toLowerCase());
  if (needles.length === 0) needles.push(value.toLowerCase());
  return (candidate) => {
    if (candidate === null || candidate === undefined) return false;
    const hay = valueText(candidate).toLowerCase();
    return needles.some((n) => hay.includes(n));
  };
}
