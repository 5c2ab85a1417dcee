/**
 * `health()` (§9): 200 up; 401/403 up with a permission problem; anything else, or no answer
 * within a second, down. The emulator always answers 200 (its /health needs no token), so the
 * other answers come from minimal HTTP servers that answer one status.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startEmulator } from '../helpers/client-harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

async function statusServer(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ message: `status ${status}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('health', () => {
  it('up: 200 from the emulator, with its timestamp', async () => {
    const result = await createClient({ baseUrl: emulator.url, token: emulator.token, env: {} }).health();
    expect(result).toMatchObject({ status: 'up', httpStatus: 200, serviceTime: expect.stringMatching(/Z$/) });
    expect(result.latencyMs).toBeLessThan(1000);
  });

  it('up: a 200 whose body is not the schema\'s (not JSON, or no status) is up, without the service\'s time', async () => {
    for (const body of ['<html>ok</html>', JSON.stringify({ timestamp: 3 })]) {
      const server: Server = createServer((_req, res) => res.writeHead(200).end(body));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      try {
        expect(await createClient({ baseUrl: `http://127.0.0.1:${port}`, env: {} }).health()).toMatchObject({ status: 'up', httpStatus: 200, serviceTime: null });
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('permission: 401 and 403 mean up but refusing the credentials', async () => {
    for (const status of [401, 403]) {
      const server = await statusServer(status);
      try {
        const result = await createClient({ baseUrl: server.url, token: 'health-token-abcdef', env: {} }).health();
        expect(result).toMatchObject({ status: 'permission', httpStatus: status });
        expect(result.message).toMatch(/refuses these credentials/);
      } finally {
        await server.close();
      }
    }
  });

  it('down: any other status, a refused connection, or no answer within a second', async () => {
    const server = await statusServer(503);
    try {
      expect(await createClient({ baseUrl: server.url, env: {} }).health()).toMatchObject({ status: 'down', httpStatus: 503 });
    } finally {
      await server.close();
    }
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    expect(await createClient({ baseUrl: url, env: {} }).health()).toMatchObject({ status: 'down', httpStatus: null });
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const result = await createClient({ baseUrl: `http://127.0.0.1:${(silent.address() as { port: number }).port}`, env: {} }).health();
      expect(result).toMatchObject({ status: 'down', httpStatus: null });
      expect(result.message).toMatch(/no answer within 1000 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.close();
    }
  });
});
