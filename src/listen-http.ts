/**
 * Starts an HTTP server listening and tells its URL: shared by the emulator and the webhook
 * receiver (a leaf: it imports nothing of the project).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on `port` (0 picks a free one) and `host`, and resolves to `http://host:port` once the
 * server accepts connections; rejects with the listen error (EADDRINUSE, EACCES).
 *
 * @example
 * const url = await listenHttp(createServer(handler), 0, '127.0.0.1'); // 'http://127.0.0.1:40123'
 */
export async function listenHttp(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}
