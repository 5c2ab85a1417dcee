/**
 * Templates from text or objects (`fromTemplateText`, `defineTemplate`) and their parameters applied
 * (`resolveTemplate`). Pure: reading files is `loadTemplate`'s job.
 */
import { parseDocument as parseYamlDocument, YAMLError } from 'yaml';
import type * as z from 'zod';
import { UsageError } from '../errors.js';
import { TemplateError, fromZodIssues, type TemplateProblem } from './template-error.js';
import { editDistance } from '../frames/fold-name.js';
import { toCalendarYear } from './latest-year.js';
import { documentProblems, scanJson, scanYaml, sizeProblem } from './template-bounds.js';
import { TEMPLATE_LIMITS } from './template-limits.js';
import { describe, parameterValueSchema, fromParameterText, parameterText, type ParameterType, type ParameterValue, type YearValue } from './template-params.js';
import {
  OUTPUT_FORMATS,
  crossMarketSection,
  crossYearSection,
  archetypesSection,
  companyRollupSection,
  dataSchema,
  outputSchema,
  parameterSchema,
  pillarsProfileSection,
  powerGridSection,
  resolvedTemplateSchema,
  sectorSummarySection,
  templateFileSchema,
  type DataSpec,
  type OutputFormat,
  type ParameterSpec,
  type SectionSpec,
} from './template-schema.js';

/** A template as written: checked, with its parameters' defaults, `$name` references unresolved. */
export interface Template {
  /** The template's name: its file name without extension (`cross-market-brand-health`). */
  readonly name: string;
  /** Where it came from: a file path, or `inline`. */
  readonly source: string;
  readonly title: string;
  readonly description: string | null;
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  /** `data`, `sections` and `output` as written (with `$name` references). */
  readonly body: { readonly data: unknown; readonly sections: unknown; readonly output: unknown };
}

/** A parameter's value in a resolved template, and where the value came from. */
export interface ResolvedParameter {
  readonly name: string;
  readonly type: ParameterType;
  readonly value: ParameterValue;
  readonly default: ParameterValue;
  /** True when the caller gave the value (`-p`), false for the template's default. */
  readonly given: boolean;
  readonly description: string | null;
}

/** A template with its parameters applied: concrete and checked, ready to load data for. */
export interface ResolvedTemplate {
  readonly name: string;
  readonly source: string;
  readonly title: string;
  readonly description: string | null;
  readonly parameters: readonly ResolvedParameter[];
  readonly data: DataSpec;
  readonly sections: readonly SectionSpec[];
  readonly output: { readonly name: string; readonly formats: readonly OutputFormat[] };
}

/** The default output file name: the template and the day the report was made. */
export const DEFAULT_OUTPUT_NAME = '{template}-{date}';

const SECTION_SCHEMAS = {
  'cross-market': crossMarketSection,
  'cross-year': crossYearSection,
  'sector-summary': sectorSummarySection,
  'company-rollup': companyRollupSection,
  archetypes: archetypesSection,
  'power-grid': powerGridSection,
  'pillars-profile': pillarsProfileSection,
} as const;

const keysOf = (schema: z.ZodObject) => Object.keys(schema.shape);

/** Allowed keys at a path of a template file, for "unknown key" messages. */
function allowedKeys(input: unknown, path: readonly PropertyKey[]): readonly string[] | undefined {
  const [first, second, third] = path;
  if (path.length === 0) return keysOf(templateFileSchema);
  if (first === 'data' && path.length === 1) return keysOf(dataSchema);
  if (first === 'output' && path.length === 1) return keysOf(outputSchema);
  if (first === 'parameters' && path.length === 2) return keysOf(parameterSchema);
  if (first === 'sections' && typeof second === 'number') {
    const sections = (input as { sections?: unknown })?.sections;
    const kind = Array.isArray(sections) ? (sections[second] as { kind?: unknown } | undefined)?.kind : undefined;
    const schema = typeof kind === 'string' ? SECTION_SCHEMAS[kind as keyof typeof SECTION_SCHEMAS] : undefined;
    if (schema && path.length === 2) return keysOf(schema);
    if (third === 'comparison') return ['collection', 'category'];
  }
  return undefined;
}

