/**
 * The command line's words for the library's options: a library error that names `scoreType` or
 * `outDir` is printed with `--score-type` or `--out`; the library itself says the option.
 */
import { describe, expect, it } from 'vitest';
import { FLAG_NAMES, flagOf } from '../../src/cli/flags.js';
import { OPTION_NAMES, UsageError } from '../../src/errors.js';
import { checkOutputDir } from '../../src/report/run-report.js';

describe('flags of options', () => {
  it('are the options in kebab case, or what the table says', () => {
    expect(flagOf('brands')).toBe('--brands');
    expect(flagOf('metricGroups')).toBe('--metric-groups');
    expect(flagOf('outDir')).toBe('--out');
    expect(flagOf('timeoutMs')).toBe('--timeout');
  });

  it('take values as the flags do: lists with commas, runs of years as a range, true as the flag alone', () => {
    expect(FLAG_NAMES({ option: 'markets', value: ['GB', 'DE'] })).toBe('--markets GB,DE');
    expect(FLAG_NAMES({ option: 'years', value: [2021, 2022, 2023, 2024] })).toBe('--years 2021..2024');
    expect(FLAG_NAMES({ option: 'years', value: [2022, 2024] })).toBe('--years 2022,2024');
    expect(FLAG_NAMES({ option: 'waves', value: true })).toBe('--waves');
    expect(FLAG_NAMES({ option: 'by', value: 'year' })).toBe('--by year');
    expect(OPTION_NAMES({ option: 'markets', value: ['GB', 'DE'] })).toBe("markets: ['GB', 'DE']");
  });
});

describe('a library error in two readers\' words', () => {
  it('a report into a folder that does not exist: outDir for a call, --out on the command line', async () => {
    let error: unknown;
    try {
      await checkOutputDir('/nonexistent-brandscape-folder/x');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    const usage = error as UsageError;
    expect(usage.message).toBe('The output folder /nonexistent-brandscape-folder/x does not exist. Create it, or give another with outDir.');
    expect(usage.wordedFor(FLAG_NAMES)).toBe('The output folder /nonexistent-brandscape-folder/x does not exist. Create it, or give another with --out.');
  });

  it('plain text names no option and reads the same everywhere', () => {
    const plain = new UsageError('A brand name is empty.', { hint: 'Give a brand id or name.' });
    expect(plain.wordedFor(FLAG_NAMES)).toBe(plain.message);
    expect(plain.hint).toBe('Give a brand id or name.');
  });
});
