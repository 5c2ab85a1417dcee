/**
 * `compareNames`: the order in which people expect names (markets, brands, sectors) in tables,
 * charts and notes: English collation, so case and accents do not split the alphabet ("Émile"
 * next to "Emma", "bolt" next to "Bolt").
 *
 * Two reasons not to call `localeCompare` directly. It follows the host's locale, so the same
 * report could order its rows differently on another machine (Lithuanian puts "y" after "i").
 * And its first call in a process loads the ICU collation data, which a short command such as
 * `brandscape compare` pays for a handful of market names. Names made only of ASCII
 * letters, digits and spaces are therefore compared here directly, with the result English
 * collation gives them (space before digits before letters, case ignored, then lowercase first);
 * any other name goes to an English `Intl.Collator`.
 */

/** Letters, digits and spaces: what the fast path orders exactly as the collator would. */
const PLAIN = /^[A-Za-z0-9 ]*$/;

let collator: Intl.Collator | undefined;

/** The character code with ASCII capitals folded to small letters. */
const folded = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/**
 * Negative when `a` comes before `b` in English collation, positive after, 0 when equal; for
 * `Array#sort`.
 *
 * @example
 * ['germany', 'France', 'Côte d’Ivoire', 'Brazil'].sort(compareNames); // ['Brazil', 'Côte d’Ivoire', 'France', 'germany']
 */
export function compareNames(a: string, b: string): number {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return (collator ??= new Intl.Collator('en')).compare(a, b);
  const n = Math.min(a.length, b.length);
  // First level: the letters, case ignored (space 32 < digits 48-57 < letters 97-122 once folded).
  for (let i = 0; i < n; i++) {
    const d = folded(a.charCodeAt(i)) - folded(b.charCodeAt(i));
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  // The same letters: the first difference in case decides, a small letter first.
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d > 0 ? -1 : 1;
  }
  return 0;
}
