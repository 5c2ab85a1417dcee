// Module loader hooks for tests that check what a process loads: every module URL loaded is
// appended to the file named by BSK_MODULE_LOG. Registered by module-log.mjs (`node --import`).
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (process.env.BSK_MODULE_LOG) appendFileSync(process.env.BSK_MODULE_LOG, `${url}\n`);
  return nextLoad(url, context);
}
