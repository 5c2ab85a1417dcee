/**
 * Argument parsing on top of `node:util` `parseArgs`, turning its errors into usage errors that
 * say which option was wrong and where the help is.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../client/index.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** The value an option spec gives: text or a flag, a list of them when `multiple`; absent when not given. */
type OptionValue<S> = S extends { type: 'boolean' }
  ? S extends { multiple: true }
    ? boolean[]
    : boolean
  : S extends { multiple: true }
    ? string[]
    : string;

/**
 * Parsed arguments. Spelled out because `node:util` does not export its result type, which a
 * declaration file must be able to name (TS4058). Options have no defaults in this CLI, so every
 * value may be absent.
 */
export interface ParsedArgv<O extends OptionSpec> {
  values: { [K in keyof O]?: OptionValue<O[K]> };
  positionals: string[];
}

/**
 * Parses a command's arguments strictly; an unknown or malformed option is a UsageError.
 *
 * @example
 * const { values } = fromArgv('health', ['--json'], { json: { type: 'boolean' } }); // values.json === true
 */
export function fromArgv<O extends OptionSpec>(command: string, argv: readonly string[], options: O, allowPositionals = false): ParsedArgv<O> {
  try {
    const parsed = parseArgs({ args: [...argv], options, allowPositionals, strict: true });
    return { values: parsed.values, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '').replace(/\.+$/, '') : String(error);
    throw new UsageError(`${message}.`, { hint: `Run 'brandscape ${command} --help' for the options.` });
  }
}

/** A number option, or a usage error naming the option. */
export function toNumber(name: string, value: string | undefined, { min = -Infinity, max = Infinity, integer = false } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    const range = min > -Infinity && max < Infinity ? ` from ${min} to ${max}` : min > -Infinity ? ` >= ${min}` : max < Infinity ? ` <= ${max}` : '';
    throw new UsageError(`--${name} expects ${integer ? 'an integer' : 'a number'}${range}, got '${value}'.`);
  }
  return n;
}
