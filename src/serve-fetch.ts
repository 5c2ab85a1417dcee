/**
 * Node's HTTP server in front of a web-standard `fetch` handler: the MCP SDK serves Streamable
 * HTTP as `(Request) => Promise<Response>`, while the emulator and `brandscape mcp --http` listen
 * with `node:http` (no framework). Shared by both (a leaf: it imports nothing of the project).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest request body read (MCP messages are small; a bigger body is refused with 413). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request body over `MAX_BODY_BYTES`. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/**
 * The web-standard request of a Node request, its body read whole (at most `MAX_BODY_BYTES`).
 * `origin` is the server's own URL: the request's URL is built on it, not on its `Host` header.
 *
 * @example
 * const request = await toWebRequest(req, 'http://127.0.0.1:8787');
 */
export async function toWebRequest(req: IncomingMessage, origin: string, signal?: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`The request body is over ${MAX_BODY_BYTES} bytes.`);
      chunks.push(chunk);
    }
    body = Buffer.concat(chunks);
  }
  return new Request(new URL(req.url ?? '/', origin), { method, headers, ...(body === undefined ? {} : { body }), ...(signal ? { signal } : {}) });
}

/**
 * Writes a web-standard response to a Node response, streaming its body as it comes (an SSE
 * answer's events are sent one by one, not when the stream ends). Resolves when the body is sent
 * or the client went away.
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    // Several Set-Cookie headers cannot be folded into one; nothing here sets cookies, but be exact.
    const previous = headers[name];
    headers[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // Response bodies are bytes; the DOM typings leave the chunk type open.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    // The client went away (the reader was cancelled): nothing is left to send.
  } finally {
    res.off('close', stop);
    res.end();
  }
}
