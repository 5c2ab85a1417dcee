/**
 * Local HTTP servers that misbehave the ways a real network and a wrong base URL do: no answer, a
 * web page instead of JSON, JSON cut short, an envelope without `meta`, a total that changes, 429
 * and 5xx storms, a redirect loop, a service that echoes the token. Each listens on port 0.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type BadMode =
  | 'hang'
  | 'html'
  | 'invalid-json'
  | 'text-plain'
  | 'no-meta'
  | 'changing-total'
  | '429-storm'
  | '429-garbage-retry-after'
  | '5xx-storm'
  | 'redirect-loop'
  | 'echo-token';

export interface BadServer {
  url: string;
  /** Requests served so far. */
  readonly hits: number;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** A list page of `total` records, `perPage` a page, as the service shapes it. */
function page(req: IncomingMessage, total: number, perPage = 10) {
  const url = new URL(req.url ?? '/', 'http://x');
  const current = Number(url.searchParams.get('page') ?? 1);
  const last = Math.max(1, Math.ceil(total / perPage));
  const from = (current - 1) * perPage;
  const data = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => ({ id: from + i + 1, name: `Region ${from + i + 1}` }));
  return {
    data,
    links: { first: '?page=1', last: `?page=${last}`, prev: null, next: null },
    meta: { current_page: current, from: data.length ? from + 1 : null, last_page: last, links: [], path: '/api/v2/regions', per_page: perPage, to: data.length ? from + data.length : null, total },
  };
}

export async function startBadServer(mode: BadMode): Promise<BadServer> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    switch (mode) {
      case 'hang':
        return; // never answers
      case 'html':
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end('<!doctype html><html><body>Please sign in</body></html>');
      case 'invalid-json':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end('{"data": [{"id": 1, "name": "Ban');
      case 'text-plain':
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return res.end('OK');
      case 'no-meta':
        return json(res, 200, { data: [{ id: 1, name: 'Region 1' }], links: { first: '?page=1', last: '?page=1', prev: null, next: null } });
      case 'changing-total':
        // Every answer counts one more record than the one before: the data changes while loading.
        return json(res, 200, page(req, 25 + hits));
      case '429-storm':
        return json(res, 429, { data: { message: 'Too Many Requests' } }, { 'Retry-After': '600', 'X-RateLimit-Limit': '500', 'X-RateLimit-Remaining': '0' });
      case '429-garbage-retry-after':
        return json(res, 429, { data: { message: 'Too Many Requests' } }, { 'Retry-After': 'soon' });
      case '5xx-storm':
        return json(res, 503, { data: { message: 'Service Unavailable' } });
      case 'redirect-loop':
        res.writeHead(302, { Location: req.url ?? '/' });
        return res.end();
      case 'echo-token':
        // A careless service that repeats the credentials it was sent.
        return json(res, 401, { message: `Token ${String(req.headers['authorization'] ?? '')} is not valid.` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return hits;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
