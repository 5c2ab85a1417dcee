/**
 * GET over plain HTTP/1.1 with keep-alive connections, reading every connection into one fixed
 * buffer (`net` sockets' `onread`) and each body into a pooled buffer: no memory is allocated per
 * chunk received. `node:http` copies every chunk into a fresh buffer (twice: the socket's read and
 * the parser's body callback), which on a page of 0.6-1.6 MB costs more CPU than the whole rest of
 * receiving it, most of it the kernel mapping in fresh memory (`npm run bench` measures it).
 *
 * It speaks the part of HTTP/1.1 a JSON API's GET needs: one request at a time per connection,
 * bodies by Content-Length, chunked, or to the end of the connection; `Connection: close`; 1xx
 * answers skipped; compressed bodies inflated. A request on a reused connection that the server
 * closed meanwhile (a keep-alive race) is sent again once on a new one; it is a GET.
 */
import { connect, type Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { onAbort } from '../link-signals.js';
import { PooledBytes, type BodyPool } from './body-pool.js';
import type { HttpAnswer, HttpGet } from './http-answer.js';

const CRLF2 = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
/** Longest response head accepted. */
const MAX_HEAD = 64 * 1024;
/** Idle connections close after this long (Node servers close theirs after 5 s). */
const DEFAULT_IDLE_MS = 4000;
const READ_BUFFER = 64 * 1024;

class ProtocolError extends Error {
  override name = 'ProtocolError';
}

interface Head {
  status: number;
  headers: Map<string, string>;
  keepAlive: boolean;
}

function fromHead(text: string): Head | 'interim' {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0] ?? '');
  if (!status) throw new ProtocolError(`not an HTTP/1.x answer (${JSON.stringify((lines[0] ?? '').slice(0, 40))})`);
  const code = Number(status[2]);
  if (code >= 100 && code < 200) return 'interim';
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const had = headers.get(name);
    headers.set(name, had === undefined ? value : `${had}, ${value}`);
  }
  const connection = (headers.get('connection') ?? '').toLowerCase();
  const keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  return { status: code, headers, keepAlive };
}

function inflate(body: Buffer, encoding: string | undefined): Buffer | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new ProtocolError(`the answer is encoded as '${encoding ?? ''}', which this client cannot read`);
  }
}

/** One response being read: the head, then the body in one of three framings. */
class ResponseReader {
  private head = Buffer.alloc(0);
  private parsed: Head | undefined;
  private body: PooledBytes | undefined;
  private mode: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' = 'head';
  private remaining = 0;
  private line = '';

  /** Whether any byte of the response has arrived. */
  started = false;

  constructor(private readonly pool: BodyPool) {}

