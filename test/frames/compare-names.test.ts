import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/frames/compare-names.js';

const english = new Intl.Collator('en');
const sign = (n: number) => Math.sign(n);

/** A small seeded generator, so a failure names a pair that can be replayed. */
function randomText(seed: number, alphabet: string, maxLength: number): () => string {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return () => Array.from({ length: Math.floor(next() * (maxLength + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

describe('compareNames', () => {
  it('orders letters, digits and spaces exactly as English collation does', () => {
    // A narrow alphabet makes ties, case-only differences and prefixes common.
    for (const [seed, alphabet] of [[1, 'aAbB 1'], [2, 'abcxyzABCXYZ0189 '], [3, 'eE'], [4, 'Zz 09']] as const) {
      const text = randomText(seed, alphabet, 6);
      for (let k = 0; k < 4000; k++) {
        const a = text();
        const b = text();
        expect([a, b, sign(compareNames(a, b))]).toEqual([a, b, sign(english.compare(a, b))]);
      }
    }
  });

  it('hands names with accents and punctuation to the collator', () => {
    const names = ['Émile', 'Emma', 'emma', "Côte d'Ivoire", 'Costa Rica', 'Bosnia-Herzegovina', 'Bosnia', 'Zürich', 'Zug', 'a.b', 'ab'];
    const ours = [...names].sort(compareNames);
    expect(ours).toEqual([...names].sort(english.compare));
    // The accent does not send the name past the z's, as code-point order would.
    expect(ours.slice(ours.indexOf('Émile'), ours.indexOf('Émile') + 3)).toEqual(['Émile', 'emma', 'Emma']);
  });

  it('puts case and prefixes where people expect them', () => {
    expect(['germany', 'France', 'Brazil', 'bolt', 'Bolt', 'Bol', 'Bo lt', 'B2'].sort(compareNames)).toEqual(['B2', 'Bo lt', 'Bol', 'bolt', 'Bolt', 'Brazil', 'France', 'germany']);
    expect(compareNames('United Kingdom', 'United Kingdom')).toBe(0);
  });
});
