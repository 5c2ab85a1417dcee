/** What a CLI command may touch: injected, so commands run in tests without a real process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted when the user interrupts (Ctrl-C); long-running commands stop cleanly. */
  signal: AbortSignal;
  cwd: string;
}

/** Exit codes (DESIGN.md rule 6); `health` adds 4 for a permission problem. */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  service: 3,
  permission: 4,
} as const;
