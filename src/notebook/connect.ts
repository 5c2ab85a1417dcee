/**
 * `connect()`: the one call that gives a notebook (or a script) a client. The live service when
 * `BRANDSCAPE_BASE_URL` and `BRANDSCAPE_TOKEN` are set (in the environment or in the project's `.env`
 * file), otherwise an emulator of the service started in this process, with seeded
 * demo data. It says which.
 *
 * In a notebook the emulator lives as long as the kernel: the process that runs it ends with the
 * kernel, and running the cell again reuses it instead of starting another.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError, createClient, type BrandscapeClient, type ClientOptions } from '../client/index.js';
import { loadDotEnv } from '../client/dot-env.js';
import type { Emulator, EmulatorOptions } from '../emulator/index.js';

/** Options of `connect`. */
export interface ConnectOptions {
  /** Settings of the client (everything but where it connects). */
  client?: Omit<ClientOptions, 'baseUrl' | 'token' | 'env'>;
  /** Options of the embedded emulator (seed, latency, ...), used when no service is configured. */
  emulator?: Omit<EmulatorOptions, 'port'>;
  /**
   * Where the settings come from (default `process.env`, then the `.env` of the working directory
   * or of the project above it: a notebook runs in `notebooks/`, its project's `.env` is one up).
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the line saying which service is used goes (default: standard output, the notebook cell). */
  say?: (line: string) => void;
}

/** What `connect` returns: the client and where it is connected. */
export interface Connection {
  readonly client: BrandscapeClient;
  /** True when the embedded emulator answers. */
  readonly emulated: boolean;
  /** The service's base URL (the emulator's local one when emulated). */
  readonly baseUrl: string;
  /** Stops the embedded emulator (nothing to do for the live service). A script calls it when done. */
  close(): Promise<void>;
}

/**
 * The folder whose `.env` applies: the nearest one above `cwd` that has a `.env`, looking no higher
 * than the project (the nearest folder with a package.json).
 */
function envDir(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.env')) || existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/** The emulator this process started, shared by later `connect()` calls with the same options. */
let embedded: { key: string; emulator: Promise<Emulator> } | undefined;

/**
 * Connects to the Brand Data Service, or to an embedded emulator when none is configured, and
 * says which on standard output.
 *
 * @throws UsageError when `BRANDSCAPE_BASE_URL` is set without `BRANDSCAPE_TOKEN`.
 * @example
 * import { connect } from 'brandscape-kit';
 * const { client } = await connect(); // "Using an embedded emulator of the Brand Data Service at http://127.0.0.1:41233 ..."
 * await client.health();
 */
export async function connect(options: ConnectOptions = {}): Promise<Connection> {
  const env = loadDotEnv(options.env ?? process.env, envDir(process.cwd()));
  const say = options.say ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const baseUrl = env['BRANDSCAPE_BASE_URL']?.trim();
  const token = env['BRANDSCAPE_TOKEN']?.trim();
  if (baseUrl) {
    if (!token) {
      throw new UsageError('BRANDSCAPE_BASE_URL is set but BRANDSCAPE_TOKEN is not: the live service needs your personal access token.', {
        hint: 'Set BRANDSCAPE_TOKEN (in the environment or a .env file), or unset BRANDSCAPE_BASE_URL to use the embedded emulator.',
      });
    }
    const client = createClient({ ...options.client, env });
    say(`Connected to the Brand Data Service at ${client.baseUrl} (API ${client.version}).`);
    return { client, emulated: false, baseUrl: client.baseUrl, close: async () => {} };
  }
  const key = JSON.stringify(options.emulator ?? {});
  if (embedded === undefined || embedded.key !== key) {
    const { createEmulator } = await import('../emulator/index.js');
    const started = createEmulator({ ...options.emulator, port: 0 });
    // A failed start is not kept: the next call tries again.
    started.catch(() => {
      if (embedded?.emulator === started) embedded = undefined;
    });
    embedded = { key, emulator: started };
  }
  const current = embedded;
  const emulator = await current.emulator;
  const client = createClient({ ...options.client, env: {}, baseUrl: emulator.url, token: emulator.token });
  say(
    `Using an embedded emulator of the Brand Data Service at ${emulator.url} (seeded demo data; ` +
      'set BRANDSCAPE_BASE_URL and BRANDSCAPE_TOKEN to use the live service).',
  );
  return {
    client,
    emulated: true,
    baseUrl: emulator.url,
    close: async () => {
      if (embedded === current) embedded = undefined;
      await emulator.close();
    },
  };
}
