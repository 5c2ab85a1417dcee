/**
 * The command line run in this process, as `bin.js` runs it, with its output collected: for tests
 * that check exit codes and messages without starting a process per case.
 */
import { run } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `brandscape ...argv` with the given environment (nothing of the test's own) in `cwd`.
 *
 * @example
 * const { code, stderr } = await runCli(['compare', '--brands', 'Nope'], { BRANDSCAPE_BASE_URL: url, BRANDSCAPE_TOKEN: token }, dir);
 */
export async function runCli(argv: readonly string[], env: Record<string, string | undefined>, cwd = process.cwd()): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env,
    signal: new AbortController().signal,
    cwd,
  });
  return { code, stdout, stderr };
}
