/**
 * Long names break chart layouts (a 60-character brand name eats the plot). Builders show a
 * truncated label and keep the full name for the tooltip.
 */

/** Default maximum label length in characters, ellipsis included. */
export const DEFAULT_LABEL_LENGTH = 24;

/**
 * Shortens `name` to at most `max` characters, ending with an ellipsis when cut. Cuts at a word
 * boundary when one falls in the last third, so labels do not end mid-word needlessly.
 *
 * @example
 * truncateLabel('The Procter & Gamble Company', 16) // 'The Procter &…'
 * truncateLabel('Nike', 16) // 'Nike'
 */
export function truncateLabel(name: string, max: number = DEFAULT_LABEL_LENGTH): string {
  const text = name.trim().replace(/\s+/g, ' ');
  // Count code points, not UTF-16 units, so accented or non-Latin names are not cut in half.
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return '…';
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= Math.floor(((max - 1) * 2) / 3) ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:&/-]+$/u, '')}…`;
}

/**
 * Truncated labels that stay unique: two different entities whose names truncate (or already are)
 * the same would be merged into one row by Vega-Lite, so later ones get a ` (2)`, ` (3)` suffix.
 *
 * @example
 * uniqueLabels([{ key: 1, name: 'Galaxy' }, { key: 2, name: 'Galaxy' }]) // Map { 1 => 'Galaxy', 2 => 'Galaxy (2)' }
 */
export function uniqueLabels<K>(items: readonly { key: K; name: string }[], max: number = DEFAULT_LABEL_LENGTH): Map<K, string> {
  const out = new Map<K, string>();
  const used = new Map<string, number>();
  for (const { key, name } of items) {
    if (out.has(key)) continue;
    let label = truncateLabel(name, max);
    const seen = used.get(label) ?? 0;
    used.set(label, seen + 1);
    if (seen > 0) {
      const suffix = ` (${seen + 1})`;
      label = truncateLabel(name, Math.max(2, max - suffix.length)) + suffix;
    }
    out.set(key, label);
  }
  return out;
}
