/**
 * The workbook writer (DESIGN.md rule 5: with xlsx-data-sheet.ts, the only files that import
 * exceljs or a zip library): an About sheet, one sheet per section (an Excel table with number
 * formats, a frozen header, colour scales, the chart as an image beside the table) and a Data sheet
 * of tidy rows.
 *
 * exceljs builds the small sheets in memory (it has tables and images; its streaming writer has
 * neither), but takes minutes and gigabytes for a 100,000-row sheet (NOTES.md). So the Data sheet
 * is built by exceljs here as a placeholder (an Excel table of a header and one styled row,
 * frozen: styles, relationships, table part and content types all right), and xlsx-data-sheet.ts
 * replaces that sheet's XML part in the zip by one streamed row by row.
 *
 * Size: every Data cell keeps its `r` reference. The reference is optional (ECMA-376 Part 1,
 * section 18.3.1.4), and without it the sheet compresses to about a third, but exceljs's own reader (and
 * others: ClosedXML, EPPlus, older calamine) fail on a cell without one; a workbook is for any
 * reader. Integer columns carry no number format (General shows them whole), the Data sheet holds
 * only the template's sectors and companies, and zlib works at its default level 6, as xlsxwriter's.
 */
import { writeFile } from 'node:fs/promises';
import type { Font, Workbook, Worksheet } from 'exceljs';
import { renderPng } from '../charts/render.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import { SCALE_COLOURS, argbOf } from './cell-colours.js';
import { excelNumberFormat, formatCell } from './format-cell.js';
import type { ReportSection, ReportSpec, ReportTable } from './report-spec.js';
import { layOutChart, type SheetChart } from './xlsx-chart-layout.js';
import { toXmlSafeSpec } from './xml-text.js';
import { DATA_TABLE, columnLetter, writeWithDataSheet } from './xlsx-data-sheet.js';

export interface WriteXlsxOptions {
  /** Pixel density of the chart images (default 2: sharp on high-density screens and in print). */
  imageScale?: number;
  /** Compression of the Data sheet, 1 (fastest) to 9 (smallest). Default 6 (zlib's own default, as xlsxwriter's). */
  dataCompression?: number;
  /**
   * Which sheets besides the sections' (default both): `about: false, data: false` gives a workbook
   * of the section sheets alone, e.g. one table with its chart.
   */
  sheets?: { about?: boolean; data?: boolean };
}

const HEADER_ROW = 4;
/** Row height (points) of rows the charts span, and pixels per point. */
const ROW_POINTS = 15;
const PX_PER_POINT = 96 / 72;
const ROW_PIXELS = ROW_POINTS * PX_PER_POINT;
const EMU_PER_PX = 9525;
/** Pixels of a column `chars` wide, as Excel draws Calibri 11 (a column without a width: 8.43). */
const columnPixels = (chars: number) => Math.trunc(((256 * chars + Math.trunc(128 / 7)) / 256) * 7);
const DEFAULT_COLUMN_CHARS = 8.43;
/** Rows of a landscape A4 page, printed one page wide (about: the scale follows the sheet's width). */
const PRINTED_PAGE_ROWS = 34;

/** A worksheet name Excel accepts: at most 31 characters, none of `[]:*?/\`, unique. */
function sheetName(text: string, used: Set<string>): string {
  const clean = text.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim();
  // Cut at a word boundary with an ellipsis, so a long title reads as cut rather than misspelt.
  const cut = clean.length <= 31 ? clean : `${clean.slice(0, 30).replace(/[\s,.;–-]+\S*$/, '')}…`;
  const base = cut || 'Sheet';
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
  used.add(name.toLowerCase());
  return name;
}

/**
 * A cell font: Calibri 11 (the workbook's own), with what the cell adds. A font without its name
 * and size is drawn by other readers in their default face (LibreOffice: a serif), so a bold row
 * would change typeface.
 */
const font = (extra: Partial<Font>): Partial<Font> => ({ name: 'Calibri', family: 2, size: 11, ...extra });

/** How a table's columns are laid out: their widths in characters, which headers wrap onto two lines, and the table's width in pixels. */
interface ColumnLayout {
  widths: number[];
  wrapped: boolean[];
  pixels: number;
}

/**
 * Character widths of a table's columns, from their headers and formatted values (capped). A
 * header much longer than its values (`United Kingdom` over ranks) is set on two lines at a space,
 * so that a matrix is as narrow as its numbers and leaves room for its chart.
 */
