/**
 * `.env` in the working directory, read with dotenv: settings such as BRANDSCAPE_TOKEN kept out of
 * shell history and out of the repository (`.env` is git-ignored). What the environment already
 * sets wins over the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';

/**
 * The environment with `<cwd>/.env`'s settings added where the environment has none.
 *
 * @example
 * const env = loadDotEnv(process.env, process.cwd());
 */
export function loadDotEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): Record<string, string | undefined> {
  let text: string;
  try {
    text = readFileSync(join(cwd, '.env'), 'utf8');
  } catch {
    return { ...env };
  }
  const fromFile = parse(text);
  const out: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(fromFile)) if (out[key] === undefined || out[key] === '') out[key] = value;
  return out;
}
