/**
 * CSV text of a table (RFC 4180): a header line of the column names, then a line per row, fields
 * separated by commas and lines ended by CRLF. A field holding a comma, a double quote, CR or LF is
 * quoted, its quotes doubled; an empty text is `""`, so that it differs from a missing value, which
 * is an empty field. Numbers keep full precision (the shortest text that reads back as the same
 * double), dates are ISO 8601 UTC, booleans `true` / `false`.
 *
 * The text comes a block of rows at a time (`csvChunks`), so a file writer never holds it whole
 * (a JavaScript string stops at about 512 MB: a few million rows of forty columns). A lazy table is
 * read through its selection; text is quoted once per distinct value, not per row.
 */
import { BOOL_NULL, INT_NULL, type FrameColumn } from './column.js';
import type { TableScan } from './selection.js';

/** RFC 4180's line break. */
const EOL = '\r\n';

/** Rows per block of text. */
const ROWS_PER_CHUNK = 4096;

/**
 * A text field as CSV writes it.
 *
 * @example csvField('Procter & Gamble, Inc.') // '"Procter & Gamble, Inc."'
 */
export function csvField(text: string): string {
  if (text === '') return '""';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The CSV text of a table, a block of lines at a time: the header line first.
 *
 * @example [...csvChunks(scanOf(table))].join('') // 'id,market\r\n1,GB\r\n...'
 */
export function* csvChunks(scan: TableScan): Generator<string> {
  const fields = scan.names.map((name) => fieldsOf(scan.column(name)!));
  yield `${scan.names.map(csvField).join(',')}${EOL}`;
  const rows = scan.rows;
  for (let start = 0; start < scan.length; start += ROWS_PER_CHUNK) {
    const end = Math.min(scan.length, start + ROWS_PER_CHUNK);
    const lines = new Array<string>(end - start);
    for (let i = start; i < end; i++) {
      const at = rows ? rows[i]! : i;
      let line = '';
      for (let c = 0; c < fields.length; c++) line += c === 0 ? fields[c]!(at) : `,${fields[c]!(at)}`;
      lines[i - start] = line;
    }
    yield `${lines.join(EOL)}${EOL}`;
  }
}

/** The field text of a column's value at a source row (empty when missing). */
function fieldsOf(column: FrameColumn): (row: number) => string {
  switch (column.kind) {
    case 'float': {
      const values = column.values;
      return (row) => {
        const v = values[row]!;
        // String(-0) is "0": the sign is part of the value.
        return v !== v ? '' : v === 0 && 1 / v < 0 ? '-0' : String(v);
      };
    }
    case 'int': {
      const values = column.values;
      return (row) => (values[row] === INT_NULL ? '' : String(values[row]!));
    }
    case 'bool': {
      const values = column.values;
      return (row) => (values[row] === BOOL_NULL ? '' : values[row] === 1 ? 'true' : 'false');
    }
    case 'date': {
      const values = column.values;
      return (row) => {
        const v = values[row]!;
        if (v !== v) return '';
        const date = new Date(v);
        // Beyond the dates JavaScript can write (±275,760 years): the milliseconds themselves.
        return Number.isFinite(date.getTime()) ? date.toISOString() : String(v);
      };
    }
    case 'string': {
      const { codes, dictionary } = column;
      // Each distinct value quoted once, when first needed.
      const quoted = new Array<string | undefined>(dictionary.length);
      return (row) => {
        const c = codes[row]!;
        if (c < 0) return '';
        return (quoted[c] ??= csvField(dictionary[c]!));
      };
    }
  }
}
