/**
 * What the service sends when a user exports an audience to an application (§16): the audience in
 * one of four formats, to one subscriber, subject to that subscriber's access control. The
 * documented parts are followed (the slimmed-down payload of formats 2-4, respondent ids as UUID v4,
 * Audience Origin ids, progressive numbers such as `808_2x_4`); the rest is the emulator's choice,
 * written in §23.2. Deterministic from the seed: the same audience, study and format give the
 * same respondents.
 *
 * Respondents: a study's respondents are numbered 0..n-1; an audience holds each one with the
 * probability of its share of adults (All Adults holds all of them), so one respondent keeps the
 * same ids in every audience it belongs to. The emulator's studies count as Honeycomb studies (BAV
 * and Audience Origin data fused, §16.1), so every format is available for each of them.
 */
import { AUDIENCE_EXPORT_FORMATS, type AudienceDefinition, type AudienceExportFormat, type ExportedAudience, type ExportUser } from '../schemas/audience-export.js';
import { DEFAULT_USER, type AudienceEntity, type Dataset, type StudyEntity } from './dataset/types.js';
import { operatingCompanies } from './dataset/operating-companies.js';
import { AUDIENCE_GROUPS, AUDIENCES } from './dataset/reference-data.js';
import { h2, h4, unit, uuidV4Of } from './dataset/rng.js';
import { ApiError } from './http/api-error.js';

/** Who may receive exports, and in which formats (§16.2); every part omitted = no restriction. */
export interface AudienceExportAccess {
  /** Formats approved for this application (formats 2-4 need approval, §16.1). */
  formats?: readonly AudienceExportFormat[];
  /** Operating company ids whose users may export here (an agency's parents count too). */
  operatingCompanies?: readonly number[];
  /** E-mails of users who may export here (the programmatic allow-list). */
  users?: readonly string[];
}

export interface AudienceExportRequest {
  audienceId: number;
  format: AudienceExportFormat;
  /** URL of the subscription to deliver to; default: the only one that takes audience exports. */
  subscriber?: string;
  /** The exporting user (default: a private audience's owner, else the default user). */
  user?: string;
  /** The study whose respondents the audience selects (default: the latest released full-year study). */
  studyId?: number;
}

export interface BuiltExport {
  readonly data: AudienceDefinition | ExportedAudience;
  readonly respondents: number;
  readonly user: ExportUser;
  readonly studyId: number;
}

const SALT = 0xa0d1;
const short = (stamp: string | null) => (stamp === null ? null : stamp.replace(/\.\d+Z$/, 'Z'));

