/**
 * A list in words, for notes, subtitles and messages a reader sees.
 */

/**
 * The items joined with commas and a final `and`.
 *
 * @example
 * listText(['Differentiation', 'Relevance', 'Esteem']) // 'Differentiation, Relevance and Esteem'
 */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}
