/**
 * How report cells are shown: the Excel number format of each `CellFormat` (cells keep full
 * precision; the format rounds) and the same rounding as text for HTML and the terminal, so a
 * value reads the same everywhere.
 */
import type { CellFormat, ReportCell } from './report-spec.js';

/** Decimals shown per format (the service's precision: ranks whole, percentages one decimal, ...). */
function decimalsOf(format: CellFormat): number | undefined {
  const base = format.startsWith('change-') ? format.slice('change-'.length) : format;
  switch (base) {
    case 'rank':
    case 'integer':
    case 'value':
    case 'money':
      return 0;
    case 'pct':
    case 'brandscape_index':
    case 'category_index':
      return 1;
    case 'c':
    case 'number':
      return 2;
    default:
      return undefined;
  }
}

const grouped = (format: CellFormat) => /value|money|number/.test(format);

/**
 * The Excel number format of a column format, e.g. `0` for ranks, `+0.0;-0.0;0.0` for changes of
 * percentages; undefined for text and general cells.
 *
 * @example
 * excelNumberFormat('c') // '0.00'
 */
export function excelNumberFormat(format: CellFormat): string | undefined {
  if (format === 'general') return 'General';
  if (format === 'integer') return '0';
  const decimals = decimalsOf(format);
  if (decimals === undefined) return undefined;
  const body = `${grouped(format) ? '#,##0' : '0'}${decimals > 0 ? `.${'0'.repeat(decimals)}` : ''}`;
  return format.startsWith('change-') ? `+${body};-${body};${body}` : body;
}

export interface FormatCellOptions {
  /** Text for a missing value (default `–`). */
  missing?: string;
  /** The minus sign (default `-`; the HTML report uses the typographic `−`). */
  minus?: string;
}

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(decimals: number, group: boolean): Intl.NumberFormat {
  const key = `${decimals}:${group}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: group })));
  return f;
}

/**
 * A cell as text, rounded as its format says (`71.2999` as a rank is `71`; `3.0999999999999996`
 * as a percentage `3.1`).
 *
 * @example
 * formatCell(0.4567, 'c') // '0.46'
 * formatCell(-3.25, 'change-pct') // '-3.3' (half away from zero, as Excel rounds)
 * formatCell(null, 'rank') // '–'
 */
export function formatCell(value: ReportCell, format: CellFormat, options: FormatCellOptions = {}): string {
  const missing = options.missing ?? '–';
  if (value === null) return missing;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return missing;
  const decimals = decimalsOf(format);
  let text: string;
  if (decimals === undefined) {
    // General: up to 10 significant digits, as a spreadsheet shows a General cell.
    text = Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  } else {
    // Rounded half away from zero first (as Excel does), then printed.
    const factor = 10 ** decimals;
    const rounded = Math.sign(value) * Math.round(Math.abs(value) * factor + 1e-9) / factor;
    // Without thousands separators toFixed prints the same digits; an Intl formatter is costly to
    // create the first time (ICU), which a short command such as `brandscape compare` notices.
    text = grouped(format) ? numberFormat(decimals, true).format(Math.abs(rounded)) : Math.abs(rounded).toFixed(decimals);
    const negative = rounded < 0;
    const sign = negative ? (options.minus ?? '-') : format.startsWith('change-') && rounded > 0 ? '+' : '';
    text = `${sign}${text}`;
  }
  return text;
}