  /** Feeds received bytes; returns true once the response is complete (extra bytes are an error). */
  feed(data: Buffer, start: number, end: number): boolean {
    this.started ||= end > start;
    let at = start;
    while (at < end) {
      if (this.mode === 'head') {
        const joined = this.head.length === 0 ? data.subarray(at, end) : Buffer.concat([this.head, data.subarray(at, end)]);
        const stop = joined.indexOf(CRLF2);
        if (stop < 0) {
          if (joined.length > MAX_HEAD) throw new ProtocolError('the answer\'s head is too long');
          this.head = Buffer.from(joined);
          return false;
        }
        const consumed = stop + 4 - this.head.length;
        const head = fromHead(joined.toString('latin1', 0, stop));
        this.head = Buffer.alloc(0);
        at += consumed;
        if (head === 'interim') continue;
        this.startBody(head);
        if (this.done()) {
          if (at < end) throw new ProtocolError('the server sent more than one answer');
          return true;
        }
        continue;
      }
      if (this.mode === 'length') {
        const take = Math.min(this.remaining, end - at);
        this.body?.append(data, at, at + take);
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) {
          if (at < end) throw new ProtocolError('the server sent more than the length it announced');
          return true;
        }
        continue;
      }
      if (this.mode === 'close') {
        this.body?.append(data, at, end);
        return false;
      }
      if (this.mode === 'chunk-data') {
        const take = Math.min(this.remaining, end - at);
        this.body?.append(data, at, at + take);
        this.remaining -= take;
        at += take;
        if (this.remaining === 0) this.mode = 'chunk-end';
        continue;
      }
      // Line-based parts of the chunked framing: a size line, the CRLF after data, trailers.
      const newline = data.indexOf(CRLF, at);
      if (newline < 0 || newline >= end) {
        this.line += data.toString('latin1', at, end);
        if (this.line.length > MAX_HEAD) throw new ProtocolError('a chunk line is too long');
        return false;
      }
      const line = this.line + data.toString('latin1', at, newline);
      this.line = '';
      at = newline + 2;
      if (this.mode === 'chunk-end') {
        if (line !== '') throw new ProtocolError('a chunk is longer than its size');
        this.mode = 'chunk-size';
      } else if (this.mode === 'chunk-size') {
        const size = Number.parseInt(line.split(';')[0] ?? '', 16);
        if (!Number.isFinite(size) || size < 0) throw new ProtocolError(`a chunk size is not a number (${JSON.stringify(line.slice(0, 20))})`);
        if (size === 0) this.mode = 'trailers';
        else {
          this.remaining = size;
          this.mode = 'chunk-data';
        }
      } else if (line === '') {
        // The empty line after the trailers: the answer is complete.
        if (at < end) throw new ProtocolError('the server sent more than one answer');
        return true;
      }
    }
    return false;
  }

  private startBody(head: Head) {
    this.parsed = head;
    const length = head.headers.get('content-length');
    const chunked = (head.headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked');
    if (head.status === 204 || head.status === 304) {
      this.mode = 'length';
      this.remaining = 0;
      this.body = new PooledBytes(this.pool, 0);
    } else if (chunked) {
      this.mode = 'chunk-size';
      this.body = new PooledBytes(this.pool, 256 * 1024);
    } else if (length !== undefined && /^\d+$/.test(length)) {
      this.mode = 'length';
      this.remaining = Number(length);
      this.body = new PooledBytes(this.pool, this.remaining);
    } else {
      this.mode = 'close';
      this.body = new PooledBytes(this.pool, 256 * 1024);
    }
  }

  private done(): boolean {
    return this.mode === 'length' && this.remaining === 0;
  }

  /** The connection ended: complete if the body runs to the end of the connection. */
  ended(): boolean {
    return this.parsed !== undefined && this.mode === 'close';
  }

  /** The finished answer; `reusable` says whether its connection may carry another request. */
  answer(): { answer: HttpAnswer; reusable: boolean } {
    const head = this.parsed;
    const body = this.body;
    if (!head || !body) throw new ProtocolError('the answer is not complete');
    let bytes = body.bytes();
    let release = () => body.release();
    const inflated = inflate(bytes, head.headers.get('content-encoding'));
    if (inflated) {
      body.release();
      bytes = inflated;
      release = () => {};
    }
    return {
      answer: {
        status: head.status,
        headers: { get: (name) => head.headers.get(name.toLowerCase()) ?? null },
        body: bytes,
        release,
      },
      reusable: head.keepAlive && this.mode !== 'close',
    };
  }

  /** Gives the body's buffer back when the answer is abandoned. */
  abandon(): void {
    this.body?.release();
  }
}

