/**
 * `resolveColumns`: the metric columns a comparison's selection names, and the caveats of
 * comparing their score types.
 */
import { DataError } from '../errors.js';
import { SCORE_TYPES, toMetricColumn, type ScoreType } from '../schemas/score-types.js';
import type { MetricInfo, PreparedBrandscape } from './prepare-brandscape.js';

/**
 * The metric columns a selection names. Metric keys take the requested score types; exact columns
 * are taken as they are. Throws a DataError for a metric or score type the rows do not have, and
 * for selections that mix score types without asking for it (values on different scales).
 */
export function resolveColumns(prep: PreparedBrandscape, metrics: readonly string[], scoreTypes: readonly ScoreType[] | undefined): MetricInfo[] {
  const byMetric = new Map<string, MetricInfo[]>();
  for (const info of prep.metrics.values()) byMetric.set(info.metric, [...(byMetric.get(info.metric) ?? []), info]);
  if (metrics.length === 0) throw new DataError('No metrics selected.', ['metrics'], [...byMetric.keys()]);
  const out: MetricInfo[] = [];
  for (const wanted of metrics) {
    const exact = prep.metrics.get(wanted);
    if (exact) {
      if (scoreTypes && !scoreTypes.includes(exact.scoreType)) {
        throw new DataError(
          `Column '${wanted}' is a ${SCORE_TYPES[exact.scoreType].label.toLowerCase()} score, not one of the requested score types (${scoreTypes.join(', ')}); values of different score types are on different scales.`,
          scoreTypes.map((t) => toMetricColumn(exact.metric, t)),
          (byMetric.get(exact.metric) ?? []).map((m) => m.column),
        );
      }
      out.push(exact);
      continue;
    }
    const columns = byMetric.get(wanted);
    if (!columns) {
      throw new DataError(`Metric '${wanted}' is not in the data.`, [wanted], [...byMetric.keys()], {
        hint: 'Load it with metricKeys (or metricGroupKeys) in the brandscape query, or pick one of the available metrics.',
      });
    }
    const types = scoreTypes ?? (columns.some((c) => c.scoreType === 'rank') ? ['rank' as const] : columns.map((c) => c.scoreType));
    for (const type of types) {
      const info = columns.find((c) => c.scoreType === type);
      if (!info) {
        throw new DataError(
          `Metric '${wanted}' has no ${SCORE_TYPES[type].label.toLowerCase()} score (${toMetricColumn(wanted, type)}) in the data.`,
          [toMetricColumn(wanted, type)],
          columns.map((c) => c.column),
        );
      }
      out.push(info);
    }
  }
  const types = new Set(out.map((c) => c.scoreType));
  if (!scoreTypes && types.size > 1) {
    const [first] = types;
    const off = out.filter((c) => c.scoreType !== first);
    throw new DataError(
      `The selected columns mix score types (${[...types].join(', ')}), whose values are on different scales.`,
      off.map((c) => c.column),
      out.filter((c) => c.scoreType === first).map((c) => c.column),
      { hint: `Pick columns of one score type, or pass scoreTypes: [${[...types].map((t) => `'${t}'`).join(', ')}] to compare them side by side deliberately.` },
    );
  }
  return [...new Map(out.map((c) => [c.column, c])).values()];
}

/** Caveats of comparing a score type across markets (DESIGN domain notes). */
export function scoreTypeNotes(columns: readonly MetricInfo[], acrossMarkets: boolean): string[] {
  const notes: string[] = [];
  const types = new Set(columns.map((c) => c.scoreType));
  if (acrossMarkets && types.has('c')) notes.push('Construct scores (_c) are less comparable across markets than percentile ranks (_rank).');
  if (types.has('category_index')) notes.push("Category indexes (_category_index) compare a brand with its category's brands, which differ by market and year.");
  return notes;
}