function columnLayout(table: ReportTable, sample = 2000, wrap = true): ColumnLayout {
  const wrapped: boolean[] = [];
  const widths = table.columns.map((column, c) => {
    let values = 0;
    const n = Math.min(table.rows.length, sample);
    for (let r = 0; r < n; r++) values = Math.max(values, formatCell(table.rows[r]![c] ?? null, column.format).length);
    // The header shares its cell with the filter button (about two characters at its right).
    const oneLine = column.header.length + FILTER_BUTTON_CHARS;
    const twoLines = (wrap ? twoLineWidth(column.header) : Infinity) + FILTER_BUTTON_CHARS;
    const wraps = twoLines < oneLine && oneLine > values + 2;
    wrapped.push(wraps);
    return Math.min(Math.max(Math.max(values, wraps ? twoLines : oneLine) + 2, 8), 48);
  });
  return { widths, wrapped, pixels: widths.reduce((sum, chars) => sum + columnPixels(chars), 0) };
}

/** The longer line of a header broken at its most central space (Infinity for one word). */
function twoLineWidth(header: string): number {
  let best = Infinity;
  for (let i = header.indexOf(' '); i > 0; i = header.indexOf(' ', i + 1)) best = Math.min(best, Math.max(i, header.length - i - 1));
  return best;
}

/** Characters of a header cell that its filter button covers (16 px of Calibri 11's 7 px digits, rounded up). */
const FILTER_BUTTON_CHARS = 2;

/**
 * Writes a report table at `topRow` (1-based): an Excel table (named, banded, filter buttons) with
 * number formats and colour scales. Returns the row after the table.
 */
function writeTable(ws: Worksheet, table: ReportTable, topRow: number, name: string, layout = columnLayout(table)): number {
  const { widths, wrapped } = layout;
  widths.forEach((w, c) => {
    const column = ws.getColumn(c + 1);
    column.width = Math.max(column.width ?? 0, w);
  });
  if (table.rows.length === 0) {
    table.columns.forEach((column, c) => {
      const cell = ws.getCell(topRow, c + 1);
      cell.value = column.header;
      cell.font = font({ bold: true });
    });
    ws.getCell(topRow + 1, 1).value = 'No data.';
    return topRow + 2;
  }
  ws.addTable({
    name,
    ref: `A${topRow}`,
    headerRow: true,
    style: { theme: 'TableStyleMedium2', showRowStripes: true },
    columns: table.columns.map((c) => ({ name: c.header, filterButton: true })),
    // Text is text: exceljs writes strings as strings, never as formulas (a test checks `=` text).
    rows: table.rows.map((row) => row.map<string | number | boolean | null>((v) => (v === null ? null : v))),
  });
  // Headers on two lines: the row is as tall as two, every header sits on its bottom line.
  const twoLines = wrapped.some(Boolean);
  if (twoLines) ws.getRow(topRow).height = ROW_POINTS * 2;
  table.columns.forEach((column, c) => {
    // A number column's header sits over its numbers, which Excel aligns right: right-aligned too,
    // but indented clear of the filter button at the cell's right edge.
    const numeric = column.format !== 'text';
    if (numeric || twoLines) {
      ws.getCell(topRow, c + 1).alignment = {
        ...(numeric ? { horizontal: 'right' as const, indent: FILTER_BUTTON_CHARS } : {}),
        ...(twoLines ? { vertical: 'bottom' as const, wrapText: wrapped[c] === true } : {}),
      };
    }
    const format = excelNumberFormat(column.format);
    if (format === undefined) return;
    for (let r = 0; r < table.rows.length; r++) ws.getCell(topRow + 1 + r, c + 1).numFmt = format;
  });
  // The focus brand's rows in bold, as the chart outlines its cells or thickens its line.
  for (const r of table.emphasis ?? []) {
    for (let c = 0; c < table.columns.length; c++) ws.getCell(topRow + 1 + r, c + 1).font = font({ bold: true });
  }
  for (const scale of table.colourScales) {
    const ref = `${columnLetter(scale.fromColumn)}${topRow + 1 + scale.fromRow}:${columnLetter(scale.toColumn)}${topRow + 1 + scale.toRow}`;
    ws.addConditionalFormatting({
      ref,
      rules: [
        {
          type: 'colorScale',
          priority: 1,
          cfvo: [
            scale.min === undefined ? { type: 'min' } : { type: 'num', value: scale.min },
            scale.mid === undefined ? { type: 'percentile', value: 50 } : { type: 'num', value: scale.mid },
            scale.max === undefined ? { type: 'max' } : { type: 'num', value: scale.max },
          ],
          color: [{ argb: argbOf(SCALE_COLOURS.low) }, { argb: argbOf(SCALE_COLOURS.mid) }, { argb: argbOf(SCALE_COLOURS.high) }],
        },
      ],
    });
  }
  return topRow + 1 + table.rows.length;
}

