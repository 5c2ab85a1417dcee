/**
 * Argument parsing on top of `node:util` `parseArgs`, turning its errors into usage errors that
 * say which option was wrong and where the help is.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export function fromArgv<O extends OptionSpec>(command: string, argv: readonly string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error);
    throw new UsageError(`${message}.`, { hint: `Run 'brandscape ${command} --help' for the options.` });
  }
}

/** A number option, or a usage error naming the option. */
export function toNumber(name: string, value: string | undefined, { min = -Infinity, integer = false } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} expects ${integer ? 'an integer' : 'a number'}${min > -Infinity ? ` >= ${min}` : ''}, got '${value}'.`);
  }
  return n;
}
