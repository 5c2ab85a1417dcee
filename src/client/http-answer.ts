/** What the transport sends its requests with: one GET, answered with status, headers and body bytes. */

/** The answer of a GET. */
export interface HttpAnswer {
  status: number;
  /** Header values by (case-insensitive) name, as `Headers#get` gives them. */
  headers: { get(name: string): string | null };
  /** The body, decompressed. Valid until `release()`. */
  body: Buffer;
  /** Gives the body's buffer back for reuse; `body` must not be read after it. */
  release(): void;
}

/** Sends a GET; rejects on a network failure or when `signal` aborts. */
export type HttpGet = (url: string, headers: Readonly<Record<string, string>>, signal: AbortSignal) => Promise<HttpAnswer>;