interface Connection {
  socket: Socket;
  /** Told of received bytes, the end of the connection, or its failure, while a request uses it. */
  onData: ((data: Buffer, start: number, end: number) => void) | undefined;
  onEnd: ((error: Error | undefined) => void) | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * A plain-HTTP GET with its own keep-alive connections (one set per call of this function).
 *
 * @example
 * const get = createHttp1Get(createBodyPool());
 * const answer = await get('http://127.0.0.1:8787/api/v2/years', { Accept: 'application/json' }, signal);
 * const years = JSON.parse(answer.body.toString());
 * answer.release();
 */
export function createHttp1Get(pool: BodyPool): HttpGet {
  const idle = new Map<string, Connection[]>();

  const open = (host: string, port: number): Connection => {
    const onread = {
      buffer: Buffer.allocUnsafe(READ_BUFFER),
      callback: (count: number, buffer: Buffer): boolean => {
        if (connection.onData) connection.onData(buffer, 0, count);
        // Bytes on a connection no request is reading: the server is confused; drop it.
        else connection.socket.destroy();
        return true;
      },
    };
    const connection: Connection = { socket: connect({ host, port, onread }), onData: undefined, onEnd: undefined, idleTimer: undefined };
    connection.socket.setNoDelay(true);
    const ended = (error: Error | undefined) => {
      const listener = connection.onEnd;
      connection.onEnd = undefined;
      connection.onData = undefined;
      dropIdle(host, port, connection);
      listener?.(error);
    };
    connection.socket.on('error', (error) => ended(error));
    connection.socket.on('end', () => ended(undefined));
    connection.socket.on('close', () => ended(undefined));
    return connection;
  };

  const keyOf = (host: string, port: number) => `${host}:${port}`;
  const dropIdle = (host: string, port: number, connection: Connection) => {
    clearTimeout(connection.idleTimer);
    const list = idle.get(keyOf(host, port));
    const index = list?.indexOf(connection) ?? -1;
    if (list && index >= 0) list.splice(index, 1);
  };
  const park = (host: string, port: number, connection: Connection, idleMs: number) => {
    connection.onData = undefined;
    connection.onEnd = undefined;
    // An idle connection does not keep the process alive.
    connection.socket.unref();
    connection.idleTimer = setTimeout(() => {
      dropIdle(host, port, connection);
      connection.socket.destroy();
    }, idleMs);
    connection.idleTimer.unref();
    const key = keyOf(host, port);
    const list = idle.get(key) ?? [];
    list.push(connection);
    idle.set(key, list);
  };
  const reuse = (host: string, port: number): Connection | undefined => {
    const list = idle.get(keyOf(host, port));
    const connection = list?.pop();
    if (!connection) return undefined;
    clearTimeout(connection.idleTimer);
    connection.socket.ref();
    return connection;
  };

  const once = (url: URL, requestText: string, signal: AbortSignal, fresh: boolean): Promise<HttpAnswer> =>
    new Promise<HttpAnswer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const port = url.port === '' ? 80 : Number(url.port);
      const reused = fresh ? undefined : reuse(host, port);
      const connection = reused ?? open(host, port);
      const reader = new ResponseReader(pool);
      let settled = false;
      let stop = () => {};
      const finish = (error: Error | undefined, answer?: HttpAnswer, reusable = false) => {
        if (settled) return;
        settled = true;
        stop();
        if (error || !answer) {
          reader.abandon();
          connection.onData = undefined;
          connection.onEnd = undefined;
          connection.socket.destroy();
          // A reused connection the server had closed: nothing of the answer came, send it again.
          const retry = reused !== undefined && !reader.started && !signal.aborted;
          return reject(retry ? new StaleConnection() : (error ?? new Error('no answer')));
        }
        if (reusable) {
          const keepAlive = /timeout=(\d+)/.exec(answer.headers.get('keep-alive') ?? '');
          park(host, port, connection, keepAlive ? Math.max(500, Number(keepAlive[1]) * 1000 - 1000) : DEFAULT_IDLE_MS);
        } else {
          connection.onData = undefined;
          connection.onEnd = undefined;
          connection.socket.destroy();
        }
        resolve(answer);
      };
      stop = onAbort(signal, (reason) => finish(reason instanceof Error ? reason : new Error('aborted')));
      connection.onData = (data, start, end) => {
        try {
          if (!reader.feed(data, start, end)) return;
          const { answer, reusable } = reader.answer();
          finish(undefined, answer, reusable);
        } catch (error) {
          finish(error instanceof Error ? error : new Error(String(error)));
        }
      };
      connection.onEnd = (error) => {
        if (!error && reader.ended()) {
          try {
            return finish(undefined, reader.answer().answer, false);
          } catch (failure) {
            return finish(failure instanceof Error ? failure : new Error(String(failure)));
          }
        }
        finish(error ?? new Error('the connection closed before the whole answer arrived'));
      };
      connection.socket.write(requestText);
    });

  return async (url, headers, signal) => {
    if (signal.aborted) throw signal.reason;
    const parsed = new URL(url);
    let text = `GET ${parsed.pathname}${parsed.search} HTTP/1.1\r\nHost: ${parsed.host}\r\nConnection: keep-alive\r\n`;
    for (const [name, value] of Object.entries(headers)) {
      // A header value with a line break would let its text add headers of its own.
      if (/[\r\n]/.test(value) || /[\r\n:]/.test(name)) throw new TypeError(`The ${name} header contains a line break.`);
      text += `${name}: ${value}\r\n`;
    }
    text += '\r\n';
    try {
      return await once(parsed, text, signal, false);
    } catch (error) {
      if (!(error instanceof StaleConnection)) throw error;
      return once(parsed, text, signal, true);
    }
  };
}

class StaleConnection extends Error {
  override name = 'StaleConnection';
}
