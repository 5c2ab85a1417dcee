/**
 * The workbook writer (DESIGN.md rule 5: one of the only files that import exceljs or a zip
 * library): an About sheet, one sheet per section (an Excel table with number formats, a frozen
 * header, colour scales, the chart as an image beside the table) and a Data sheet of tidy rows.
 *
 * exceljs builds the small sheets in memory (it has tables and images; its streaming writer has
 * neither), but takes minutes and gigabytes for a 100,000-row sheet (NOTES.md). So the Data sheet
 * is built by exceljs as a placeholder (header, one styled row, freeze, autofilter: styles,
 * relationships and content types all right), and then only that sheet's XML part is replaced in
 * the zip by one streamed row by row, compressed by zlib on a worker thread while the rows are
 * written.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Workbook, Worksheet } from 'exceljs';
import { unzipSync } from 'fflate';
import { ZipFile } from 'yazl';
import { renderPng } from '../charts/render.js';
import { writeFileAtomically } from '../io/atomic-file.js';
import { SCALE_COLOURS, argbOf } from './cell-colours.js';
import { excelNumberFormat, formatCell } from './format-cell.js';
import type { ReportSection, ReportSpec, ReportTable } from './report-spec.js';
import { toXmlSafeSpec } from './xml-text.js';

export interface WriteXlsxOptions {
  /** Pixel density of the chart images (default 2: sharp on high-density screens and in print). */
  imageScale?: number;
  /** Compression of the Data sheet, 1 (fastest) to 9 (smallest). Default 3. */
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
/** Width (characters) of the columns under a chart; in pixels as Excel draws Calibri 11. */
const IMAGE_COLUMN_CHARS = 10;
const columnPixels = (chars: number) => Math.trunc(((256 * chars + Math.trunc(128 / 7)) / 256) * 7);

/** Excel column letters: 0 -> A, 27 -> AB. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

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
    rows: table.rows.map((row) => row.map((v) => (v === null ? null : v)) as (string | number | boolean | null)[]),
  });
  table.columns.forEach((column, c) => {
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

/**
 * Places an image with its top-left corner at (col, row) (0-based) and its natural size, with a
 * two-cell anchor: openpyxl refuses exceljs's one-cell anchors (NOTES.md), and Excel keeps a
 * two-cell image at its size as long as the columns under it keep theirs, which this sheet's do.
 */
function placeImage(ws: Worksheet, imageId: number, col: number, row: number, width: number, height: number): void {
  const colPx = columnPixels(IMAGE_COLUMN_CHARS);
  const rowPx = ROW_POINTS * PX_PER_POINT;
  const spanCols = width / colPx;
  const spanRows = height / rowPx;
  for (let c = col; c <= col + Math.ceil(spanCols); c++) ws.getColumn(c + 1).width = IMAGE_COLUMN_CHARS;
  const end = (start: number, span: number, unit: number) => {
    const whole = Math.floor(span);
    return { cell: start + whole, offset: Math.round((span - whole) * unit * EMU_PER_PX) };
  };
  const right = end(col, spanCols, colPx);
  const bottom = end(row, spanRows, rowPx);
  ws.addImage(imageId, {
    tl: { nativeCol: col, nativeColOff: 0, nativeRow: row, nativeRowOff: 0 },
    br: { nativeCol: right.cell, nativeColOff: right.offset, nativeRow: bottom.cell, nativeRowOff: bottom.offset },
    editAs: 'oneCell',
  } as unknown as Parameters<Worksheet['addImage']>[1]);
}

function writeAbout(wb: Workbook, spec: ReportSpec): void {
  const ws = wb.addWorksheet('About', { properties: { tabColor: { argb: 'FF0072B2' } } });
  ws.getColumn(1).width = 18;
  ws.getColumn(2).width = 110;
  ws.getCell('A1').value = spec.title;
  ws.getCell('A1').font = { bold: true, size: 16 };
  let row = 3;
  for (const item of spec.about.items) {
    ws.getCell(row, 1).value = item.label;
    ws.getCell(row, 1).font = { bold: true };
    const cell = ws.getCell(row, 2);
    cell.value = item.value;
    cell.alignment = { wrapText: true, vertical: 'top' };
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

async function writeSection(wb: Workbook, section: ReportSection, name: string, png: Uint8Array | undefined): Promise<void> {
  const ws = wb.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: section.table.keyColumns, ySplit: HEADER_ROW, topLeftCell: `${columnLetter(section.table.keyColumns)}${HEADER_ROW + 1}`, activeCell: 'A1' }],
  });
  ws.getCell('A1').value = section.title;
  ws.getCell('A1').font = { bold: true, size: 14 };
  ws.getCell('A2').value = section.description ?? section.summary;
  ws.getCell('A2').font = { italic: true, color: { argb: 'FF555555' } };
  const after = writeTable(ws, section.table, HEADER_ROW, `Section${section.index}`);
  writeNotes(ws, section.notes, after);
  if (png) {
    const imageId = wb.addImage({ buffer: Buffer.from(png) as unknown as ArrayBuffer, extension: 'png' });
    const { width, height } = pngSize(png);
    // The PNG is drawn at a higher density; it is shown at the chart's own size.
    const scale = width > 0 ? width / Math.max(1, Math.round(width / 2)) : 1;
    placeImage(ws, imageId, section.table.columns.length + 1, HEADER_ROW - 1, width / scale, height / scale);
  }
}

