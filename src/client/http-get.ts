/**
 * One HTTP GET, answered with its status, headers and body bytes: what the transport sends its
 * requests with. The default is `node:http`/`node:https` with a keep-alive agent per client; an
 * injected `fetch` (ClientOptions.fetch) is adapted to the same shape.
 *
 * Why not global `fetch`: on a 1,000-row page it costs ~3-4 ms more CPU than `node:http` (NOTES.md),
 * and its `text()` builds the body as one large buffer and one large string, fresh memory that is
 * expensive on these machines. Here bodies are read into buffers kept in a small pool and reused
 * from answer to answer; the caller decodes a body and gives its buffer back with `release()`.
 *
 * Compressed answers (gzip, deflate, br) are asked for and inflated: the real service sends pages
 * of a megabyte or more, which compress about tenfold.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { onAbort } from '../link-signals.js';

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

/** Free body buffers kept for reuse, at most this many bytes in all. */
const POOL_BYTES = 32 * 1024 * 1024;
const MIN_BUFFER = 64 * 1024;

/** Buffers reused from answer to answer: sizes are powers of two, so a few fit every page. */
function createBodyPool() {
  const free: Buffer[] = [];
  let pooled = 0;
  return {
    take(size: number): Buffer {
      let best = -1;
      for (let i = 0; i < free.length; i += 1) {
        const length = free[i]?.length ?? 0;
        if (length >= size && (best < 0 || length < (free[best]?.length ?? 0))) best = i;
      }
      if (best >= 0) {
        const [buffer] = free.splice(best, 1);
        if (buffer) {
          pooled -= buffer.length;
          return buffer;
        }
      }
      let length = MIN_BUFFER;
      while (length < size) length *= 2;
      return Buffer.allocUnsafeSlow(length);
    },
    give(buffer: Buffer) {
      if (pooled + buffer.length > POOL_BYTES) return;
      pooled += buffer.length;
      free.push(buffer);
    },
  };
}

type BodyPool = ReturnType<typeof createBodyPool>;

/**
 * Reads an answer's body (`stream`: the answer itself, or its decompressor) into a pooled buffer,
 * grown when the length was not announced.
 */
function readBody(response: IncomingMessage, stream: Readable, pool: BodyPool, expected: number | undefined): Promise<{ buffer: Buffer; size: number }> {
  return new Promise((resolve, reject) => {
    let buffer = pool.take(expected ?? MIN_BUFFER);
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      pool.give(buffer);
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > buffer.length) {
        const larger = pool.take(2 * (size + chunk.length));
        buffer.copy(larger, 0, 0, size);
        pool.give(buffer);
        buffer = larger;
      }
      chunk.copy(buffer, size);
      size += chunk.length;
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ buffer, size });
    });
    stream.on('error', fail);
    response.on('error', fail);
    // The connection closed before the end of the body: a body cut short.
    response.on('close', () => {
      if (!response.complete) fail(new Error('the connection closed before the whole answer arrived'));
    });
  });
}

const headerGetter = (response: IncomingMessage) => ({
  get(name: string): string | null {
    const value = response.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  },
});

function decompressed(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/**
 * A GET over `node:http`/`node:https` with keep-alive connections (one agent per call of this
 * function, so one per client).
 *
 * @example
 * const get = createHttpGet();
 * const answer = await get('http://127.0.0.1:8787/health', { Accept: 'application/json' }, new AbortController().signal);
 * const body = answer.body.toString();
 * answer.release();
 */
export function createHttpGet(): HttpGet {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const pool = createBodyPool();
  return (url, headers, signal) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const secure = url.startsWith('https:');
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        agent: secure ? agents.https : agents.http,
        headers: { 'Accept-Encoding': 'gzip, deflate, br', ...headers },
      });
      let settled = false;
      const stop = onAbort(signal, (reason) => {
        request.destroy(reason instanceof Error ? reason : new Error('aborted'));
      });
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        stop();
        reject(error);
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const length = Number(response.headers['content-length']);
        const announced = response.headers['content-encoding'] === undefined && Number.isFinite(length) ? length : undefined;
        readBody(response, decompressed(response), pool, announced).then(({ buffer, size }) => {
          if (settled) return pool.give(buffer);
          settled = true;
          stop();
          let released = false;
          resolve({
            status: response.statusCode ?? 0,
            headers: headerGetter(response),
            body: buffer.subarray(0, size),
            release: () => {
              if (released) return;
              released = true;
              pool.give(buffer);
            },
          });
        }, fail);
      });
      request.end();
    });
}

/**
 * A GET over an injected `fetch` (tests that wrap the real one, or a proxy-aware fetch).
 *
 * @example
 * const get = fromFetch(globalThis.fetch);
 */
export function fromFetch(fetchFn: typeof fetch): HttpGet {
  return async (url, headers, signal) => {
    const response = await fetchFn(url, { method: 'GET', headers: { ...headers }, signal });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, body, release: () => {} };
  };
}
