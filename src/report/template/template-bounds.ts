/**
 * Checks of a template's size and shape made before and right after it is parsed, so that no
 * template can make the parser or the schema checks recurse, allocate or loop beyond the limits
 * of `TEMPLATE_LIMITS`: the text's size, its nesting (scanned before parsing: both parsers and
 * zod recurse once per level, and the YAML parser overflows its stack at a few hundred levels,
 * slowly), JSON's duplicate keys (which `JSON.parse` silently drops; YAML refuses them), and
 * after parsing the length of every list, object and text.
 *
 * Every scan here is a loop over the text or the document with an explicit stack: nothing in it
 * recurses.
 */
import type { TemplateProblem } from './template-error.js';
import { TEMPLATE_LIMITS, bytesText, countText } from './template-limits.js';

const { depth: MAX_DEPTH, items: MAX_ITEMS, textLength: MAX_TEXT } = TEMPLATE_LIMITS;

const tooDeep = (where: string): TemplateProblem => ({
  path: where,
  message: `nested more than ${MAX_DEPTH} levels deep; a template nests at most ${MAX_DEPTH} levels (a real one 5 or 6)`,
});

/** The size of a template's text, against the limit. */
export function sizeProblem(text: string): TemplateProblem | undefined {
  // Characters first: a text of more characters than the limit's bytes is over it in any encoding.
  const bytes = text.length > TEMPLATE_LIMITS.bytes ? text.length : Buffer.byteLength(text, 'utf8');
  if (bytes <= TEMPLATE_LIMITS.bytes) return undefined;
  return { path: '', message: `the template is ${bytesText(bytes)}; a template file is at most ${bytesText(TEMPLATE_LIMITS.bytes)}` };
}

/** `sections[2].chart` from the containers a scan is in. */
function pathOf(frames: readonly { kind: 'object' | 'array'; key: string | undefined; index: number }[]): string {
  let out = '';
  for (const f of frames) {
    if (f.kind === 'array') out += `[${f.index}]`;
    else if (f.key !== undefined) out += out === '' ? f.key : `.${f.key}`;
  }
  return out;
}

/**
 * JSON text scanned before `JSON.parse`: nesting deeper than the limit, and a key given twice in
 * one object (JSON.parse keeps the last silently: a template with two `sections` lost one).
 * Malformed JSON is left for `JSON.parse` to describe.
 */
export function scanJson(text: string): TemplateProblem | undefined {
  const frames: { kind: 'object' | 'array'; keys: Set<string> | undefined; key: string | undefined; index: number }[] = [];
  // The last significant token: an object's string is a key right after `{` or `,`.
  let previous = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = frames[frames.length - 1];
      if (top?.kind === 'object' && (previous === '{' || previous === ',')) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return undefined;
        }
        if (top.keys!.has(key)) {
          const where = pathOf(frames);
          return { path: where, message: `the key '${key.length > 40 ? `${key.slice(0, 40)}…` : key}' is given twice${where === '' ? ' in the template' : ''}; JSON would keep only the last, so give it once` };
        }
        top.keys!.add(key);
        top.key = key;
        previous = 'key';
      } else previous = 'value';
      i = j;
    } else if (c === '{' || c === '[') {
      frames.push({ kind: c === '{' ? 'object' : 'array', keys: c === '{' ? new Set() : undefined, key: undefined, index: 0 });
      // The path to where it became too deep would be 32 levels long: its start says where.
      if (frames.length > MAX_DEPTH) return tooDeep(`${pathOf(frames.slice(0, 4))}…`);
      previous = c;
    } else if (c === '}' || c === ']') {
      frames.pop();
      previous = 'value';
    } else if (c === ',') {
      const top = frames[frames.length - 1];
      if (top?.kind === 'array') top.index++;
      previous = ',';
    } else if (c === ':') previous = ':';
    else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') previous = 'value';
  }
  return undefined;
}

/** Where a YAML node may start: a flow collection opens only there (`Sales [EU]` is plain text). */
const NODE_START = new Set(['', ':', '-', ',', '[', '{', '?']);

