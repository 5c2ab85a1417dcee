/**
 * The BAV MCP server's tools, answered from the emulator's dataset: the data tools read the same
 * brandscape values `/brandscape-data` serves (or the same TurboPitch tool answers), the metadata
 * tools the records of the REST resources. Missing parameters are filled by the server-side
 * fallbacks of §23.3; a call with none of brands, countries or years is refused, as the
 * first generation of the servers did.
 */
import { BAV_DATA_TOOLS, MCP_MAX_ROWS, type BavDataInput, type BavDataToolName, type BavMetadataToolName } from '../../catalogue/mcp-servers.js';
import type { AudienceEntity, BrandEntity, MetricColumn, StudyEntity } from '../dataset/types.js';
import type { Ctx } from '../http/bindings.js';
import { runTool } from '../http/tools.js';
import { fold, lookupAudiences, lookupBrands, lookupCountries, visibleAudiences, ToolInputError, type Json } from './lookup.js';

/** A study as the answers name it. */
interface StudyInfo {
  study_id: number;
  country_code: string;
  market: string;
  year: number;
}

const studyInfo = (ctx: Ctx, s: StudyEntity): StudyInfo => {
  const country = ctx.idx.countries.get(s.countryId);
  return { study_id: s.record.id, country_code: country?.record.code ?? '', market: country?.record.name ?? '', year: s.yearNumber };
};

const label = (ctx: Ctx, s: StudyEntity) => `${ctx.idx.countries.get(s.countryId)?.record.code ?? '?'} ${s.yearNumber}`;

/** Released full-year BAV studies: the ones the tools answer from (US quarterly waves are left out). */
const answerableStudies = (ctx: Ctx) => ctx.ds.studies.filter((s) => s.released && s.isBavStudy && s.quarter === null);

interface Selection {
  studies: StudyEntity[];
  brands: BrandEntity[] | undefined;
  audiences: AudienceEntity[];
  notes: string[];
}

/**
 * The studies, brands and audiences a data call is about, with the fallbacks: without years the
 * latest year with released data in each market (where the brands are studied, if given); without
 * markets every market where the brands are studied (or every market); without audiences All
 * Adults (or the tool's own default).
 */
function select(ctx: Ctx, input: BavDataInput, defaultAudience: string | undefined): Selection {
  if (input.brands === undefined && input.countries === undefined && input.years === undefined) {
    throw new ToolInputError('Give at least one of brands, countries or years: with none of them the question is every brand of every market. For example {"brands": ["Veros"], "countries": ["GB"]}.');
  }
  const notes: string[] = [];
  const brands = input.brands === undefined ? undefined : lookupBrands(ctx, input.brands);
  const countries = input.countries === undefined ? undefined : lookupCountries(ctx, input.countries);
  const audiences = lookupAudiences(ctx, input.audiences ?? [defaultAudience ?? 1]);
  let studies = answerableStudies(ctx);
  if (countries) {
    const ids = new Set(countries.map((c) => c.record.id));
    studies = studies.filter((s) => ids.has(s.countryId));
  }
  if (brands) {
    const studied = new Set(brands.flatMap((b) => b.studyIds));
    const withBrands = studies.filter((s) => studied.has(s.record.id));
    if (withBrands.length === 0) {
      throw new ToolInputError(`${brands.map((b) => b.record.name).join(', ')} ${brands.length > 1 ? 'are' : 'is'} not studied in ${countries ? countries.map((c) => c.record.code).join(', ') : 'any market'}.`);
    }
    studies = withBrands;
  }
  if (input.years) {
    const wanted = new Set(input.years);
    const kept = studies.filter((s) => wanted.has(s.yearNumber));
    if (kept.length === 0) {
      const available = [...new Set(studies.map((s) => s.yearNumber))].sort((a, b) => a - b);
      throw new ToolInputError(`No released study for ${input.years.join(', ')}${countries ? ` in ${countries.map((c) => c.record.code).join(', ')}` : ''}${brands ? ` with ${brands.map((b) => b.record.name).join(', ')}` : ''}. Years with data: ${available.join(', ') || 'none'}.`);
    }
    studies = kept;
  } else {
    // The latest year in each market: what "how is the brand doing" means without a year.
    const latest = new Map<number, number>();
    for (const s of studies) latest.set(s.countryId, Math.max(latest.get(s.countryId) ?? 0, s.yearNumber));
    studies = studies.filter((s) => latest.get(s.countryId) === s.yearNumber);
  }
  if (countries) {
    for (const c of countries) if (!studies.some((s) => s.countryId === c.record.id)) notes.push(`No study of ${c.record.code} answers this${input.years ? ` in ${input.years.join(', ')}` : ''}${brands ? ' with these brands' : ''}.`);
  }
  const order = (s: StudyEntity) => `${ctx.idx.countries.get(s.countryId)?.record.code ?? ''}${s.yearNumber}`;
  studies.sort((a, b) => order(a).localeCompare(order(b)));
  return { studies, brands, audiences, notes };
}

