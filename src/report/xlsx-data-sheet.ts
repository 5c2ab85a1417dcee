/**
 * The Data sheet of a workbook, streamed: the zip surgery that replaces the placeholder sheet
 * write-xlsx.ts made with exceljs (an Excel table of a header and one styled row) by one written
 * row by row, compressed by zlib while the rows are written, its table's range widened to the rows
 * written and its texts added to the workbook's shared strings. What exceljs cannot do for a sheet
 * of a hundred thousand rows in reasonable time and memory (NOTES.md).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { unzipSync } from 'fflate';
import { ZipFile } from 'yazl';
import type { ReportTable } from './report-spec.js';

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

/** The Data sheet's Excel table (its name in formulas: `=SUM(Data_rows[value])`). */
export const DATA_TABLE = 'Data_rows';

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
  const tail = frame.tail;
  // Per column: its letters, and what follows a cell's reference for each kind of value.
  const letters = table.columns.map((_, c) => columnLetter(c));
  const number = frame.styles.map((s) => `${s}><v>`);
  const text = frame.styles.map((s) => `${s} t="s"><v>`);
  const flag = frame.styles.map((s) => `${s} t="b"><v>`);
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
              if (v === null || (typeof v === 'number' && !Number.isFinite(v))) continue;
              xml += `<c r="${letters[c]!}${excelRow}"`;
              if (typeof v === 'number') xml += `${number[c]!}${v}</v></c>`;
              else if (typeof v === 'string') xml += `${text[c]!}${strings.indexOf(v)}</v></c>`;
              else xml += `${flag[c]!}${v ? 1 : 0}</v></c>`;
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

/** The zip path of the Data sheet's table part (exceljs names it `xl/tables/tableN.xml`). */
function dataTablePath(files: Record<string, Uint8Array>): string {
  const path = Object.keys(files).find((name) => /^xl\/tables\/[^/]+\.xml$/.test(name) && new TextDecoder().decode(files[name]).includes(`name="${DATA_TABLE}"`));
  if (path === undefined) throw new Error('The placeholder Data sheet has no table.');
  return path;
}

/** The Data table's part with its range (and its filter's) over every row written. */
function widenTable(xml: string, table: ReportTable): string {
  const range = `A1:${columnLetter(Math.max(0, table.columns.length - 1))}${Math.max(2, table.rows.length + 1)}`;
  return xml.replace(/(<table\b[^>]*\bref=")[^"]*"/, `$1${range}"`).replace(/(<autoFilter\b[^>]*\bref=")[^"]*"/, `$1${range}"`);
}

/**
 * Writes the workbook `buffer` (exceljs's, with a placeholder sheet named Data holding the
 * `DATA_TABLE` table) to `file`, its Data sheet replaced by `data`'s rows streamed.
 */
export async function writeWithDataSheet(buffer: Uint8Array, data: ReportTable, file: string, options: { mtime: Date; compressionLevel: number }): Promise<void> {
  const files = unzipSync(buffer);
  const dataPath = sheetPath(files, 'Data');
  const frame = sheetFrame(new TextDecoder().decode(files[dataPath]), data.columns.length);
  const tablePath = dataTablePath(files);
  files[tablePath] = new TextEncoder().encode(widenTable(new TextDecoder().decode(files[tablePath]), data));
  const stringsPath = 'xl/sharedStrings.xml';
  const strings = new SharedStrings(new TextDecoder().decode(files[stringsPath] ?? new Uint8Array()));
  if (!files[stringsPath]) throw new Error('The workbook has no shared-string table.');
  const zip = new ZipFile();
  const { mtime } = options;
  for (const [name, bytes] of Object.entries(files)) {
    // yazl adds directory entries itself; exceljs's own (`_rels/`) are left out (NOTES.md).
    if (name.endsWith('/') || name === stringsPath) continue;
    if (name === dataPath) zip.addReadStream(dataSheetStream(frame, data, strings), name, { mtime, compressionLevel: options.compressionLevel });
    else zip.addBuffer(Buffer.from(bytes), name, { mtime });
  }
  // The shared strings go last: yazl asks for this entry's content once the Data sheet is written.
  zip.addReadStreamLazy(stringsPath, { mtime }, (callback) => callback(null, Readable.from([Buffer.from(strings.toXml(), 'utf8')])));
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}
