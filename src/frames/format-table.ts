/**
 * A table as aligned text, for a terminal, a log or a notebook's text output (`toString()`,
 * `print()`): a title line (what made the table, its size), the column names, their kinds, a rule,
 * then the head and the tail of the rows around a "… N more rows" line. Only the shown rows are
 * read (through a lazy table's selection), so printing a million rows costs what printing ten does.
 */
import type { TableScan } from './selection.js';
import {
  DEFAULT_COLUMN_WIDTH,
  DEFAULT_DECIMALS,
  DEFAULT_WIDTH,
  MISSING,
  cellTexts,
  countText,
  displayWidth,
  isNumeric,
  pad,
  shownColumns,
  shownRows,
  sourceRowsOf,
  truncate,
  type TableFormatOptions,
} from './display-cells.js';

/**
 * The table as aligned text.
 *
 * @example
 * formatTable(scanOf(table), table.meta.source)
 * // toTable: 6 rows × 3 columns
 * // id  market  score
 * // int  string  float
 * // ...
 */
export function formatTable(scan: TableScan, source: string, options: TableFormatOptions = {}): string {
  const columnWidth = Math.max(2, options.columnWidth ?? DEFAULT_COLUMN_WIDTH);
  const shown = shownRows(scan.length, options.rows);
  const positions = [...shown.head, ...shown.tail];
  const at = sourceRowsOf(scan, positions);
  const columns = scan.names.map((name) => {
    const column = scan.column(name)!;
    const texts = cellTexts(column, at, options.decimals ?? DEFAULT_DECIMALS).map((t) => truncate(t ?? MISSING, columnWidth));
    const title = truncate(name, columnWidth);
    const width = Math.max(displayWidth(title), column.kind.length, ...texts.map(displayWidth));
    return { title, kind: column.kind, texts, width, right: isNumeric(column.kind) };
  });
  const order = shownColumns(
    columns.map((c) => c.width),
    Math.max(1, options.width ?? DEFAULT_WIDTH),
    options.columns ?? Number.POSITIVE_INFINITY,
  );
  const visibleCount = order.filter((c) => c !== null).length;
  const size = `${countText(scan.length)} ${scan.length === 1 ? 'row' : 'rows'} × ${countText(scan.names.length)} ${scan.names.length === 1 ? 'column' : 'columns'}`;
  const lines = [`${source}: ${size}${visibleCount < columns.length ? ` (${visibleCount} shown)` : ''}`];
  if (columns.length === 0) return lines.join('\n');
  const line = (cell: (c: (typeof columns)[number]) => string) =>
    order
      .map((i) => (i === null ? '…' : pad(cell(columns[i]!), columns[i]!.width, columns[i]!.right)))
      .join('  ')
      .trimEnd();
  lines.push(line((c) => c.title), line((c) => c.kind), line((c) => '─'.repeat(c.width)));
  const row = (k: number) => line((c) => c.texts[k]!);
  shown.head.forEach((_, k) => lines.push(row(k)));
  if (shown.hidden > 0) lines.push(`… ${countText(shown.hidden)} more ${shown.hidden === 1 ? 'row' : 'rows'}`);
  shown.tail.forEach((_, k) => lines.push(row(shown.head.length + k)));
  return lines.join('\n');
}
