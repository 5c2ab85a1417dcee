/**
 * The bodies of the emulator's admin routes (`POST /__emulator/publish`, `POST /__emulator/faults`),
 * parsed with zod and bounded: the routes need no token, so anything may arrive, and nothing that
 * arrives may take the process down (a publish of a billion brands once exhausted the heap).
 */
import * as z from 'zod';
import type { PublishRequest } from '../dataset/types.js';
import { fromFormat, type AudienceExportRequest } from '../audience-export.js';
import { AUDIENCE_EXPORT_FORMATS } from '../../schemas/audience-export.js';
import { ApiError, badRequest } from './api-error.js';
import type { FaultRule } from './faults.js';

/** The most brands one publish may update, and the most fault rules one request may add. */
export const MAX_PUBLISHED_BRANDS = 1000;
export const MAX_FAULT_RULES = 100;
/** The largest admin body read, in bytes. */
export const MAX_ADMIN_BODY = 64 * 1024;

const id = z.number().int().positive().max(2_147_483_647);

const publishBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('study'), studyId: id.optional() }),
  z.strictObject({
    kind: z.literal('brands'),
    brandIds: z.array(id).min(1).max(MAX_PUBLISHED_BRANDS).optional(),
    count: z.number().int().min(1).max(MAX_PUBLISHED_BRANDS).optional(),
  }),
]);

const faultKind = z.union([z.number().int().min(400).max(599), z.enum(['reset', 'truncate', 'hang'])]);
const faultRule = z.strictObject({
  path: z.string().startsWith('/').max(200).optional(),
  nth: z.number().int().min(1).max(1_000_000_000).optional(),
  // JSON has no Infinity: "all" (or null) stands for every matching request from `nth` on.
  times: z.union([z.number().int().min(1).max(1_000_000_000), z.literal('all'), z.null()]).optional(),
  kind: faultKind,
  retryAfterS: z.number().int().min(0).max(3600).optional(),
});
const faultBody = z.union([faultRule, z.array(faultRule).min(1).max(MAX_FAULT_RULES)]);

/** A zod error as one line: `count: Too big: expected number to be <=1000`. */
function problemText(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

/** The same object without its undefined properties (zod's output types allow them; ours do not). */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

/** The body of `POST /__emulator/publish`; an empty body (or one without a kind) releases the next study. */
export function fromPublishBody(body: unknown): PublishRequest {
  const value = body === undefined ? { kind: 'study' } : typeof body === 'object' && body !== null && !Array.isArray(body) && !('kind' in body) ? { kind: 'study', ...body } : body;
  const retry = publishBody.safeParse(value);
  if (retry.success) return defined(retry.data);
  throw badRequest(
    `publish takes {"kind": "study"} (optionally with "studyId") or {"kind": "brands"} with "count" (1-${MAX_PUBLISHED_BRANDS}) or "brandIds" (at most ${MAX_PUBLISHED_BRANDS}): ${problemText(retry.error)}.`,
  );
}

/** The body of `POST /__emulator/faults`: one rule or a list of them. */
export function fromFaultBody(body: unknown): FaultRule[] {
  const parsed = faultBody.safeParse(body);
  if (!parsed.success) {
    throw badRequest(
      `A fault rule is {"kind": <a status 400-599, "reset", "truncate" or "hang">, "path"?: "/brandscape-data", "nth"?: 1, "times"?: 1 or "all", "retryAfterS"?: 1}; at most ${MAX_FAULT_RULES} rules: ${problemText(parsed.error)}.`,
    );
  }
  const rules = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  return rules.map(({ times, ...rule }) => ({ ...defined(rule), ...(times === undefined ? {} : { times: times === 'all' || times === null ? Infinity : times }) }));
}

const exportBody = z.strictObject({
  audienceId: id,
  format: z.union([z.number().int(), z.string().max(64)]),
  subscriber: z.string().min(1).max(2000).optional(),
  user: z.string().min(1).max(100).optional(),
  studyId: id.optional(),
});

/** The body of `POST /__emulator/export-audience`. */
export function fromExportBody(body: unknown): AudienceExportRequest {
  const usage = `export-audience takes {"audienceId": 20, "format": one of ${AUDIENCE_EXPORT_FORMATS.map((f, i) => `"${f}" (${i + 1})`).join(', ')}, "subscriber"?: "<webhook URL>", "user"?: "analyst", "studyId"?: 540}`;
  const parsed = exportBody.safeParse(body);
  if (!parsed.success) throw badRequest(`${usage}: ${problemText(parsed.error)}.`);
  const format = fromFormat(parsed.data.format);
  if (!format) throw badRequest(`${usage}: unknown format ${JSON.stringify(parsed.data.format)}.`);
  return { ...defined(parsed.data), format };
}

/** Reads an admin body as JSON: 413 past `MAX_ADMIN_BODY`, 400 when it is not JSON. */
export async function readAdminJson(req: AsyncIterable<unknown>): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_ADMIN_BODY) throw new ApiError(413, `Admin bodies are at most ${MAX_ADMIN_BODY} bytes.`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The body must be JSON.');
  }
}
