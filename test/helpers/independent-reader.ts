/**
 * Reading workbooks back with an independent reader (openpyxl, Debian's python3-openpyxl) and
 * checking pages in a real browser (Debian's chromium through playwright-core). In CI both must be
 * there (`.ci/run` installs them); elsewhere a test without them says it skipped and why.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const READER = fileURLToPath(new URL('./read-xlsx.py', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';

export interface OpenpyxlSheet {
  name: string;
  dimensions: string;
  max_row: number;
  max_column: number;
  freeze: string | null;
  auto_filter: string | null;
  tables: { name: string; ref: string; style: string | null; stripes: boolean; columns: string[] }[];
  /** Images with their anchors, and their left and right edges (pixels from column A's left edge) as Excel draws the columns. */
  images: { anchor: string; from: [number, number]; to: [number, number] | null; format: string | null; left_px: number; right_px: number | null; width_px: number | null }[];
  conditional_formats: { range: string; type: string }[];
  /** Cells in bold (1-based row and column), within the rows read. */
  bold: [number, number][];
  /** Cells whose text wraps (1-based row and column), within the rows read. */
  wrapped: [number, number][];
  /** Row heights in points, of rows that set one (by 1-based row). */
  heights: Record<string, number>;
  /** Merged ranges (`A40:F40`). */
  merged: string[];
  rows: (string | number | boolean | null)[][];
  types: string[][];
  formats: string[][];
}

let openpyxl: Promise<boolean> | undefined;
/** Whether openpyxl can be imported by Debian's Python. */
export function hasOpenpyxl(): Promise<boolean> {
  openpyxl ??= run(PYTHON, ['-c', 'import openpyxl, PIL']).then(
    () => true,
    () => false,
  );
  return openpyxl;
}

let xlsxwriter: Promise<boolean> | undefined;
/** Whether xlsxwriter (Debian's python3-xlsxwriter: the size and speed baseline) can be imported. */
const hasXlsxwriter = () =>
  (xlsxwriter ??= run(PYTHON, ['-c', 'import xlsxwriter']).then(
    () => true,
    () => false,
  ));

/** Why a check cannot run here, or undefined when it can; in CI a missing tool is a failure. */
export async function missingTool(tool: 'openpyxl' | 'chromium' | 'xlsxwriter'): Promise<string | undefined> {
  if (tool === 'xlsxwriter') {
    if (await hasXlsxwriter()) return undefined;
    const why = 'python3-xlsxwriter is not installed (apt-get install python3-xlsxwriter)';
    if (process.env['CI'] === 'true') throw new Error(`CI must have xlsxwriter: ${why}.`);
    return why;
  }
  const present = tool === 'openpyxl' ? await hasOpenpyxl() : existsSync(CHROMIUM);
  if (present) return undefined;
  const why = tool === 'openpyxl' ? 'python3-openpyxl and python3-pil are not installed (apt-get install python3-openpyxl python3-pil)' : 'chromium is not installed (apt-get install chromium)';
  if (process.env['CI'] === 'true') throw new Error(`CI must have ${tool}: ${why}. .ci/run installs it.`);
  return why;
}

/** The workbook as openpyxl reads it: sheets, tables, images, freeze panes, cells and their formats. */
export async function readWithOpenpyxl(path: string, maxRows = 200): Promise<OpenpyxlSheet[]> {
  const { stdout } = await run(PYTHON, [READER, path, String(maxRows)], { maxBuffer: 256 * 1024 * 1024 });
  return (JSON.parse(stdout) as { sheets: OpenpyxlSheet[] }).sheets;
}