/** A user of the emulated service as exports name them: stable id, e-mail and agency from the handle. */
export function exportUserOf(seed: number, handle: string): ExportUser {
  let hash = 0;
  for (const ch of handle) hash = h2(hash, ch.codePointAt(0) ?? 0);
  const agencies = operatingCompanies();
  // The dataset's two users: the default one at the BAV Group, as an analyst of the data would be,
  // the owner of the other private records at Ogilvy; anyone else at an agency picked by the hash.
  const named = handle === DEFAULT_USER ? 'BAV Group' : handle === 'someone-else' ? 'Ogilvy' : undefined;
  const agency = named ? agencies.find((a) => a.record.name === named) : agencies[1 + (h2(seed, hash) % (agencies.length - 1))];
  const name = handle.replace(/[-_.]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  return {
    id: 1 + (h2(seed ^ 0x5e, hash) % 90_000),
    name,
    email: `${handle.toLowerCase().replace(/[^a-z0-9._-]+/g, '.')}@example.com`,
    operating_company: agency ? { id: agency.record.id, name: agency.record.name ?? null } : null,
  };
}

/** Agency ids of a user's operating company and the companies above it. */
function agencyChain(companyId: number | undefined): number[] {
  const byId = new Map(operatingCompanies().map((o) => [o.record.id, o]));
  const chain: number[] = [];
  for (let id = companyId; id !== undefined && !chain.includes(id); id = byId.get(id)?.parentId ?? undefined) chain.push(id);
  return chain;
}

/** Refuses an export the subscriber's access control does not allow (§16.2), saying why. */
export function checkExportAccess(access: AudienceExportAccess | undefined, url: string, format: AudienceExportFormat, user: ExportUser): void {
  if (!access) return;
  if (access.formats && !access.formats.includes(format)) {
    throw new ApiError(403, `The application at ${url} is not approved for ${format} exports (approved: ${access.formats.join(', ') || 'none'}).`);
  }
  const byCompany = access.operatingCompanies?.some((id) => agencyChain(user.operating_company?.id).includes(id)) ?? false;
  const byUser = access.users?.some((e) => e.toLowerCase() === user.email?.toLowerCase()) ?? false;
  if ((access.operatingCompanies || access.users) && !byCompany && !byUser) {
    throw new ApiError(403, `${user.email ?? 'This user'} (${user.operating_company?.name ?? 'no agency'}) may not export to the application at ${url}: neither the user nor the agency is allowed.`);
  }
}

/** The study an export draws its respondents from. */
function studyOf(ds: Dataset, studyId: number | undefined): StudyEntity {
  if (studyId !== undefined) {
    const study = ds.studies.find((s) => s.record.id === studyId);
    if (!study) throw new ApiError(404, `No study with id ${studyId}.`);
    if (!study.released) throw new ApiError(409, `Study ${studyId} is not released: its respondents cannot be exported yet.`);
    return study;
  }
  const latest = ds.studies.filter((s) => s.released && s.quarter === null).at(-1);
  if (!latest) throw new ApiError(409, 'No released study to export respondents from.');
  return latest;
}

/** The respondents (0..n-1 of the study) the audience holds. */
function membersOf(ds: Dataset, audience: AudienceEntity, study: StudyEntity): number[] {
  const n = Number(study.record.respondents ?? 0);
  const share = AUDIENCES.find((a) => a.id === audience.record.id)?.share ?? 0.1;
  const members: number[] = [];
  for (let i = 0; i < n; i++) if (share >= 1 || unit(h4(ds.seed, SALT, study.record.id * 100_000 + i, audience.record.id)) < share) members.push(i);
  return members;
}

/** A respondent's id in a format: BAV UUIDs, Audience Origin ids (UUIDs from 2022, older ones by market and year), progressive numbers. */
function respondentId(ds: Dataset, study: StudyEntity, format: Exclude<AudienceExportFormat, 'audience_definition'>, i: number): string {
  const studyId = study.record.id;
  if (format === 'bav_respondent_ids') return uuidV4Of(ds.seed, SALT, studyId, i);
  if (format === 'audience_origin_respondent_ids') {
    if (study.yearNumber >= 2022) return uuidV4Of(ds.seed, SALT + 1, studyId, i);
    const code = ds.countries.find((c) => c.record.id === study.countryId)?.record.code ?? 'XX';
    return `${code}${String(study.yearNumber % 100).padStart(2, '0')}-${String(i + 1).padStart(6, '0')}`;
  }
  // `808_2x_4`: the study's panel number, the batch (5,000 a batch), the respondent's place in it.
  return `${800 + (studyId % 200)}_${1 + Math.floor(i / 5000)}x_${(i % 5000) + 1}`;
}

/** Format 1's segments and logic (the emulator's choice): one question per audience group, custom audiences combine several. */
function definitionOf(audience: AudienceEntity): Pick<AudienceDefinition, 'segments' | 'logic'> {
  const name = audience.record.name ?? '';
  const seg = (id: number, question_key: string, question: string, answers: string[]) => ({ id, dataset: 'bav', question_key, question, answers });
  if (audience.record.id === 1) return { segments: [], logic: '' };
  if (name === 'Urban Professionals') {
    return { segments: [seg(1, 'urbanity', 'Where do you live?', ['City centre', 'Suburb']), seg(2, 'education', 'Highest education', ['Graduate', 'Postgraduate']), seg(3, 'employment', 'Employment', ['Full time'])], logic: '1 AND 2 AND 3' };
  }
  if (name === 'Premium Shoppers') {
    return { segments: [seg(1, 'premium_purchase', 'Bought a premium brand in the last month', ['Yes']), seg(2, 'household_income', 'Household income', ['Top third']), seg(3, 'premium_intent', 'Plans to buy premium', ['Yes'])], logic: '1 AND (2 OR 3)' };
  }
  const ages: Readonly<Record<string, string[]>> = { 'Age 18-34': ['18-24', '25-34'], 'Age 35-54': ['35-44', '45-54'], 'Age 55+': ['55-64', '65+'] };
  const group = AUDIENCE_GROUPS.find((g) => g.id === audience.groupId)?.name ?? 'Segment';
  const key = group.toLowerCase().replace(/[^a-z]+/g, '_');
  return { segments: [seg(1, key, group, ages[name] ?? [name])], logic: '1' };
}

/**
 * The payload of an export: format 1's definition, or the slimmed-down audience with its respondents.
 * Throws an `ApiError` (404 unknown audience or study, 403 an audience the user may not see).
 */
export function buildAudienceExport(ds: Dataset, request: AudienceExportRequest): BuiltExport {
  const audience = ds.audiences.find((a) => a.record.id === request.audienceId);
  if (!audience) throw new ApiError(404, `No audience with id ${request.audienceId}.`);
  const handle = request.user ?? audience.ownerUser ?? DEFAULT_USER;
  if (audience.record.is_public === false && audience.ownerUser !== handle) {
    throw new ApiError(403, `${handle} may not export audience ${audience.record.id}: it is private to its owner.`);
  }
  const user = exportUserOf(ds.seed, handle);
  const study = studyOf(ds, request.studyId);
  const members = membersOf(ds, audience, study);
  const record = audience.record;
  const group = AUDIENCE_GROUPS.find((g) => g.id === audience.groupId);
  // Standard audiences are the service's own cuts; those users build (the Custom group) are not.
  const common = {
    is_standard: audience.groupId !== 8,
    deployed_at: record.created_at,
    segments_updated_at: record.updated_at,
    group: group ? { id: group.id, name: group.name } : null,
    user,
  };
  if (request.format === 'audience_definition') {
    const share = AUDIENCES.find((a) => a.id === record.id)?.share ?? null;
    const data: AudienceDefinition = {
      ...record,
      ...common,
      ...definitionOf(audience),
      metrics: [
        { key: 'sample_size', name: `Respondents in ${study.record.name ?? `study ${study.record.id}`}`, value: members.length },
        { key: 'population_share', name: 'Share of adults', value: share },
      ],
    };
    return { data, respondents: 0, user, studyId: study.record.id };
  }
  const format = request.format;
  // The documented example's order and its short timestamps (§16.3).
  const data: ExportedAudience = {
    id: record.id,
    name: record.name,
    description: record.description,
    is_active: record.is_active,
    is_public: record.is_public,
    is_standard: common.is_standard,
    deployed_at: short(common.deployed_at),
    segments_updated_at: short(common.segments_updated_at),
    created_at: short(record.created_at),
    updated_at: short(record.updated_at),
    group: common.group,
    user,
    respondents: members.map((i) => respondentId(ds, study, format, i)),
  };
  return { data, respondents: members.length, user, studyId: study.record.id };
}

/** A format given as its name or its number in §16.1 (1-4). */
export function fromFormat(value: unknown): AudienceExportFormat | undefined {
  if (typeof value === 'number') return AUDIENCE_EXPORT_FORMATS[value - 1];
  return AUDIENCE_EXPORT_FORMATS.find((f) => f === value);
}
