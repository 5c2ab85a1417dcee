/**
 * Which reports a webhook event touches, and their rebuild: a new or updated study touches a
 * template when the study's market is one of the template's markets and its year one of the years
 * the template reads (`latest` resolved against the studies as they are now, after the event).
 * Other events touch nothing: reports read studies' data, and a study's release is what changes it.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { loadStudyContext } from '../report/load-report-data.js';
import { resolveTemplate, type Template } from '../report/template/resolve-template.js';
import { runReport, type RunReportOptions, type RunReportResult } from '../report/run-report.js';
import type { WebhookEvent } from './verify-webhook.js';

type Client = Parameters<typeof runReport>[0] & Pick<BrandscapeClient, 'studies'>;

export interface ReportTarget {
  template: Template;
  /** Parameter values, as `runReport` takes them. */
  parameters?: Readonly<Record<string, unknown>>;
}

export interface StudyOfEvent {
  id: number;
  countryCode: string;
  year: number;
}

/** The study a Study event is about, read from the service (the event's record has no market or year). */
export async function studyOfEvent(client: Pick<BrandscapeClient, 'studies'>, event: WebhookEvent, signal?: AbortSignal): Promise<StudyOfEvent | undefined> {
  if (event.type !== 'Study' || event.action === 'delete') return undefined;
  const id = event.data?.['id'];
  if (typeof id !== 'number' || !Number.isInteger(id)) return undefined;
  const study = await client.studies.get(id, { include: ['country', 'year'] }, signal ? { signal } : {});
  const year = Number(study.year?.year);
  const countryCode = study.country?.code;
  return countryCode && Number.isInteger(year) ? { id, countryCode, year } : undefined;
}

/** Whether the study is in the template's markets and years. */
export async function touches(client: Pick<BrandscapeClient, 'studies'>, target: ReportTarget, study: StudyOfEvent, signal?: AbortSignal): Promise<boolean> {
  const resolved = resolveTemplate(target.template, target.parameters ?? {});
  const context = await loadStudyContext(client, resolved, signal);
  return context.markets.some((m) => m.code === study.countryCode) && context.allYears.has(study.year);
}

export interface RefreshOutcome {
  template: string;
  result: RunReportResult;
}

/**
 * Rebuilds, one after another, the targets the event touches.
 *
 * @example
 * const outcomes = await refreshReports(client, event, [{ template: await loadTemplate('cross-market-brand-health') }], { outDir: 'reports' });
 */
export async function refreshReports(
  client: Client,
  event: WebhookEvent,
  targets: readonly ReportTarget[],
  options: Omit<RunReportOptions, 'parameters'> = {},
): Promise<{ study: StudyOfEvent | undefined; outcomes: RefreshOutcome[] }> {
  const study = await studyOfEvent(client, event, options.signal);
  const outcomes: RefreshOutcome[] = [];
  if (!study) return { study, outcomes };
  for (const target of targets) {
    if (!(await touches(client, target, study, options.signal))) continue;
    const result = await runReport(client, target.template, { ...options, ...(target.parameters ? { parameters: target.parameters } : {}) });
    outcomes.push({ template: target.template.name, result });
  }
  return { study, outcomes };
}