/** Average advance of Calibri 11 in pixels, for lines of running text (a little wide: a cut line is worse than a spare one). */
const CALIBRI_CHAR_PIXELS = 6.5;

/**
 * Notes under a table, one per row, each kept within the table's width (`widthPx`, its `columns`
 * columns): a longer note is wrapped in cells merged across the table, its row as tall as its
 * lines, so that it neither runs under a chart beside the table nor off the screen.
 */
function writeNotes(ws: Worksheet, notes: readonly string[], row: number, columns: number, widthPx: number): number {
  if (notes.length === 0) return row;
  ws.getCell(row + 1, 1).value = 'Notes';
  ws.getCell(row + 1, 1).font = font({ bold: true });
  notes.forEach((note, i) => {
    const r = row + 2 + i;
    const text = `• ${note}`;
    const cell = ws.getCell(r, 1);
    cell.value = text;
    cell.font = font({ color: { argb: 'FF444444' } });
    const lines = Math.ceil((text.length * CALIBRI_CHAR_PIXELS) / Math.max(widthPx, 1));
    if (lines > 1 && columns > 1) {
      ws.mergeCells(r, 1, r, columns);
      cell.alignment = { wrapText: true, vertical: 'top' };
      ws.getRow(r).height = ROW_POINTS * lines;
    }
  });
  return row + 2 + notes.length;
}

/** Pixel widths of a sheet's columns (0-based), as they are set at the time of the call. */
const columnWidthPx = (ws: Worksheet, col: number) => columnPixels(ws.getColumn(col + 1).width ?? DEFAULT_COLUMN_CHARS);

/**
 * Places an image with its top-left corner at (col, row) (0-based) and the given size, with a
 * two-cell anchor: openpyxl refuses exceljs's one-cell anchors (NOTES.md), and Excel keeps a
 * two-cell image at its size as long as the columns under it keep theirs. The bottom-right corner
 * is found by walking the sheet's real column widths and row heights.
 */
function placeImage(ws: Worksheet, imageId: number, col: number, row: number, width: number, height: number): void {
  const walk = (start: number, span: number, size: (i: number) => number) => {
    let i = start;
    let left = span;
    while (left >= size(i)) left -= size(i++);
    return { cell: i, offset: Math.round(left * EMU_PER_PX) };
  };
  const right = walk(col, width, (c) => columnWidthPx(ws, c));
  const bottom = walk(row, height, (r) => (ws.getRow(r + 1).height ?? ROW_POINTS) * PX_PER_POINT);
  ws.addImage(imageId, {
    tl: { nativeCol: col, nativeColOff: 0, nativeRow: row, nativeRowOff: 0 },
    br: { nativeCol: right.cell, nativeColOff: right.offset, nativeRow: bottom.cell, nativeRowOff: bottom.offset },
    editAs: 'oneCell',
  } as unknown as Parameters<Worksheet['addImage']>[1]);
}

/**
 * Printing (and PDF export): landscape, one page wide, as many pages down as it takes, the header
 * repeated on each page. Without it a section prints its table and chart cut across pages.
 */
const PRINT = (titleRows?: string) =>
  ({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9, ...(titleRows ? { printTitlesRow: titleRows } : {}) }) as const;

/** Characters of an About value per line (its column is wider: Calibri's widths vary). */
const ABOUT_VALUE_CHARS = 100;

