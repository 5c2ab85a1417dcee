/**
 * Page-size limits per API version (REFERENCE §6.1): the one fact about paging that the loader,
 * the client and the emulator share. A file of its own so that the loader, which knows pages but
 * not resources, can read it without loading the schemas of the endpoint catalogue.
 */

/**
 * The default and largest page size of each API version.
 *
 * @example
 * PAGE_LIMITS.v2.max // 1000
 */
export const PAGE_LIMITS = {
  v2: { default: 25, max: 1000 },
  v1: { default: 25, max: 100 },
} as const;

export type ApiVersion = keyof typeof PAGE_LIMITS;
