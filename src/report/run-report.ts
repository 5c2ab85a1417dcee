/**
 * `runReport`: the whole scheduled job in one call: template and parameters checked, output folder
 * checked, (optionally) skipped when nothing behind it changed, data loaded, report built, files
 * written together and atomically, and the run recorded for `--since-last-run`. The CLI's
 * `brandscape report` and notebooks call it; each step is also its own export.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { FetchAllOptions } from '../client/brandscape-client.js';
import { UsageError } from '../errors.js';
import { stageFile, toOutputError, writeFileAtomically, type StagedFile } from './atomic-file.js';
import { buildReport } from './build-report.js';
import { loadReportData, loadStudyContext, type StudyStamp } from './load-report-data.js';
import type { ReportSpec } from './report-spec.js';
import { outputName, resolveTemplate, type ResolvedTemplate, type Template } from './resolve-template.js';
import type { OutputFormat } from './template-schema.js';
import { writeHtmlFile } from './write-html.js';
import { writeXlsxFile } from './write-xlsx.js';

type Client = Parameters<typeof loadReportData>[0];

export interface RunReportOptions {
  /** Folder the files go to (must exist). Default: `reports` in the working directory. */
  outDir?: string;
  /** Formats to write, instead of the template's `output.formats`. */
  formats?: readonly OutputFormat[];
  /** Parameter values: `-p` texts (typed by the template) or typed values. */
  parameters?: Readonly<Record<string, unknown>>;
  /** Skip the run when no study behind the report changed since the last successful run. */
  sinceLastRun?: boolean;
  signal?: AbortSignal;
  /** Progress of the brandscape rows' load. */
  onProgress?: FetchAllOptions['onProgress'];
  /** Told of each step (`Checking the template against the service, then loading data`, `Writing ...`), for a log or a progress line. */
  onStage?: (message: string) => void;
  /** True when the client talks to an embedded emulator (the About sheet says so). */
  emulated?: boolean;
  /** Clock (default: now). */
  now?: () => Date;
}

export interface RunReportResult {
  /** `written`, or `up-to-date` when `sinceLastRun` found nothing changed (no file written). */
  readonly status: 'written' | 'up-to-date';
  /** The files written (or, when up to date, the files of the last run). */
  readonly files: readonly string[];
  /** The report, when it was built. */
  readonly spec?: ReportSpec;
  /** When the report was last built (for `up-to-date`). */
  readonly lastRun?: string;
}

/** What a run records next to its output for `--since-last-run` (no token, no data). */
interface RunState {
  readonly version: 1;
  readonly template: string;
  /** Hash of the resolved template (parameters included): another template or value is another report. */
  readonly definition: string;
  readonly generatedAt: string;
  readonly files: readonly string[];
  readonly studies: readonly StudyStamp[];
}

/** Bytes a file system allows in one file name (ext4, XFS, APFS). */
const MAX_FILE_NAME_BYTES = 255;
/** Bytes the temporary name of a file adds to its name: `.` + `.<pid>.<8 hex>.partial` (stageFile). */
const TEMP_NAME_BYTES = 1 + 1 + 10 + 1 + 8 + 8;

/** The state file of a template's runs in an output folder. */
export const stateFileOf = (outDir: string, template: string) => join(outDir, `.${template}.last-run.json`);

const definitionHash = (t: ResolvedTemplate) =>
  createHash('sha256').update(JSON.stringify({ title: t.title, data: t.data, sections: t.sections, output: t.output, parameters: t.parameters.map((p) => [p.name, p.value]) })).digest('hex');

/** The output file name of a run: see `outputName` (its checks are made by `resolveTemplate`). */
export { outputName } from './resolve-template.js';

/** Checks, before any request, that the output folder exists and can be written. */
export async function checkOutputDir(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new UsageError(`The output folder ${dir} does not exist.`, { hint: (o) => `Create it, or give another with ${o({ option: 'outDir' })}.` });
  if (!info.isDirectory()) throw new UsageError(`The output path ${dir} is not a folder.`, { hint: (o) => `Give a folder with ${o({ option: 'outDir' })}; file names come from the template.` });
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`The output folder ${dir} cannot be written to.`, { hint: (o) => `Check its permissions, or give another folder with ${o({ option: 'outDir' })}.` });
  }
}

