/**
 * Parsing at the boundary (DESIGN.md rule 1): every answer is `unknown` until a zod schema accepts
 * it; a refusal becomes a ResponseShapeError naming the endpoint and the JSON path of the first
 * offending value. Page schemas are compiled once per shape (`z.compile`), which keeps validation
 * close to the cost of `JSON.parse` itself.
 */
import * as z from 'zod';
import { ResponseShapeError, toJsonPath } from '../errors.js';
import type { ParsedPage } from '../loader/types.js';
import { listLinks, listMeta } from '../schemas/envelope.js';

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unexpected key(s) ${issue.keys.join(', ')}`;
  return issue.message;
}

/** Throws a ResponseShapeError for the first issue of a failed parse. */
export function toShapeError(endpoint: string, error: z.ZodError): ResponseShapeError {
  const issue = error.issues[0];
  return new ResponseShapeError(endpoint, toJsonPath(issue?.path ?? []), issue ? describe(issue) : 'does not match the documented shape');
}

const pageSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** The compiled schema of a list page whose records follow `record`. */
export function pageSchemaOf<T extends z.ZodType>(record: T) {
  let schema = pageSchemas.get(record);
  if (!schema) {
    schema = z.compile(z.object({ data: z.array(record), links: listLinks, meta: listMeta }));
    pageSchemas.set(record, schema);
  }
  return schema as z.ZodType<{ data: z.infer<T>[]; meta: z.infer<typeof listMeta> }>;
}

/** Parses one list page. */
export function fromListBody<T extends z.ZodType>(record: T, body: unknown, endpoint: string): ParsedPage<z.infer<T>> {
  const result = pageSchemaOf(record).safeParse(body);
  if (!result.success) throw toShapeError(endpoint, result.error);
  const { data, meta } = result.data;
  return { records: data, total: meta.total, lastPage: meta.last_page, perPage: meta.per_page, currentPage: meta.current_page };
}

const envelopeSchema = z.compile(z.object({ links: listLinks, meta: listMeta }));

/**
 * Parses a list page whose records were checked already (`toRowCheck`): only the envelope is
 * parsed here, and the records are taken as they are.
 *
 * @example
 * const rows = body.data;
 * if (Array.isArray(rows) && check(rows)) return fromCheckedListBody(body, rows, url);
 */
export function fromCheckedListBody<T>(body: unknown, records: T[], endpoint: string): ParsedPage<T> {
  const result = envelopeSchema.safeParse(body);
  if (!result.success) throw toShapeError(endpoint, result.error);
  const { meta } = result.data;
  return { records, total: meta.total, lastPage: meta.last_page, perPage: meta.per_page, currentPage: meta.current_page };
}

/** Parses a single-record answer `{"data": {...}}`. */
export function fromItemBody<T extends z.ZodType>(record: T, body: unknown, endpoint: string): z.infer<T> {
  const result = z.object({ data: record }).safeParse(body);
  if (!result.success) throw toShapeError(endpoint, result.error);
  return (result.data as { data: z.infer<T> }).data;
}

/** Whether every issue of a failed parse is only about keys the schema does not list. */
export function onlyUnknownKeys(error: z.ZodError): boolean {
  return error.issues.every((i) => i.code === 'unrecognized_keys');
}
