/**
 * Typed template parameters: what a template declares (`parameters:`), the schema of each type's
 * values, and the parsing of `-p key=value` text into them (papermill's `-p`, with the value typed
 * by the declaration rather than guessed from the text).
 */
import * as z from 'zod';
import { UsageError } from '../../errors.js';
import { TEMPLATE_LIMITS, countText } from './template-limits.js';

/** Values a year can take: a calendar year, `latest` or `latest-N` (resolved when the report runs). */
export type YearValue = number | 'latest' | `latest-${number}`;

/** A brand by id, or by name (resolved with the service's search when the report runs). */
export type BrandRef = number | string;

/** Parameter types and the values they hold. */
export interface ParameterValues {
  string: string;
  strings: string[];
  integer: number;
  number: number;
  boolean: boolean;
  year: YearValue;
  years: YearValue[];
  market: string;
  markets: string[];
  /** One brand by id or name, or `first` (the first of the section's brands) or `none`, resolved when the report runs. */
  brand: BrandRef;
  brands: BrandRef[];
  ids: number[];
}
export type ParameterType = keyof ParameterValues;
export type ParameterValue = ParameterValues[ParameterType];

export const PARAMETER_TYPES = ['string', 'strings', 'integer', 'number', 'boolean', 'year', 'years', 'market', 'markets', 'brand', 'brands', 'ids'] as const satisfies readonly ParameterType[];

const YEAR_TEXT = /^latest(?:-(\d{1,2}))?$/;

/** The length of a text a `.max` check refused (its input is the string checked). */
const textLength = (input: unknown): number => (typeof input === 'string' ? input.length : 0);

/** The value schemas the parameter types and the template schema share. */
export interface ValueSchemas {
  /** A year: 1990-2100, `latest` or `latest-N`. */
  readonly yearValue: z.ZodType<YearValue>;
  /** An ISO 3166-1 alpha-2 market code, upper-cased. */
  readonly marketCode: z.ZodType<string, string>;
  readonly positiveId: z.ZodType<number, number>;
  readonly brandRef: z.ZodType<BrandRef>;
}

let values: ValueSchemas | undefined;

/**
 * The value schemas, built on first use: about thirty zod schemas with their own messages cost a
 * few milliseconds to build, which `brandscape compare` (one `fromOptionText` call per option)
 * should not pay for the types it never reads.
 */
export function valueSchemas(): ValueSchemas {
  if (values) return values;
  const notAYear = (issue: { input: unknown }) => `expected a year such as 2024, 'latest' or 'latest-1', got ${describe(issue.input)}`;
  const yearValue = z.union(
    [
      // Each check with the union's message: zod says a number's own failure ("Too big: expected
      // number to be <=2100") rather than the union's.
      z.number().int({ error: notAYear }).min(1990, { error: notAYear }).max(2100, { error: notAYear }),
      z.string().regex(YEAR_TEXT).transform((v) => v as Exclude<YearValue, number>),
    ],
    { error: (issue) => `expected a year such as 2024, 'latest' or 'latest-1', got ${describe(issue.input)}` },
  );
  const marketCode = z
    .string({ error: (issue) => `expected a market code such as GB, got ${describe(issue.input)}` })
    .regex(/^[A-Za-z]{2}$/, { error: (issue) => `${describe(issue.input)} is not a market code; use the two-letter ISO code, such as GB or DE` })
    .transform((v) => v.toUpperCase());
  const positiveId = z
    .number({ error: (issue) => `expected an id (a whole number), got ${describe(issue.input)}` })
    .int({ error: (issue) => `expected an id (a whole number), got ${describe(issue.input)}` })
    .positive({ error: (issue) => `expected an id (a positive whole number), got ${describe(issue.input)}` });
  const brandRef = z.union(
    [
      positiveId,
      z
        .string()
        .trim()
        .min(1)
        // A name this long is a mistake, not a search to send to the service (which refuses it as a
        // service error, exit 3, after the round trip).
        .max(TEMPLATE_LIMITS.brandName, {
          error: (issue) => `a brand name is at most ${TEMPLATE_LIMITS.brandName} characters; got ${countText(textLength(issue.input))} (${describe(issue.input)})`,
        }),
    ],
    { error: (issue) => `expected a brand id or name, got ${describe(issue.input)}` },
  );
  return (values = { yearValue, marketCode, positiveId, brandRef });
}

/**
 * A list of at least one item and at most `TEMPLATE_LIMITS.items`, each once: `GB,gb,DE` is two
 * markets, not three columns of which two are the same.
 */
const nonEmpty = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item, { error: (issue) => `expected a list of ${what}, got ${describe(issue.input)}` })
    .min(1, { error: `the list of ${what} is empty; give at least one` })
    .max(TEMPLATE_LIMITS.items, { error: (issue) => tooManyText(issue.input, what) })
    .transform(unique);

/** The items of a list, each once, in the order first given. */
export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** The message of a list over `TEMPLATE_LIMITS.items`. */
export function tooManyText(list: unknown, what: string): string {
  const n = Array.isArray(list) ? list.length : 0;
  return `a list of ${countText(n)} ${what}; a list holds at most ${countText(TEMPLATE_LIMITS.items)}`;
}

/** A text within `TEMPLATE_LIMITS.textLength`. */
const textValue = (expected: string) =>
  z
    .string({ error: (issue) => `expected ${expected}, got ${describe(issue.input)}` })
    .max(TEMPLATE_LIMITS.textLength, { error: (issue) => `a text of ${countText(textLength(issue.input))} characters; a text is at most ${countText(TEMPLATE_LIMITS.textLength)}` });