/**
 * A template from a parsed document (an object as YAML or JSON gives it), checked: structure,
 * parameter defaults against their types, and every section with the defaults applied.
 *
 * @example
 * const template = defineTemplate({
 *   title: 'Pillars across markets',
 *   parameters: { brands: { type: 'brands', default: ['Veros'] } },
 *   data: { markets: ['GB', 'DE'], brands: '$brands', metric_groups: ['pillars'] },
 *   sections: [{ kind: 'cross-market', chart: 'heatmap' }],
 * }, 'pillars');
 */
export function defineTemplate(document: unknown, name = 'inline', source = 'inline'): Template {
  // Bounds first: the schema checks below walk the document recursively.
  const bounds = documentProblems(document);
  if (bounds.length > 0) throw new TemplateError(source, bounds);
  const parsed = templateFileSchema.safeParse(document);
  if (!parsed.success) throw new TemplateError(source, fromZodIssues(parsed.error.issues, { input: document, allowedKeys: (p) => allowedKeys(document, p) }));
  const problems: TemplateProblem[] = [];
  const parameters: Record<string, ParameterSpec> = {};
  for (const [param, spec] of Object.entries(parsed.data.parameters ?? {})) {
    if (spec.default === undefined) {
      problems.push({ path: `parameters.${param}.default`, message: `missing; every parameter needs a default of type ${spec.type}` });
      continue;
    }
    const value = parameterValueSchema(spec.type).safeParse(spec.default);
    if (!value.success) {
      problems.push(...fromZodIssues(value.error.issues, { input: document, prefix: ['parameters', param, 'default'], allowedKeys: () => undefined }));
      continue;
    }
    parameters[param] = { type: spec.type, default: value.data, description: spec.description };
  }
  if (problems.length > 0) throw new TemplateError(source, problems);
  const template: Template = {
    name,
    source,
    title: parsed.data.title,
    description: parsed.data.description ?? null,
    parameters,
    body: { data: parsed.data.data, sections: parsed.data.sections, output: parsed.data.output },
  };
  // Checked with the defaults now, so a template that cannot run is refused when it is loaded.
  resolveTemplate(template);
  return template;
}

/**
 * A template from the text of a JSON or YAML file (YAML is a superset of JSON; `format` only picks
 * the parser whose messages fit the file).
 *
 * @example
 * const template = fromTemplateText(await readFile('templates/sector-review.yaml', 'utf8'), { name: 'sector-review' });
 */
export function fromTemplateText(text: string, options: { name: string; source?: string; format?: 'json' | 'yaml' }): Template {
  const source = options.source ?? options.name;
  const json = options.format === 'json';
  // Size and nesting before parsing: both parsers recurse once per level (see template-bounds.ts).
  const before = sizeProblem(text) ?? (json ? scanJson(text) : scanYaml(text));
  if (before) throw new TemplateError(source, [before]);
  let document: unknown;
  try {
    document = json ? JSON.parse(text) : fromYaml(text);
  } catch (error) {
    const where = error instanceof YAMLError && error.linePos?.[0] ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
    const detail = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    // The scan above estimates nesting; the parser's own overflow is said as the limit it is.
    if (/Maximum call stack size exceeded/.test(detail)) throw new TemplateError(source, [{ path: where, message: `nested too deeply; a template nests at most ${TEMPLATE_LIMITS.depth} levels` }]);
    throw new TemplateError(source, [{ path: where, message: `not valid ${json ? 'JSON' : 'YAML'}: ${detail}` }]);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new TemplateError(source, [{ path: '', message: `expected a template (an object with title, data and sections), got ${describe(document)}` }]);
  }
  return defineTemplate(document, options.name, source);
}

/**
 * A YAML document's value. YAML's warnings are problems too: a template has no use for tags
 * (`!!js/function`, `!!binary`), and the parser would print its warning on the process's stderr,
 * past the command line's own (and raw: with the template's text in it).
 */
