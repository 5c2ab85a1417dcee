/**
 * The report template format, as zod schemas: a title, typed parameters, the data to load, the
 * sections with their charts, and the outputs. Templates are JSON or YAML files in `templates/`.
 *
 * A string that is exactly `$name` anywhere under `data`, `sections` or `output` stands for the
 * parameter `name` (inside a list, a list parameter is spliced in); `{name}` inside titles,
 * descriptions and the output file name is replaced by the parameter's value as text. These schemas
 * check a template after its parameters are substituted.
 */
import * as z from 'zod';
import { SCORE_TYPES, type ScoreType } from '../../schemas/score-types.js';
import { TEMPLATE_LIMITS } from './template-limits.js';
import { PARAMETER_TYPES, describe, tooManyText, unique, valueSchemas, type ParameterType, type ParameterValue } from './template-params.js';

const { brandRef, marketCode, positiveId, yearValue } = valueSchemas();

/** A list that must not be empty, within the limit of items, each item once (`[GB, gb]` is one market). */
const listOf = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item, { error: (issue) => `expected a list of ${what}, got ${describe(issue.input)}` })
    .min(1, { error: `the list of ${what} is empty; give at least one, or leave the key out` })
    .max(TEMPLATE_LIMITS.items, { error: (issue) => tooManyText(issue.input, what) })
    .transform(unique);

/** One of a fixed set of words, with a message that lists them. */
const oneOf = <const T extends readonly [string, ...string[]]>(what: string, values: T) =>
  z.enum(values, { error: (issue) => `unknown ${what} ${describe(issue.input)}; choose one of ${values.join(', ')}` });

const SCORE_TYPE_NAMES = Object.keys(SCORE_TYPES) as [ScoreType, ...ScoreType[]];

/** Options every section takes. */
const common = {
  /** Sheet and heading title; `{param}` tokens are replaced. Default: one written from the data. */
  title: z.string().min(1).optional(),
  description: z.string().optional(),
};

/** Metric keys (`differentiation`) of the section; default: the template's data metrics. */
const metrics = listOf(z.string().min(1), 'metric keys').optional();
const scoreType = oneOf('score type', SCORE_TYPE_NAMES).optional();
const brands = listOf(brandRef, 'brands (ids or names)').optional();
const markets = listOf(marketCode, 'market codes').optional();
const by = oneOf('row grain', ['brand', 'company', 'sector']).optional();

export const crossMarketSection = z.strictObject({
  kind: z.literal('cross-market'),
  ...common,
  metrics,
  score_type: scoreType,
  /** The year compared (default: the latest of the template's years). */
  year: yearValue.optional(),
  markets,
  brands,
  /** The brand highlighted in the chart: one of the section's brands, `first` or `none`. */
  focus: brandRef.optional(),
  by,
  chart: oneOf('chart', ['heatmap', 'bars', 'none']).optional(),
});

export const crossYearSection = z.strictObject({
  kind: z.literal('cross-year'),
  ...common,
  metrics,
  score_type: scoreType,
  years: listOf(yearValue, 'years').optional(),
  markets,
  brands,
  by,
  /** Keep US quarterly waves as periods of their own. */
  waves: z.boolean().optional(),
  /** The brand highlighted in the chart: one of the section's brands, `first` or `none`. */
  focus: brandRef.optional(),
  chart: oneOf('chart', ['lines', 'slope', 'none']).optional(),
});

export const sectorSummarySection = z.strictObject({
  kind: z.literal('sector-summary'),
  ...common,
  metrics,
  score_type: scoreType,
  year: yearValue.optional(),
  markets,
  sectors: listOf(positiveId, 'sector ids').optional(),
  chart: oneOf('chart', ['distribution', 'none']).optional(),
});

export const companyRollupSection = z.strictObject({
  kind: z.literal('company-rollup'),
  ...common,
  metrics,
  score_type: scoreType,
  years: listOf(yearValue, 'years').optional(),
  markets,
  companies: listOf(positiveId, 'company ids').optional(),
  /** The company the chart shows (default: the first of `companies`). */
  chart_company: positiveId.optional(),
  chart: oneOf('chart', ['company-view', 'none']).optional(),
});

