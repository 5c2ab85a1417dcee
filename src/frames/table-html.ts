/**
 * A table as a compact HTML table, for a notebook output (`toHtml()`, `display(table)`): the head
 * and the tail of the rows, column kinds under the names, numbers right-aligned and rounded for
 * display, missing values greyed, long text cut (the whole value in its tooltip). Every text is
 * escaped. The styles are scoped to the output's own class, so they do not leak into the notebook.
 */
import type { TableScan } from './selection.js';
import {
  DEFAULT_COLUMN_WIDTH,
  DEFAULT_DECIMALS,
  MISSING,
  cellTexts,
  countText,
  isNumeric,
  shownColumns,
  shownRows,
  sourceRowsOf,
  truncate,
  type TableFormatOptions,
} from './display-cells.js';

/** Columns an HTML table shows at most by default: a notebook scrolls sideways, but not forever. */
const DEFAULT_HTML_COLUMNS = 20;

/** Longest tooltip kept for a cut text. */
const MAX_TOOLTIP = 500;

const STYLE = [
  '.bk-table table{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums;margin:0}',
  '.bk-table caption{caption-side:top;text-align:left;color:#666;padding:2px 0 4px}',
  '.bk-table th,.bk-table td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:left;white-space:nowrap;vertical-align:bottom}',
  '.bk-table th{border-bottom:1px solid #999}',
  '.bk-table .num{text-align:right}',
  '.bk-table .kind{display:block;font-weight:normal;color:#888;font-size:10px}',
  '.bk-table .null{color:#aaa;font-style:italic}',
  '.bk-table .more td{color:#888;font-style:italic;text-align:left}',
].join('');

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example escapeHtml('<b> & "x"') // '&lt;b&gt; &amp; &quot;x&quot;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/**
 * The table as an HTML fragment: a `<div class="bk-table">` holding its style and the table.
 *
 * @example tableHtml(scanOf(table), table.meta.source) // '<div class="bk-table"><style>...</style><table>...'
 */
export function tableHtml(scan: TableScan, source: string, options: TableFormatOptions = {}): string {
  const columnWidth = Math.max(2, options.columnWidth ?? DEFAULT_COLUMN_WIDTH);
  const shown = shownRows(scan.length, options.rows);
  const at = sourceRowsOf(scan, [...shown.head, ...shown.tail]);
  const columns = scan.names.map((name) => {
    const column = scan.column(name)!;
    return { name, kind: column.kind, texts: cellTexts(column, at, options.decimals ?? DEFAULT_DECIMALS), num: isNumeric(column.kind) };
  });
  // Every column counts as one: HTML cells size themselves, only their number is bounded.
  const order = shownColumns(
    columns.map(() => 1),
    Number.POSITIVE_INFINITY,
    options.columns ?? DEFAULT_HTML_COLUMNS,
  );
  const shownCount = order.filter((c) => c !== null).length;
  const cell = (text: string | null, num: boolean) => {
    if (text === null) return `<td class="null${num ? ' num' : ''}">${MISSING}</td>`;
    const cut = truncate(text, columnWidth);
    const title = cut === text ? '' : ` title="${escapeHtml(text.slice(0, MAX_TOOLTIP))}"`;
    return `<td${num ? ' class="num"' : ''}${title}>${escapeHtml(cut)}</td>`;
  };
  const header = order
    .map((i) => {
      if (i === null) return '<th>…</th>';
      const c = columns[i]!;
      const cut = truncate(c.name, columnWidth);
      const title = cut === c.name ? '' : ` title="${escapeHtml(c.name)}"`;
      return `<th${c.num ? ' class="num"' : ''}${title}>${escapeHtml(cut)}<span class="kind">${c.kind}</span></th>`;
    })
    .join('');
  const row = (k: number) => `<tr>${order.map((i) => (i === null ? '<td>…</td>' : cell(columns[i]!.texts[k]!, columns[i]!.num))).join('')}</tr>`;
  const body: string[] = shown.head.map((_, k) => row(k));
  if (shown.hidden > 0) body.push(`<tr class="more"><td colspan="${order.length}">… ${countText(shown.hidden)} more ${shown.hidden === 1 ? 'row' : 'rows'}</td></tr>`);
  shown.tail.forEach((_, k) => body.push(row(shown.head.length + k)));
  const size = `${countText(scan.length)} ${scan.length === 1 ? 'row' : 'rows'} × ${countText(columns.length)} ${columns.length === 1 ? 'column' : 'columns'}`;
  const caption = `${escapeHtml(source)}: ${size}${shownCount < columns.length ? ` (${shownCount} shown)` : ''}`;
  return `<div class="bk-table"><style>${STYLE}</style><table><caption>${caption}</caption><thead><tr>${header}</tr></thead><tbody>${body.join('')}</tbody></table></div>`;
}
