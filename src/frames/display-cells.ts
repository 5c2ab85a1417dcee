/**
 * What `toString()`, `print()` and `toHtml()` share: which rows and columns of a table are shown,
 * and each shown cell as display text. Values are rounded for display only (the table keeps full
 * precision); text is cut to a column width measured in terminal cells, so wide (East Asian)
 * characters and emoji count twice and combining marks not at all.
 */
import { BOOL_NULL, INT_NULL, type ColumnKind, type FrameColumn } from './column.js';
import type { TableScan } from './selection.js';

/**
 * How a table is shown by `toString()`, `print()`, `toHtml()` and `display()`.
 *
 * @example
 * table.toString({ rows: 20, width: 160, decimals: 1 });
 */
export interface TableFormatOptions {
  /** Rows shown at most (default 10): a longer table shows its first and last rows around a "… N more rows" line. */
  rows?: number;
  /** Columns shown at most (default: text, as many as fit in `width`; HTML, 20): the first and the last, around a "…" column. */
  columns?: number;
  /** Characters a line of text may take (default 100); ignored by HTML. */
  width?: number;
  /** Characters a column may take (default 30): longer text ends in "…". */
  columnWidth?: number;
  /** Decimals shown at most for fractional numbers (default 3); a column shows as many as its shown values need. */
  decimals?: number;
}

export const DEFAULT_ROWS = 10;
export const DEFAULT_WIDTH = 100;
export const DEFAULT_COLUMN_WIDTH = 30;
export const DEFAULT_DECIMALS = 3;

/** The shown rows of a table: its head and its tail, and how many rows lie between them. */
export interface ShownRows {
  /** Row positions of the head, then of the tail. */
  readonly head: readonly number[];
  readonly tail: readonly number[];
  /** Rows not shown, between head and tail (0: the whole table is shown). */
  readonly hidden: number;
}

/**
 * The head and tail of a table of `length` rows when at most `max` are shown.
 *
 * @example shownRows(1000, 10) // { head: [0, 1, 2, 3, 4], tail: [995, ..., 999], hidden: 990 }
 */
export function shownRows(length: number, max: number = DEFAULT_ROWS): ShownRows {
  const limit = Math.max(0, Math.floor(max));
  if (length <= limit) return { head: range(0, length), tail: [], hidden: 0 };
  const first = Math.ceil(limit / 2);
  const last = limit - first;
  return { head: range(0, first), tail: range(length - last, length), hidden: length - limit };
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/**
 * Which columns are shown: all of them when they fit, else the first and the last ones that do,
 * alternately from each side (`null` marks where the hidden ones are).
 *
 * @example shownColumns([10, 10, 10, 10], 25, 2) // [0, null, 3]: two columns of 10 fit with their gap and the "…"
 */
export function shownColumns(widths: readonly number[], width: number, max: number): (number | null)[] {
  const all = widths.map((_, i) => i);
  const total = widths.reduce((sum, w) => sum + w, 0) + 2 * Math.max(0, widths.length - 1);
  if (widths.length <= max && total <= width) return all;
  const left: number[] = [];
  const right: number[] = [];
  // The "…" column and its gap take 3 characters.
  let used = 1;
  for (let l = 0, r = widths.length - 1, fromLeft = true; l <= r && left.length + right.length < max; fromLeft = !fromLeft) {
    const next = fromLeft ? l : r;
    const cost = widths[next]! + 2;
    // The first column is always shown, even when it alone is wider than the line.
    if (used + cost > width && left.length + right.length > 0) break;
    used += cost;
    if (fromLeft) left.push(l++);
    else right.unshift(r--);
  }
  return [...left, null, ...right];
}

/** Thousands separated by commas, whatever the locale: `1,000,000`. */
export function countText(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Whether a column's values are shown right-aligned (numbers). */
export const isNumeric = (kind: ColumnKind): boolean => kind === 'int' || kind === 'float';

/** Text shown for a missing value. */
export const MISSING = 'null';

/**
 * The display text of a column's values at the given source rows (`null` for a missing value):
 * numbers with the decimals the shown values need (at most `decimals`), dates as a day when every
 * shown one is midnight UTC, text with control characters made visible.
 *
 * @example cellTexts({ kind: 'float', values: Float64Array.of(1.5, 2, NaN) }, [0, 1, 2], 3) // ['1.5', '2.0', null]
 */
export function cellTexts(column: FrameColumn, rows: readonly number[], decimals: number = DEFAULT_DECIMALS): (string | null)[] {
  switch (column.kind) {
    case 'int':
      return rows.map((r) => (column.values[r] === INT_NULL ? null : String(column.values[r]!)));
    case 'bool':
      return rows.map((r) => (column.values[r] === BOOL_NULL ? null : column.values[r] === 1 ? 'true' : 'false'));
    case 'string':
      return rows.map((r) => {
        const code = column.codes[r]!;
        return code < 0 ? null : visible(column.dictionary[code] ?? '');
      });
    case 'float': {
      const shown = rows.map((r) => column.values[r]!);
      const places = Math.max(0, ...shown.map((v) => placesOf(v, decimals)));
      return shown.map((v) => (v !== v ? null : Number.isFinite(v) ? fixed(v, places) : v > 0 ? 'inf' : '-inf'));
    }
    case 'date': {
      const shown = rows.map((r) => column.values[r]!);
      const days = shown.every((v) => v !== v || v % 86_400_000 === 0);
      return shown.map((v) => (v !== v ? null : dateText(v, days)));
    }
  }
}

/** Decimals a value needs to be shown exactly, at most `max`. */
function placesOf(v: number, max: number): number {
  if (!Number.isFinite(v) || Math.abs(v) >= 1e15) return 0;
  for (let d = 0; d < max; d++) if (Number(v.toFixed(d)) === v) return d;
  return max;
}

/** A number with `places` decimals; a huge one, or a tiny one that would show as 0, in exponent form. */
function fixed(v: number, places: number): string {
  const size = Math.abs(v);
  if (size >= 1e15) return v.toExponential(3);
  const text = v.toFixed(places);
  return size > 0 && Number(text) === 0 ? v.toExponential(2) : text;
}

/** A date as `2024-03-01`, or `2024-03-01 12:30:00` (UTC, `.250` when it has milliseconds). */
function dateText(ms: number, dayOnly: boolean): string {
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime())) return String(ms);
  const iso = date.toISOString();
  if (dayOnly) return iso.slice(0, 10);
  return `${iso.slice(0, 10)} ${iso.slice(11, ms % 1000 === 0 ? 19 : 23)}`;
}

/** Text with control characters shown as escapes, so that a value stays on its line. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * The width of a text in terminal cells: East Asian wide and fullwidth characters and emoji take
 * two, combining marks and zero-width characters none.
 *
 * @example displayWidth('Müller') // 6; displayWidth('日本') // 4
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char.codePointAt(0)!);
  return width;
}

function charWidth(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0x20e3) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/**
 * A text cut to `width` terminal cells, ending in "…" when it was longer.
 *
 * @example truncate('Procter & Gamble', 8) // 'Procter…'
 */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` cells, on the left (numbers) or the right. */
export function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

/** The source rows of the shown positions of a scan. */
export function sourceRowsOf(scan: TableScan, positions: readonly number[]): number[] {
  const rows = scan.rows;
  return rows ? positions.map((p) => rows[p]!) : [...positions];
}
