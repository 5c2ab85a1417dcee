#!/usr/bin/env node
import { run } from './main.js';

const controller = new AbortController();
let interrupted = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted += 1;
    // A second Ctrl-C leaves at once; the first lets the command finish cleanly.
    if (interrupted > 1) process.exit(130);
    controller.abort();
  });
}

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
  cwd: process.cwd(),
});
