/**
 * Where a report's data came from, as its About sheet says it: the host (never a token or a path
 * with credentials), the API version, and whether an embedded emulator answered. Apart from
 * `load-report-data.ts` so that `compareBrands` reads it without the template machinery.
 */
import type { BrandscapeClient } from '../client/brandscape-client.js';

/** Where the data came from (host only: never a token or a path with credentials). */
export interface ReportSource {
  readonly host: string;
  readonly apiVersion: string;
  /** True when an embedded emulator answered (seeded demo data). */
  readonly emulated: boolean;
}

/** Where a client's data comes from: its host (never a token or a path), API version, and whether it is emulated. */
export function sourceOf(client: Pick<BrandscapeClient, 'baseUrl' | 'version'>, emulated: boolean): ReportSource {
  let host: string;
  try {
    host = new URL(client.baseUrl).host;
  } catch {
    host = '(unknown)';
  }
  return { host, apiVersion: client.version, emulated };
}
