/**
 * The command line's names for the library's options: a library error names `scoreType`, the CLI
 * prints `--score-type`. Every option a library message may name maps to the flag that sets it;
 * the commands' own checks name their flags directly (they speak only to the terminal).
 */
import type { OptionNamer, OptionRef } from '../client/index.js';

/**
 * The flags of the options library errors name, where the flag is not the option in kebab case, or
 * has no flag of its own (a report's parameters are `-p name=value`).
 */
const FLAG_OF: Readonly<Record<string, string>> = {
  // compareBrands (brandscape compare): the flags are the options in kebab case.
  brands: '--brands',
  markets: '--markets',
  years: '--years',
  by: '--by',
  metrics: '--metrics',
  metricGroups: '--metric-groups',
  scoreType: '--score-type',
  audience: '--audience',
  waves: '--waves',
  focus: '--focus',
  // runReport (brandscape report): the output folder.
  outDir: '--out',
  // The client's options, as the global flags and environment set them.
  timeoutMs: '--timeout',
  perPage: '--per-page',
};

/** The flag of an option: from the table, else the option in kebab case. */
export function flagOf(option: string): string {
  return FLAG_OF[option] ?? `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A value as the flag takes it: lists comma-separated, runs of years as a range (`2021..2024`). */
function flagValue(value: NonNullable<OptionRef['value']>): string {
  if (!Array.isArray(value)) return String(value);
  const run = value.length > 2 && value.every((v, i) => typeof v === 'number' && (i === 0 || v === (value[i - 1] as number) + 1));
  return run ? `${value[0]}..${value[value.length - 1]}` : value.join(',');
}

/**
 * The CLI's wording of options in library errors.
 *
 * @example
 * error.wordedFor(FLAG_NAMES); // "--by market compares markets in one year, ..."
 * FLAG_NAMES({ option: 'years', value: [2021, 2022, 2023, 2024] }); // '--years 2021..2024'
 */
export const FLAG_NAMES: OptionNamer = ({ option, value }) => {
  const flag = flagOf(option);
  if (value === undefined || value === true) return flag;
  return `${flag} ${flagValue(value)}`;
};
