/**
 * The service a command talks to: the one named by `BRANDSCAPE_BASE_URL` (with `BRANDSCAPE_TOKEN`),
 * or, when none is set, an emulator started in-process for the duration of the command. Either
 * way the command says on stderr which it uses.
 *
 * Settings come from the environment, then from a `.env` file in the working directory (git-ignored;
 * what the environment sets wins). Every command that talks to the service takes `--timeout SECONDS` (or `BRANDSCAPE_TIMEOUT`) and
 * `--verbose`, and says on stderr, even when stderr is not a terminal, whenever it is about to wait
 * more than 5 s (a slow answer, a retry's backoff, the rate limit): a scheduled job never hangs in
 * silence.
 */
import { UsageError, createClient, type BrandscapeClient, type ClientOptions, type TransportEvent } from '../client/index.js';
import { TIMEOUT_RANGE_MS } from '../client/client-options.js';
import { loadDotEnv } from '../client/dot-env.js';
import type { OptionSpec, ParsedArgv } from './args.js';
import { CARRIAGE_RETURN, CLEAR_LINE_END, type CommandIo } from './io.js';

export interface Service {
  client: BrandscapeClient;
  /** True when an in-process emulator answers. */
  emulated: boolean;
  close(): Promise<void>;
}

/** The options every command that talks to the service takes (spread into its `fromArgv` spec). */
export const SERVICE_OPTIONS = {
  timeout: { type: 'string' },
  verbose: { type: 'boolean' },
} as const satisfies OptionSpec;

/** The help lines of `SERVICE_OPTIONS`. */
export const SERVICE_HELP = `  --timeout SECONDS       Time limit of one request (default 30; also BRANDSCAPE_TIMEOUT). A request
                          that keeps failing gives up after two time limits or four retries
  --verbose               Say which service, API version and token (masked) are used, and every request`;

/** Waits at least this long are announced on stderr. */
const ANNOUNCE_MS = 5_000;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** A token as `--verbose` shows it: its length and its last four characters. */
export function maskToken(token: string): string {
  return token.length >= 12 ? `…${token.slice(-4)} (${token.length} characters)` : `*** (${token.length} characters)`;
}

/** The time limit in ms from `--timeout` or `BRANDSCAPE_TIMEOUT` (seconds), checked. */
function timeoutOf(io: CommandIo, flag: string | undefined): number | undefined {
  const [text, source] = flag !== undefined ? [flag, '--timeout'] : [io.env['BRANDSCAPE_TIMEOUT'], 'BRANDSCAPE_TIMEOUT'];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  const max = TIMEOUT_RANGE_MS.max / 1000;
  if (!Number.isFinite(value) || value <= 0 || value > max) {
    throw new UsageError(`${source} takes seconds, more than 0 and at most ${max}; got '${text}'.`, { hint: 'For example --timeout 10.' });
  }
  return Math.round(value * 1000);
}

/** What a command's user sees of the client's events: long waits always, everything with --verbose. */
function eventLine(event: TransportEvent, verbose: boolean): string | undefined {
  switch (event.type) {
    case 'slow':
      return `GET ${event.url} has not answered after ${seconds(event.elapsedMs)}; waiting up to ${seconds(event.timeoutMs)}.`;
    case 'waiting':
      return event.waitMs > ANNOUNCE_MS || verbose ? `waiting ${seconds(event.waitMs)} for the rate limit before GET ${event.url}.` : undefined;
    case 'retry':
      // The error's first sentence: what went wrong (its advice is for when the retries run out).
      return event.delayMs > ANNOUNCE_MS || verbose ? `${/^.*?\.(?=\s|$)/.exec(event.message)?.[0] ?? event.message} Retrying in ${seconds(event.delayMs)} (attempt ${event.attempt + 1}).` : undefined;
    case 'response':
      return verbose ? `${event.status} GET ${event.url} (${Math.round(event.durationMs)} ms)` : undefined;
    default:
      return undefined;
  }
}

/**
 * Opens the service for a command: the configured one, or an in-process emulator.
 *
 * @example
 * const service = await openService(io, values); // values from fromArgv with SERVICE_OPTIONS
 */
export async function openService(
  io: CommandIo,
  flags: ParsedArgv<typeof SERVICE_OPTIONS>['values'] = {},
  options: Omit<ClientOptions, 'baseUrl' | 'token' | 'env' | 'timeoutMs' | 'onEvent'> = {},
): Promise<Service> {
  // `.env` in the working directory adds what the environment does not set (BRANDSCAPE_TOKEN...).
  io = { ...io, env: loadDotEnv(io.env, io.cwd) };
  const verbose = flags.verbose === true;
  const timeoutMs = timeoutOf(io, flags.timeout);
  const say = (line: string) => io.stderr.write([...(io.stderr.isTTY ? [CARRIAGE_RETURN, CLEAR_LINE_END] : []), `brandscape: ${line}\n`]);
  const clientOptions: ClientOptions = {
    ...options,
    env: io.env,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    onEvent: (event) => {
      const line = eventLine(event, verbose);
      if (line !== undefined) say(line);
    },
  };
  const baseUrl = io.env['BRANDSCAPE_BASE_URL'];
  let service: Service;
  if (baseUrl !== undefined && baseUrl.trim() !== '') {
    service = { client: createClient(clientOptions), emulated: false, close: async () => {} };
  } else {
    const { createEmulator } = await import('../emulator/index.js');
    const emulator = await createEmulator({ port: 0 });
    let client: BrandscapeClient;
    try {
      client = createClient({ ...clientOptions, baseUrl: emulator.url, token: emulator.token });
    } catch (error) {
      // A setting the client refuses (BRANDSCAPE_API_VERSION=v9): the emulator must not keep the
      // process alive after the error is reported.
      await emulator.close();
      throw error;
    }
    say(`BRANDSCAPE_BASE_URL is not set; using an in-process emulator at ${emulator.url} (seeded demo data).`);
    service = { client, emulated: true, close: () => emulator.close() };
  }
  if (verbose) {
    const token = service.emulated ? undefined : io.env['BRANDSCAPE_TOKEN']?.trim();
    say(`service ${service.client.baseUrl}, API ${service.client.version}, ${service.emulated ? "the emulator's token" : token ? `token ${maskToken(token)}` : 'no token (BRANDSCAPE_TOKEN is not set)'}, time limit ${seconds(timeoutMs ?? 30_000)}.`);
  }
  return service;
}
