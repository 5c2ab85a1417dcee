import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { archetypeMatrix } from '../../src/frames/archetype-matrix.js';
import { competitive, cultural } from './fixtures.js';

describe('archetypeMatrix (hand-written entries in fixtures.ts)', () => {
  const result = archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: 7 } });

  it('puts cultural and competitive scores and ranks side by side for the brands of the set', () => {
    expect(result.rows()).toEqual([
      { study_id: 11, audience_id: 1, brand_id: 1, brand_name: 'Alpha UK', archetype: 'hero', archetype_name: 'Hero', cultural_score: 120, cultural_rank: 80, competitive_score: 105, competitive_rank: 100, comparison_name: 'Category 7', comparison_type: 'category' },
      { study_id: 11, audience_id: 1, brand_id: 1, brand_name: 'Alpha UK', archetype: 'sage', archetype_name: 'Sage', cultural_score: 90, cultural_rank: 40, competitive_score: 95, competitive_rank: 0, comparison_name: 'Category 7', comparison_type: 'category' },
      { study_id: 11, audience_id: 1, brand_id: 2, brand_name: 'Beta', archetype: 'hero', archetype_name: 'Hero', cultural_score: 100, cultural_rank: 50, competitive_score: 95, competitive_rank: 0, comparison_name: 'Category 7', comparison_type: 'category' },
      { study_id: 11, audience_id: 1, brand_id: 2, brand_name: 'Beta', archetype: 'sage', archetype_name: 'Sage', cultural_score: 110, cultural_rank: 70, competitive_score: 105, competitive_rank: 100, comparison_name: 'Category 7', comparison_type: 'category' },
      // Zeta has no cultural entry; its sage score is missing.
      { study_id: 11, audience_id: 1, brand_id: 6, brand_name: 'Zeta', archetype: 'hero', archetype_name: 'Hero', cultural_score: null, cultural_rank: null, competitive_score: 100, competitive_rank: 50, comparison_name: 'Category 7', comparison_type: 'category' },
      { study_id: 11, audience_id: 1, brand_id: 6, brand_name: 'Zeta', archetype: 'sage', archetype_name: 'Sage', cultural_score: null, cultural_rank: null, competitive_score: null, competitive_rank: null, comparison_name: 'Category 7', comparison_type: 'category' },
    ]);
    expect(result.meta.comparison).toEqual({ type: 'category', id: 7, name: 'Category 7', size: 3 });
    expect(result.meta.notes.join(' ')).toMatch(/1 brand of the set has no cultural entry/);
  });

  it('selects brands and archetypes', () => {
    const one = archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: 8 }, archetypes: ['hero'] }).rows();
    expect(one).toEqual([expect.objectContaining({ brand_id: 1, archetype: 'hero', cultural_score: 120, competitive_score: 110, comparison_name: 'Category 8' })]);
  });

  it('names the competitive sets there are when the asked one is missing', () => {
    try {
      archetypeMatrix({ cultural, competitive }, { set: { type: 'collection', id: 9 } });
      throw new Error('expected a DataError');
    } catch (error) {
      expect(error).toBeInstanceOf(DataError);
      expect((error as DataError).missing).toEqual(['collection 9']);
      expect((error as DataError).available).toEqual(['Category 7 (7)', 'Category 8 (8)']);
    }
    expect(() => archetypeMatrix({ cultural, competitive: cultural }, { set: { type: 'category', id: 7 } })).toThrow(/include cultural ones/);
    expect(() => archetypeMatrix({ cultural, competitive }, { set: { type: 'category', id: 7 }, archetypes: ['jester'] })).toThrow(/Unknown archetypes/);
  });
});
