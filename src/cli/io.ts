/** What a CLI command may touch: injected, so commands run in tests without a real process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted when the user interrupts (Ctrl-C); long-running commands stop cleanly. */
  signal: AbortSignal;
  cwd: string;
}

/**
 * The reason `signal` aborts with when stdout was closed by its reader (`| head`): the command stops
 * quietly and the process exits 0, as Unix tools do.
 */
export const STDOUT_CLOSED = Object.freeze({ reason: 'stdout closed by its reader' });

/** Exit codes (DESIGN.md rule 6); `health` adds 4 for a permission problem. */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  service: 3,
  permission: 4,
} as const;