/** The metric columns a `columns` tool answers. */
function columnsOf(ctx: Ctx, groupKeys: readonly string[] = [], metricKeys: readonly string[] = []): MetricColumn[] {
  return ctx.ds.brandscape.columns.filter((c) => groupKeys.includes(c.groupKey) || metricKeys.includes(c.metricKey));
}

type Row = Record<string, Json>;

/** The answer of a data tool: what was asked for as resolved, the rows (cut at the bound), notes. */
export interface BavAnswer {
  [key: string]: Json;
  tool: string;
  audiences: { id: number; name: string }[];
  studies: Json[];
  total_rows: number;
  truncated: boolean;
  rows: Row[];
  notes: string[];
}

function brandscapeRows(ctx: Ctx, selection: Selection, columns: readonly MetricColumn[]): { rows: Row[]; total: number } {
  const rows: Row[] = [];
  let total = 0;
  const wanted = selection.brands ? new Set(selection.brands.map((b) => b.record.id)) : undefined;
  for (const study of selection.studies) {
    const block = ctx.ds.brandscape.rowsOf(study.record.id);
    for (const audience of selection.audiences) {
      const audienceId = audience.record.id;
      if (!block.audienceIds.includes(audienceId)) {
        selection.notes.push(`${label(ctx, study)} has no data for ${audience.record.name} (id ${audienceId}).`);
        continue;
      }
      const picked: number[] = [];
      for (let i = 0; i < block.length; i++) if (!wanted || wanted.has(block.brandIds[i] ?? 0)) picked.push(i);
      total += picked.length;
      if (rows.length >= MCP_MAX_ROWS || picked.length === 0) continue;
      // The same store the brandscape endpoint reads: the values are the values it serves.
      const values = ctx.ds.brandscape.values(study.record.id, audienceId, columns.map((c) => c.index));
      const firstRowId = ctx.ds.brandscape.firstRowId(study.record.id, audienceId);
      for (const i of picked) {
        if (rows.length >= MCP_MAX_ROWS) break;
        const brandId = block.brandIds[i] ?? 0;
        const row: Row = {
          id: firstRowId + i,
          study_id: study.record.id,
          country_code: ctx.idx.countries.get(study.countryId)?.record.code ?? '',
          year: study.yearNumber,
          audience_id: audienceId,
          brand_id: brandId,
          brand_name: block.brandNames[i] ?? null,
          global_brand_name: ctx.idx.brands.get(brandId)?.record.name ?? null,
          category_id: block.categoryIds[i] ?? null,
          category_name: block.categoryNames[i] ?? null,
          is_duplicate: block.isDuplicate[i] === 1,
        };
        columns.forEach((c, k) => {
          const v = values[k]?.[i];
          row[c.name] = v === undefined || Number.isNaN(v) ? null : v;
        });
        rows.push(row);
      }
    }
  }
  return { rows, total };
}

function toolRows(ctx: Ctx, selection: Selection, slug: 'brand-worth-map' | 'commitment-funnel'): { rows: Row[]; total: number } {
  const rows: Row[] = [];
  for (const study of selection.studies) {
    const block = ctx.ds.brandscape.rowsOf(study.record.id);
    const inStudy = new Set<number>();
    for (let i = 0; i < block.length; i++) inStudy.add(block.brandIds[i] ?? 0);
    const brandIds = selection.brands ? selection.brands.map((b) => b.record.id).filter((id) => inStudy.has(id)) : [...inStudy];
    for (const b of selection.brands ?? []) if (!inStudy.has(b.record.id)) selection.notes.push(`${b.record.name} is not studied in ${label(ctx, study)}.`);
    if (brandIds.length === 0) continue;
    for (const audience of selection.audiences) {
      if (!block.audienceIds.includes(audience.record.id)) {
        selection.notes.push(`${label(ctx, study)} has no data for ${audience.record.name} (id ${audience.record.id}).`);
        continue;
      }
      // The TurboPitch tool itself: the same answer `/tools/<slug>` gives for these brands.
      const params = new URLSearchParams({ brands: brandIds.join(','), studies: String(study.record.id), audiences: String(audience.record.id) });
      const { data } = runTool(slug, params, ctx, true);
      const entries = (Array.isArray(data) ? data : ((data as { data?: unknown }).data ?? [])) as Row[];
      for (const entry of entries) rows.push({ country_code: ctx.idx.countries.get(study.countryId)?.record.code ?? '', year: study.yearNumber, ...entry });
    }
  }
  return { rows: rows.slice(0, MCP_MAX_ROWS), total: rows.length };
}

