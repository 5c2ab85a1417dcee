/**
 * `checkTemplateOffline`: what can be checked in a resolved template without a connection, beyond
 * what `resolveTemplate` checks (structure, types, references, the output name), and what cannot.
 * Metric keys and groups are compared with the catalogue the toolkit knows (`KNOWN_METRIC_GROUPS`):
 * a key a typo away from a known one (`pillar`, `esteme`) is a problem; any other unknown key is
 * left for the service, which may have it. Markets, years, brands, the audience and the ids of
 * sectors, collections, categories and companies only the service knows: they are listed, so
 * that `templates validate` says what "valid" did not cover. `checkAgainstService` checks them
 * (and `brandscape report` does, before it loads any data).
 */
import { KNOWN_METRIC_GROUPS, KNOWN_METRIC_KEYS } from '../catalogue/metric-keys.js';
import { toJsonPath } from '../errors.js';
import { editDistance } from '../frames/fold-name.js';
import { listText } from '../frames/list-text.js';
import { parameterAt, type ResolvedTemplate } from './template/resolve-template.js';
import type { TemplateProblem } from './template/template-error.js';
import { templateMarkets } from './study-context.js';

/** What `checkTemplateOffline` found. */
export interface OfflineCheck {
  /** Metric keys and groups a typo away from ones the toolkit knows. */
  readonly problems: readonly TemplateProblem[];
  /** What only the service can check, one line each, e.g. `markets GB, DE have released studies`. */
  readonly unchecked: readonly string[];
}

/** The known key a typo away from `key` (one edit for short keys, two for longer), if any. */
function typoOf(key: string, known: readonly string[]): string | undefined {
  const limit = key.length >= 6 ? 2 : 1;
  let best: { key: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(key, k);
    if (d <= limit && (best === undefined || d < best.d)) best = { key: k, d };
  }
  return best?.key;
}

/** `market GB` or `markets GB, DE`: a word in the number of its values, and the values. */
const named = (word: string, plural: string, values: readonly (string | number)[]) => `${values.length === 1 ? word : plural} ${values.join(', ')}`;
/** `has` or `have`, `exists` or `exist`. */
const verb = (one: string, many: string, count: number) => (count === 1 ? one : many);

/**
 * Checks a resolved template as far as it can be checked offline, and lists the rest.
 *
 * @example
 * const { problems, unchecked } = checkTemplateOffline(resolveTemplate(await loadTemplate('my.yaml')));
 * // problems: [{ path: 'data.metric_groups[0]', message: "'pillar' is not a metric group; did you mean pillars?" }]
 */
export function checkTemplateOffline(template: ResolvedTemplate): OfflineCheck {
  const { data, sections } = template;
  const problems: TemplateProblem[] = [];
  const unknownKeys: string[] = [];
  const unknownGroups: string[] = [];
  const origin = (path: (string | number)[]) => {
    const from = parameterAt(template, path);
    return from === undefined ? '' : ` (from parameter '${from}')`;
  };
  const checkKey = (path: (string | number)[], key: string, group: boolean) => {
    const known = group ? Object.keys(KNOWN_METRIC_GROUPS) : KNOWN_METRIC_KEYS;
    if (known.includes(key)) return;
    const typo = typoOf(key, known);
    if (typo !== undefined) problems.push({ path: toJsonPath(path), message: `'${key}' is not a metric ${group ? 'group' : 'key'}${origin(path)}; did you mean ${typo}?` });
    else (group ? unknownGroups : unknownKeys).push(key);
  };
  (data.metrics ?? []).forEach((key, i) => checkKey(['data', 'metrics', i], key, false));
  (data.metric_groups ?? []).forEach((key, i) => checkKey(['data', 'metric_groups', i], key, true));
  sections.forEach((s, i) => {
    if ('metrics' in s) (s.metrics ?? []).forEach((key, j) => checkKey(['sections', i, 'metrics', j], key, false));
  });

  const unchecked: string[] = [];
  const markets = templateMarkets(template);
  unchecked.push(`${named('market', 'markets', markets)} ${verb('has', 'have', markets.length)} released studies`);
  const years = [...new Set([...(data.years ?? ['latest']), ...sections.flatMap((s) => [...('year' in s && s.year !== undefined ? [s.year] : []), ...('years' in s ? (s.years ?? []) : [])])])];
  const latest = years.some((y) => typeof y === 'string') ? " ('latest' is the most recent year released in every market)" : '';
  unchecked.push(`${named('year', 'years', years)} ${verb('has a released full-year study', 'have released full-year studies', years.length)} in ${markets.length === 1 ? 'it' : 'them'}${latest}`);
  const brands = [...new Set([...(data.brands ?? []), ...sections.flatMap((s) => ('brands' in s ? (s.brands ?? []) : []))])];
  if (brands.length > 0) unchecked.push(`${named('brand', 'brands', brands)} ${verb('exists', 'exist', brands.length)}${brands.some((b) => typeof b === 'string') ? " (names are resolved with the service's search)" : ''}`);
  if ((data.audience ?? 1) !== 1) unchecked.push(`audience ${data.audience} exists`);
  const unknown = [unknownKeys.length > 0 ? named('metric key', 'metric keys', unknownKeys) : '', unknownGroups.length > 0 ? named('metric group', 'metric groups', unknownGroups) : ''].filter(Boolean);
  if (unknown.length > 0) unchecked.push(`${listText(unknown)} ${verb('exists', 'exist', unknownKeys.length + unknownGroups.length)} (the toolkit does not know ${unknownKeys.length + unknownGroups.length === 1 ? 'it' : 'them'}; the service may)`);
  if (sections.some((s) => ['cross-market', 'cross-year', 'sector-summary', 'company-rollup', 'pillars-profile'].includes(s.kind))) {
    unchecked.push("each section's metrics have its score type (percentile ranks unless score_type says)");
  }
  const sectors = [...new Set([...(data.sectors ?? []), ...sections.flatMap((s) => (s.kind === 'sector-summary' ? (s.sectors ?? []) : []))])];
  const collections = [...new Set([...(data.collections ?? []), ...sections.flatMap((s) => (s.kind === 'archetypes' && s.comparison && 'collection' in s.comparison ? [s.comparison.collection] : []))])];
  const categories = [...new Set([...(data.categories ?? []), ...sections.flatMap((s) => (s.kind === 'archetypes' && s.comparison && 'category' in s.comparison ? [s.comparison.category] : []))])];
  const companies = [...new Set([...(data.companies ?? []), ...sections.flatMap((s) => (s.kind === 'company-rollup' ? (s.companies ?? []) : []))])];
  const records = [
    sectors.length > 0 ? named('sector', 'sectors', sectors) : '',
    collections.length > 0 ? named('collection', 'collections', collections) : '',
    categories.length > 0 ? named('category', 'categories', categories) : '',
    companies.length > 0 ? named('company', 'companies', companies) : '',
  ].filter(Boolean);
  const count = sectors.length + collections.length + categories.length + companies.length;
  if (records.length > 0) unchecked.push(`${listText(records)} ${verb('exists', 'exist', count)}`);
  return { problems, unchecked };
}
