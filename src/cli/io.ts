/** What a CLI command may touch: injected, so commands run in tests without a real process. */
export interface CliIo {
  stdout: TextStream;
  stderr: TextStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted when the user interrupts (Ctrl-C); long-running commands stop cleanly. */
  signal: AbortSignal;
  cwd: string;
}

/**
 * What a command is given: the same, with stdout and stderr that make everything written to them
 * safe for a terminal (`run()` wraps them once; see "Text for a terminal" below).
 */
export interface CommandIo extends Omit<CliIo, 'stdout' | 'stderr'> {
  stdout: TerminalSink;
  stderr: TerminalSink;
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

/*
 * Text for a terminal: what the command line prints comes from templates, parameters, file names,
 * argv and the service, and any of it can hold control sequences a terminal obeys (a section
 * title with `ESC ] 0 ; ... BEL` retitled the window; others move the cursor, rewrite what was
 * printed, or make links). `run()` wraps stdout and stderr once, so that everything any command
 * writes is stripped of them (`toTerminalText`), rather than each message being cleaned where it
 * is made.
 *
 * The command line's own colours and line clearing are not text: they are `Control`s, written
 * beside the text (`[sgr(1), title, sgr(22)]`), which only this module can make and the wrapper
 * lets through.
 */

const CONTROL = Symbol('terminal control');

/** A control sequence the command line writes on purpose (a colour, clearing a line). */
export interface Control {
  readonly [CONTROL]: string;
}

const control = (code: string): Control => Object.freeze({ [CONTROL]: code });

/** Back to the start of the line (a progress line drawn over itself). */
export const CARRIAGE_RETURN = control('\r');
/** Clears the line from the cursor to its end. */
export const CLEAR_LINE_END = control('\u001b[K');

/**
 * Select Graphic Rendition: colours and weights, e.g. `sgr(1)` bold, `sgr(22)` normal, `sgr(0)`
 * reset, `sgr(48, 5, 196)` a background.
 */
export function sgr(...params: readonly number[]): Control {
  return control(`\u001b[${params.join(';')}m`);
}

/** What a command writes: text, or text and controls. */
export type TerminalChunk = string | readonly (string | Control)[];

/**
 * Control sequences and characters a terminal acts on: ESC sequences (CSI: cursor, colours,
 * erasing; OSC: titles, links, the clipboard; DCS, SOS, PM, APC strings; two-character escapes),
 * then the C0 controls other than tab and line feed (a carriage return rewrites the line), DEL,
 * and the C1 controls (U+0080-U+009F, among them the one-character CSI and OSC).
 */
const UNSAFE = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|[PX^_][^\u001b\n]*(?:\u001b\\)?|[ -/]*[0-~]?)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const HAS_UNSAFE = new RegExp(UNSAFE.source);

/**
 * A text without the control sequences and characters a terminal acts on (tabs and line feeds
 * stay); the command line's own `Control`s are kept.
 *
 * @example
 * toTerminalText('Brand \u001b]0;pwned\u0007health'); // 'Brand health'
 * toTerminalText([sgr(1), 'Title', sgr(22)]); // '\u001b[1mTitle\u001b[22m'
 */
export function toTerminalText(chunk: TerminalChunk): string {
  if (typeof chunk === 'string') return HAS_UNSAFE.test(chunk) ? chunk.replace(UNSAFE, '') : chunk;
  let out = '';
  for (const part of chunk) out += typeof part === 'string' ? toTerminalText(part) : part[CONTROL];
  return out;
}

/** A stream the command line writes to (the process's stdout or stderr, or a test's). */
export interface TextStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** Backpressure: present on streams that can ask the writer to wait (`write` returned false). */
  once?: (event: 'drain', listener: () => void) => unknown;
}

/** A stream that takes text and controls, and writes them made safe for a terminal. */
export interface TerminalSink {
  write(chunk: TerminalChunk): unknown;
  readonly isTTY?: boolean | undefined;
  once?: (event: 'drain', listener: () => void) => unknown;
}

/**
 * Wraps a stream so that every write is made safe for a terminal (`toTerminalText`); `isTTY`,
 * `write`'s answer and `once('drain')` are the stream's own, so backpressure works as before.
 *
 * @example
 * const stderr = toTerminalSink(process.stderr);
 * stderr.write(`brandscape: ${message}\n`);
 */
export function toTerminalSink(stream: TextStream): TerminalSink {
  const once = stream.once;
  return {
    get isTTY() {
      return stream.isTTY;
    },
    write: (chunk: TerminalChunk) => stream.write(toTerminalText(chunk)),
    ...(typeof once === 'function' ? { once: (event: 'drain', listener: () => void) => once.call(stream, event, listener) } : {}),
  };
}
