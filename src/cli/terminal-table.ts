/**
 * A report table as text for a terminal: aligned columns, values rounded as the workbook's number
 * formats round them, `-` for missing cells, a blank line between the blocks of a matrix (one per
 * metric) and, when asked, the workbook's colour scales as cell backgrounds.
 */
import { cellColours } from '../report/cell-colours.js';
import { formatCell } from '../report/format-cell.js';
import type { ReportTable } from '../report/report-spec.js';
import { sgr, type Control } from './io.js';

/** How to colour: not at all, with 24-bit colours, or with the 256-colour palette. */
export type ColourMode = false | 'truecolor' | '256';

/**
 * Colour when stdout is a terminal (or `FORCE_COLOR` is set) and `NO_COLOR` is not
 * (https://no-color.org: any non-empty value), in 24-bit where `COLORTERM` says the terminal has it.
 */
export function colourModeOf(stdout: { isTTY?: boolean | undefined }, env: Readonly<Record<string, string | undefined>>): ColourMode {
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  const forced = (env['FORCE_COLOR'] ?? '') !== '' && env['FORCE_COLOR'] !== '0';
  if (!forced && (stdout.isTTY !== true || env['TERM'] === 'dumb')) return false;
  return /truecolor|24bit/i.test(env['COLORTERM'] ?? '') ? 'truecolor' : '256';
}

const BOLD = (text: string): Part[] => [sgr(1), text, sgr(22)];
const DIM = (text: string): Part[] => [sgr(2), text, sgr(22)];

/** Background (and black text) of an RGB colour, in the terminal's colour mode. */
function paint(rgb: readonly number[], mode: Exclude<ColourMode, false>): Control[] {
  if (mode === 'truecolor') return [sgr(48, 2, ...rgb), sgr(38, 2, 0, 0, 0)];
  const [r, g, b] = rgb.map((x) => Math.round((x / 255) * 5)) as [number, number, number];
  return [sgr(48, 5, 16 + 36 * r + 6 * g + b), sgr(38, 5, 16)];
}

const isNumeric = (format: string) => !['text', 'bool', 'date'].includes(format);

type Part = string | Control;

/**
 * The table as lines of text (ending with a newline), with its colours as `Control`s beside the
 * text (written through the command line's terminal sink).
 *
 * @example
 * io.stdout.write(toTerminalTable(comparison.table, { colour: colourModeOf(io.stdout, io.env) }));
 */
export function toTerminalTable(table: ReportTable, options: { colour: ColourMode }): Part[] {
  const { colour } = options;
  const text = table.rows.map((row) => table.columns.map((column, c) => formatCell(row[c] ?? null, column.format, { missing: '-' })));
  const widths = table.columns.map((column, c) => Math.max(column.header.length, ...text.map((row) => row[c]!.length)));
  const right = table.columns.map((column) => isNumeric(column.format));
  const align = (value: string, c: number) => (right[c] ? value.padStart(widths[c]!) : value.padEnd(widths[c]!));
  const colours = colour ? cellColours(table) : undefined;
  const blockStarts = new Set(table.colourScales.map((s) => s.fromRow).filter((r) => r > 0));
  const focusRows = new Set(table.emphasis ?? []);
  const last = table.columns.length - 1;
  // Trailing spaces of a left-aligned last column are dropped: they would only wrap narrow terminals.
  const line = (cells: Part[][]): Part[] => {
    const parts = cells.flatMap((cell, i) => (i === 0 ? cell : ['  ', ...cell]));
    const end = parts[parts.length - 1];
    if (typeof end === 'string') parts[parts.length - 1] = end.replace(/\s+$/, '');
    return parts;
  };

  const header = table.columns.map((column, c) => align(column.header, c)).join('  ').replace(/\s+$/, '');
  const out: Part[][] = [colour ? BOLD(header) : [header], line(widths.map((w) => ['-'.repeat(w)]))];
  text.forEach((row, r) => {
    if (blockStarts.has(r)) out.push([]);
    // The focus brand's rows in bold (with colours on; plain text has no bold).
    const bold = focusRows.has(r);
    const cells = row.map((value, c): Part[] => {
      const padded = c === last && !right[c] ? value : align(value, c);
      if (!colour) return [padded];
      const rgb = colours?.get(`${r}:${c}`);
      if (rgb) return [...paint(rgb, colour), ...(bold ? [sgr(1)] : []), padded, sgr(0)];
      if ((table.rows[r]?.[c] ?? null) === null && c >= table.keyColumns) return DIM(padded);
      return bold ? BOLD(padded) : [padded];
    });
    out.push(line(cells));
  });
  return [...out.flatMap((parts, i) => (i === 0 ? parts : ['\n', ...parts])), '\n'];
}
