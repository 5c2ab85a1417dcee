/** The TurboPitch tools (§14), dispatched by slug. */
import type { ToolSlug } from '../../catalogue/tools.js';
import { notFound } from './api-error.js';
import type { Ctx } from './bindings.js';

export function runTool(slug: ToolSlug, _params: URLSearchParams, _ctx: Ctx, _strictParams: boolean): { data: unknown } {
  throw notFound(`The ${slug} tool is not emulated yet.`);
}
