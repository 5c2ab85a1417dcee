/**
 * The toolkit as an audience export destination (§16): an `Audience Export` webhook, already
 * verified (signature, time, replay), is checked as an export (`fromAudienceExportEvent`: the
 * format, the audience's shape, every respondent id in its format's form, no id twice) before it
 * is acknowledged, and written (`writeAudienceExport`) as three files named from the audience id
 * and the export's time: the definition as JSON, the respondents as CSV and as Parquet.
 *
 * The files are staged and committed together, the JSON last: it is the mark of a complete export
 * (`loadAudienceExport` reads it first), and it names the delivery, so a repeated delivery finds
 * it and writes nothing twice, even after the receiver restarted and forgot the ids it saw.
 */
import { constants } from 'node:fs';
import { access, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { UsageError } from '../errors.js';
import { FrameTable, type FrameColumn } from '../frames/frame-table.js';
import { textColumn } from '../frames/string-dictionary.js';
import { stageFile, toOutputError, type StagedFile } from '../io/atomic-file.js';
import { toParquet } from '../io/parquet.js';
import {
  AUDIENCE_EXPORT_EVENT,
  AUDIENCE_EXPORT_FORMATS,
  RESPONDENT_ID_PATTERNS,
  audienceDefinition,
  exportedAudience,
  type AudienceExportFormat,
} from '../schemas/audience-export.js';
import type { WebhookEvent } from './verify-webhook.js';

/** An audience export as received, checked. */
export interface ReceivedAudienceExport {
  readonly webhookId: string;
  readonly format: AudienceExportFormat;
  /** The export's time (the event's `webhookTimestamp`, or its `webhookDate`). */
  readonly exportedAt: Date;
  readonly audienceId: number;
  readonly audienceName: string | null;
  /** The audience as delivered, without its respondents. */
  readonly audience: Readonly<Record<string, unknown>>;
  /** Respondent ids, in the order delivered (none for the definition, format 1). */
  readonly respondents: readonly string[];
}

export type AudienceExportVerdict = { readonly ok: true; readonly value: ReceivedAudienceExport } | { readonly ok: false; readonly message: string };

/** Columns of the respondents' CSV and Parquet files, in order. */
export const AUDIENCE_EXPORT_COLUMNS = ['audience_id', 'format', 'respondent_id'] as const;

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'does not match';
};

/**
 * Checks a verified webhook as an audience export. Pure: nothing is written.
 *
 * @example
 * const verdict = fromAudienceExportEvent(event);
 * if (!verdict.ok) answer(400, verdict.message);
 */
export function fromAudienceExportEvent(event: WebhookEvent): AudienceExportVerdict {
  if (event.type !== AUDIENCE_EXPORT_EVENT) return { ok: false, message: `the event is '${event.type}', not '${AUDIENCE_EXPORT_EVENT}'` };
  const format = AUDIENCE_EXPORT_FORMATS.find((f) => f === event.format);
  if (!format) return { ok: false, message: `the export names no known format (format: ${JSON.stringify(event.format ?? null)}; expected one of ${AUDIENCE_EXPORT_FORMATS.join(', ')})` };
  const data = event.data;
  if (!data) return { ok: false, message: 'the export carries no audience (data)' };
  const atMs = event.webhookTimestamp !== undefined ? event.webhookTimestamp * 1000 : Date.parse(event.webhookDate ?? '');
  if (!Number.isFinite(atMs)) return { ok: false, message: 'the export has no time (webhookTimestamp or webhookDate)' };
  const { respondents: _respondents, ...audience } = data;
  const base = { webhookId: event.webhookId, format, exportedAt: new Date(atMs), audience };
  if (format === 'audience_definition') {
    const parsed = audienceDefinition.safeParse(data);
    if (!parsed.success) return { ok: false, message: `the audience definition is malformed (${firstIssue(parsed.error)})` };
    return { ok: true, value: { ...base, audienceId: parsed.data.id, audienceName: parsed.data.name, respondents: [] } };
  }
  const parsed = exportedAudience.safeParse(data);
  if (!parsed.success) return { ok: false, message: `the exported audience is malformed (${firstIssue(parsed.error)})` };
  const { pattern, text } = RESPONDENT_ID_PATTERNS[format];
  const seen = new Set<string>();
  for (const [i, id] of parsed.data.respondents.entries()) {
    // The id is the sender's text: only its place is named, never the text itself.
    if (!pattern.test(id)) return { ok: false, message: `respondent ${i + 1} is not ${text} (${format})` };
    if (seen.has(id)) return { ok: false, message: `respondent ${i + 1} repeats an earlier id` };
    seen.add(id);
  }
  return { ok: true, value: { ...base, audienceId: parsed.data.id, audienceName: parsed.data.name, respondents: parsed.data.respondents } };
}

/** `20251114T093000Z`: the export's second, safe in a file name on every system. */
const stampOf = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

/** The file names' common part: `audience-<id>-<time>` (`-<delivery>` when another export took it). */
export function audienceExportName(received: Pick<ReceivedAudienceExport, 'audienceId' | 'exportedAt'>): string {
  return `audience-${received.audienceId}-${stampOf(received.exportedAt)}`;
}

