/**
 * `TemplateError`: a template (or a parameter given for it) that cannot be used, with every problem
 * named by its path in the template and what to do about it, e.g.
 * `sections[2].chart: unknown chart 'pie'; choose one of heatmap, bars, none`.
 */
import type * as z from 'zod';
import { UsageError, toJsonPath } from '../../errors.js';
import { describe } from './template-params.js';

/** One problem: where, and what is wrong with it (the message says how to fix it). */
export interface TemplateProblem {
  /** JSON path in the template, e.g. `sections[2].chart`; empty for the template as a whole. */
  readonly path: string;
  readonly message: string;
}

/** A template that cannot be used: a usage error (exit code 2) listing every problem found. */
export class TemplateError extends UsageError {
  override name = 'TemplateError';
  /** The template file or name. */
  readonly template: string;
  readonly problems: readonly TemplateProblem[];

  constructor(template: string, problems: readonly TemplateProblem[]) {
    const shown = problems.slice(0, 12).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
    const more = problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : '';
    const lines = shown.length === 1 ? ` ${shown[0]!}` : `\n  ${shown.join('\n  ')}${more}`;
    // A full stop before the hint that follows, unless the last problem ends a sentence itself.
    const end = /[.?!]$/.test(lines) ? '' : '.';
    super(`Template ${template} cannot be used:${lines}${end}`, {
      hint: "Run 'brandscape templates show NAME' for a template's parameters, and see the README's template reference.",
    });
    this.template = template;
    this.problems = problems;
  }
}

/** The value at a path of a parsed document (undefined where there is none). */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export interface IssueContext {
  /** The document the schema parsed (to quote the offending value). */
  readonly input: unknown;
  /** The keys allowed in the object at a path, for "unknown key" messages. */
  allowedKeys(path: readonly PropertyKey[]): readonly string[] | undefined;
  /** The parameter a value at a path came from, if any (the message then names it). */
  parameterAt?(path: readonly PropertyKey[]): string | undefined;
  /** A prefix for every path (e.g. `data` when a sub-document was parsed on its own). */
  readonly prefix?: readonly PropertyKey[];
}

/** zod's issues as template problems with paths and fixes. */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], context: IssueContext): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  for (const issue of issues) {
    const path = [...(context.prefix ?? []), ...issue.path];
    const from = context.parameterAt?.(path);
    const origin = from === undefined ? '' : ` (from parameter '${from}')`;
    let message: string;
    switch (issue.code) {
      case 'unrecognized_keys': {
        const allowed = context.allowedKeys(path);
        const keys = issue.keys.map((k) => `'${k}'`).join(', ');
        message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}${allowed ? `; allowed: ${allowed.join(', ')}` : ''}`;
        break;
      }
      case 'invalid_union': {
        if ('discriminator' in issue && typeof issue.discriminator === 'string') {
          const value = valueAt(context.input, path);
          const options = 'options' in issue && Array.isArray(issue.options) ? (issue.options as unknown[]).map(String) : [];
          message =
            value === undefined
              ? `missing; every section names its kind: one of ${options.join(', ')}`
              : `unknown section kind ${describe(value)}; choose one of ${options.join(', ')}`;
        } else {
          message = issue.message;
        }
        break;
      }
      case 'invalid_type': {
        const value = valueAt(context.input, path);
        // zod's own wording for a missing key is "expected X, received undefined".
        message = value === undefined && !/got nothing/.test(issue.message) ? `missing (${issue.message.replace(/^Invalid input: /, '')})` : issue.message.replace(/^Invalid input: /, '');
        break;
      }
      default:
        message = issue.message;
    }
    out.push({ path: toJsonPath(path), message: `${message}${origin}` });
  }
  return out;
}
