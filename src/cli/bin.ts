#!/usr/bin/env node
/**
 * The `brandscape` process: runs a command with the real stdout, stderr, environment and signals.
 *
 * - Ctrl-C (SIGINT) or SIGTERM: the command is cancelled and cleans up (no temporary file left),
 *   then the process exits 130 or 143, as shells expect. A second signal leaves at once, and so
 *   does a cleanup still running 5 s after the first: either way the temporary files staged so far
 *   are removed first, synchronously (two Ctrl-C 5 ms apart used to leave `.partial` files).
 * - A reader that goes away (`brandscape fetch ... | head -1`): stdout is closed, so the command
 *   is cancelled quietly and the process exits 0, as Unix tools do, without a stack trace.
 * - Standard output that cannot be written (a full disk, a device that refuses): the command is
 *   cancelled, stderr says why, and the process exits 1.
 */
import { STDOUT_CLOSED } from './io.js';
import { run } from './main.js';

const controller = new AbortController();
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type ExitSignal = keyof typeof SIGNAL_EXIT;
/** How long the command may take to clean up after a signal before the process leaves anyway. */
const CLEANUP_MS = 5_000;
let signalled: ExitSignal | undefined;
/**
 * The module that stages output files, asked for at the first signal: it is already loaded when a
 * command has staged anything, and `--version` must not load it otherwise.
 */
let files: Promise<typeof import('../io/atomic-file.js')> | undefined;
let leaving = false;

/**
 * Leaves now: removes the temporary files staged and not yet committed or discarded, then dies of
 * the signal itself. Not `process.exit()`: it waits for the thread pool, and a read stuck on a FIFO
 * there would keep the process alive forever; a process ended by its signal is also what a shell
 * reports as 130 or 143.
 */
async function leave(signal: ExitSignal, why: string): Promise<void> {
  if (leaving) return;
  leaving = true;
  const atomic = await Promise.race([files, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 250).unref())]).catch(() => undefined);
  const removed = atomic?.discardStagedFilesSync() ?? [];
  process.stderr.write(`brandscape: ${why}; stopped${removed.length > 0 ? ` (removed ${removed.length} unfinished file${removed.length === 1 ? '' : 's'})` : ''}.\n`);
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled !== undefined) {
      void leave(signal, `${signal} again while cleaning up`);
      return;
    }
    signalled = signal;
    files = import('../io/atomic-file.js');
    files.catch(() => {});
    controller.abort();
    // A cleanup that does not end (a read that cannot be interrupted) must not keep the process.
    setTimeout(() => void leave(signal, `cleanup did not finish within ${CLEANUP_MS / 1000} s of ${signal}`), CLEANUP_MS).unref();
  });
}

let stdoutClosed = false;
let stdoutFailed: NodeJS.ErrnoException | undefined;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') stdoutFailed ??= error;
  stdoutClosed = true;
  // Writers waiting for room go on (and write nowhere); the command stops.
  process.stdout.emit('drain');
  controller.abort(STDOUT_CLOSED);
});
const stdout = {
  get isTTY() {
    return process.stdout.isTTY;
  },
  write: (chunk: string) => (stdoutClosed ? true : process.stdout.write(chunk)),
  once: (event: 'drain', listener: () => void) => {
    if (stdoutClosed) listener();
    else process.stdout.once(event, listener);
    return stdout;
  },
};

const code = await run(process.argv.slice(2), {
  stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
  cwd: process.cwd(),
});
if (stdoutFailed) process.stderr.write(`brandscape: the output could not be written to standard output (${stdoutFailed.message}); nothing more was written.\n`);
process.exitCode = signalled !== undefined ? SIGNAL_EXIT[signalled] : stdoutFailed ? 1 : stdoutClosed ? 0 : code;
