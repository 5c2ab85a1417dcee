/**
 * How long a request's URL may grow. Lists of ids go into one query parameter
 * (`filter[id]=1,2,3`), and a list of thousands makes a URL servers refuse: `-p brands=1,...,10000`
 * once made a 69 KB URL that the service answered with 431.
 *
 * The budget is 8 KB for the whole request line, the limit of the common front ends: nginx
 * reads a request line into one of its `large_client_header_buffers` (4 x 8 KB by default) and
 * answers 414 beyond it; Apache's `LimitRequestLine` is 8,190 bytes. (Node's server, the
 * emulator's, allows 16 KB of headers in all and answers 431 beyond.) A list of ids may take half
 * of it, which leaves the other half to the base URL, the path and the other parameters (markets,
 * years, metric keys, includes).
 */

/** The request line a URL must fit in, in bytes. */
export const URL_BUDGET_BYTES = 8 * 1024;

/** The bytes one list of ids may take in a URL, encoded. */
export const ID_LIST_BUDGET_BYTES = URL_BUDGET_BYTES / 2;

/** Bytes of an id in an encoded list: its digits and the separator (`,` is sent as `%2C`). */
const encodedBytes = (id: number) => String(id).length + 3;

/**
 * Ids in lists that each fit the budget, in order: one list when they all fit (the usual case), as
 * many as needed otherwise.
 *
 * @example
 * chunkIds([1, 2, 3]); // [[1, 2, 3]]
 * chunkIds(Array.from({ length: 10_000 }, (_, i) => i + 1)).length; // 11
 */
export function chunkIds(ids: readonly number[], budget = ID_LIST_BUDGET_BYTES): number[][] {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let bytes = 0;
  for (const id of ids) {
    const size = encodedBytes(id);
    if (chunk.length > 0 && bytes + size > budget) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(id);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** True when a list of ids fits the budget of one URL parameter. */
export function idsFitUrl(ids: readonly number[], budget = ID_LIST_BUDGET_BYTES): boolean {
  let bytes = 0;
  for (const id of ids) if ((bytes += encodedBytes(id)) > budget) return false;
  return true;
}
