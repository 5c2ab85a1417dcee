/**
 * JSON from the bytes of an answer, as `JSON.parse` would read it, without building the whole
 * answer as one string first.
 *
 * Why: a list page of 1,000 brandscape rows is 0.6-1.6 MB. Decoding it to one string allocates a
 * string that large outside V8's heap pages, and on the 2-core machines this was measured on such
 * an allocation costs more than `JSON.parse` itself, because fresh memory of that size is mapped
 * and faulted in page by page. Pieces under
 * 128 KB are allocated where V8 reuses memory and cost next to nothing.
 *
 * So a list answer, which the service writes as `{"data":[{...},{...},...],"links":{...},...}`,
 * is read in pieces: the records in runs of about 32 KB, each run cut after a record's closing
 * brace (at a `},{` between two records) and parsed as an array of its own, and the rest of the
 * envelope parsed as an object whose `data` is then the records. Anything else (an item answer, an
 * error body, pretty-printed JSON) is parsed whole.
 *
 * The result is always what `JSON.parse` of the whole text gives, or a SyntaxError when the text is
 * not JSON. A cut in the wrong place cannot go unnoticed: `},{` may also occur inside a string or
 * inside a record's nested list, but then the run before the cut ends inside that string or list,
 * and a run that does not close everything it opened is not JSON. Such a run makes the whole answer
 * be parsed at once instead. The end of the records is found as the last `],"links":{` (or
 * `],"meta":{`): its quote can only open a key (a quote inside a string is escaped), so it is the
 * envelope's, after every record. (An envelope with a second `data` key is read whole.)
 */

import { isAscii } from 'node:buffer';

const OPEN = Buffer.from('{"data":[');
const RECORD_GAP = Buffer.from('},{');
const ENVELOPE_KEYS = [Buffer.from('],"links":{'), Buffer.from('],"meta":{')];
/**
 * Bytes of records parsed at a time. Runs of 16-32 KB cost the least CPU per page; larger runs
 * cost more (more of the young generation taken by texts, more frequent collections), and the whole
 * text as one string more still (`npm run bench`, the wire benchmark, measures it).
 */
const RUN_BYTES = 32 * 1024;
/** Below this size an answer is parsed whole: one string this small costs nothing special. */
const WHOLE_BELOW = 64 * 1024;

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/**
 * The text of `buffer[start, end)`. A run of plain ASCII (most of them) is read as Latin-1, which
 * copies the bytes into a one-byte string; decoding UTF-8 looks at every byte and costs several
 * times more.
 */
const textOf = (buffer: Buffer, start: number, end: number): string =>
  buffer.toString(isAscii(buffer.subarray(start, end)) ? 'latin1' : 'utf8', start, end);

/** The records of `data`, parsed run by run; undefined when a run is not JSON (a wrong cut). */
function recordsOf(buffer: Buffer, start: number, end: number): unknown[] | undefined {
  const records: unknown[] = [];
  let from = start;
  while (from < end) {
    let to = end;
    if (end - from > RUN_BYTES) {
      const gap = buffer.indexOf(RECORD_GAP, from + RUN_BYTES);
      if (gap >= 0 && gap < end) to = gap + 1;
    }
    let run: unknown;
    try {
      run = JSON.parse(`[${textOf(buffer, from, to)}]`);
    } catch {
      return undefined;
    }
    if (!Array.isArray(run)) return undefined;
    for (const record of run as unknown[]) records.push(record);
    // Past the comma between the two records.
    from = to + 1;
  }
  return records;
}

/**
 * Where a list answer's records end and what follows them, parsed: `envelope` is the answer
 * without its records (`data` empty). Undefined for anything else (see the module's comment).
 */
function splitList(buffer: Buffer): { close: number; envelope: { data: unknown } } | undefined {
  if (buffer.length < OPEN.length || !buffer.subarray(0, OPEN.length).equals(OPEN)) return undefined;
  for (const key of ENVELOPE_KEYS) {
    const close = buffer.lastIndexOf(key);
    if (close < OPEN.length) continue;
    let envelope: unknown;
    try {
      envelope = JSON.parse(`{"data":[]${textOf(buffer, close + 1, buffer.length)}`);
    } catch {
      return undefined;
    }
    // A second `data` key would win in JSON.parse; such an envelope is read whole.
    if (typeof envelope !== 'object' || envelope === null || !('data' in envelope) || buffer.indexOf('"data":', close) >= 0) return undefined;
    return { close, envelope };
  }
  return undefined;
}

/**
 * Parses the JSON of an answer's bytes (UTF-8). Throws a SyntaxError when they are not JSON.
 *
 * @example
 * fromJsonBytes(Buffer.from('{"data":[{"id":1},{"id":2}],"meta":{"total":2}}'))
 * // { data: [{ id: 1 }, { id: 2 }], meta: { total: 2 } }
 */
export function fromJsonBytes(bytes: Uint8Array | string): unknown {
  if (typeof bytes === 'string') return JSON.parse(bytes);
  const buffer = asBuffer(bytes);
  const list = buffer.length >= WHOLE_BELOW ? splitList(buffer) : undefined;
  const records = list && recordsOf(buffer, OPEN.length, list.close);
  if (list && records) {
    list.envelope.data = records;
    return list.envelope;
  }
  return JSON.parse(buffer.toString('utf8'));
}

/**
 * A list answer's envelope (its `links` and `meta`) without parsing its records: what the
 * answer's JSON gives with `data` empty. Undefined when the bytes are not a list answer as the
 * service writes one, or when that part of them is not JSON; the answer may still be JSON then.
 *
 * @example
 * envelopeOf(Buffer.from('{"data":[{"id":1}],"meta":{"total":1}}')) // { data: [], meta: { total: 1 } }
 */
export function envelopeOf(bytes: Uint8Array): unknown {
  return splitList(asBuffer(bytes))?.envelope;
}