/** Answers a BAV data tool. */
export function bavData(ctx: Ctx, tool: BavDataToolName, input: BavDataInput): BavAnswer {
  const source = BAV_DATA_TOOLS[tool].source;
  const selection = select(ctx, input, 'defaultAudience' in source ? source.defaultAudience : undefined);
  const { rows, total } =
    source.kind === 'tool'
      ? toolRows(ctx, selection, source.slug)
      : brandscapeRows(ctx, selection, columnsOf(ctx, 'metricGroupKeys' in source ? source.metricGroupKeys : [], 'metricKeys' in source ? source.metricKeys : []));
  const truncated = total > rows.length;
  if (truncated) selection.notes.push(`${total} rows answer this; the first ${rows.length} are here. Name brands, markets or years to narrow it.`);
  if (total === 0 && selection.notes.length === 0) selection.notes.push('No data answers this.');
  return {
    tool,
    audiences: selection.audiences.map((a) => ({ id: a.record.id, name: a.record.name ?? '' })),
    studies: selection.studies.map((s) => ({ ...studyInfo(ctx, s) })),
    total_rows: total,
    truncated,
    rows,
    notes: [...new Set(selection.notes)],
  };
}

const matches = (name: string | null | undefined, search: string | undefined) => search === undefined || fold(name ?? '').includes(fold(search));

/** A list answer: records cut at the limit, with the total. */
function listAnswer(tool: string, key: string, records: readonly Json[], limit: number): Record<string, Json> {
  const kept = records.slice(0, limit);
  return {
    tool,
    total: records.length,
    truncated: records.length > kept.length,
    [key]: [...kept],
    notes: records.length > kept.length ? [`${records.length} match; the first ${kept.length} are here. Give a search text to narrow it.`] : [],
  };
}

/** Answers a BAV metadata tool with the records of its REST resource. */
export function bavMetadata(ctx: Ctx, tool: BavMetadataToolName, input: { search?: string | undefined; countries?: string[] | undefined; sectors?: (string | number)[] | undefined; limit?: number | undefined }): Record<string, Json> {
  const limit = input.limit ?? 50;
  switch (tool) {
    case 'get-brands': {
      const countryIds = input.countries === undefined ? undefined : new Set(lookupCountries(ctx, input.countries).map((c) => c.record.id));
      const brands = ctx.ds.brands.filter((b) => matches(b.record.name, input.search));
      const records = brands
        .map((b) => ({ brand: b, markets: [...new Set(b.studyIds.map((id) => ctx.idx.studies.get(id)).filter((s) => s?.released).map((s) => s!.countryId))] }))
        .filter(({ markets }) => countryIds === undefined || markets.some((m) => countryIds.has(m)))
        .map(({ brand, markets }) => ({ ...(brand.record as Record<string, Json>), markets: markets.map((m) => ctx.idx.countries.get(m)?.record.code ?? '').sort() }));
      return listAnswer(tool, 'brands', records, limit);
    }
    case 'get-markets': {
      const records = [...ctx.idx.releasedYearsByCountry]
        .map(([id, years]) => ({ country: ctx.idx.countries.get(id), years: [...years].sort((a, b) => a - b) }))
        .filter((m) => m.country !== undefined && matches(m.country.record.name, input.search))
        .sort((a, b) => String(a.country!.record.code).localeCompare(String(b.country!.record.code)))
        .map((m) => ({ ...(m.country!.record as Record<string, Json>), years: m.years }));
      return listAnswer(tool, 'markets', records, Number.MAX_SAFE_INTEGER);
    }
    case 'get-sectors':
      return listAnswer(tool, 'sectors', ctx.ds.sectors.filter((s) => matches(s.record.name, input.search)).map((s) => s.record as Record<string, Json>), Number.MAX_SAFE_INTEGER);
    case 'get-categories': {
      const sectorIds =
        input.sectors === undefined
          ? undefined
          : new Set(
              input.sectors.map((ref) => {
                const sector = typeof ref === 'number' ? ctx.idx.sectors.get(ref) : ctx.ds.sectors.find((s) => fold(s.record.name ?? '') === fold(ref));
                if (!sector) throw new ToolInputError(`There is no sector ${typeof ref === 'number' ? `with id ${ref}` : `named '${ref}'`}. Sectors: ${ctx.ds.sectors.map((s) => s.record.name).join(', ')}.`);
                return sector.record.id;
              }),
            );
      const records = ctx.ds.categories
        .filter((c) => matches(c.record.name, input.search) && (sectorIds === undefined || sectorIds.has(c.sectorId)))
        .map((c) => ({ ...(c.record as Record<string, Json>), sector_id: c.sectorId, sector_name: ctx.idx.sectors.get(c.sectorId)?.record.name ?? null }));
      return listAnswer(tool, 'categories', records, limit);
    }
    case 'get-audiences':
      return listAnswer(tool, 'audiences', visibleAudiences(ctx).filter((a) => matches(a.record.name, input.search)).map((a) => a.record as Record<string, Json>), Number.MAX_SAFE_INTEGER);
  }
}

