/**
 * The trend rule: one threshold per score type, what the data can tell apart; the same rule in the
 * tables' Trend column, the slope chart and the text readers see.
 */
import { describe, expect, it } from 'vitest';
import { TREND_THRESHOLDS, seriesTrend, trendOf, trendRuleText, trendThreshold } from '../../src/frames/trend-rule.js';

describe('trend rule', () => {
  it('calls a rank series flat when it moves within 5 points, whatever the path', () => {
    expect(seriesTrend([91, 88, 92, 88], 'rank')).toBe('flat');
    expect(seriesTrend([50, 53], 'rank')).toBe('flat');
    expect(seriesTrend([50, 52], 'rank')).toBe('flat');
    expect(seriesTrend([50, 55], 'rank')).toBe('flat');
    expect(seriesTrend([50, 56], 'rank')).toBe('up');
    expect(seriesTrend([50, null, 43], 'rank')).toBe('down');
  });

  it('has a threshold per score type, relative for raw values', () => {
    expect(trendThreshold('rank')).toBe(TREND_THRESHOLDS.rank);
    expect(trendOf(0.15, trendThreshold('c'))).toBe('flat');
    expect(trendOf(0.25, trendThreshold('c'))).toBe('up');
    expect(trendOf(-9, trendThreshold('brandscape_index'))).toBe('flat');
    expect(trendThreshold('value', 200)).toBe(10);
    expect(seriesTrend([200, 215], 'value')).toBe('up');
  });

  it('gives no trend without two values', () => {
    expect(seriesTrend([null, 40, null], 'rank')).toBeNull();
    expect(trendOf(Number.NaN, 5)).toBeNull();
  });

  it('states the rule with the thresholds of the score types shown', () => {
    const text = trendRuleText(['rank']);
    expect(text).toContain('larger than 5 percentile-rank points');
    expect(text).not.toContain('construct');
    expect(trendRuleText()).toMatch(/5 percentile-rank points.*3 percentage points.*0\.2 on construct scores/);
  });
});
