/**
 * What the CLI does with an error a command threw: one redacted line on stderr (the stack too with
 * BRANDSCAPE_DEBUG, for errors that are not the toolkit's own) and the exit code of its kind
 * (DESIGN.md rule 6).
 */
import {
  BrandscapeError,
  HttpError,
  LoadError,
  NetworkError,
  ResponseShapeError,
  TimeoutError,
  UsageError,
  loadDotEnv,
  redact,
} from '../client/index.js';
import { FLAG_NAMES } from './flags.js';
import { EXIT, STDOUT_CLOSED, type CommandIo } from './io.js';

/**
 * The exit code of an error.
 *
 * @example
 * exitCodeOf(new UsageError('bad option')) // 2
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (
    error instanceof HttpError ||
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    error instanceof LoadError ||
    error instanceof ResponseShapeError
  ) {
    return EXIT.service;
  }
  return EXIT.other;
}

/**
 * Reports a command's error on stderr and returns its exit code.
 *
 * @example
 * process.exitCode = reportError('fetch', error, io);
 */
export function reportError(command: string, error: unknown, io: CommandIo): number {
  // The reader of stdout went away (`| head`): nothing failed, and nothing is said.
  if (io.signal.aborted && io.signal.reason === STDOUT_CLOSED) return EXIT.ok;
  // Library errors name options (`scoreType`); on the command line they are flags (`--score-type`).
  const message = error instanceof UsageError ? error.wordedFor(FLAG_NAMES) : error instanceof Error ? error.message : String(error);
  const secrets = tokensOf(io);
  io.stderr.write(`brandscape ${command}: ${redact(message, secrets)}\n`);
  if (!(error instanceof BrandscapeError) && error instanceof Error && error.stack && io.env['BRANDSCAPE_DEBUG']) {
    io.stderr.write(`${redact(error.stack, secrets)}\n`);
  }
  return exitCodeOf(error);
}

/**
 * The tokens this run may have used: the environment's and the `.env` file's. A client masks its
 * own token in what it throws; this catches an error raised outside one (a bad option naming it).
 */
function tokensOf(io: CommandIo): string[] {
  const tokens = [io.env['BRANDSCAPE_TOKEN']];
  try {
    tokens.push(loadDotEnv(io.env, io.cwd)['BRANDSCAPE_TOKEN']);
  } catch {
    // A .env that cannot be read is an error of its own, reported as it happens.
  }
  return tokens.flatMap((t) => (t?.trim() ? [t, t.trim()] : []));
}
