import { describe, expect, it } from 'vitest';
import { dodgeLabels } from '../../src/charts/dodge-labels.js';
import { metricTitle } from '../../src/charts/metric-title.js';
import { placeLabels } from '../../src/charts/place-labels.js';
import { truncateLabel, uniqueLabels } from '../../src/charts/truncate-label.js';

describe('truncateLabel', () => {
  it('keeps short names and cuts long ones with an ellipsis, at a word where it can', () => {
    expect(truncateLabel('Nike', 16)).toBe('Nike');
    expect(truncateLabel('The Procter & Gamble Company', 16)).toBe('The Procter…');
    expect(truncateLabel('Supercalifragilisticexpialidocious', 10)).toBe('Supercali…');
    expect([...truncateLabel('ユニクロ・ジャパン株式会社', 6)]).toHaveLength(6);
  });

  it('keeps labels unique', () => {
    const labels = uniqueLabels([
      { key: 1, name: 'Galaxy Smartphones Europe' },
      { key: 2, name: 'Galaxy Smartphones Americas' },
      { key: 3, name: 'Galaxy Smartphones Europe' },
    ], 20);
    expect(new Set(labels.values()).size).toBe(3);
    expect([...labels.values()].every((l) => [...l].length <= 20)).toBe(true);
  });
});

describe('metricTitle', () => {
  it('names the score type in words', () => {
    expect(metricTitle('Differentiation', 'rank')).toBe('Differentiation (percentile rank)');
    expect(metricTitle('Esteem', 'brandscape_index')).toBe('Esteem (index vs brandscape)');
    expect(metricTitle('Brand base', 'value')).toBe('Brand base');
  });
});

describe('dodgeLabels', () => {
  it('moves crowded labels apart around where they want to be, inside the extent', () => {
    expect(dodgeLabels([100, 104, 300], 14, 400)).toEqual([95, 109, 300]);
    const ys = dodgeLabels([395, 396, 397, 398], 14, 400);
    expect(Math.max(...ys)).toBeLessThanOrEqual(400);
    expect([...ys].sort((a, b) => a - b).every((y, i, a) => i === 0 || y - (a[i - 1] ?? 0) >= 14 - 1e-9)).toBe(true);
    expect(dodgeLabels([0, 0, 0], 14, 400)).toEqual([0, 14, 28]);
  });
});

describe('placeLabels', () => {
  it('puts a label right of its point, else elsewhere, else nowhere', () => {
    const opts = { width: 200, height: 100, fontSize: 11, radius: 4 };
    expect(placeLabels([{ x: 10, y: 50, text: 'Apple' }], opts)).toEqual([{ x: 17, y: 50, align: 'left' }]);
    expect(placeLabels([{ x: 195, y: 50, text: 'Apple' }], opts)[0]?.align).toBe('right');
    const crowd = Array.from({ length: 30 }, () => ({ x: 100, y: 50, text: 'Same place' }));
    const placed = placeLabels(crowd, opts);
    expect(placed.filter((p) => p === null).length).toBeGreaterThan(20);
  });
});