function fromYaml(text: string): unknown {
  const doc = parseYamlDocument(text, { prettyErrors: true, uniqueKeys: true, logLevel: 'silent' });
  const [problem] = [...doc.errors, ...doc.warnings];
  if (problem) throw problem;
  return doc.toJS({ maxAliasCount: 100 });
}

/** `-p key=value` pairs as a record, with a usage error for text that is not `key=value`. */
export function fromParameterPairs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-p takes KEY=VALUE, got ${describe(pair)}.`, { hint: "For example -p markets=GB,DE,FR -p year=2024." });
    const key = pair.slice(0, eq).trim();
    // A second value would silently replace the first (-p markets=GB -p markets=DE is DE only).
    if (Object.hasOwn(out, key)) {
      throw new UsageError(`-p ${describe(key).slice(1, -1)} is given twice.`, { hint: `Give it once; a list takes its values comma-separated (-p ${key.slice(0, 40)}=A,B).` });
    }
    out[key] = pair.slice(eq + 1);
  }
  return out;
}

/** Substitutes `$name` references, recording which parameter each substituted value came from. */
function substitute(value: unknown, values: ReadonlyMap<string, ParameterValue>, path: PropertyKey[], origins: Map<string, string>, problems: TemplateProblem[], known: readonly string[]): unknown {
  const ref = (text: string) => /^\$([a-z][a-z0-9_]*)$/.exec(text)?.[1];
  if (typeof value === 'string') {
    const name = ref(value);
    if (name === undefined) return value;
    const v = values.get(name);
    if (v === undefined) {
      problems.push({ path: pathText(path), message: `unknown parameter '$${name}'; ${known.length > 0 ? `parameters: ${known.join(', ')}` : 'the template declares no parameters'}` });
      return undefined;
    }
    origins.set(pathKey(path), name);
    return v;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const name = typeof item === 'string' ? ref(item) : undefined;
      const v = name === undefined ? undefined : values.get(name);
      if (Array.isArray(v)) {
        // A list parameter inside a list is spliced in.
        for (const element of v) {
          origins.set(pathKey([...path, out.length]), name!);
          out.push(element);
        }
      } else out.push(substitute(item, values, [...path, out.length], origins, problems, known));
    }
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = substitute(v, values, [...path, k], origins, problems, known);
    return out;
  }
  return value;
}

const pathKey = (path: readonly PropertyKey[]) => path.map(String).join('\u0000');
const pathText = (path: readonly PropertyKey[]) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');

/** Replaces `{name}` tokens in a text by parameter values; unknown tokens are problems. */
export function fillTokens(text: string, tokens: ReadonlyMap<string, string>, path: string, problems: TemplateProblem[]): string {
  return text.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) => {
    const v = tokens.get(name);
    if (v !== undefined) return v;
    problems.push({ path, message: `unknown token {${name}}; tokens: ${[...tokens.keys()].map((t) => `{${t}}`).join(', ')}` });
    return whole;
  });
}

/**
 * Applies parameter values to a template: `overrides` are `-p` texts (typed by each parameter's
 * declaration) or already typed values. Everything is checked; every problem is reported at once.
 *
 * @throws TemplateError for unknown parameters, values that do not fit their type, and templates
 * that do not check with them.
 * @example
 * const resolved = resolveTemplate(template, { markets: 'GB,DE,FR', year: '2024' });
 * resolved.data.markets; // ['GB', 'DE', 'FR']
 */
export function resolveTemplate(template: Template, overrides: Readonly<Record<string, unknown>> = {}): ResolvedTemplate {
  const problems: TemplateProblem[] = [];
  const names = Object.keys(template.parameters);
  const values = new Map<string, ParameterValue>();
  const parameters: ResolvedParameter[] = [];
  for (const key of Object.keys(overrides)) {
    if (!(key in template.parameters)) {
      // The name as given, cut short: it is text from the command line, of any length.
      const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
      const near = names.filter((n) => n === key.toLowerCase() || editDistance(n, key.toLowerCase()) <= (n.length >= 6 ? 2 : 1));
      const guess = near.length > 0 ? `did you mean ${near.join(' or ')}? ` : '';
      problems.push({ path: `-p ${shown}`, message: `unknown parameter; ${guess}${names.length > 0 ? `parameters of ${template.name}: ${names.join(', ')}` : `${template.name} has no parameters`}` });
    }
  }
  for (const [name, spec] of Object.entries(template.parameters)) {
    const given = Object.hasOwn(overrides, name);
    let value: ParameterValue = spec.default;
    if (given) {
      const raw = overrides[name];
      const parsed = parameterValueSchema(spec.type).safeParse(typeof raw === 'string' ? fromParameterText(spec.type, raw) : raw);
      if (parsed.success) value = parsed.data;
      else for (const issue of parsed.error.issues) problems.push({ path: `-p ${name}`, message: `${issue.message} (a ${spec.type} parameter)` });
    }
    values.set(name, value);
    parameters.push({ name, type: spec.type, value, default: spec.default, given, description: spec.description ?? null });
  }
  if (problems.length > 0) throw new TemplateError(template.source, problems);

  const origins = new Map<string, string>();
  const body = {
    data: substitute(template.body.data, values, ['data'], origins, problems, names),
    sections: substitute(template.body.sections, values, ['sections'], origins, problems, names),
    output: substitute(template.body.output, values, ['output'], origins, problems, names),
  };
  const document = { data: body.data, sections: body.sections, ...(body.output === undefined ? {} : { output: body.output }) };
  const parsed = resolvedTemplateSchema.safeParse(document);
  if (!parsed.success) {
    problems.push(
      ...fromZodIssues(parsed.error.issues, {
        input: document,
        allowedKeys: (p) => allowedKeys(document, p),
        parameterAt: (p) => originOf(origins, p),
      }),
    );
  }
  if (problems.length > 0 || !parsed.success) throw new TemplateError(template.source, problems);

  // Years given as `latest`, and market names, are only known once the studies are: their tokens
  // stay for `buildReport` to fill (`fillDataTokens`).
  const tokens = new Map<string, string>([...values].map(([k, v]) => [k, isDataToken(template.parameters[k]!.type, v) ? `{${k}}` : parameterText(v)]));
  const title = fillTokens(template.title, tokens, 'title', problems);
  const description = template.description === null ? null : fillTokens(template.description, tokens, 'description', problems);
  const sections = parsed.data.sections.map((section, i) => ({
    ...section,
    ...(section.title === undefined ? {} : { title: fillTokens(section.title, tokens, `sections[${i}].title`, problems) }),
    ...(section.description === undefined ? {} : { description: fillTokens(section.description, tokens, `sections[${i}].description`, problems) }),
  })) as SectionSpec[];
  problems.push(...coherenceProblems(parsed.data.data, parsed.data.sections));
  const outputName = parsed.data.output?.name ?? DEFAULT_OUTPUT_NAME;
  // File-name tokens are filled when the report is written ({date}, {time}); checked here.
  fillTokens(outputName, new Map([...tokens, ['template', ''], ['date', ''], ['time', '']]), 'output.name', problems);
  if (problems.length > 0) throw new TemplateError(template.source, problems);
  const resolved: ResolvedTemplate = {
    name: template.name,
    source: template.source,
    title,
    description,
    parameters,
    data: parsed.data.data,
    sections,
    output: { name: outputName, formats: parsed.data.output?.formats ?? [...OUTPUT_FORMATS] },
  };
  // The file name, checked now with stand-ins of the same lengths for what only the run knows
  // (the date, the time, the year `latest` is): a name that would leave the output folder or
  // exceed the file system's limit stops the report before anything is loaded.
  const used = [...outputName.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]!).filter((t) => parameters.some((p) => p.name === t));
  const origin = used.length > 0 ? ` (from parameter${used.length > 1 ? 's' : ''} ${used.map((u) => `'${u}'`).join(', ')})` : '';
  const problem = fileNameProblem(filledOutputName(resolved, STAND_IN.at, STAND_IN.latest), origin);
  if (problem !== undefined) throw new TemplateError(template.source, [{ path: 'output.name', message: problem }]);
  ORIGINS.set(resolved, origins);
  return resolved;
}

/** Where each substituted value of a resolved template came from (`resolveTemplate` records it). */
const ORIGINS = new WeakMap<ResolvedTemplate, ReadonlyMap<string, string>>();

/**
 * The parameter a value of a resolved template came from (`data.markets[0]` from `markets`), for
 * messages about values only the service can check; undefined for values written in the template.
 *
 * @example
 * parameterAt(resolved, ['sections', 1, 'market']); // 'focus_market'
 */
export function parameterAt(template: ResolvedTemplate, path: readonly PropertyKey[]): string | undefined {
  const origins = ORIGINS.get(template);
  return origins ? originOf(origins, path) : undefined;
}

/** The parameter of the nearest enclosing path that was substituted, if any. */
function originOf(origins: ReadonlyMap<string, string>, path: readonly PropertyKey[]): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const name = origins.get(pathKey(path.slice(0, n)));
    if (name !== undefined) return name;
  }
  return undefined;
}

const isDataToken = (type: ParameterType, value: ParameterValue) =>
  type === 'market' || type === 'markets' || ((type === 'year' || type === 'years') && (Array.isArray(value) ? value : [value]).some((v) => typeof v === 'string'));

/** `2021–2025` for consecutive years, else `2021, 2023`. */
export function yearsText(years: readonly number[]): string {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  const consecutive = sorted.length > 2 && sorted.every((y, i) => i === 0 || y === sorted[i - 1]! + 1);
  return consecutive ? `${sorted[0]}–${sorted[sorted.length - 1]}` : sorted.join(', ');
}

/** `1990–2018, 2026–2100`: years with runs of three or more as ranges, for lists of any length. */
export function yearRangesText(years: readonly number[]): string {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const y of sorted) {
    const run = runs[runs.length - 1];
    if (run && y === run[run.length - 1]! + 1) run.push(y);
    else runs.push([y]);
  }
  return runs.map((r) => (r.length > 2 ? `${r[0]}–${r[r.length - 1]}` : r.join(', '))).join(', ');
}

/**
 * Fills the `{name}` tokens `resolveTemplate` left for the data to tell: year parameters with
 * `latest` (as calendar years) and market parameters (as market names), or codes with `names: false`.
 *
 * @example
 * fillDataTokens('Brand health, {year}, {market}', resolved.parameters, { latest: 2025, marketName: (c) => names.get(c) ?? c });
 * // 'Brand health, 2025, United Kingdom'
 */
export function fillDataTokens(text: string, parameters: readonly ResolvedParameter[], data: { latest: number; marketName?: (code: string) => string }): string {
  return text.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) => {
    const p = parameters.find((x) => x.name === name);
    if (p?.type === 'market' || p?.type === 'markets') {
      const codes = (Array.isArray(p.value) ? p.value : [p.value]) as string[];
      const names = codes.map((c) => data.marketName?.(c) ?? c);
      return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
    }
    if (p?.type !== 'year' && p?.type !== 'years') return whole;
    const values = (Array.isArray(p.value) ? p.value : [p.value]) as YearValue[];
    return yearsText(values.map((v) => toCalendarYear(v, data.latest)));
  });
}

/**
 * What makes a file name unusable for a report, or undefined: a name must stay in the output
 * folder (no folders in it, not empty, not `.` or `..`) and fit the file system's limit on a
 * name's bytes, with its extension and the temporary name it is written under first.
 */
export function fileNameProblem(name: string, origin = ''): string | undefined {
  const shown = `${describe(name)}${origin}`;
  if (/[/\\]/.test(name)) return `the file name ${shown} has a folder in it ('/' or '\\'); an output name is a file name in the output folder`;
  if (name.includes('\u0000')) return `the file name ${shown} has a NUL character in it, which no file name can hold`;
  if (/^\.+$/.test(name)) return `the file name ${shown} is only dots ('.' and '..' name folders, not files); give the name text (e.g. '{template}-{date}')`;
  const safe = safeName(name);
  if (safe === '') return `the file name ${shown} is empty${name === '' ? '' : ' once the characters a file name cannot start with or hold are left out'}; give the name text (e.g. '{template}-{date}')`;
  const bytes = Buffer.byteLength(safe, 'utf8');
  const limit = TEMPLATE_LIMITS.outputNameBytes;
  if (bytes > limit) return `the file name ${shown} is ${bytes} bytes long (UTF-8); an output name is at most ${limit} bytes, to fit the file system's 255 with its extension and the temporary name it is written under first`;
  return undefined;
}