type SchemaOf<T extends ParameterType> = z.ZodType<ParameterValues[T]>;
const parameterSchemas = new Map<ParameterType, z.ZodType>();

/** How each type's schema is made (see `parameterValueSchema`). */
const MAKE_SCHEMA: { readonly [T in ParameterType]: () => SchemaOf<T> } = {
  string: () => textValue('text'),
  strings: () => nonEmpty(textValue('text'), 'texts'),
  integer: () => z.number({ error: (issue) => `expected a whole number, got ${describe(issue.input)}` }).int({ error: (issue) => `expected a whole number, got ${describe(issue.input)}` }),
  number: () => z.number({ error: (issue) => `expected a number, got ${describe(issue.input)}` }).finite(),
  boolean: () => z.boolean({ error: (issue) => `expected true or false, got ${describe(issue.input)}` }),
  year: () => valueSchemas().yearValue,
  years: () => nonEmpty(valueSchemas().yearValue, 'years'),
  market: () => valueSchemas().marketCode,
  markets: () => nonEmpty(valueSchemas().marketCode, 'market codes'),
  brand: () => valueSchemas().brandRef,
  brands: () => nonEmpty(valueSchemas().brandRef, 'brands (ids or names)'),
  ids: () => nonEmpty(valueSchemas().positiveId, 'ids'),
};

/** The schema of a parameter type's values (as written in a template, after YAML/JSON parsing), built on first use. */
export function parameterValueSchema<T extends ParameterType>(type: T): SchemaOf<T> {
  let schema = parameterSchemas.get(type) as SchemaOf<T> | undefined;
  if (!schema) parameterSchemas.set(type, (schema = MAKE_SCHEMA[type]()));
  return schema;
}

/** A short description of a value for messages: `'pie'`, `12`, `a list`, `nothing`. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'an object';
}

const split = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** `2019..2024` or `latest-4..latest` -> every year between, inclusive. */
function yearRange(text: string): YearValue[] | undefined {
  const m = /^(\d{4}|latest(?:-\d{1,2})?)\.\.(\d{4}|latest(?:-\d{1,2})?)$/.exec(text);
  if (!m) return undefined;
  const [from, to] = [m[1]!, m[2]!];
  const bothLatest = from.startsWith('latest') && to.startsWith('latest');
  const bothYears = !from.startsWith('latest') && !to.startsWith('latest');
  if (bothYears) {
    const [a, b] = [Number(from), Number(to)];
    if (b < a) return undefined;
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  if (bothLatest) {
    const back = (t: string) => Number(/-(\d+)$/.exec(t)?.[1] ?? 0);
    const [a, b] = [back(from), back(to)];
    if (a < b) return undefined;
    return Array.from({ length: a - b + 1 }, (_, i) => (a - i === 0 ? 'latest' : (`latest-${a - i}` as YearValue)));
  }
  return undefined;
}

/**
 * A `-p` value as the parameter's type: lists are comma-separated, years may be ranges
 * (`2019..2024`), booleans are true/false/yes/no/1/0, a brand is an id when it is a whole number.
 * Returns the raw value for the type's schema to check (so messages are the same as for a
 * template's own defaults).
 */
export function fromParameterText(type: ParameterType, text: string): unknown {
  const t = text.trim();
  const number = (s: string): unknown => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s);
  switch (type) {
    case 'string':
      return text;
    case 'strings':
    case 'markets':
      return split(t);
    case 'integer':
    case 'number':
      return number(t);
    case 'boolean': {
      const v = t.toLowerCase();
      if (['true', 'yes', '1', 'on'].includes(v)) return true;
      if (['false', 'no', '0', 'off'].includes(v)) return false;
      return t;
    }
    case 'year':
      return number(t);
    case 'years':
      return split(t).flatMap((part) => yearRange(part) ?? [number(part)]);
    case 'market':
      return t;
    case 'brand':
      return /^\d+$/.test(t) ? Number(t) : t;
    case 'brands':
      return split(t).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    case 'ids':
      return split(t).map(number);
  }
}

/** A parameter value as text for titles, file names and the About sheet. */
export function parameterText(value: unknown): string {
  if (Array.isArray(value)) return value.map(parameterText).join(', ');
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * A command-line option's text as a value of a parameter type, parsed as `-p` values are (lists
 * comma-separated, year ranges such as `2019..2024`, brands as ids when whole numbers), or a
 * UsageError naming the option and what was wrong with it.
 *
 * @example
 * fromOptionText('years', '2021..2023,latest', '--years'); // [2021, 2022, 2023, 'latest']
 * fromOptionText('markets', 'gb, de', '--markets'); // ['GB', 'DE']
 */
export function fromOptionText<T extends ParameterType>(type: T, text: string, option: string): ParameterValues[T] {
  const parsed = parameterValueSchema(type).safeParse(fromParameterText(type, text));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const hint = type === 'years' && text.includes('..') ? { hint: 'A range runs between two years (2021..2024) or two latest years (latest-4..latest).' } : {};
  throw new UsageError(`${option}: ${issue?.message ?? `'${text}' is not valid`}${issue && issue.path.length > 0 ? ` (item ${Number(issue.path[0]) + 1})` : ''}.`, hint);
}
