/**
 * Brandscape values as 16-bit codes. Every value the dataset serves has a fixed precision per score
 * type (types.ts `MetricColumn`): tenths in [0, 100] (`rank`, `pct`), thousandths in [-5, 5] (`c`)
 * or whole numbers (indexes, bases). So a value is stored as a code, a quarter of a double's size,
 * and written by copying the code's pre-encoded JSON text: no number formatting on the hot path of
 * 1,000-row pages.
 *
 *   code 0 .. 1000            tenths 0.0 .. 100.0
 *   code 1001 .. 11001        thousandths -5.000 .. 5.000
 *   code 11002 .. 61002       whole numbers 0 .. 50,000
 *   code 65535                null
 */

export const NULL_CODE = 0xffff;
const TENTHS = 0;
const THOUSANDTHS = 1001;
const WHOLE = 11002;
/** The largest whole number a code holds (bases are at most a study's respondents, < 10,000). */
export const MAX_WHOLE = 50000;
const CODES = WHOLE + MAX_WHOLE + 1;

const clampTo = (k: number, lo: number, hi: number) => (k < lo ? lo : k > hi ? hi : k);

/** The code of `v` rounded to one decimal, in [0, 100]; NaN is null. */
export const tenthsCode = (v: number): number => (v === v ? TENTHS + clampTo(Math.round(v * 10), 0, 1000) : NULL_CODE);
/** The code of `v` rounded to three decimals, in [-5, 5]; NaN is null. */
export const thousandthsCode = (v: number): number => (v === v ? THOUSANDTHS + 5000 + clampTo(Math.round(v * 1000), -5000, 5000) : NULL_CODE);
/** The code of a whole number in [0, MAX_WHOLE] (out of range is clamped); NaN is null. */
export const wholeCode = (v: number): number => (v === v ? WHOLE + clampTo(Math.round(v), 0, MAX_WHOLE) : NULL_CODE);

/** The value of each code (NaN for null and unused codes). */
export const VALUE_OF_CODE: Float64Array = (() => {
  const values = new Float64Array(NULL_CODE + 1).fill(Number.NaN);
  for (let k = 0; k <= 1000; k++) values[TENTHS + k] = k / 10;
  for (let k = -5000; k <= 5000; k++) values[THOUSANDTHS + 5000 + k] = k / 1000;
  for (let k = 0; k <= MAX_WHOLE; k++) values[WHOLE + k] = k;
  return values;
})();

/** Text as little-endian 32-bit words, 4 bytes a word, the last one padded with zeros. */
export interface WordText {
  /** Every text's words, one text after another. */
  words: Int32Array;
  /** Text k's words are `words[wordStart[k] .. wordStart[k + 1])`. */
  wordStart: Uint32Array;
  /** Text k's length in bytes. */
  length: Uint32Array;
}

/**
 * Byte strings as 32-bit words: a writer copies four bytes per `DataView.setInt32` and then moves on
 * by the true length, the padding overwritten by what comes next. Keys and values of brandscape
 * rows are short (4-30 bytes), where this beats both a byte loop and a native `set()` call.
 */
export function toWordText(texts: readonly Uint8Array[]): WordText {
  const { bytes, start, length } = pack(texts, 4);
  return wordsOf(bytes, start, length);
}

/**
 * A word table from texts already laid out in `bytes`: text k starts at byte `start[k]` (a multiple
 * of 4; `start[n]` is the end) and is `length[k]` bytes long.
 */
export function wordsOf(bytes: Uint8Array, start: Uint32Array, length: Uint32Array): WordText {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = new Int32Array((start[length.length] as number) / 4);
  for (let w = 0; w < words.length; w++) words[w] = data.getInt32(4 * w, true);
  return { words, wordStart: start.map((x) => x / 4), length };
}

/**
 * ASCII text as 8-byte chunks held in doubles, for the writer's hottest copies (keys and values of
 * brandscape rows): one `DataView.setFloat64` moves 8 bytes. The bits of a double survive loads and
 * stores unless it is a NaN (which V8 may canonicalise); 8 ASCII bytes never form one (a NaN needs
 * its second-highest byte >= 0xF0), which is why only ASCII is accepted.
 */
export interface ChunkText {
  chunks: Float64Array;
  /** Text k's chunks are `chunks[chunkStart[k] .. chunkStart[k + 1])`. */
  chunkStart: Uint32Array;
  /** Text k's length in bytes. */
  length: Uint32Array;
}

export function toChunkText(texts: readonly Uint8Array[]): ChunkText {
  for (const t of texts) if (t.some((b) => b > 0x7f)) throw new RangeError(`Chunk text must be ASCII: ${new TextDecoder().decode(t)}`);
  const { bytes, start, length } = pack(texts, 8);
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks = new Float64Array(bytes.length / 8);
  for (let w = 0; w < chunks.length; w++) chunks[w] = data.getFloat64(8 * w, true);
  return { chunks, chunkStart: start.map((x) => x / 8), length };
}

/** Texts one after another in one zero-padded buffer, each starting at a multiple of `unit` bytes. */
function pack(texts: readonly Uint8Array[], unit: number): { bytes: Uint8Array; start: Uint32Array; length: Uint32Array } {
  const start = new Uint32Array(texts.length + 1);
  const length = new Uint32Array(texts.length);
  let at = 0;
  texts.forEach((t, k) => {
    start[k] = at;
    length[k] = t.length;
    at += Math.ceil(t.length / unit) * unit;
  });
  start[texts.length] = at;
  const bytes = new Uint8Array(at);
  texts.forEach((t, k) => bytes.set(t, start[k]));
  return { bytes, start, length };
}

let text: ChunkText | undefined;

/**
 * Every code's JSON text (`String(value)`, `null`; empty for unused codes) as chunks. No text is
 * longer than 8 bytes (`-4.999`, `50000`, `null`), so code k's text is the single chunk `chunks[k]`.
 */
export function codeText(): ChunkText {
  if (text) return text;
  const texts: Uint8Array[] = [];
  for (let code = 0; code <= NULL_CODE; code++) {
    const s = code === NULL_CODE ? 'null' : code < CODES ? String(VALUE_OF_CODE[code]) : ' ';
    texts.push(Uint8Array.from(s, (ch) => ch.charCodeAt(0)));
  }
  text = toChunkText(texts);
  // Unused codes have a blank chunk of no length: every code is exactly chunk k.
  text.length.fill(0, CODES, NULL_CODE);
  return text;
}
