/**
 * How a client sends its GETs. Plain HTTP (the emulator, a local proxy) goes through the
 * allocation-free keep-alive client of `http1-get.ts`; HTTPS through `node:https` with a keep-alive
 * agent, asking for compressed answers (the real service's pages compress about tenfold); an
 * injected `fetch` (ClientOptions.fetch) is adapted to the same shape. Bodies are read into pooled
 * buffers that the transport gives back once it has decoded them.
 *
 * Why not global `fetch` by default: on a 1,000-row page it costs several ms more CPU than reading
 * the socket directly, and its `text()` builds the body as one large buffer and one large string,
 * fresh memory that is expensive on these machines (see `body-pool.ts`).
 */
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { onAbort } from '../link-signals.js';
import { createBodyPool, PooledBytes, type BodyPool } from './body-pool.js';
import type { HttpAnswer, HttpGet } from './http-answer.js';
import { createHttp1Get } from './http1-get.js';

function decompressed(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/** Reads an answer's body (through its decompressor, if any) into pooled bytes. */
function readBody(response: IncomingMessage, pool: BodyPool): Promise<PooledBytes> {
  return new Promise((resolve, reject) => {
    const length = Number(response.headers['content-length']);
    const body = new PooledBytes(pool, response.headers['content-encoding'] === undefined && Number.isFinite(length) ? length : 256 * 1024);
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      body.release();
      reject(error);
    };
    const stream = decompressed(response);
    stream.on('data', (chunk: Buffer) => {
      if (!settled) body.append(chunk, 0, chunk.length);
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(body);
    });
    stream.on('error', fail);
    response.on('error', fail);
    // The connection closed before the end of the body: a body cut short.
    response.on('close', () => {
      if (!response.complete) fail(new Error('the connection closed before the whole answer arrived'));
    });
  });
}

/** A GET over `node:https` with keep-alive connections. */
function createHttpsGet(pool: BodyPool): HttpGet {
  const agent = new Agent({ keepAlive: true });
  return (url, headers, signal) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const outgoing = request(url, { method: 'GET', agent, headers: { 'Accept-Encoding': 'gzip, deflate, br', ...headers } });
      let settled = false;
      const stop = onAbort(signal, (reason) => outgoing.destroy(reason instanceof Error ? reason : new Error('aborted')));
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        stop();
        reject(error);
      };
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        readBody(response, pool).then((body) => {
          if (settled) return body.release();
          settled = true;
          stop();
          resolve({
            status: response.statusCode ?? 0,
            headers: {
              get: (name) => {
                const value = response.headers[name.toLowerCase()];
                return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
              },
            },
            body: body.bytes(),
            release: () => body.release(),
          });
        }, fail);
      });
      outgoing.end();
    });
}

/**
 * Body buffers are shared by every client of the process: a script that makes a client per task,
 * or the tests, would otherwise fault in fresh megabytes for each one.
 */
let sharedPool: BodyPool | undefined;

/**
 * A client's GET: keep-alive connections of its own, body buffers from the process's pool.
 *
 * @example
 * const get = createHttpGet();
 * const answer = await get('http://127.0.0.1:8787/health', { Accept: 'application/json' }, new AbortController().signal);
 * const text = answer.body.toString();
 * answer.release();
 */
export function createHttpGet(): HttpGet {
  const pool = (sharedPool ??= createBodyPool());
  const plain = createHttp1Get(pool);
  let secure: HttpGet | undefined;
  return (url, headers, signal) => (url.startsWith('https:') ? (secure ??= createHttpsGet(pool))(url, headers, signal) : plain(url, headers, signal));
}

/**
 * A GET over an injected `fetch` (a proxy-aware fetch, or one wrapped to watch requests).
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
