/**
 * Audience export (§16): when a user exports an audience from The Fount to an application, the
 * service sends that application a webhook carrying the audience. Documented: the four formats, and
 * the slimmed-down audience of formats 2-4 with its `respondents`. Undocumented, and so the
 * emulator's choice (§23.2), shared here by the emulator that sends and the receiver that
 * checks: the standard webhook envelope (§15.4) without `action`, `type` and `BAV-Event`
 * `Audience Export`, the format named in the envelope's `format`, and format 1's definition (the
 * Audiences API record plus the export's fields and its `segments`, `metrics` and `logic`).
 */
import * as z from 'zod';
import { audience } from './audiences.js';
import { bool, id, str, timestamp, timestamps } from './common.js';

/** `BAV-Event` and `type` of an audience export (§16 names the event "Audience Export"). */
export const AUDIENCE_EXPORT_EVENT = 'Audience Export';

/** The four formats of §16.1, in its order (format 1 first). */
export const AUDIENCE_EXPORT_FORMATS = ['audience_definition', 'bav_respondent_ids', 'audience_origin_respondent_ids', 'audience_origin_progressive_numbers'] as const;
export type AudienceExportFormat = (typeof AUDIENCE_EXPORT_FORMATS)[number];

/** The most respondents one export may carry (the largest studies have tens of thousands). */
export const MAX_EXPORTED_RESPONDENTS = 1_000_000;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/**
 * Audience Origin ids vary in form by study (§16.1): letters, digits and `_ - . :`, starting with a
 * letter or digit. Nothing else is accepted, so an id can never be read as a formula by a
 * spreadsheet opening the CSV, or break a file's columns.
 */
const ORIGIN_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** Progressive numbers, e.g. `808_2x_4` (§16.1). */
const PROGRESSIVE_NUMBER = /^\d+_\d+x_\d+$/;

/** How each format's respondent ids look. */
export const RESPONDENT_ID_PATTERNS: Readonly<Record<Exclude<AudienceExportFormat, 'audience_definition'>, { pattern: RegExp; text: string }>> = {
  bav_respondent_ids: { pattern: UUID_V4, text: 'a UUID v4' },
  audience_origin_respondent_ids: { pattern: ORIGIN_ID, text: "letters, digits and '_-.:' (at most 128)" },
  audience_origin_progressive_numbers: { pattern: PROGRESSIVE_NUMBER, text: "a progressive number such as '808_2x_4'" },
};

export const exportUser = z.object({
  id: id(),
  name: str(),
  email: str(),
  operating_company: z.object({ id: id(), name: str() }).nullable().default(null),
});
export type ExportUser = z.infer<typeof exportUser>;

const exportFields = {
  is_standard: bool(),
  deployed_at: timestamp(),
  segments_updated_at: timestamp(),
  group: z.object({ id: id(), name: str() }).nullable().default(null),
  user: exportUser.nullable().default(null),
};

/** Formats 2-4: the slimmed-down audience with its respondents (§16.3, documented). */
export const exportedAudience = z.object({
  id: id(),
  name: str(),
  description: str(),
  is_active: bool(),
  is_public: bool(),
  ...exportFields,
  ...timestamps,
  respondents: z.array(z.string()).max(MAX_EXPORTED_RESPONDENTS),
});
export type ExportedAudience = z.infer<typeof exportedAudience>;

/** One condition of a definition (the emulator's choice): answers to one survey question. */
export const audienceSegment = z.object({
  id: id(),
  /** `bav` or `audience_origin`. */
  dataset: str(),
  question_key: str(),
  question: str(),
  answers: z.array(z.string()),
});

/** Format 1: the full definition, in the Audiences API's shape plus the export's fields (the emulator's choice). */
export const audienceDefinition = audience.extend({
  ...exportFields,
  segments: z.array(audienceSegment),
  /** How the segments combine, by id: `1 AND (2 OR 3)`; empty for an unfiltered audience. */
  logic: str(),
  /** Figures of the audience: `sample_size`, `population_share`. */
  metrics: z.array(z.object({ key: z.string(), name: str(), value: z.number().nullable() })),
});
export type AudienceDefinition = z.infer<typeof audienceDefinition>;
