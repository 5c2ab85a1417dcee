import * as z from 'zod';
import { bool, id, opt, str, timestamps } from './common.js';

const flags = opt(z.record(z.string(), z.boolean()));

/** A tool of The Fount as `/tools` describes it (§11.21). */
export const toolMetadata = z.object({
  id: id(),
  name: str(),
  slug: str(),
  short_description: str(),
  description: str(),
  documentation_url: str(),
  api_documentation_url: str(),
  api_endpoint_url: str(),
  supported_parameters: flags,
  required_parameters: flags,
  multiple_choice_parameters: flags,
  /** Shape undocumented: kept as it comes. */
  extra_parameters: opt(z.record(z.string(), z.unknown())),
  export_formats: flags,
  is_in_preview: bool(),
  ...timestamps,
});
export type ToolMetadata = z.infer<typeof toolMetadata>;
export const toolSlim = z.object({ id: id(), name: str(), slug: str() });

/** Shapes of the `group`, `resources` and `use_cases` includes are undocumented; these are the emulator's. */
export const toolGroup = z.object({ id: id(), name: str() });
export const toolResource = z.object({ id: id(), title: str(), url: str() });
export const toolUseCase = z.object({ id: id(), name: str() });
