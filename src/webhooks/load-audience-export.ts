/**
 * `loadAudienceExport`: an audience export written by the receiver (`--audiences-to`, or
 * `createWebhookReceiver({ audiencesTo })`) read back as a table of its respondents, one row each
 * (`audience_id`, `format`, `respondent_id`), so a notebook can join respondent ids with other
 * data. The export's JSON (its time, format, delivery and the audience without respondents) comes
 * with the table as `meta`. A definition export (format 1) has no respondents: its table is empty.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DataError, UsageError } from '../errors.js';
import { FrameTable, type FrameMeta } from '../frames/frame-table.js';
import { readParquet } from '../io/parquet.js';
import type { AudienceExportFormat } from '../schemas/audience-export.js';
import { AUDIENCE_EXPORT_COLUMNS, readExportRecord, toRespondentTable } from './audience-export-files.js';

/** One respondent of an export. */
export interface AudienceRespondentRow {
  audience_id: number;
  format: AudienceExportFormat;
  /** A BAV respondent id (UUID v4), an Audience Origin id or a progressive number, by format. */
  respondent_id: string;
}

export interface AudienceExportMeta extends FrameMeta {
  readonly audienceId: number;
  readonly format: AudienceExportFormat;
  readonly exportedAt: Date;
  /** The delivery the export came in. */
  readonly webhookId: string;
  /** The audience as exported, without its respondents (format 1: the full definition). */
  readonly audience: Readonly<Record<string, unknown>>;
}

/**
 * Reads an export back: give any of its files (`.json`, `.csv`, `.parquet`) or their common name.
 *
 * @example
 * const table = await loadAudienceExport('audiences/audience-20-20251114T093000Z.json');
 * table.meta.audience['name']; // 'Urban Professionals'
 * const ids = new Set(table.values('respondent_id'));
 */
export async function loadAudienceExport(path: string): Promise<FrameTable<AudienceRespondentRow, AudienceExportMeta>> {
  const base = path.replace(/\.(json|csv|parquet)$/i, '');
  const jsonPath = `${base}.json`;
  const record = await readExportRecord(jsonPath);
  if (!record) {
    throw new UsageError(`${path} is not an audience export: ${existsSync(jsonPath) ? `${jsonPath} is not an export's JSON` : `there is no ${jsonPath}`}.`, {
      hint: 'Give a file written by `brandscape webhooks listen --audiences-to DIR` (audience-<id>-<time>.json, .csv or .parquet).',
    });
  }
  const audienceId = Number(record.audience['id']);
  const meta: AudienceExportMeta = {
    source: 'loadAudienceExport',
    notes: record.export.format === 'audience_definition' ? ['A definition export (format 1) carries no respondents; the audience is in meta.audience.'] : [],
    audienceId,
    format: record.export.format,
    exportedAt: new Date(record.export.exported_at),
    webhookId: record.export.webhook_id,
    audience: record.audience,
  };
  if (record.export.files.parquet === null) {
    const empty = toRespondentTable({ audienceId, format: record.export.format, respondents: [] });
    return new FrameTable<AudienceRespondentRow, AudienceExportMeta>(empty.entries(), 0, meta);
  }
  const parquetPath = join(dirname(jsonPath), record.export.files.parquet);
  if (!existsSync(parquetPath)) throw new DataError(`The respondents of ${jsonPath} are missing (${parquetPath}).`, [record.export.files.parquet], []);
  const table = await readParquet(parquetPath);
  const missing = AUDIENCE_EXPORT_COLUMNS.filter((c) => !table.has(c));
  if (missing.length > 0) throw new DataError(`${parquetPath} is not the respondents of an audience export.`, missing, table.columnNames);
  if (table.length !== record.export.respondents) {
    throw new DataError(`${parquetPath} holds ${table.length} respondents; ${jsonPath} says ${record.export.respondents}.`, [], [], { hint: 'The files do not belong together: ask for the export again.' });
  }
  return new FrameTable<AudienceRespondentRow, AudienceExportMeta>(AUDIENCE_EXPORT_COLUMNS.map((c) => [c, table.column(c)] as const), table.length, meta);
}
