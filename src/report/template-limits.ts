/**
 * The bounds of what a template (and a parameter given for it) may hold. A template is a few
 * kilobytes of hand-written YAML; these limits are far above any real one and far below what
 * costs a machine: a 50 MB template with a 3.3-million-item list once took 81 s and 3.5 GB to be
 * read and called valid, and a JSON template nested 5,000 arrays deep overflowed the stack. Every
 * limit is a usage error that names it.
 */
import { MAX_BRAND_NAME_LENGTH } from '../load/resolve-brands.js';

export const TEMPLATE_LIMITS = {
  /** Bytes of a template file (or text): 1 MiB. */
  bytes: 1024 * 1024,
  /**
   * Levels of nesting (the template object is level 1). A real template nests 5 or 6 (a section's
   * `comparison` object inside a list of sections); the YAML parser overflows its stack at a few
   * hundred levels.
   */
  depth: 32,
  /** Items of one list or keys of one object, anywhere in a template or in one `-p` value. */
  items: 1000,
  /** Characters of one text (a title, a description, a `-p` value). */
  textLength: 10_000,
  /**
   * Characters of a brand name: the longest brand names are well under 100 characters; a longer
   * text is a mistake (a pasted paragraph), not a name to search the service for (resolveBrands'
   * own limit).
   */
  brandName: MAX_BRAND_NAME_LENGTH,
  /**
   * UTF-8 bytes of an output file name without its extension. File systems allow 255 bytes per
   * name (ext4, XFS, APFS); the name must also fit with its extension (`.xlsx`) inside the
   * temporary name a file is written under first (`.<name>.xlsx.<pid>.<8 hex>.partial`, up to 34
   * bytes more): 200 leaves room for both.
   */
  outputNameBytes: 200,
} as const;

/** `1,000`: a count as the limits' messages write it. */
export function countText(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** `1 MiB`, `50.0 MB`: a size in bytes for a message. */
export function bytesText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
