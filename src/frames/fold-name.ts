/**
 * Names as an analyst types them: folded for comparison ("Nestlé" and "nestle" are one name) and
 * how far apart two are (for "did you mean"). Pure text, shared by the brand look-up (load/), the
 * comparison's plan (compare/), template checks (report/) and the MCP tools.
 */

/** A name as compared: accents folded, lower case, single spaces. */
export function foldName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Edit distance between two short texts, a swap of neighbouring letters counting as one edit
 * (optimal string alignment): "Verso" is one edit from "Veros", as a typist would judge it.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
