/**
 * Parsing at the boundary (DESIGN.md rule 1): every answer is `unknown` until a zod schema accepts
 * it; a refusal becomes a ResponseShapeError naming the endpoint and the JSON path of the first
 * offending value. A page shape's schema is compiled (`z.compile`) once the shape has parsed enough
 * records to pay for the compiling, which keeps the validation of a large load close to the cost
 * of `JSON.parse` itself.
 */
import * as z from 'zod';
import { ResponseShapeError, toJsonPath } from '../errors.js';
import type { ListSize, ParsedPage } from '../loader/types.js';
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

/**
 * Records of one page shape parsed by the plain schema before the compiled one takes over.
 * Compiling a page schema generates code for every field (several milliseconds for a record with
 * includes), which the few small pages of a search, a study list or the metric catalogue never win
 * back: a short command spent about a third of its parse time compiling. A load of 1,000-row pages
 * wins it back on its first page, so it compiles at once.
 */
const COMPILE_AFTER = 1_000;

interface PageSchemas {
  readonly plain: z.ZodType;
  compiled: z.ZodType | undefined;
  /** Records of this shape parsed so far (counting the page about to be parsed). */
  records: number;
}

const pageSchemas = new WeakMap<z.ZodType, PageSchemas>();

/**
 * The schema of a list page whose records follow `record`, for a page of `records` records: the
 * plain one while this shape has parsed fewer than 1,000 records, then (from then on) the compiled
 * one. Both accept and refuse the same input.
 */
export function pageSchemaOf<T extends z.ZodType>(record: T, records = COMPILE_AFTER) {
  let schemas = pageSchemas.get(record);
  if (!schemas) {
    schemas = { plain: z.object({ data: z.array(record), links: listLinks, meta: listMeta }), compiled: undefined, records: 0 };
    pageSchemas.set(record, schemas);
  }
  schemas.records += records;
  if (schemas.compiled === undefined && schemas.records >= COMPILE_AFTER) schemas.compiled = z.compile(schemas.plain);
  return (schemas.compiled ?? schemas.plain) as z.ZodType<{ data: z.infer<T>[]; meta: z.infer<typeof listMeta> }>;
}

/**
 * Answers with fewer records than this are parsed without zod's generated fast path. zod writes a
 * parser function for an object schema the first time it parses with it, which only many records
 * win back; a short command (a search, a study list, the metric catalogue, a comparison of a few
 * brands) parses a few small answers with a dozen schemas, and spent a noticeable part of its run
 * generating them. Large pages keep the fast path (and soon the compiled schema).
 */
const FAST_PATH_FROM = 100;
const WITHOUT_FAST_PATH = { jitless: true } as const;
const parseContextFor = (records: number) => (records < FAST_PATH_FROM ? WITHOUT_FAST_PATH : undefined);

/** Parses one list page. */
export function fromListBody<T extends z.ZodType>(record: T, body: unknown, endpoint: string): ParsedPage<z.infer<T>> {
  const rows = (body as { data?: unknown } | null)?.data;
  const records = Array.isArray(rows) ? rows.length : 0;
  const result = pageSchemaOf(record, records).safeParse(body, parseContextFor(records));
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

/**
 * What a list answer's envelope (`envelopeOf`) says of the list; undefined when its envelope is
 * not the documented one (the page's own parse then says what is wrong).
 *
 * @example
 * listSizeOf(envelopeOf(bytes)) // { total: 32402, lastPage: 33, perPage: 1000, currentPage: 1 }
 */
export function listSizeOf(envelope: unknown): ListSize | undefined {
  if (envelope === undefined) return undefined;
  const result = envelopeSchema.safeParse(envelope);
  if (!result.success) return undefined;
  const { meta } = result.data;
  return { total: meta.total, lastPage: meta.last_page, perPage: meta.per_page, currentPage: meta.current_page };
}

/** Parses a single-record answer `{"data": {...}}`. */
export function fromItemBody<T extends z.ZodType>(record: T, body: unknown, endpoint: string): z.infer<T> {
  const result = z.object({ data: record }).safeParse(body, WITHOUT_FAST_PATH);
  if (!result.success) throw toShapeError(endpoint, result.error);
  return (result.data as { data: z.infer<T> }).data;
}
