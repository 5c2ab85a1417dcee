import * as z from 'zod';

/** A number that may arrive as a numeric string (an echoed query value, §21). */
const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);
const nullableCount = z.union([count, z.null()]);

/** A pager entry of `meta.links`: page labels may be numbers or strings (§6.4). */
export const pagerLink = z.object({
  url: z.string().nullable(),
  label: z.union([z.string(), z.number()]),
  active: z.boolean(),
});

export const listLinks = z.object({
  first: z.string().nullable(),
  last: z.string().nullable(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export const listMeta = z.object({
  current_page: count,
  from: nullableCount,
  last_page: count,
  links: z.array(pagerLink),
  path: z.string(),
  per_page: count,
  to: nullableCount,
  total: count,
});

/** Every error body the service may send: `data.message` (v2), `data.error` (v1), top-level `message`. */
export const errorBody = z.object({
  data: z.object({ message: z.string().optional(), error: z.string().optional() }).partial().optional(),
  message: z.string().optional(),
});

/** The service's message from an error body, or undefined when the body carries none. */
export function fromErrorBody(body: unknown): string | undefined {
  const parsed = errorBody.safeParse(body);
  if (!parsed.success) return undefined;
  return parsed.data.data?.message ?? parsed.data.data?.error ?? parsed.data.message;
}

export const healthBody = z.object({ status: z.string(), timestamp: z.string().optional() });
