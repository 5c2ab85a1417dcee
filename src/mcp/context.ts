/**
 * What the tools of `brandscape mcp` share: the client (the live service or the embedded emulator),
 * the one folder files may be written to (fixed when the server starts, never taken from a tool
 * call), the project folder its templates come from, and the log (stderr: stdout is the protocol
 * channel of a stdio server).
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';

export interface McpContext {
  readonly client: BrandscapeClient;
  /** True when the client talks to an embedded emulator with demo data. */
  readonly emulated: boolean;
  /** The folder reports and row files are written to; undefined: the tools that write refuse. */
  readonly outDir: string | undefined;
  /** The project folder: its `templates/` come before the toolkit's. */
  readonly cwd: string;
  readonly log: (line: string) => void;
}