export const archetypesSection = z.strictObject({
  kind: z.literal('archetypes'),
  ...common,
  /** The study's market and year (default: the template's first market and latest year). */
  market: marketCode.optional(),
  year: yearValue.optional(),
  brands,
  /** The competitive set: a collection or a category (default: the template's first collection, else category). */
  comparison: z
    .union([z.strictObject({ collection: positiveId }), z.strictObject({ category: positiveId })], {
      error: () => "expected { collection: <id> } or { category: <id> }",
    })
    .optional(),
  value: oneOf('archetype value', ['rank', 'score']).optional(),
  chart: oneOf('chart', ['heatmap', 'none']).optional(),
});

export const powerGridSection = z.strictObject({
  kind: z.literal('power-grid'),
  ...common,
  market: marketCode.optional(),
  year: yearValue.optional(),
  brands,
  chart: oneOf('chart', ['power-grid', 'none']).optional(),
});

export const pillarsProfileSection = z.strictObject({
  kind: z.literal('pillars-profile'),
  ...common,
  market: marketCode.optional(),
  year: yearValue.optional(),
  brands,
  score_type: scoreType,
  chart: oneOf('chart', ['pillars-profile', 'none']).optional(),
});

export const SECTION_KINDS = ['cross-market', 'cross-year', 'sector-summary', 'company-rollup', 'archetypes', 'power-grid', 'pillars-profile'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

export const sectionSchema = z.discriminatedUnion('kind', [
  crossMarketSection,
  crossYearSection,
  sectorSummarySection,
  companyRollupSection,
  archetypesSection,
  powerGridSection,
  pillarsProfileSection,
]);
export type SectionSpec = z.infer<typeof sectionSchema>;

export const dataSchema = z.strictObject({
  /** Markets by ISO alpha-2 code. */
  markets: listOf(marketCode, 'market codes'),
  /** Years (default `[latest]`): calendar years, `latest`, `latest-N`. */
  years: listOf(yearValue, 'years').optional(),
  /** Audience id (default 1, All Adults). */
  audience: positiveId.optional(),
  brands,
  companies: listOf(positiveId, 'company ids').optional(),
  sectors: listOf(positiveId, 'sector ids').optional(),
  collections: listOf(positiveId, 'collection ids').optional(),
  categories: listOf(positiveId, 'category ids').optional(),
  /** Metric keys to load, e.g. `differentiation` (with or instead of `metric_groups`). */
  metrics,
  /** Metric group keys to load (default `[pillars]` when neither is given). */
  metric_groups: listOf(z.string().min(1), 'metric group keys').optional(),
});
export type DataSpec = z.infer<typeof dataSchema>;

export const OUTPUT_FORMATS = ['xlsx', 'html'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const outputSchema = z.strictObject({
  /** File name without extension; tokens `{template}`, `{date}`, `{time}` and any `{parameter}`. */
  name: z.string().min(1).optional(),
  formats: listOf(oneOf('output format', OUTPUT_FORMATS), 'output formats').optional(),
});

export const parameterSchema = z.strictObject({
  type: oneOf('parameter type', PARAMETER_TYPES),
  default: z.unknown().optional(),
  description: z.string().optional(),
});
export interface ParameterSpec {
  type: ParameterType;
  default: ParameterValue;
  description?: string | undefined;
}

/** Parameter names: usable as `$name` and `{name}` tokens and as `-p name=...`. */
const PARAMETER_NAME = /^[a-z][a-z0-9_]*$/;

/** The template file before parameters are substituted (data, sections and output hold `$name` references). */
export const templateFileSchema = z.strictObject({
  title: z.string({ error: (issue) => `expected a title (text), got ${describe(issue.input)}` }).min(1),
  description: z.string().optional(),
  parameters: z
    .record(z.string().regex(PARAMETER_NAME, { error: 'parameter names are lower-case words joined by underscores, e.g. brand_names' }), parameterSchema)
    .optional(),
  data: z.record(z.string(), z.unknown(), { error: (issue) => `expected the data to load (an object with markets, years, ...), got ${describe(issue.input)}` }),
  sections: z.array(z.record(z.string(), z.unknown()), { error: (issue) => `expected a list of sections, got ${describe(issue.input)}` }).min(1, { error: 'a report needs at least one section' }),
  output: z.record(z.string(), z.unknown()).optional(),
});

/** A template after substitution: everything concrete and checked. */
export const resolvedTemplateSchema = z.strictObject({
  data: dataSchema,
  sections: z.array(sectionSchema),
  output: outputSchema.optional(),
});
