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
import type { Workbook, Worksheet } from 'exceljs';
import { renderPng } from '../charts/render.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import { SCALE_COLOURS, argbOf } from './cell-colours.js';
import { excelNumberFormat, formatCell } from './format-cell.js';
import type { ReportSection, ReportSpec, ReportTable } from './report-spec.js';
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
const EMU_PER_PX = 9525;
/** Pixels of a column `chars` wide, as Excel draws Calibri 11 (a column without a width: 8.43). */
const columnPixels = (chars: number) => Math.trunc(((256 * chars + Math.trunc(128 / 7)) / 256) * 7);
const DEFAULT_COLUMN_CHARS = 8.43;
/**
 * Pixels of sheet a 1366 px laptop screen shows at 100 % zoom, once Excel's row numbers, scroll
 * bar and window edges are drawn: a chart fits in this width or goes below its table.
 */
export const VISIBLE_SHEET_PIXELS = 1280;
/** Rows of a landscape A4 page, printed one page wide (about: the scale follows the sheet's width). */
const PRINTED_PAGE_ROWS = 34;
/** The narrowest a chart is shrunk to, to sit beside its table rather than below it. */
const MIN_BESIDE_FRACTION = 0.75;
/** Rows of sheet such a screen shows under Excel's ribbon (20 px rows). */
export const VISIBLE_SHEET_ROWS = 24;
/** Below a table longer than the screen a chart is not seen: beside it, it may shrink to this. */
const MIN_BESIDE_FRACTION_LONG = 0.6;


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

/** PNG dimensions from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Character widths of a table's columns, from their headers and formatted values (capped). */
function columnWidths(table: ReportTable, sample = 2000): number[] {
  return table.columns.map((column, c) => {
    let width = column.header.length;
    const n = Math.min(table.rows.length, sample);
    for (let r = 0; r < n; r++) width = Math.max(width, formatCell(table.rows[r]![c] ?? null, column.format).length);
    return Math.min(Math.max(width + 2, 8), 48);
  });
}

/**
 * Writes a report table at `topRow` (1-based): an Excel table (named, banded, filter buttons) with
 * number formats and colour scales. Returns the row after the table.
 */