/**
 * A file name made portable: characters that Windows or a shell trip over become `-` (`a:b`,
 * spaces), control characters go, and so do leading dots (no hidden files). Folders, NUL and
 * over-long names are not repaired but refused (`fileNameProblem`).
 */
const safeName = (text: string) =>
  text
    .replace(/[:*?"<>|\u0001-\u001f\u007f]+/g, '-')
    .replace(/\s+/g, '-')
    .replace(/^\.+/, '');

/**
 * The output file name (without extension) from the template's pattern: `{template}`, `{date}`
 * (YYYY-MM-DD), `{time}` (HHMMSS, UTC) and any `{parameter}` (lists joined with `-`).
 *
 * @throws UsageError when the name would be unusable (see `resolveTemplate`, which refuses such a
 * template before anything is loaded).
 * @example
 * outputName(resolved, new Date('2026-11-24T09:30:00Z'), 2025); // 'cross-market-brand-health-2025-2026-11-24'
 */
export function outputName(template: ResolvedTemplate, at: Date, latest: number): string {
  const name = filledOutputName(template, at, latest);
  const problem = fileNameProblem(name);
  if (problem !== undefined) throw new UsageError(`The output name of ${template.name}: ${problem}.`, { hint: 'Change output.name in the template or the parameter it uses.' });
  return safeName(name);
}

/** The output name's pattern with its tokens filled, not yet checked or made portable. */
function filledOutputName(template: ResolvedTemplate, at: Date, latest: number): string {
  const iso = at.toISOString();
  const tokens = new Map<string, string>([
    ['template', template.name],
    ['date', iso.slice(0, 10)],
    ['time', iso.slice(11, 19).replace(/:/g, '')],
    ...template.parameters.map((p) => [p.name, Array.isArray(p.value) ? p.value.map(String).join('-') : parameterText(p.value)] as [string, string]),
  ]);
  // Year parameters as calendar years (`latest` is 2025 in the name, not the word).
  const named = fillDataTokens(template.output.name, template.parameters, { latest }).replace(/–/g, '-').replace(/, | and /g, '-');
  return named.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, token: string) => tokens.get(token) ?? whole);
}