function writeAbout(wb: Workbook, spec: ReportSpec): void {
  const ws = wb.addWorksheet('About', { properties: { tabColor: { argb: 'FF0072B2' } }, pageSetup: PRINT() });
  ws.getColumn(1).width = 18;
  ws.getColumn(2).width = ABOUT_VALUE_CHARS + 10;
  ws.getCell('A1').value = spec.title;
  ws.getCell('A1').font = font({ bold: true, size: 16 });
  let row = 3;
  for (const item of spec.about.items) {
    ws.getCell(row, 1).value = item.label;
    ws.getCell(row, 1).font = font({ bold: true });
    const cell = ws.getCell(row, 2);
    cell.value = item.value;
    cell.alignment = { wrapText: true, vertical: 'top' };
    // A wrapped value's row is as tall as its lines (readers do not all grow it on opening: LibreOffice
    // drew a two-line description over the next row).
    const lines = Math.ceil(item.value.length / ABOUT_VALUE_CHARS);
    if (lines > 1) ws.getRow(row).height = ROW_POINTS * lines;
    row += 1;
  }
  const heading = (text: string) => {
    row += 1;
    ws.getCell(row, 1).value = text;
    ws.getCell(row, 1).font = font({ bold: true, size: 13 });
    row += 1;
  };
  heading('Parameters');
  row = writeTable(ws, spec.about.parameters, row, 'Parameters');
  heading('Queries');
  row = writeTable(ws, spec.about.queries, row, 'Queries');
  heading('How to read the numbers');
  for (const note of spec.notes) {
    const cell = ws.getCell(row, 1);
    cell.value = `• ${note}`;
    row += 1;
  }
}

/** A section's chart laid out for its sheet (xlsx-chart-layout.ts) and drawn, with its table's columns. */
interface SectionChart {
  columns: ColumnLayout;
  chart?: SheetChart & { png: Uint8Array };
}

/** Lays out and draws a section's chart for its sheet. */
async function drawSectionChart(section: ReportSection, scale: number): Promise<SectionChart> {
  const columns = columnLayout(section.table);
  if (!section.chart) return { columns };
  // The row after the table and its notes (as writeTable and writeNotes write them).
  const tableEnd = HEADER_ROW + 1 + Math.max(1, section.table.rows.length) + (section.notes.length > 0 ? section.notes.length + 2 : 0);
  const chart = await layOutChart(section.chart, { width: columns.pixels, endRow: tableEnd });
  // Drawn at a higher density (sharp on high-density screens and in print), shown at `chart.shown`.
  return { columns, chart: { ...chart, png: await renderPng(chart.spec, { scale, minWidth: 0 }) } };
}

function writeSection(wb: Workbook, section: ReportSection, name: string, { columns, chart }: SectionChart): void {
  // Above its table, a chart takes the rows under the title, and the table comes after it.
  const chartRows = chart ? Math.ceil(chart.shown.height / ROW_PIXELS) : 0;
  const headerRow = chart?.where === 'above' ? HEADER_ROW + chartRows : HEADER_ROW;
  const keys = section.table.keyColumns;
  const ws = wb.addWorksheet(name, {
    pageSetup: PRINT(),
    // The header and key columns stay in view as the table scrolls; not under a chart above the
    // table, which would be frozen with them.
    views: chart?.where === 'above' ? [] : [{ state: 'frozen', xSplit: keys, ySplit: headerRow, topLeftCell: `${columnLetter(keys)}${headerRow + 1}`, activeCell: 'A1' }],
  });
  ws.getCell('A1').value = section.title;
  ws.getCell('A1').font = font({ bold: true, size: 14 });
  ws.getCell('A2').value = section.description ?? section.summary;
  ws.getCell('A2').font = font({ italic: true, color: { argb: 'FF555555' } });
  const after = writeTable(ws, section.table, headerRow, `Section${section.index}`, columns);
  const end = writeNotes(ws, section.notes, after, section.table.columns.length, columns.pixels);
  if (!chart) return;
  const imageId = wb.addImage({ buffer: Buffer.from(chart.png) as unknown as ArrayBuffer, extension: 'png' });
  const { width, height } = chart.shown;
  if (chart.where === 'beside') {
    // From the table's first row, under the frozen header (an image across the freeze line is cut in two as the rows scroll).
    placeImage(ws, imageId, section.table.columns.length + 1, HEADER_ROW, width, height);
  } else if (chart.where === 'above') {
    placeImage(ws, imageId, 0, HEADER_ROW - 2, width, height);
    // Printed, a table that does not fit under the chart starts the next page (a break goes after its row).
    if (headerRow + section.table.rows.length > PRINTED_PAGE_ROWS) ws.getRow(headerRow - 1).addPageBreak();
  } else {
    placeImage(ws, imageId, 0, end, width, height);
    // Printed (or exported to PDF), a chart below its table that would not fit on the table's page
    // starts the next rather than being cut across two; one that fits stays with its table.
    if (end + chartRows > PRINTED_PAGE_ROWS) ws.getRow(end).addPageBreak();
  }
}

