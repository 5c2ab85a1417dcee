/**
 * A report table as text for a terminal: aligned columns, values rounded as the workbook's number
 * formats round them, `-` for missing cells, a blank line between the blocks of a matrix (one per
 * metric) and, when asked, the workbook's colour scales as cell backgrounds.
 */
import { cellColours, formatCell, type ReportTable } from '../report/compare-entry.js';

/** How to colour: not at all, with 24-bit colours, or with the 256-colour palette. */
export type ColourMode = false | 'truecolor' | '256';

/**
 * Colour when stdout is a terminal (or `FORCE_COLOR` is set) and `NO_COLOR` is not
 * (https://no-color.org: any non-empty value), in 24-bit where `COLORTERM` says the terminal has it.
 */
export function colourModeOf(stdout: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): ColourMode {
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  const forced = (env['FORCE_COLOR'] ?? '') !== '' && env['FORCE_COLOR'] !== '0';
  if (!forced && (stdout.isTTY !== true || env['TERM'] === 'dumb')) return false;
  return /truecolor|24bit/i.test(env['COLORTERM'] ?? '') ? 'truecolor' : '256';
}

const ESC = '\u001b[';
const BOLD = (text: string) => `${ESC}1m${text}${ESC}22m`;
const DIM = (text: string) => `${ESC}2m${text}${ESC}22m`;

/** Background (and black text) of an RGB colour, in the terminal's colour mode. */
function paint(rgb: readonly number[], mode: Exclude<ColourMode, false>): string {
  if (mode === 'truecolor') return `${ESC}48;2;${rgb.join(';')}m${ESC}38;2;0;0;0m`;
  const [r, g, b] = rgb.map((x) => Math.round((x / 255) * 5)) as [number, number, number];
  return `${ESC}48;5;${16 + 36 * r + 6 * g + b}m${ESC}38;5;16m`;
}

const isNumeric = (format: string) => !['text', 'bool', 'date'].includes(format);

/**
 * The table as lines of text (ending with a newline).
 *
 * @example
 * process.stdout.write(toTerminalTable(comparison.table, { colour: colourModeOf(process.stdout, process.env) }));
 */
export function toTerminalTable(table: ReportTable, options: { colour: ColourMode }): string {
  const { colour } = options;
  const text = table.rows.map((row) => table.columns.map((column, c) => formatCell(row[c] ?? null, column.format, { missing: '-' })));
  const widths = table.columns.map((column, c) => Math.max(column.header.length, ...text.map((row) => row[c]!.length)));
  const right = table.columns.map((column) => isNumeric(column.format));
  const align = (value: string, c: number) => (right[c] ? value.padStart(widths[c]!) : value.padEnd(widths[c]!));
  const colours = colour ? cellColours(table) : undefined;
  const blockStarts = new Set(table.colourScales.map((s) => s.fromRow).filter((r) => r > 0));
  const last = table.columns.length - 1;
  // Trailing spaces of a left-aligned last column are dropped: they would only wrap narrow terminals.
  const line = (cells: string[]) => cells.join('  ').replace(/\s+$/, '');

  const header = line(table.columns.map((column, c) => align(column.header, c)));
  const out = [colour ? BOLD(header) : header, line(widths.map((w) => '-'.repeat(w)))];
  text.forEach((row, r) => {
    if (blockStarts.has(r)) out.push('');
    const cells = row.map((value, c) => {
      const padded = c === last && !right[c] ? value : align(value, c);
      if (!colour) return padded;
      const rgb = colours?.get(`${r}:${c}`);
      if (rgb) return `${paint(rgb, colour)}${padded}${ESC}0m`;
      return (table.rows[r]?.[c] ?? null) === null && c >= table.keyColumns ? DIM(padded) : padded;
    });
    out.push(line(cells));
  });
  return `${out.join('\n')}\n`;
}
