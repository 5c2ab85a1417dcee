/**
 * Building blocks shared by every resource schema.
 *
 * The service documents nullability for nothing but `id` (REFERENCE §3.3), so every other field
 * is parsed as "value or null", and a key that is absent from the answer becomes `null` rather than
 * failing the parse. Types are derived with `z.infer`; nothing coming from the network is cast.
 */
import * as z from 'zod';

/** A system id: always present, always an integer. */
export const id = () => z.number().int();

/** An optional field: absent or null on the wire becomes `null` in the parsed record. */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

export const str = () => opt(z.string());
export const int = () => opt(z.number().int());
export const num = () => opt(z.number());
export const bool = () => opt(z.boolean());
/** ISO-8601 UTC timestamp kept as a string, e.g. `2020-03-02T10:05:01.000000Z`. */
export const timestamp = () => opt(z.string());

export const timestamps = {
  created_at: timestamp(),
  updated_at: timestamp(),
} as const;

/** `{id, name}`: the slim shape of most resources. */
export const slim = z.object({ id: id(), name: str() });
export type Slim = z.infer<typeof slim>;

/** Objects whose shape the service does not document (study `type` and `period`). */
export const idName = slim;
