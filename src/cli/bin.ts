#!/usr/bin/env node
/**
 * The `brandscape` process: runs a command with the real stdout, stderr, environment and signals.
 *
 * - Ctrl-C (SIGINT) or SIGTERM: the command is cancelled and cleans up (no temporary file left),
 *   then the process exits 130 or 143, as shells expect; a second signal leaves at once.
 * - A reader that goes away (`brandscape fetch ... | head -1`): stdout is closed, so the command
 *   is cancelled quietly and the process exits 0, as Unix tools do, without a stack trace.
 * - Standard output that cannot be written (a full disk, a device that refuses): the command is
 *   cancelled, stderr says why, and the process exits 1.
 */
import { STDOUT_CLOSED } from './io.js';
import { run } from './main.js';

const controller = new AbortController();
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
let signalled: keyof typeof SIGNAL_EXIT | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled !== undefined) process.exit(SIGNAL_EXIT[signal]);
    signalled = signal;
    controller.abort();
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
