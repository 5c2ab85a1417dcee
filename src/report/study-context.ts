/**
 * The released studies behind a report: which markets and years have data, what `latest` stands
 * for, each market's name, and (with their `data_updated_at`) the fingerprint `--since-last-run`
 * compares between runs. One request; `checkAgainstService` reads the same studies to check the
 * template's markets and years before anything else is loaded.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import type { LoadedQuery } from '../load/load-comparison-input.js';
import type { Study as StudyRecord, StudySlim } from '../schemas/studies.js';
import { latestYear, toCalendarYear } from './template/latest-year.js';
import type { ResolvedTemplate } from './template/resolve-template.js';
import { TemplateError } from './template/template-error.js';
import type { YearValue } from './template/template-params.js';

type Client = Pick<BrandscapeClient, 'studies'>;

/** A released study behind the report: what `--since-last-run` compares between runs. */
export interface StudyStamp {
  readonly id: number;
  readonly countryCode: string;
  readonly market: string;
  readonly year: number;
  readonly period: string;
  readonly dataUpdatedAt: string | null;
}

/** A market of the report and the years it has released full-year data for. */
export interface MarketInfo {
  readonly code: string;
  /** The market's name, or its code when the service knows no study of it. */
  readonly name: string;
  readonly years: readonly number[];
}

/** The studies a template's markets have: what `latest` is, the years asked for, the run's fingerprint. */
export interface StudyContext {
  readonly studyRecords: readonly Study[];
  readonly latest: number;
  /** The template's data years, as calendar years. */
  readonly years: readonly number[];
  /** Every year any section looks at. */
  readonly allYears: ReadonlySet<number>;
  /** Every market of the data and the sections, with its name and years. */
  readonly markets: readonly MarketInfo[];
  /** The released studies of those markets and years: what `--since-last-run` compares. */
  readonly stamps: readonly StudyStamp[];
  readonly notes: readonly string[];
  readonly query: LoadedQuery;
  readonly calendar: (value: YearValue) => number;
}

/** A released study as `loadReleasedStudies` asks for it: the record with its country and year included. */
export type Study = StudyRecord & Pick<StudySlim, 'country' | 'year'>;

export const isFullYear = (s: { name?: string | null; period?: { name?: string | null } | null }) => !/\bQ[1-4]\b/.test(`${s.period?.name ?? ''} ${s.name ?? ''}`);

/**
 * One request: the released studies of the template's markets, which say what `latest` is, which
 * years exist, each market's name, and (with their `data_updated_at`) whether anything behind the
 * report changed since the last run.
 */
export async function loadStudyContext(client: Pick<Client, 'studies'>, template: ResolvedTemplate, signal?: AbortSignal): Promise<StudyContext> {
  return studyContextOf(template, await loadReleasedStudies(client, template, signal));
}

/** Every market of a template: its data's, then its sections' own, each once. */
export function templateMarkets(template: ResolvedTemplate): string[] {
  const { data, sections } = template;
  return [...new Set([...data.markets, ...sections.flatMap((s) => ('markets' in s ? (s.markets ?? []) : 'market' in s && s.market ? [s.market] : []))])];
}

const studyQueryOf = (template: ResolvedTemplate) => ({ filter: { country_codes: templateMarkets(template), released: true }, include: ['country', 'year'] as const });

/** The released studies of every market of a template (one request). */
export async function loadReleasedStudies(client: Pick<Client, 'studies'>, template: ResolvedTemplate, signal?: AbortSignal): Promise<Study[]> {
  return client.studies.all(studyQueryOf(template), signal ? { signal } : {});
}

/** A released study as the year rule reads it. */
export const studyYearOf = (s: Study) => ({ countryCode: s.country?.code ?? '', year: Number(s.year?.year ?? NaN), fullYear: isFullYear(s) });

/** The study context from the released studies of the template's markets (`loadReleasedStudies`). */
export function studyContextOf(template: ResolvedTemplate, studyRecords: readonly Study[]): StudyContext {
  const { data, sections } = template;
  const notes: string[] = [];
  const markets = templateMarkets(template);
  const params = studyQueryOf(template);
  const studyYears = studyRecords.map(studyYearOf);
  const latest = latestYear(studyYears, data.markets);
  notes.push(...latest.notes);
  if (latest.year === undefined) {
    throw new TemplateError(template.source, [{ path: 'data.markets', message: `no released full-year study in ${data.markets.join(', ')}; check the market codes` }]);
  }
  const latestValue = latest.year;
  const calendar = (v: YearValue) => toCalendarYear(v, latestValue);
  const years = [...new Set((data.years ?? ['latest']).map(calendar))].sort((a, b) => a - b);
  const allYears = new Set(years);
  for (const s of sections) {
    if ('year' in s) allYears.add(calendar(s.year ?? 'latest'));
    if ('years' in s && s.years !== undefined) for (const y of s.years) allYears.add(calendar(y));
  }
  return {
    studyRecords,
    latest: latestValue,
    years,
    allYears,
    markets: markets.map((code) => ({
      code,
      name: studyRecords.find((s) => s.country?.code === code)?.country?.name ?? code,
      years: [...new Set(studyYears.filter((s) => s.countryCode === code && s.fullYear).map((s) => s.year))].sort((a, b) => a - b),
    })),
    stamps: studyRecords
      .filter((s) => allYears.has(Number(s.year?.year ?? NaN)))
      .map((s) => ({ id: s.id, countryCode: s.country?.code ?? '', market: s.country?.name ?? '', year: Number(s.year?.year), period: s.period?.name ?? '', dataUpdatedAt: s.data_updated_at ?? null }))
      .sort((a, b) => a.id - b.id),
    notes,
    query: { resource: 'studies', params: { filter: params.filter, include: [...params.include] }, records: studyRecords.length },
    calendar,
  };
}

