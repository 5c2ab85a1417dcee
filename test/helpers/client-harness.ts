/**
 * Test harness of the client: an emulator on port 0 and a client that records every event it
 * emits. Retries are fast (a few ms of backoff) so fault tests stay quick; everything goes over
 * real HTTP.
 */
import type { BrandscapeClient } from '../../src/client/brandscape-client.js';
import type { ClientOptions } from '../../src/client/client-options.js';
import { createClient } from '../../src/client/create-client.js';
import type { TransportEvent } from '../../src/client/transport-event.js';
import { createDataset, createEmulator, type Dataset, type Emulator, type EmulatorOptions, type RecordedRequest } from '../../src/emulator/index.js';

let shared: Dataset | undefined;
/** A small dataset shared by the tests of one file (publish mutates it: tests that publish make their own). */
export const sharedDataset = (): Dataset => (shared ??= createDataset({ seed: 3, brands: 300 }));

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return createEmulator({ port: 0, ...(options.dataset || options.brands || options.seed ? {} : { dataset: sharedDataset() }), ...options });
}

export interface Recorded {
  client: BrandscapeClient;
  events: TransportEvent[];
}

export function recordingClient(emulator: Emulator, options: Partial<ClientOptions> = {}): Recorded {
  const events: TransportEvent[] = [];
  const client = createClient({
    baseUrl: emulator.url,
    token: emulator.token,
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    env: {},
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { client, events };
}

/** The query parameters of a recorded request. */
export const paramsOf = (request: RecordedRequest | undefined): URLSearchParams => new URLSearchParams(request?.query ?? '');

/** Requests to one resource path (after `/api/<version>/`). */
export const requestsTo = (emulator: Emulator, path: string, version = 'v2'): RecordedRequest[] =>
  emulator.requests.filter((r) => r.path === `/api/${version}/${path}`);
