/**
 * What every tool of `brandscape mcp` answers with, and how it stays within what assistants accept:
 * Claude Code refuses a tool result over 25,000 tokens, and an assistant that is handed a huge
 * result has no room left to think. Every answer is bounded here by its characters (JSON takes
 * about one token per 2.5-4 characters): rows are cut to fit, and the answer says how many there
 * were, that more exist (`hasMore`) and how to narrow the question.
 *
 * Errors are answers too (`isError`), carrying the toolkit's own message (the nearest brand names,
 * the valid years, ...), never a protocol error or a stack trace, and never a token.
 */
import { BrandscapeError, UsageError, redact, type OptionNamer } from '../errors.js';

/** The most characters of JSON one answer carries in its structured content (its text is at most as long). */
export const MAX_ANSWER_CHARS = 24_000;

/** A block of a tool's answer, as the MCP SDK takes it. */
export type ContentBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tool's answer, as the MCP SDK takes it. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Rows cut to a character budget: the rows kept, the total, and whether there are more. */
export interface BoundedRows<R> {
  rows: R[];
  total: number;
  hasMore: boolean;
}

/**
 * The first rows whose JSON fits in `budget` characters (at most `limit` rows). `total` is how
 * many there are; `hasMore` whether any were left out.
 *
 * @example
 * const { rows, hasMore } = boundRows(records, 12_000, 500);
 */
export function boundRows<R>(all: readonly R[], budget: number, limit = Number.POSITIVE_INFINITY, total = all.length): BoundedRows<R> {
  const rows: R[] = [];
  let used = 2;
  for (const row of all) {
    if (rows.length >= limit) break;
    const size = JSON.stringify(row).length + 1;
    if (used + size > budget) break;
    used += size;
    rows.push(row);
  }
  return { rows, total, hasMore: total > rows.length };
}

/** An answer whose structured content is `value` and whose text is the same JSON (for clients that read text only). */
export function jsonAnswer(value: Record<string, unknown>): ToolAnswer {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * The CLI names flags (`--markets`); an assistant calls tools with arguments: the same advice,
 * in the arguments' names (`markets`).
 */
export const toArgumentNames = (text: string): string => text.replace(/--([a-z][a-z-]*)/g, (_, flag: string) => flag.replace(/-/g, '_'));

/**
 * The tools' wording of options in library errors: their parameters (`metric_groups`, as the
 * tools' input schemas name them), with values as JSON where they are lists.
 *
 * @example
 * PARAMETER_NAMES({ option: 'metricGroups', value: ['pillars'] }); // 'metric_groups ["pillars"]'
 */
export const PARAMETER_NAMES: OptionNamer = ({ option, value }) => {
  const parameter = option.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return value === undefined ? parameter : `${parameter} ${typeof value === 'string' ? value : JSON.stringify(value)}`;
};

/** A tool error: the message an assistant can act on. */
export function errorAnswer(message: string): ToolAnswer {
  return { content: [{ type: 'text', text: redact(message) }], isError: true };
}

/**
 * A failure as a tool error: the toolkit's errors with their message (what happened and what to
 * do), anything else as an unexpected failure whose details go to the server's log only.
 */
export function fromError(error: unknown, log: (line: string) => void): ToolAnswer {
  if (error instanceof UsageError) return errorAnswer(toArgumentNames(error.wordedFor(PARAMETER_NAMES)));
  // Errors of other kinds may still name a flag in their advice (--timeout): said as an argument.
  if (error instanceof BrandscapeError) return errorAnswer(toArgumentNames(error.message));
  if (error instanceof Error && error.name === 'AbortError') return errorAnswer('The call was cancelled.');
  log(`unexpected error: ${redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}`);
  return errorAnswer(`The toolkit failed unexpectedly (${redact(error instanceof Error ? error.message : String(error))}). The server's log (stderr) has the details.`);
}
