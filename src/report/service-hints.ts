/**
 * How the toolkit words a market, metric or group the service does not have, with the nearest
 * valid values ("Did you mean GB?"): shared by `compareBrands` (usage errors in sentences) and
 * `checkAgainstService` (a template's problems), so both say the same. Kept apart from both so
 * that `brandscape compare` loads nothing of the templates to use them.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';
import { SCORE_TYPES, fromMetricColumn, toMetricColumn, type ScoreType } from '../schemas/score-types.js';
import { listText } from '../frames/list-text.js';

/** Codes people use for a market that are not its ISO code. */
const MARKET_ALIASES: Readonly<Record<string, string>> = { UK: 'GB', EN: 'GB', EL: 'GR' };

/** The codes of the markets with studies, sorted (one request: made only when a code is unknown). */
export async function marketsWithStudies(client: Pick<BrandscapeClient, 'countries'>, signal?: AbortSignal): Promise<string[]> {
  const countries = await client.countries.all({ filter: { with_studies: true }, fields: ['code', 'name'] }, signal ? { signal } : {});
  return countries.map((c) => c.code ?? '').filter((c) => c !== '').sort();
}

/** `Did you mean GB? ` for codes people use instead of the ISO one (UK), or nothing. */
export function didYouMeanMarket(unknown: readonly string[], known: readonly string[]): string {
  const hints = [...new Set(unknown.map((u) => MARKET_ALIASES[u]).filter((c): c is string => c !== undefined && known.includes(c)))];
  return hints.length > 0 ? `Did you mean ${hints.join(', ')}? ` : '';
}

/**
 * What to say about market codes that have no released study: "Did you mean GB?" for the codes
 * people use instead of the ISO one, and the markets there are.
 *
 * @example
 * unknownMarketsHint(['UK'], await marketsWithStudies(client)); // 'Did you mean GB? Markets with studies: AE, AR, ...'
 */
export function unknownMarketsHint(unknown: readonly string[], known: readonly string[]): string {
  return `${didYouMeanMarket(unknown, known)}Markets with studies: ${known.join(', ')}.`;
}

/**
 * Keys close to a mistyped one: those that contain it or that it contains, else those sharing its
 * first letters (`esteme` -> esteem, `pillar` -> pillars).
 */
export function nearestKeys(word: string, options: readonly string[]): string[] {
  const w = word.toLowerCase();
  const inside = options.filter((o) => o.includes(w) || w.includes(o));
  return (inside.length > 0 ? inside : options.filter((o) => o.startsWith(w.slice(0, 3)))).slice(0, 5);
}

/** The metric groups with metrics, with a few of each: what to choose from when a group is unknown. */
export function groupsText(byGroup: ReadonlyMap<string, readonly string[]>, withMetrics = false): string {
  const groups = [...byGroup].filter(([, keys]) => keys.length > 0);
  return withMetrics
    ? groups.map(([g, ks]) => `${g} (${ks.slice(0, 4).join(', ')}${ks.length > 4 ? ', ...' : ''})`).join('; ')
    : groups.map(([g]) => g).join(', ');
}

/** What to say about a metric without a score type: the column it lacks and the ones it has. */
export function missingScoreTypeText(key: string, scoreType: ScoreType, columns: readonly string[]): string {
  const has = columns.map((c) => `${fromMetricColumn(c).scoreType} (${c})`);
  return `Metric '${key}' has no ${SCORE_TYPES[scoreType].label.toLowerCase()} score (${toMetricColumn(key, scoreType)}); it has ${listText(has)}`;
}
