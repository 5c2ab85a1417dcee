/**
 * Text fit for XML: the workbook (its parts are XML: sharedStrings.xml, the sheets,
 * docProps/core.xml) and the HTML file (with its inline SVG charts) carry text from templates and
 * from the service, and XML 1.0 cannot carry every character a JavaScript string can hold: a
 * title with U+FFFE or U+FFFF, or a C0 control other than tab, line feed and carriage return, made
 * a workbook no reader could open. Each writer passes the whole spec through `toXmlSafeSpec` once,
 * where it starts, rather than cleaning text wherever it is written.
 */
import type { ReportSpec } from './report-spec.js';

/**
 * What XML 1.0 forbids (its `Char` production): C0 controls but tab, LF and CR; U+FFFE and U+FFFF;
 * and UTF-16 surrogates that are not part of a pair (they encode no character at all).
 */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_FORBIDDEN = new RegExp(FORBIDDEN.source);

/**
 * A text without the characters XML 1.0 cannot carry.
 *
 * @example
 * toXmlText('Brand\uffff health\u0007'); // 'Brand health'
 */
export function toXmlText(text: string): string {
  return HAS_FORBIDDEN.test(text) ? text.replace(FORBIDDEN, '') : text;
}

/** A JSON-like value with every string made XML-safe; the same object where nothing changes. */
function clean<T>(value: T): T {
  if (typeof value === 'string') return toXmlText(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const cleaned = clean(item);
      if (cleaned !== item) (out ??= [...value])[i] = cleaned;
    }
    return (out ?? value) as T;
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(record)) {
      const cleaned = clean(item);
      const safeKey = toXmlText(key);
      if (cleaned === item && safeKey === key) continue;
      const copy = (out ??= { ...record });
      if (safeKey !== key) delete copy[key];
      copy[safeKey] = cleaned;
    }
    return (out ?? value) as T;
  }
  return value;
}

/**
 * The spec with every text made XML-safe: titles, descriptions, notes, the About block, every
 * table cell and header, and the chart specs (their titles and data become SVG text). Objects are
 * copied only where something changed, so a clean spec (the usual case) is returned as it is.
 * `data: false` leaves the tidy rows out of the walk, for a writer that does not write them.
 *
 * @example
 * await writeFile(path, render(toXmlSafeSpec(spec)));
 */
export function toXmlSafeSpec(spec: ReportSpec, options: { data?: boolean } = {}): ReportSpec {
  if (options.data === false) {
    const { data, ...rest } = spec;
    return { ...clean(rest), data };
  }
  return clean(spec);
}
