/**
 * A report table as a compact Markdown table: what an assistant reads and can quote back to its
 * user. Numbers are rounded as the table's formats say (ranks whole, construct scores to two
 * decimals); full precision stays in the structured rows.
 */
import { formatCell } from '../report/format-cell.js';
import type { ReportTable } from '../report/report-spec.js';

/** Pipes inside a cell would end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/**
 * The table as Markdown, at most `maxChars` long: rows that do not fit are left out, and the
 * returned `omitted` says how many.
 */
export function toMarkdownTable(table: ReportTable, maxChars: number): { text: string; omitted: number } {
  const header = `| ${table.columns.map((c) => cell(c.header)).join(' | ')} |\n|${table.columns.map((c) => (c.format === 'text' ? ' --- ' : ' ---: ')).join('|')}|\n`;
  let text = header;
  let kept = 0;
  // The focus brand's rows in bold, as in the report's tables.
  const bold = new Set(table.emphasis ?? []);
  for (const [r, row] of table.rows.entries()) {
    const texts = row.map((v, i) => cell(formatCell(v, table.columns[i]?.format ?? 'text', { missing: '-' })));
    const line = `| ${(bold.has(r) ? texts.map((t) => (t === '-' ? t : `**${t}**`)) : texts).join(' | ')} |\n`;
    if (text.length + line.length > maxChars) break;
    text += line;
    kept += 1;
  }
  return { text, omitted: table.rows.length - kept };
}