async function readState(path: string): Promise<RunState | undefined> {
  try {
    const state = JSON.parse(await readFile(path, 'utf8')) as Partial<RunState>;
    return state.version === 1 && Array.isArray(state.studies) && Array.isArray(state.files) ? (state as RunState) : undefined;
  } catch {
    // No state, or a state file from elsewhere: the report is simply built.
    return undefined;
  }
}

const sameStudies = (a: readonly StudyStamp[], b: readonly StudyStamp[]) =>
  a.length === b.length && a.every((s, i) => s.id === b[i]!.id && s.dataUpdatedAt === b[i]!.dataUpdatedAt);

const exists = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() === true;

/**
 * Runs a report: checks, loads, builds and writes it. Every file is written to a temporary file
 * first and all are renamed into place together at the end: a failed or interrupted run leaves the
 * previous report as it was and no partial file.
 *
 * @example
 * const result = await runReport(client, await loadTemplate('sector-review'), { outDir: 'reports', parameters: { year: '2024' } });
 * result.files; // ['reports/sector-review-2026-11-24.xlsx', 'reports/sector-review-2026-11-24.html']
 */
export async function runReport(client: Client, template: Template, options: RunReportOptions = {}): Promise<RunReportResult> {
  const resolved = resolveTemplate(template, options.parameters ?? {});
  const outDir = resolve(options.outDir ?? 'reports');
  await checkOutputDir(outDir);
  const formats = options.formats ?? resolved.output.formats;
  const stage = options.onStage ?? (() => {});
  const statePath = stateFileOf(outDir, resolved.name);
  // The state file is named after the template (whose own file name fits the file system): with
  // its affixes and the temporary name it is written under, a very long template name would not.
  if (Buffer.byteLength(basename(statePath), 'utf8') + TEMP_NAME_BYTES > MAX_FILE_NAME_BYTES) {
    throw new UsageError(`The template name ${resolved.name.slice(0, 40)}… is too long for the file that records its runs (${basename(statePath).length} characters).`, {
      hint: `Rename the template file: its name, with '.last-run.json' and a temporary suffix, must fit the file system's ${MAX_FILE_NAME_BYTES} bytes.`,
    });
  }
  const definition = definitionHash(resolved);

  if (options.sinceLastRun) {
    const state = await readState(statePath);
    if (state && state.definition === definition) {
      stage('Checking whether the studies behind the report changed since the last run');
      const context = await loadStudyContext(client, resolved, options.signal);
      const filesThere = (await Promise.all(state.files.map(exists))).every(Boolean);
      if (filesThere && sameStudies(context.stamps, state.studies)) {
        return { status: 'up-to-date', files: state.files, lastRun: state.generatedAt };
      }
    }
  }

  stage('Checking the template against the service, then loading data');
  const data = await loadReportData(client, resolved, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    emulated: options.emulated ?? false,
  });
  const at = options.now?.() ?? new Date();
  stage('Building the report');
  const spec = buildReport(resolved, data, { generatedAt: at });
  const base = join(outDir, outputName(resolved, at, data.latestYear));
  // `resolveTemplate` refused every name that could leave the folder; this says so once more
  // where the path is made, so that no later change can write beside --out (site/out.html).
  if (dirname(base) !== outDir) throw new UsageError(`The output name of ${resolved.name} would leave the output folder ${outDir}.`, { hint: 'Give output.name without folders.' });
  const staged: StagedFile[] = formats.map((f) => stageFile(`${base}.${f}`));
  try {
    for (const file of staged) {
      options.signal?.throwIfAborted();
      stage(`Writing ${file.path}`);
      if (file.path.endsWith('.xlsx')) await writeXlsxFile(spec, file.tempPath);
      else await writeHtmlFile(spec, file.tempPath);
    }
    options.signal?.throwIfAborted();
    for (const file of staged) await file.commit();
  } catch (error) {
    await Promise.all(staged.map((f) => f.discard()));
    throw toOutputError(error, staged.find((f) => error instanceof Error && 'path' in error && String((error as { path: unknown }).path).includes(f.tempPath))?.path ?? outDir);
  }
  const files = staged.map((f) => f.path);
  const state: RunState = { version: 1, template: resolved.name, definition, generatedAt: spec.generatedAt, files, studies: data.studies };
  await writeFileAtomically(statePath, (temp) => writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, 'utf8'));
  return { status: 'written', files, spec };
}