/** The placeholder Data sheet: header, one row styled per column format, frozen, filtered. */
function writeDataPlaceholder(wb: Workbook, table: ReportTable): Worksheet {
  const ws = wb.addWorksheet('Data', { views: [{ state: 'frozen', ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
  const widths = columnWidths(table, 500);
  table.columns.forEach((column, c) => {
    ws.getColumn(c + 1).width = widths[c]!;
    const head = ws.getCell(1, c + 1);
    head.value = column.header;
    head.font = { bold: true };
    head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDDEBF7' } };
    const cell = ws.getCell(2, c + 1);
    // A value of each column's kind, so that exceljs writes the column's style on this row.
    cell.value = column.format === 'text' ? 'x' : column.format === 'bool' ? false : 0;
    const format = excelNumberFormat(column.format);
    if (format !== undefined) cell.numFmt = format;
  });
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 2, column: Math.max(1, table.columns.length) } };
  return ws;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/** Text for the XML written here by hand: markup escaped (the spec's texts are XML-safe already). */
function xmlText(text: string): string {
  return text.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!);
}

/** The parts of the placeholder sheet's XML the streamed sheet keeps. */
interface SheetFrame {
  head: string;
  headerRow: string;
  styles: string[];
  tail: string;
}

function sheetFrame(xml: string, columns: number): SheetFrame {
  const open = xml.indexOf('<sheetData>');
  const close = xml.indexOf('</sheetData>');
  if (open < 0 || close < 0) throw new Error('The placeholder Data sheet has no <sheetData>.');
  const rows = xml.slice(open + '<sheetData>'.length, close).match(/<row\b[\s\S]*?<\/row>/g) ?? [];
  const [headerRow, styled] = rows;
  if (headerRow === undefined || styled === undefined) throw new Error('The placeholder Data sheet lacks its two rows.');
  const styles: string[] = [];
  for (const cell of styled.match(/<c\b[^>]*>/g) ?? []) {
    const col = /\br="([A-Z]+)\d+"/.exec(cell)?.[1] ?? '';
    const s = /\bs="(\d+)"/.exec(cell)?.[1];
    styles[columnIndex(col)] = s === undefined ? '' : ` s="${s}"`;
  }
  for (let c = 0; c < columns; c++) styles[c] ??= '';
  return { head: xml.slice(0, open), headerRow, styles, tail: xml.slice(close + '</sheetData>'.length) };
}

function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * The workbook's shared-string table, extended with the Data sheet's texts. Brandscape text repeats
 * (markets, metrics, brand names): a cell that points at a shared string is about half the size of
 * one that carries its text, which halves the XML to write, checksum and compress.
 */
class SharedStrings {
  readonly #index = new Map<string, number>();
  readonly #added: string[] = [];
  readonly #base: number;
  #references = 0;
  constructor(readonly xml: string) {
    this.#base = Number(/\buniqueCount="(\d+)"/.exec(xml)?.[1] ?? (xml.match(/<si>/g) ?? []).length);
  }
  /** The index of a text (added on first use). */
  indexOf(text: string): number {
    this.#references++;
    let i = this.#index.get(text);
    if (i === undefined) {
      i = this.#base + this.#added.length;
      this.#index.set(text, i);
      this.#added.push(text);
    }
    return i;
  }
  /** The table's XML with the added texts (once the Data sheet is written). */
  toXml(): string {
    const count = Number(/\bcount="(\d+)"/.exec(this.xml)?.[1] ?? this.#base) + this.#references;
    const entries = this.#added.map((t) => `<si><t${/^\s|\s$/.test(t) ? ' xml:space="preserve"' : ''}>${xmlText(t)}</t></si>`).join('');
    return this.xml
      .replace(/\bcount="\d+"/, `count="${count}"`)
      .replace(/\buniqueCount="\d+"/, `uniqueCount="${this.#base + this.#added.length}"`)
      .replace('</sst>', `${entries}</sst>`);
  }
}

/** The Data sheet's XML, streamed in chunks of rows, with backpressure. */
function dataSheetStream(frame: SheetFrame, table: ReportTable, strings: SharedStrings): Readable {
  const n = table.rows.length;
  const width = table.columns.length;
  const lastCol = columnLetter(Math.max(0, width - 1));
  const range = `A1:${lastCol}${n + 1}`;
  const head = frame.head.replace(/<dimension ref="[^"]*"\s*\/>/, `<dimension ref="${range}"/>`);
  const tail = frame.tail.replace(/<autoFilter ref="[^"]*"/, `<autoFilter ref="${range}"`);
  // Per column: the start of a cell up to its row number, and what follows it for each kind of value.
  const open = table.columns.map((_, c) => `<c r="${columnLetter(c)}`);
  const number = frame.styles.map((s) => `"${s}><v>`);
  const text = frame.styles.map((s) => `"${s} t="s"><v>`);
  const flag = frame.styles.map((s) => `"${s} t="b"><v>`);
  const rowsPerChunk = 500;
  let next = 0;
  let stage: 'head' | 'rows' | 'tail' | 'done' = 'head';
  return new Readable({
    read() {
      for (;;) {
        let chunk: string;
        if (stage === 'head') {
          chunk = `${head}<sheetData>${frame.headerRow}`;
          stage = n > 0 ? 'rows' : 'tail';
        } else if (stage === 'rows') {
          const end = Math.min(n, next + rowsPerChunk);
          chunk = '';
          for (let r = next; r < end; r++) {
            const row = table.rows[r]!;
            const excelRow = r + 2;
            let xml = `<row r="${excelRow}">`;
            for (let c = 0; c < width; c++) {
              const v = row[c] ?? null;
              // Missing values are left out, as Excel does.
              if (v === null) continue;
              if (typeof v === 'number') {
                if (Number.isFinite(v)) xml += `${open[c]!}${excelRow}${number[c]!}${v}</v></c>`;
              } else if (typeof v === 'string') xml += `${open[c]!}${excelRow}${text[c]!}${strings.indexOf(v)}</v></c>`;
              else xml += `${open[c]!}${excelRow}${flag[c]!}${v ? 1 : 0}</v></c>`;
            }
            chunk += `${xml}</row>`;
          }
          next = end;
          if (next >= n) stage = 'tail';
        } else if (stage === 'tail') {
          chunk = `</sheetData>${tail}`;
          stage = 'done';
        } else {
          this.push(null);
          return;
        }
        if (!this.push(Buffer.from(chunk, 'utf8'))) return;
      }
    },
  });
}

/** The zip path of the sheet named `name`, from the workbook's relationships. */
function sheetPath(files: Record<string, Uint8Array>, name: string): string {
  const text = (path: string) => new TextDecoder().decode(files[path] ?? new Uint8Array());
  const sheet = new RegExp(`<sheet\\b[^>]*name="${name}"[^>]*r:id="([^"]+)"`).exec(text('xl/workbook.xml'))?.[1];
  const target = sheet === undefined ? undefined : new RegExp(`<Relationship\\b[^>]*Id="${sheet}"[^>]*Target="([^"]+)"`).exec(text('xl/_rels/workbook.xml.rels'))?.[1];
  if (target === undefined) throw new Error(`The workbook has no sheet named ${name}.`);
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
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
  for (const [i, section] of spec.sections.entries()) await writeSection(wb, section, sheetName(`${section.index}. ${section.title}`, used), pngs[i]);
  if (!withData) {
    await writeFile(file, new Uint8Array(await wb.xlsx.writeBuffer()));
    return;
  }
  writeDataPlaceholder(wb, spec.data);
  const buffer = new Uint8Array(await wb.xlsx.writeBuffer());

  const files = unzipSync(buffer);
  const dataPath = sheetPath(files, 'Data');
  const frame = sheetFrame(new TextDecoder().decode(files[dataPath]), spec.data.columns.length);
  const stringsPath = 'xl/sharedStrings.xml';
  const strings = new SharedStrings(new TextDecoder().decode(files[stringsPath] ?? new Uint8Array()));
  if (!files[stringsPath]) throw new Error('The workbook has no shared-string table.');
  const zip = new ZipFile();
  const mtime = new Date(spec.generatedAt);
  for (const [name, bytes] of Object.entries(files)) {
    // yazl adds directory entries itself; exceljs's own (`_rels/`) are left out (NOTES.md).
    if (name.endsWith('/') || name === stringsPath) continue;
    if (name === dataPath) zip.addReadStream(dataSheetStream(frame, spec.data, strings), name, { mtime, compressionLevel: options.dataCompression ?? 3 });
    else zip.addBuffer(Buffer.from(bytes), name, { mtime });
  }
  // The shared strings go last: yazl asks for this entry's content once the Data sheet is written.
  zip.addReadStreamLazy(stringsPath, { mtime }, (callback) => callback(null, Readable.from([Buffer.from(strings.toXml(), 'utf8')])));
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}
