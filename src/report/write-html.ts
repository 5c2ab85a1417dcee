/**
 * The HTML writer: the report as one self-contained file (inline CSS and SVG charts, nothing
 * fetched from elsewhere; a Content-Security-Policy says so), readable offline and in any browser.
 */
import { writeFile } from 'node:fs/promises';
import { writeFileAtomically } from '../io/atomic-file.js';
import { cellColours } from './cell-colours.js';
import { fitChart } from './fit-chart.js';
import { formatCell } from './format-cell.js';
import type { ReportSpec, ReportTable } from './report-spec.js';
import { toXmlSafeSpec } from './xml-text.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text safe inside HTML elements and attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const isNumeric = (format: string) => !['text', 'bool', 'date'].includes(format);

function tableHtml(table: ReportTable, caption?: string): string {
  if (table.rows.length === 0) return '<p class="empty">No data.</p>';
  const colours = cellColours(table);
  // Only columns with long texts wrap; short labels stay on one line.
  const wraps = table.columns.map((column, c) => column.format === 'text' && c >= table.keyColumns && table.rows.some((row) => typeof row[c] === 'string' && (row[c]).length > 40));
  // A line above each block of a matrix (each metric's rows), so the blocks read apart.
  const blockStarts = new Set(table.colourScales.map((s) => s.fromRow).filter((r) => r > 0));
  // The focus brand's rows in bold, as the chart outlines its cells or thickens its line.
  const focusRows = new Set(table.emphasis ?? []);
  const head = table.columns.map((c, i) => `<th scope="col"${isNumeric(c.format) ? ' class="num"' : ''}${i < table.keyColumns ? ' data-key' : ''}>${escapeHtml(c.header)}</th>`).join('');
  const body = table.rows
    .map((row, r) => {
      const cells = table.columns.map((column, c) => {
        const value = row[c] ?? null;
        const text = escapeHtml(formatCell(value, column.format, { minus: '−' }));
        const rgb = colours.get(`${r}:${c}`);
        const colour = rgb && `#${rgb.map((x) => x.toString(16).padStart(2, '0')).join('')}`;
        const cls = [isNumeric(column.format) ? 'num' : wraps[c] ? 'wrap' : '', value === null ? 'missing' : ''].filter(Boolean).join(' ');
        const attrs = `${cls ? ` class="${cls}"` : ''}${colour ? ` style="background:${colour}"` : ''}${typeof value === 'number' ? ` title="${escapeHtml(String(value))}"` : ''}`;
        return c < table.keyColumns ? `<th scope="row"${attrs}>${text}</th>` : `<td${attrs}>${text}</td>`;
      });
      const classes = [blockStarts.has(r) ? 'block-start' : '', focusRows.has(r) ? 'focus' : ''].filter(Boolean).join(' ');
      return `<tr${classes ? ` class="${classes}"` : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="table-wrap"><table>${caption ? `<caption>${escapeHtml(caption)}</caption>` : ''}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const notesHtml = (notes: readonly string[]) => (notes.length === 0 ? '' : `<ul class="notes">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`);

const STYLE = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5f6368; --line: #dadce0; --accent: #0072b2; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", "Segoe UI", system-ui, -apple-system, sans-serif; color: var(--ink); background: #fff; }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 28px; border-bottom: 3px solid var(--accent); padding-bottom: 12px; }
h1 { font-size: 26px; margin: 0 0 6px; }
h2 { font-size: 20px; margin: 36px 0 4px; padding-top: 8px; border-top: 1px solid var(--line); }
.sub, .summary, .meta { color: var(--muted); margin: 2px 0; }
nav ol { columns: 2; padding-left: 20px; margin: 12px 0 0; }
nav a, a { color: var(--accent); }
figure { margin: 16px 0; overflow-x: auto; }
figure svg { display: block; max-width: 100%; height: auto; }
.table-wrap { overflow-x: auto; margin: 12px 0; }
table { border-collapse: collapse; font-size: 13px; }
caption { text-align: left; font-weight: bold; padding: 4px 0; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
thead th { background: #e8f0f8; border-bottom: 2px solid #9bb8d3; position: sticky; top: 0; }
tbody th { font-weight: normal; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.wrap { white-space: normal; min-width: 16em; max-width: 40em; }
tr.block-start > * { border-top: 2px solid #9bb8d3; }
tr.focus > * { font-weight: bold; }
.missing { color: #9aa0a6; }
.notes { color: var(--muted); font-size: 13px; padding-left: 20px; }
.empty { color: var(--muted); font-style: italic; }
.no-chart { color: var(--muted); font-style: italic; margin: 16px 0; padding: 12px 16px; border-left: 3px solid var(--line); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dt { font-weight: bold; }
dd { margin: 0; }
footer { color: var(--muted); font-size: 12px; padding: 24px; border-top: 1px solid var(--line); margin-top: 36px; }
@media print { nav { display: none; } h2 { break-before: page; } }
`;

/**
 * The report as one HTML document, with each section's chart as inline SVG.
 *
 * @example
 * const html = await toHtml(spec);
 */
export async function toHtml(given: ReportSpec): Promise<string> {
  // Every text of the page, once, where it is made: the inline SVG is XML, and neither it nor HTML
  // can carry some characters (xml-text.ts). The tidy rows are not on the page.
  const spec = toXmlSafeSpec(given, { data: false });
  // Each chart widened to the content width (fit-chart.ts), its text as large as the tables'.
  const svgs = await Promise.all(spec.sections.map((s) => (s.chart ? fitChart(s.chart) : Promise.resolve(undefined))));
  const sections = spec.sections
    .map((s, i) => {
      const svg = svgs[i];
      return `<section id="section-${s.index}">
<h2>${s.index}. ${escapeHtml(s.title)}</h2>
<p class="summary">${escapeHtml(s.description ?? s.summary)}</p>
${svg ? `<figure role="img" aria-label="${escapeHtml(s.title)}">${svg}</figure>` : s.noChart ? `<p class="no-chart">${escapeHtml(s.noChart)}</p>` : ''}
${tableHtml(s.table)}
${notesHtml(s.notes.filter((n) => n !== s.noChart))}
</section>`;
    })
    .join('\n');
  const about = spec.about.items.map((item) => `<dt>${escapeHtml(item.label)}</dt><dd>${escapeHtml(item.value)}</dd>`).join('');
  const dataRows = spec.data.rows.length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="brandscape-kit">
<title>${escapeHtml(spec.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(spec.title)}</h1>
${spec.description ? `<p class="sub">${escapeHtml(spec.description)}</p>` : ''}
<p class="meta">Generated ${escapeHtml(spec.generatedAt)} ${spec.madeBy === undefined ? `from template ${escapeHtml(spec.template)}` : `by ${escapeHtml(spec.madeBy)}`}.</p>
<nav aria-label="Sections"><ol>${spec.sections.map((s) => `<li><a href="#section-${s.index}">${escapeHtml(s.title)}</a></li>`).join('')}<li><a href="#about">About this report</a></li></ol></nav>
</header>
<main>
${sections}
<section id="about">
<h2>About this report</h2>
<dl>${about}</dl>
${tableHtml(spec.about.parameters, 'Parameters')}
${tableHtml(spec.about.queries, 'Queries')}
<h3>How to read the numbers</h3>
${notesHtml(spec.notes)}
${dataRows === 0 ? '' : `<p class="meta">The tidy data behind these numbers has ${dataRows.toLocaleString('en-US')} rows (study × audience × brand × category × metric column); the workbook carries them in its Data sheet.</p>`}
</section>
</main>
<footer>Made with brandscape-kit. Values are rounded for display; the workbook keeps full precision.</footer>
</body>
</html>
`;
}

/**
 * Writes the report as a self-contained HTML file, atomically.
 *
 * @example
 * await writeHtml(spec, 'reports/brand-health-2024.html');
 */
export async function writeHtml(spec: ReportSpec, path: string): Promise<void> {
  await writeFileAtomically(path, (temp) => writeHtmlFile(spec, temp));
}

/** Writes the HTML straight to `file` (callers make it atomic: `writeHtml`, `runReport`). */
export async function writeHtmlFile(spec: ReportSpec, file: string): Promise<void> {
  await writeFile(file, await toHtml(spec), 'utf8');
}