/**
 * YAML text scanned before parsing, for nesting that would take the parser past the limit: block
 * nesting (indentation levels, and compact `- - -` entries on one line) and flow nesting (`[`
 * and `{` where a node starts, outside quoted text, comments and block scalars). An estimate from
 * above, exact for ordinary templates; the parsed document's depth is checked exactly afterwards.
 */
export function scanYaml(text: string): TemplateProblem | undefined {
  const lines = text.split('\n');
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  // Lines of a block scalar (`description: >-`) are text: skipped while indented deeper than this.
  let blockScalarParent: number | undefined;
  for (const [n, line] of lines.entries()) {
    const indent = line.length - line.trimStart().length;
    const content = line.trim();
    if (blockScalarParent !== undefined) {
      if (content === '' || indent > blockScalarParent) continue;
      blockScalarParent = undefined;
    }
    if (quote === undefined && flow === 0 && content !== '' && !content.startsWith('#')) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      const compact = /^(?:[-?](?:\s+|$))*/.exec(content)![0].replace(/\s+/g, '').length;
      if (indents.length + compact > MAX_DEPTH) return tooDeep(`line ${n + 1}`);
    }
    let previous = '';
    for (let i = indent; i < line.length; i++) {
      const c = line[i]!;
      if (quote !== undefined) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) {
          // '' inside single quotes is a quote, not the end.
          if (quote === "'" && line[i + 1] === "'") i++;
          else {
            quote = undefined;
            previous = 'value';
          }
        }
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r') continue;
      if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) break;
      if ((c === '"' || c === "'") && NODE_START.has(previous)) quote = c;
      else if ((c === '[' || c === '{') && NODE_START.has(previous)) {
        flow++;
        if (flow + indents.length > MAX_DEPTH) return tooDeep(`line ${n + 1}`);
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
      else if ((c === '|' || c === '>') && (previous === ':' || previous === '-') && flow === 0 && /^[|>][-+]?\d?[-+]?\s*(#.*)?$/.test(line.slice(i).trimEnd())) {
        blockScalarParent = indent;
        break;
      }
      previous = c === ':' || c === '-' || c === ',' || c === '[' || c === '{' || c === '?' ? c : 'value';
    }
  }
  return undefined;
}

/**
 * A parsed document's bounds, exactly: nesting, the items of each list and object, the length of
 * each text. Problems name the path of the first offender of each kind.
 */
export function documentProblems(document: unknown): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const found = new Set<string>();
  const note = (kind: string, problem: TemplateProblem) => {
    if (found.has(kind)) return;
    found.add(kind);
    problems.push(problem);
  };
  const stack: { value: unknown; path: string; level: number }[] = [{ value: document, path: '', level: 1 }];
  while (stack.length > 0) {
    const { value, path, level } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length > MAX_TEXT) note('text', { path, message: `a text of ${countText(value.length)} characters; a text in a template is at most ${countText(MAX_TEXT)}` });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (level > MAX_DEPTH) {
      note('depth', tooDeep(path.length > 60 ? `${path.slice(0, 60)}…` : path));
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_ITEMS) {
        note('items', { path, message: `a list of ${countText(value.length)} items; a list in a template holds at most ${countText(MAX_ITEMS)}` });
        continue;
      }
      value.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]`, level: level + 1 }));
    } else {
      const entries = Object.entries(value);
      if (entries.length > MAX_ITEMS) {
        note('items', { path, message: `an object of ${countText(entries.length)} keys; an object in a template holds at most ${countText(MAX_ITEMS)}` });
        continue;
      }
      for (const [key, item] of entries) {
        if (key.length > MAX_TEXT) note('text', { path, message: `a key of ${countText(key.length)} characters; a text in a template is at most ${countText(MAX_TEXT)}` });
        else stack.push({ value: item, path: path === '' ? key : `${path}.${key}`, level: level + 1 });
      }
    }
  }
  return problems;
}