/** What the JSON file holds besides the audience. */
const exportRecord = z.object({
  export: z.object({
    format: z.enum(AUDIENCE_EXPORT_FORMATS),
    exported_at: z.string(),
    webhook_id: z.string(),
    respondents: z.number().int().nonnegative(),
    files: z.object({ csv: z.string().nullable(), parquet: z.string().nullable() }),
  }),
  audience: z.record(z.string(), z.unknown()),
});
export type AudienceExportRecord = z.infer<typeof exportRecord>;

/** The JSON file of an export, or undefined when there is none (or it is not one). */
export async function readExportRecord(path: string): Promise<AudienceExportRecord | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = exportRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The respondents as a table: the audience id, the format and the respondent id of each. */
export function toRespondentTable(received: Pick<ReceivedAudienceExport, 'audienceId' | 'format' | 'respondents'>): FrameTable {
  const n = received.respondents.length;
  const ids = new Int32Array(n).fill(received.audienceId);
  const columns: [string, FrameColumn][] = [
    ['audience_id', { kind: 'int', values: ids }],
    ['format', textColumn(n, () => received.format)],
    ['respondent_id', textColumn(n, (i) => received.respondents[i] ?? null)],
  ];
  return new FrameTable(columns, n, { source: 'audience export', notes: [] });
}

/** A CSV field; respondent ids are checked to need no quoting, but the writer does not rely on it. */
const csvField = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export interface WrittenAudienceExport {
  /** `written`: the files are new; `already`: this delivery's files were there, nothing was written. */
  readonly status: 'written' | 'already';
  /** The files of the export (JSON first), full paths. */
  readonly files: readonly string[];
}

/**
 * Writes an export's files into `dir`, all or none: `<name>.json` (the export and the audience
 * without respondents) and, for formats 2-4, `<name>.csv` and `<name>.parquet` (one row per
 * respondent). A delivery whose files are there already writes nothing. A file system error is an
 * `OutputError`; no file of the export is left.
 *
 * @example
 * const { status, files } = await writeAudienceExport('audiences', verdict.value);
 */
export async function writeAudienceExport(dir: string, received: ReceivedAudienceExport): Promise<WrittenAudienceExport> {
  let name = audienceExportName(received);
  const existing = await readExportRecord(join(dir, `${name}.json`));
  if (existing) {
    const filesOf = (n: string, r: AudienceExportRecord) => [join(dir, `${n}.json`), ...[r.export.files.csv, r.export.files.parquet].filter((f): f is string => f !== null).map((f) => join(dir, f))];
    if (existing.export.webhook_id === received.webhookId) return { status: 'already', files: filesOf(name, existing) };
    // Another export of the audience in the same second: this one's name carries its delivery.
    name = `${name}-${received.webhookId.replace(/[^0-9A-Za-z]/g, '').slice(0, 8)}`;
    const again = await readExportRecord(join(dir, `${name}.json`));
    if (again?.export.webhook_id === received.webhookId) return { status: 'already', files: filesOf(name, again) };
  }
  const withRespondents = received.format !== 'audience_definition';
  const record: AudienceExportRecord = {
    export: {
      format: received.format,
      exported_at: received.exportedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      webhook_id: received.webhookId,
      respondents: received.respondents.length,
      files: withRespondents ? { csv: `${name}.csv`, parquet: `${name}.parquet` } : { csv: null, parquet: null },
    },
    audience: received.audience,
  };
  const json = stageFile(join(dir, `${name}.json`));
  const data: StagedFile[] = withRespondents ? [stageFile(join(dir, `${name}.parquet`)), stageFile(join(dir, `${name}.csv`))] : [];
  const committed: StagedFile[] = [];
  try {
    if (withRespondents) {
      const [parquet, csv] = data as [StagedFile, StagedFile];
      await writeFile(parquet.tempPath, await toParquet(toRespondentTable(received)));
      const lines = [AUDIENCE_EXPORT_COLUMNS.join(',')];
      for (const id of received.respondents) lines.push(`${received.audienceId},${received.format},${csvField(id)}`);
      await writeFile(csv.tempPath, `${lines.join('\n')}\n`);
    }
    await writeFile(json.tempPath, `${JSON.stringify(record, null, 2)}\n`);
    for (const file of [...data, json]) {
      await file.commit();
      committed.push(file);
    }
  } catch (error) {
    await Promise.all([...data, json].map((f) => f.discard()));
    // The JSON is committed last: a failure before it leaves data files that no export names; they go.
    if (!committed.includes(json)) await Promise.all(committed.map((f) => rm(f.path, { force: true })));
    throw toOutputError(error, join(dir, `${name}.json`));
  }
  return { status: 'written', files: [json.path, ...data.map((f) => f.path).reverse()] };
}

/**
 * Checks the folder exports go to before listening: it exists, is a folder, can be written to.
 * `option` names it in the message (`audiencesTo`, or the CLI's `--audiences-to`).
 */
export async function checkAudiencesDir(dir: string, option = 'audiencesTo'): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new UsageError(`The folder of ${option} (${dir}) does not exist.`, { hint: 'Create it, or give another folder.' });
  if (!info.isDirectory()) throw new UsageError(`${option} ${dir} is not a folder.`, { hint: 'Give a folder: each export writes its own files there.' });
  await access(dir, constants.W_OK).catch(() => {
    throw new UsageError(`The folder of ${option} (${dir}) cannot be written to.`, { hint: 'Check its permissions, or give another folder.' });
  });
}
