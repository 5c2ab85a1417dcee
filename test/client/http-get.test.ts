/**
 * The client's own HTTP/1.1 GET against real servers on port 0: `node:http` servers for the usual
 * framings (length, chunked, gzip, keep-alive and its race), and a raw socket server for the
 * framings `node:http` does not send (a body to the end of the connection, 1xx, extra bytes).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpGet } from '../../src/client/http-get.js';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  // The client keeps connections open for reuse: close them, or each server waits for them.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
const track = <S extends Server>(server: S): S => {
  server.on('connection', (socket: Socket) => sockets.add(socket));
  return server;
};

/** A node:http server; counts the connections it accepted. */
async function httpServer(handle: (req: IncomingMessage, res: ServerResponse) => void, keepAliveTimeout = 5000) {
  const server = track(createHttpServer(handle));
  server.keepAliveTimeout = keepAliveTimeout;
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

/** A socket server that answers every request with `reply` (bytes as given), then maybe closes. */
async function rawServer(reply: string | Buffer, close: boolean) {
  const server = track(createNetServer((socket: Socket) => {
    socket.once('data', () => {
      socket.write(reply);
      if (close) socket.end();
    });
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const signal = () => new AbortController().signal;
const text = async (get: ReturnType<typeof createHttpGet>, url: string, headers: Record<string, string> = {}) => {
  const answer = await get(url, headers, signal());
  const body = answer.body.toString('utf8');
  answer.release();
  return { status: answer.status, body, header: (name: string) => answer.headers.get(name) };
};

describe('createHttpGet over plain HTTP', () => {
  it('reads bodies by length, chunked and gzip-compressed, with status and headers, over one kept-alive connection', async () => {
    const big = 'é'.repeat(300_000);
    const server = await httpServer((req, res) => {
      if (req.url === '/length') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Remaining': '7' });
        res.end(JSON.stringify({ big }));
      } else if (req.url === '/chunked') {
        res.writeHead(201);
        for (let i = 0; i < 50; i++) res.write(`part ${i};`);
        res.end();
      } else {
        const zipped = gzipSync(Buffer.from('{"zipped":true}'));
        res.writeHead(404, { 'Content-Encoding': 'gzip', 'Content-Length': String(zipped.length) });
        res.end(zipped);
      }
    });
    const get = createHttpGet();
    const length = await text(get, `${server.url}/length`);
    expect(length).toMatchObject({ status: 200 });
    expect(JSON.parse(length.body)).toEqual({ big });
    expect(length.header('x-ratelimit-remaining')).toBe('7');
    expect(length.header('X-RateLimit-Remaining')).toBe('7');
    const chunked = await text(get, `${server.url}/chunked`);
    expect(chunked).toMatchObject({ status: 201, body: Array.from({ length: 50 }, (_, i) => `part ${i};`).join('') });
    expect(await text(get, `${server.url}/gzip`)).toMatchObject({ status: 404, body: '{"zipped":true}' });
    expect(server.connections()).toBe(1);
  });

  it('sends a request again on a new connection when the kept-alive one closes before answering (once)', async () => {
    // The server answers a connection's first request and drops the connection at its second: what
    // a client sees when the server closed an idle connection just as a request went out.
    let connections = 0;
    const server = track(createNetServer((socket: Socket) => {
      connections += 1;
      let requests = 0;
      socket.on('data', () => {
        requests += 1;
        if (requests === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        else socket.destroy();
      });
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = createHttpGet();
    expect((await text(get, url)).body).toBe('ok');
    expect((await text(get, url)).body).toBe('ok');
    expect(connections).toBe(2);
    // A new connection that closes without an answer is a failure, not sent again.
    const dropping = createNetServer((socket: Socket) => socket.on('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    servers.push(dropping);
    await expect(get(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}`, {}, signal())).rejects.toThrow(/closed before the whole answer arrived/);
  });

  it('reads a body that runs to the end of the connection, skips a 100 Continue, and refuses extra bytes', async () => {
    const get = createHttpGet();
    const toClose = await rawServer('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{"until":"close"}', true);
    expect(await text(get, toClose)).toMatchObject({ status: 200, body: '{"until":"close"}' });
    const interim = await rawServer('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}', true);
    expect(await text(get, interim)).toMatchObject({ status: 200, body: '{}' });
    const extra = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}garbage', true);
    await expect(get(extra, {}, signal())).rejects.toThrow(/more than the length it announced/);
    const notHttp = await rawServer('SSH-2.0-OpenSSH\r\n\r\n', true);
    await expect(get(notHttp, {}, signal())).rejects.toThrow(/not an HTTP\/1.x answer/);
  });

  it('fails on a body cut short, and stops at once when cancelled mid-body', async () => {
    const get = createHttpGet();
    const cut = await rawServer('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"half":', true);
    await expect(get(cut, {}, signal())).rejects.toThrow(/closed before the whole answer arrived/);
    const server = await httpServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '1000000' });
      res.write('x'.repeat(1000));
      // ... and the rest never comes.
    });
    const controller = new AbortController();
    const pending = get(server.url, {}, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const started = Date.now();
    await expect(pending).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a header value with a line break (it would smuggle headers)', async () => {
    const server = await httpServer((_req, res) => res.end('ok'));
    await expect(createHttpGet()(server.url, { Authorization: 'Bearer x\r\nX-Evil: 1' }, signal())).rejects.toThrow(/line break/);
  });
});