/** What the output name's check fills for what only the run knows: a date, a time, a year of the same lengths. */
const STAND_IN = { at: new Date('2000-01-01T00:00:00Z'), latest: 2000 };

/** What a section needs from the rest of the template (checked before anything is loaded). */
function coherenceProblems(data: DataSpec, sections: readonly SectionSpec[]): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  sections.forEach((s, i) => {
    const at = `sections[${i}]`;
    const brands = ('brands' in s ? s.brands : undefined) ?? data.brands;
    if ((s.kind === 'power-grid' || s.kind === 'pillars-profile') && brands === undefined) {
      problems.push({ path: `${at}.brands`, message: `a ${s.kind} section shows brands: list them here or under data.brands` });
    }
    if (s.kind === 'archetypes' && s.comparison === undefined && data.collections === undefined && data.categories === undefined) {
      problems.push({ path: `${at}.comparison`, message: 'missing; competitive archetypes need a set: { collection: <id> } or { category: <id> }, or data.collections / data.categories' });
    }
    if (s.kind === 'company-rollup' && s.companies === undefined && data.companies === undefined) {
      problems.push({ path: `${at}.companies`, message: 'a company-rollup section needs companies: list their ids here or under data.companies' });
    }
    if (s.kind === 'cross-market' && s.chart === 'bars' && (s.by ?? 'brand') === 'brand' && brands?.length !== 1) {
      problems.push({ path: `${at}.chart`, message: `bars show one brand across markets, and the section has ${brands?.length ?? 'every'} brand${brands?.length === 1 ? '' : 's'}; use chart: heatmap, or give one brand in ${at}.brands` });
    }
  });
  return problems;
}