function writeTable(ws: Worksheet, table: ReportTable, topRow: number, name: string): number {
  const widths = columnWidths(table);
  widths.forEach((w, c) => {
    const column = ws.getColumn(c + 1);
    column.width = Math.max(column.width ?? 0, w);
  });
  if (table.rows.length === 0) {
    table.columns.forEach((column, c) => {
      const cell = ws.getCell(topRow, c + 1);
      cell.value = column.header;
      cell.font = { bold: true };
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
  table.columns.forEach((column, c) => {
    // A number column's header sits over its numbers, which Excel aligns right.
    if (column.format !== 'text') ws.getCell(topRow, c + 1).alignment = { horizontal: 'right' };
    const format = excelNumberFormat(column.format);
    if (format === undefined) return;
    for (let r = 0; r < table.rows.length; r++) ws.getCell(topRow + 1 + r, c + 1).numFmt = format;
  });
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

/** Notes under a table, one per row. */
function writeNotes(ws: Worksheet, notes: readonly string[], row: number): number {
  if (notes.length === 0) return row;
  ws.getCell(row + 1, 1).value = 'Notes';
  ws.getCell(row + 1, 1).font = { bold: true };
  notes.forEach((note, i) => {
    const cell = ws.getCell(row + 2 + i, 1);
    cell.value = `• ${note}`;
    cell.font = { color: { argb: 'FF444444' } };
  });
  return row + 2 + notes.length;
}

/** Where a chart image goes on a section sheet: its top-left cell (0-based) and its shown size in pixels. */
export interface ImagePlacement {
  col: number;
  row: number;
  width: number;
  height: number;
  where: 'beside' | 'below';
}

/**
 * Places a chart where a laptop screen shows it with its table: beside the table, top-aligned with
 * its header, when the two fit in `VISIBLE_SHEET_PIXELS` (the chart shrunk to 3/4 of its size if
 * that makes them fit; to 0.6 when the table is longer than the screen, since below it the chart
 * would not be seen); else below the table and its notes, from column A, shrunk to the visible
 * width when wider. `tableWidth` is the table's width in pixels; rows are 0-based.
 */
export function placeChart(chart: { width: number; height: number }, tableWidth: number, headerRow: number, rowAfter: number): ImagePlacement {
  const gap = columnPixels(DEFAULT_COLUMN_CHARS);
  const room = VISIBLE_SHEET_PIXELS - tableWidth - gap;
  const fit = (width: number) => Math.min(1, width / chart.width);
  const long = rowAfter + 1 > VISIBLE_SHEET_ROWS;
  if (room >= chart.width * (long ? MIN_BESIDE_FRACTION_LONG : MIN_BESIDE_FRACTION)) {
    const k = fit(room);
    return { col: -1, row: headerRow, width: Math.round(chart.width * k), height: Math.round(chart.height * k), where: 'beside' };
  }
  const k = fit(VISIBLE_SHEET_PIXELS);
  return { col: 0, row: rowAfter + 1, width: Math.round(chart.width * k), height: Math.round(chart.height * k), where: 'below' };
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
  ws.getCell('A1').font = { bold: true, size: 16 };
  let row = 3;
  for (const item of spec.about.items) {
    ws.getCell(row, 1).value = item.label;
    ws.getCell(row, 1).font = { bold: true };
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
    ws.getCell(row, 1).font = { bold: true, size: 13 };
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

async function writeSection(wb: Workbook, section: ReportSection, name: string, png: Uint8Array | undefined, scale: number): Promise<void> {
  const ws = wb.addWorksheet(name, {
    pageSetup: PRINT(),
    views: [{ state: 'frozen', xSplit: section.table.keyColumns, ySplit: HEADER_ROW, topLeftCell: `${columnLetter(section.table.keyColumns)}${HEADER_ROW + 1}`, activeCell: 'A1' }],
  });
  ws.getCell('A1').value = section.title;
  ws.getCell('A1').font = { bold: true, size: 14 };
  ws.getCell('A2').value = section.description ?? section.summary;
  ws.getCell('A2').font = { italic: true, color: { argb: 'FF555555' } };
  const after = writeTable(ws, section.table, HEADER_ROW, `Section${section.index}`);
  const end = writeNotes(ws, section.notes, after);
  if (png) {
    const imageId = wb.addImage({ buffer: Buffer.from(png) as unknown as ArrayBuffer, extension: 'png' });
    const { width, height } = pngSize(png);
    // The PNG is drawn at a higher density (sharp on high-density screens and in print); it is
    // shown at the chart's own size, or smaller to be seen with its table.
    let tableWidth = 0;
    for (let c = 0; c < section.table.columns.length; c++) tableWidth += columnWidthPx(ws, c);
    const at = placeChart({ width: width / scale, height: height / scale }, tableWidth, HEADER_ROW - 1, end - 1);
    placeImage(ws, imageId, at.col < 0 ? section.table.columns.length + 1 : at.col, at.row, at.width, at.height);
    // Printed (or exported to PDF), a chart below its table that would not fit on the table's page
    // starts the next rather than being cut across two (LibreOffice cut cross-year-trends' chart
    // under its title); one that fits stays with its table.
    const rowsDown = at.row + Math.ceil(at.height / (ROW_POINTS * PX_PER_POINT));
    if (at.where === 'below' && at.row > 0 && rowsDown > PRINTED_PAGE_ROWS) ws.getRow(at.row).addPageBreak();
  }
}


/**
 * The placeholder Data sheet: an Excel table (banded, filter buttons, like every section's) of the
 * header and one row styled per column format, frozen under the header.
 */
function writeDataPlaceholder(wb: Workbook, table: ReportTable): Worksheet {
  const ws = wb.addWorksheet('Data', { pageSetup: PRINT('1:1'), views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
  const widths = columnWidths(table, 500);
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
    // Filter buttons take room beside the header's text.
    ws.getColumn(c + 1).width = widths[c]! + 2;
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
  const pngs = await Promise.all(spec.sections.map((s) => (s.chart ? renderPng(s.chart, { scale }) : Promise.resolve(undefined))));

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
  for (const [i, section] of spec.sections.entries()) await writeSection(wb, section, sheetName(`${section.index}. ${section.title}`, used), pngs[i], scale);
  if (!withData) {
    await writeFile(file, new Uint8Array(await wb.xlsx.writeBuffer()));
    return;
  }
  writeDataPlaceholder(wb, spec.data);
  const buffer = new Uint8Array(await wb.xlsx.writeBuffer());

  await writeWithDataSheet(buffer, spec.data, file, { mtime: new Date(spec.generatedAt), compressionLevel: options.dataCompression ?? 6 });
}
