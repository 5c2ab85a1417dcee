/** The TurboPitch tools (§14): one typed method per tool. */
import type { ApiVersion } from '../catalogue/page-limits.js';
import type { Transport } from './transport.js';

export type ToolMethods = Record<never, never>;

export function createToolMethods(_transport: Transport, _version: ApiVersion): ToolMethods {
  return {};
}