/**
 * The placeholder Data sheet: an Excel table (banded, filter buttons, like every section's) of the
 * header and one row styled per column format, frozen under the header.
 */
function writeDataPlaceholder(wb: Workbook, table: ReportTable): Worksheet {
  const ws = wb.addWorksheet('Data', { pageSetup: PRINT('1:1'), views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
  // Column names have no spaces to wrap at; a header on one line.
  const { widths } = columnLayout(table, 500, false);
  // A value of each column's kind, so that exceljs writes the column's style on this row.
  const sample = table.columns.map((column) => (column.format === 'text' ? 'x' : column.format === 'bool' ? false : 0));
  ws.addTable({
    name: DATA_TABLE,
    ref: 'A1',
    headerRow: true,
    style: { theme: 'TableStyleMedium2', showRowStripes: true },
    columns: table.columns.map((c) => ({ name: c.header, filterButton: true })),
    rows: [sample],
  });
  table.columns.forEach((column, c) => {
    // columnLayout leaves room for the filter button beside the header's text.
    ws.getColumn(c + 1).width = widths[c]!;
    // Ids and years need no format (General shows whole numbers whole): a style on every cell of
    // a column is bytes in every row.
    const format = column.format === 'integer' ? undefined : excelNumberFormat(column.format);
    if (format !== undefined) ws.getCell(2, c + 1).numFmt = format;
  });
  return ws;
}


/**
 * Writes the report as an Excel workbook, atomically: the previous file stays as it was until the
 * new one is complete.
 *
 * @example
 * await writeXlsx(buildReport(resolved, data), 'reports/brand-health-2024.xlsx');
 */
export async function writeXlsx(spec: ReportSpec, path: string, options: WriteXlsxOptions = {}): Promise<void> {
  await writeFileAtomically(path, (temp) => writeXlsxFile(spec, temp, options));
}

/** Writes the workbook straight to `file` (callers make it atomic: `writeXlsx`, `runReport`). */
export async function writeXlsxFile(given: ReportSpec, file: string, options: WriteXlsxOptions = {}): Promise<void> {
  // Every text of the workbook, once, where it is made: XML cannot carry some characters (xml-text.ts).
  const spec = toXmlSafeSpec(given);
  // exceljs is CommonJS: Node gives its exports as the default export (its types declare them as
  // named exports, which Node's export detection does not find).
  const ExcelJS = ((await import('exceljs')) as unknown as { default: typeof import('exceljs') }).default;
  const scale = options.imageScale ?? 2;

  const wb = new ExcelJS.Workbook();
  wb.creator = 'brandscape-kit';
  wb.title = spec.title;
  wb.created = new Date(spec.generatedAt);
  wb.modified = new Date(spec.generatedAt);
  const withAbout = options.sheets?.about ?? true;
  // A report without tidy rows (a comparison's spec: its long form is its table) has no Data
  // sheet: the streamed sheet is built on a placeholder of the table's columns, and with none
  // there is nothing to build it on (exceljs writes an empty <sheetData/>).
  const withData = (options.sheets?.data ?? true) && spec.data.columns.length > 0;
  if (withAbout) writeAbout(wb, spec);
  const used = new Set(['about', 'data']);
  // The charts are drawn together: resvg draws on Node's thread pool while Vega lays out the next.
  const charts = await Promise.all(spec.sections.map((section) => drawSectionChart(section, scale)));
  spec.sections.forEach((section, i) => writeSection(wb, section, sheetName(`${section.index}. ${section.title}`, used), charts[i]!));
  if (!withData) {
    await writeFile(file, new Uint8Array(await wb.xlsx.writeBuffer()));
    return;
  }
  writeDataPlaceholder(wb, spec.data);
  const buffer = new Uint8Array(await wb.xlsx.writeBuffer());

  await writeWithDataSheet(buffer, spec.data, file, { mtime: new Date(spec.generatedAt), compressionLevel: options.dataCompression ?? 6 });
}
