/**
 * Helpers for the chart tests: compile with vega-lite while capturing its logger, walk a spec's
 * encodings, read a PNG's size.
 */
import { compile } from 'vega-lite';
import type { ChartSpec } from '../../src/charts/chart-spec.js';
import { forVegaLite } from '../../src/charts/vega-lite-spec.js';

type Logger = NonNullable<NonNullable<Parameters<typeof compile>[1]>['logger']>;

/** Compiles the spec with vega-lite and returns every warning and error its logger received. */
export function compileMessages(spec: ChartSpec): string[] {
  const messages: string[] = [];
  let level = 4;
  const logger: Logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    warn(...args: unknown[]) {
      messages.push(`warn: ${args.map(String).join(' ')}`);
      return logger;
    },
    error(...args: unknown[]) {
      messages.push(`error: ${args.map(String).join(' ')}`);
      return logger;
    },
    info(...args: unknown[]) {
      messages.push(`info: ${args.map(String).join(' ')}`);
      return logger;
    },
    debug() {
      return logger;
    },
  };
  compile(forVegaLite(spec), { logger });
  return messages.filter((m) => !m.startsWith('info:'));
}

export interface ChannelUse {
  channel: string;
  field?: string;
  title?: unknown;
  hasTitle: boolean;
  def: Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every channel definition in every `encoding` of the spec (layers, facets and all). */
export function channels(spec: unknown): ChannelUse[] {
  const out: ChannelUse[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'encoding' && isRecord(value)) {
        for (const [channel, def] of Object.entries(value)) {
          const defs = Array.isArray(def) ? def : [def];
          for (const d of defs) {
            if (!isRecord(d)) continue;
            out.push({ channel, ...(typeof d.field === 'string' ? { field: d.field } : {}), title: d.title, hasTitle: 'title' in d, def: d });
          }
        }
      } else if (key === 'facet' && isRecord(value)) {
        const defs = 'field' in value ? { facet: value } : value;
        for (const [channel, d] of Object.entries(defs)) {
          if (isRecord(d)) out.push({ channel, ...(typeof d.field === 'string' ? { field: d.field } : {}), title: d.title, hasTitle: 'title' in d, def: d });
        }
      } else if (key !== 'data' && key !== 'config') {
        visit(value);
      }
    }
  };
  visit(spec);
  return out;
}

/** The fields a channel encodes anywhere in the spec. */
export function fieldsOf(spec: unknown, channel: string): string[] {
  return [...new Set(channels(spec).flatMap((c) => (c.channel === channel && c.field !== undefined ? [c.field] : [])))];
}

/** Every inline data row of the spec (top-level and layer data). */
export function dataRows(spec: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isRecord(node)) return;
    if (isRecord(node.data) && Array.isArray(node.data.values)) out.push(...node.data.values.filter(isRecord));
    for (const [key, value] of Object.entries(node)) if (key !== 'data' && key !== 'config') visit(value);
  };
  visit(spec);
  return out;
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => png[i] === b)) throw new Error('not a PNG');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The labels Vega drew on each x (or y) axis of a rendered SVG, one array per axis (one per panel
 * for small multiples), without the labels its overlap check hid.
 */
export function axisLabels(svg: string, axis: 'X' | 'Y'): string[][] {
  const out: string[][] = [];
  for (const m of svg.matchAll(new RegExp(`aria-label="${axis}-axis[^"]*"`, 'g'))) {
    const group = /role-axis-label"[^>]*>([\s\S]*?)<\/g>/.exec(svg.slice(m.index + m[0].length))?.[1] ?? '';
    out.push([...group.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].filter((t) => !/opacity="0"/.test(t[1] ?? '')).map((t) => t[2] ?? ''));
  }
  return out;
}

/** A number printed with more decimals than any chart shows, e.g. `3.0999999999999996`. */
const LONG_FLOAT = /\d\.\d{4,}/;

/**
 * Text a reader could see that prints a number unrounded: every string of the spec outside its
 * data (titles, labels, expressions), every string in its data (labels computed in JavaScript),
 * and every number shown by a text or tooltip channel without a format.
 */
export function unroundedText(spec: unknown): string[] {
  const out: string[] = [];
  const visit = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      if (LONG_FLOAT.test(node)) out.push(`${path}: ${node}`);
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((n, i) => visit(n, `${path}[${i}]`));
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) if (key !== 'config') visit(value, `${path}.${key}`);
  };
  visit(spec, '$');
  for (const c of channels(spec)) {
    if ((c.channel === 'text' || c.channel === 'tooltip') && c.def.type === 'quantitative' && typeof c.def.format !== 'string') {
      out.push(`${c.channel}:${c.field ?? '?'} has no format`);
    }
  }
  return out;
}

/** The text a rendered SVG shows (text elements and their lines), without markup. */
export function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<(text|tspan)\b[^>]*>([^<]*)</g)].map((m) => m[2] ?? '').filter((t) => t !== '');
}

/**
 * Texts of a rendered SVG that print a number unrounded: the text drawn, and the descriptions of
 * marks and axes that screen readers read out (`aria-label`).
 */
export function unroundedSvgText(svg: string): string[] {
  const aria = [...svg.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1] ?? '');
  return [...svgTexts(svg), ...aria].filter((t) => LONG_FLOAT.test(t));
}

/** The panels of a small-multiples spec (`concat`), or the spec itself as one panel. */
export function panelsOf(spec: unknown): Record<string, unknown>[] {
  if (isRecord(spec) && Array.isArray(spec.concat)) return spec.concat.filter(isRecord);
  if (isRecord(spec) && Array.isArray(spec.vconcat)) return spec.vconcat.filter(isRecord);
  return isRecord(spec) ? [spec] : [];
}

/** A panel's title text. */
export function panelTitleOf(panel: Record<string, unknown>): string | undefined {
  const t = panel.title;
  return typeof t === 'string' ? t : isRecord(t) && typeof t.text === 'string' ? t.text : undefined;
}

/** A spec's subtitle as one line of text. */
export function subtitleOf(spec: ChartSpec): string {
  const t = spec.title as { subtitle?: string | string[] } | undefined;
  return Array.isArray(t?.subtitle) ? t.subtitle.join(' ') : (t?.subtitle ?? '');
}
