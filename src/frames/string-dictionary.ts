/**
 * `StringDictionary`: the dictionary encoding of text columns (`FrameColumn` kind `string`), one
 * code per distinct value in order of first appearance. Brandscape text (brand, category, market
 * names) repeats heavily, so a column is a code per row plus a short list of values.
 */
import type { FrameColumn } from './column.js';

export class StringDictionary {
  /** The distinct values; a value's code is its position. */
  readonly values: string[] = [];
  readonly #codes = new Map<string, number>();

  /** The code of a value, added to the dictionary when new. */
  codeOf(value: string): number {
    let code = this.#codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.#codes.set(value, code);
    }
    return code;
  }
}

/**
 * A `string` column of `n` rows from each row's text (null = missing, code -1).
 *
 * @example textColumn(3, (i) => ['a', null, 'a'][i]) // { kind: 'string', codes: [0, -1, 0], dictionary: ['a'] }
 */
export function textColumn(n: number, textOf: (row: number) => string | null): FrameColumn {
  const dictionary = new StringDictionary();
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = textOf(i);
    codes[i] = s === null ? -1 : dictionary.codeOf(s);
  }
  return { kind: 'string', codes, dictionary: dictionary.values };
}
