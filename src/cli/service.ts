/**
 * The service a command talks to: the one named by `BRANDSCAPE_BASE_URL` (with `BRANDSCAPE_TOKEN`),
 * or, when none is set, an emulator started in-process for the duration of the command. Either
 * way the command says on stderr which it uses.
 */
import { createClient, type BrandscapeClient, type ClientOptions } from '../client/index.js';
import type { CliIo } from './io.js';

export interface Service {
  client: BrandscapeClient;
  /** True when an in-process emulator answers. */
  emulated: boolean;
  close(): Promise<void>;
}

export async function openService(io: CliIo, options: Omit<ClientOptions, 'baseUrl' | 'token' | 'env'> = {}): Promise<Service> {
  const baseUrl = io.env['BRANDSCAPE_BASE_URL'];
  if (baseUrl !== undefined && baseUrl !== '') {
    return { client: createClient({ ...options, env: io.env }), emulated: false, close: async () => {} };
  }
  const { createEmulator } = await import('../emulator/index.js');
  const emulator = await createEmulator({ port: 0 });
  io.stderr.write(`brandscape: BRANDSCAPE_BASE_URL is not set; using an in-process emulator at ${emulator.url} (seeded demo data).\n`);
  const client = createClient({ ...options, env: io.env, baseUrl: emulator.url, token: emulator.token });
  return { client, emulated: true, close: () => emulator.close() };
}
