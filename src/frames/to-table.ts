/**
 * `toTable(records)`: loaded records (brandscape rows with includes, brands, companies, ...) to a
 * columnar `FrameTable`, flattened by fixed rules.
 *
 * Flattening rules (the same for every resource):
 * 1. A scalar field keeps its name: `brand_id`, `brand_name` (on brandscape rows the LOCAL name used
 *    in that market's survey), `differentiation_rank`.
 * 2. An included object `x` gives `x_<field>` per scalar field: `company_id`, `company_name`,
 *    `sector_id`, `sector_name`, `audience_name`, `study_name`, `country_code`. Two exceptions:
 *    the brand include's name is `global_name` (it is the brand's global name and must never
 *    be mistaken for the local `brand_name`), and the year include's `year` is `year`.
 * 3. An object nested inside an included object (`brand.sector`, `study.country`, `study.year`,
 *    `study.period`, `country.region`) is flattened as if it were included itself (`sector_name`,
 *    `country_name`, `year`, `period_name`, `region_name`), unless that include is present too:
 *    the direct include wins.
 * 4. When a flattened name is already a field of the record: an `_id` column is the same id and is
 *    not repeated; any other gets the prefix `global_` (included objects carry the service's global
 *    record, e.g. the category include's `name` becomes `global_category_name`).
 * 5. Arrays (e.g. a company's `officers`) are kept as JSON text.
 *
 * Types: `id` and `*_id` columns and calendar years (`year`, `*_year`) are integers (`int`, the slim
 * year's string `"2024"` included); other numbers are `float`, missing = NaN, never 0; booleans stay
 * `bool`; date and timestamp fields (`date`, `*_date`, `*_at`, `period_end`) are `date`; other text is
 * `string`. Columns named in `metricColumns` are always `float`.
 */
import { FrameTable, BOOL_NULL, INT_NULL, type ColumnKind, type FrameColumn, type FrameMeta, type FrameRow } from './frame-table.js';
import { missingColumn } from './column.js';
import { StringDictionary, textColumn } from './string-dictionary.js';

export interface ToTableOptions {
  /** Columns that must be `float` whatever their values (metric columns: index scores are whole numbers). */
  metricColumns?: Iterable<string>;
  /** Kinds to force for some columns (e.g. counts as `int`). */
  kinds?: Readonly<Record<string, ColumnKind>>;
  /** Column order: these first, in this order; the others after, in the order they appear. */
  columns?: readonly string[];
  /** Recorded as the table's `meta.source` (default `toTable`). */
  source?: string;
}

const NUM = 1;
const STR = 2;
const BOOL = 3;
const MIXED = 4;

/**
 * One field path of the records: its values while the records are read, and its children when the
 * field holds objects. Storage is allocated at full length on the first non-missing value, prefilled
 * with the missing marker, so rows that lack the field read as missing without being visited.
 */
class Slot {
  readonly key: string;
  readonly path: readonly string[];
  /** Rows the storage has room for (the table's length once finished). */
  n: number;
  kind = 0;
  num: Float64Array | undefined;
  codes: Int32Array | undefined;
  strings: StringDictionary | undefined;
  bools: Uint8Array | undefined;
  mixed: unknown[] | undefined;
  children: Map<string, Slot> | undefined;
  /** The children in the order the last object listed them: one comparison per field on the fast path. */
  order: (Slot | undefined)[] = [];
  sawArray = false;

  constructor(key: string, path: readonly string[], n: number) {
    this.key = key;
    this.path = path;
    this.n = n;
  }

  add(i: number, v: unknown): void {
    if (typeof v === 'number') {
      if (this.kind === NUM) {
        this.num![i] = v;
        return;
      }
      if (this.kind === 0) {
        this.kind = NUM;
        this.num = new Float64Array(this.n).fill(NaN);
        this.num[i] = v;
        return;
      }
      this.addMixed(i, v);
      return;
    }
    if (v === null || v === undefined) return;
    if (typeof v === 'string') {
      if (this.kind === STR) {
        this.codes![i] = this.strings!.codeOf(v);
        return;
      }
      if (this.kind === 0) {
        this.kind = STR;
        this.codes = new Int32Array(this.n).fill(-1);
        this.strings = new StringDictionary();
        this.add(i, v);
        return;
      }
      this.addMixed(i, v);
      return;
    }
    if (typeof v === 'boolean') {
      if (this.kind === BOOL) {
        this.bools![i] = v ? 1 : 0;
        return;
      }
      if (this.kind === 0) {
        this.kind = BOOL;
        this.bools = new Uint8Array(this.n).fill(BOOL_NULL);
        this.bools[i] = v ? 1 : 0;
        return;
      }
      this.addMixed(i, v);
      return;
    }
    if (typeof v === 'object') {
      if (Array.isArray(v)) {
        this.sawArray = true;
        this.add(i, JSON.stringify(v));
        return;
      }
      this.addObject(i, v);
      return;
    }
    // A bigint, symbol or function: none comes from JSON; kept as its text.
    this.addMixed(i, mixedText(v));
  }

  addObject(i: number, object: object): void {
    const order = this.order;
    const fields = object as Record<string, unknown>;
    let j = 0;
    for (const key in fields) {
      let slot = order[j];
      if (slot === undefined || slot.key !== key) {
        slot = this.child(key);
        order[j] = slot;
      }
      j++;
      slot.add(i, fields[key]);
    }
  }

  child(key: string): Slot {
    this.children ??= new Map();
    let slot = this.children.get(key);
    if (!slot) {
      slot = new Slot(key, [...this.path, key], this.n);
      this.children.set(key, slot);
    }
    return slot;
  }

  /** A field with values of several types (not seen in the service's data): kept as text. */
  addMixed(i: number, v: unknown): void {
    if (this.kind !== MIXED) {
      const before: unknown[] = new Array<unknown>(this.n).fill(null);
      for (let r = 0; r < this.n; r++) before[r] = this.scalarAt(r);
      this.kind = MIXED;
      this.mixed = before;
      this.num = undefined;
      this.codes = undefined;
      this.bools = undefined;
    }
    this.mixed![i] = v;
  }

  /** The distinct texts of a text field (code = position). */
  get dictionary(): string[] {
    return this.strings?.values ?? [];
  }

  scalarAt(r: number): unknown {
    switch (this.kind) {
      case NUM: {
        const v = this.num![r]!;
        return v === v ? v : null;
      }
      case STR: {
        const c = this.codes![r]!;
        return c < 0 ? null : this.strings!.values[c];
      }
      case BOOL: {
        const v = this.bools![r]!;
        return v === BOOL_NULL ? null : v === 1;
      }
      case MIXED:
        return this.mixed![r];
      default:
        return null;
    }
  }

  hasScalars(): boolean {
    return this.kind !== 0;
  }

  /** Room for `n` rows (more or fewer), here and in every child; new rows read as missing. */
  resize(n: number): void {
    const keep = Math.min(n, this.n);
    if (this.num) this.num = resized(this.num, n, keep, NaN);
    if (this.codes) this.codes = resized(this.codes, n, keep, -1);
    if (this.bools) this.bools = resized(this.bools, n, keep, BOOL_NULL);
    if (this.mixed) {
      this.mixed.length = n;
      for (let i = keep; i < n; i++) this.mixed[i] = null;
    }
    this.n = n;
    for (const child of this.children?.values() ?? []) child.resize(n);
  }
}

function resized<A extends Float64Array | Int32Array | Uint8Array>(values: A, n: number, keep: number, missing: number): A {
  if (n <= values.length) return values.slice(0, n) as A;
  const out = new (values.constructor as new (n: number) => A)(n);
  out.set(values.subarray(0, keep));
  out.fill(missing, keep);
  return out;
}

/**
 * Fields that hold an included object when present. When such a field is null in every record, no
 * column comes of it; any other field that is always null becomes an all-missing column (a metric
 * nobody has a value for is still a column).
 */
const OBJECT_FIELDS = new Set([
  'study', 'year', 'country', 'audience', 'audiences', 'brand', 'category', 'sector', 'company', 'region', 'group',
  'gics_sector', 'stock_exchange', 'period', 'type', 'latest_financials',
]);

const isColumn = (slot: Slot) => slot.hasScalars() || (!slot.children && !OBJECT_FIELDS.has(slot.key));

const isIdName = (name: string) => name === 'id' || name.endsWith('_id');
const isYearName = (name: string) => name === 'year' || name.endsWith('_year');
const isDateName = (name: string) => name === 'date' || name.endsWith('_date') || name.endsWith('_at') || name === 'period_end';
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}/;

function baseName(objectKey: string, field: string): string {
  if (objectKey === 'brand' && field === 'name') return 'global_name';
  if (objectKey === 'year' && field === 'year') return 'year';
  return `${objectKey}_${field}`;
}

interface Candidate {
  name: string;
  slot: Slot;
  /** 0 = a field of the record, 1 = a field of an included object, 2+ = deeper. */
  level: number;
}

/** Resolves the flattened column names of the slot tree (rules 1-4 of the module comment). */
function candidatesOf(root: Slot): Candidate[] {
  const directIncludes = new Set<string>();
  for (const slot of root.children?.values() ?? []) if (slot.children) directIncludes.add(slot.key);
  const out: Candidate[] = [];
  const taken = new Map<string, number>();
  const push = (name: string, slot: Slot, level: number) => {
    const previous = taken.get(name);
    if (previous !== undefined) {
      if (previous === 0 && level > 0) {
        // Rule 4: the same id is not repeated; another field is the service's global version.
        if (isIdName(name)) return;
        const global = `global_${name}`;
        if (taken.has(global)) return;
        taken.set(global, level);
        out.push({ name: global, slot, level });
      }
      // Otherwise the direct include (lower level) or the first occurrence wins.
      return;
    }
    taken.set(name, level);
    out.push({ name, slot, level });
  };
  // Pass 1: fields of the record keep their names (they win every collision).
  for (const slot of root.children?.values() ?? []) if (isColumn(slot)) push(slot.key, slot, 0);
  // Pass 2: included objects, breadth first, so a direct include beats a nested copy of it.
  let frontier: { slot: Slot; level: number }[] = [...(root.children?.values() ?? [])].filter((s) => s.children).map((slot) => ({ slot, level: 1 }));
  while (frontier.length > 0) {
    const next: { slot: Slot; level: number }[] = [];
    for (const { slot: object, level } of frontier) {
      // Rule 3: a nested object is flattened under its own key, unless included directly.
      if (level > 1 && directIncludes.has(object.key)) continue;
      for (const field of object.children?.values() ?? []) {
        if (isColumn(field)) push(baseName(object.key, field.key), field, level);
        if (field.children) next.push({ slot: field, level: level + 1 });
      }
    }
    frontier = next;
  }
  return out;
}

function allIntegers(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v !== v) continue;
    if (!Number.isInteger(v) || v <= INT_NULL || v > 2147483647) return false;
  }
  return true;
}

function toIntColumn(values: Float64Array): FrameColumn {
  const out = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v === v ? v : INT_NULL;
  }
  return { kind: 'int', values: out };
}

/** Text column to numbers when every value parses (the slim year's `"2024"`); undefined otherwise. */
function parsedNumbers(slot: Slot): Float64Array | undefined {
  const out = new Float64Array(slot.n).fill(NaN);
  const parsed = slot.dictionary.map((s) => (s.trim() === '' ? NaN : Number(s)));
  if (parsed.some((v) => !Number.isFinite(v))) return undefined;
  const codes = slot.codes!;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c >= 0) out[i] = parsed[c]!;
  }
  return out;
}

function parsedDates(slot: Slot): Float64Array | undefined {
  const parsed = slot.dictionary.map((s) => (DATE_PATTERN.test(s) ? Date.parse(s) : NaN));
  if (parsed.some((v) => !Number.isFinite(v))) return undefined;
  const out = new Float64Array(slot.n).fill(NaN);
  const codes = slot.codes!;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c >= 0) out[i] = parsed[c]!;
  }
  return out;
}

function columnOf(name: string, slot: Slot, metric: boolean, forced: ColumnKind | undefined): FrameColumn {
  const n = slot.n;
  switch (slot.kind) {
    case NUM: {
      const values = slot.num!;
      if (forced === 'float' || metric) return { kind: 'float', values };
      if (forced === 'int' || ((isIdName(name) || isYearName(name)) && allIntegers(values))) {
        if (forced === 'int' && !allIntegers(values)) return { kind: 'float', values };
        return toIntColumn(values);
      }
      return { kind: 'float', values };
    }
    case BOOL:
      return { kind: 'bool', values: slot.bools! };
    case STR: {
      if (forced === 'string') return { kind: 'string', codes: slot.codes!, dictionary: slot.dictionary };
      if (!slot.sawArray) {
        if (forced === 'date' || (forced === undefined && isDateName(name))) {
          const dates = parsedDates(slot);
          if (dates) return { kind: 'date', values: dates };
        }
        if (metric || forced === 'float' || forced === 'int' || isYearName(name) || isIdName(name)) {
          const numbers = parsedNumbers(slot);
          if (numbers) {
            if (!metric && forced !== 'float' && allIntegers(numbers)) return toIntColumn(numbers);
            return { kind: 'float', values: numbers };
          }
        }
      }
      return { kind: 'string', codes: slot.codes!, dictionary: slot.dictionary };
    }
    case MIXED: {
      const values = slot.mixed!;
      return textColumn(n, (i) => {
        const v = values[i];
        return v === null || v === undefined ? null : mixedText(v);
      });
    }
    default: {
      // Only missing values: the kind the name implies, all missing.
      const kind = forced ?? (metric ? 'float' : isIdName(name) || isYearName(name) ? 'int' : 'float');
      return missingColumn(kind, n);
    }
  }
}

/**
 * Records to a `FrameTable`, flattened by the rules in this module's comment. Reads the records
 * once, row by row, with the field order of the previous record as a guess for the next one (the
 * loader's records share one field order), so 1,000,000 brandscape rows take a couple of seconds.
 *
 * @example
 * const rows = await client.brandscape.all({
 *   filter: { country_code: 'GB', year_number: 2024, audiences: 1 },
 *   metricKeys: ['differentiation'],
 *   include: ['brand', 'company', 'sector'],
 * });
 * const table = toTable(rows);
 * table.columnNames; // ['id', 'study_id', 'brand_id', ..., 'brand_name', ..., 'differentiation_rank', ...,
 *                    //  'global_name', 'sector_id', 'sector_name', 'company_id', 'company_name']
 *                    // (the brand include's id is the row's brand_id: not repeated)
 * toTable(input.rows);  // rows a load kept as a table already are returned as they are
 */
export function toTable<R extends object = FrameRow>(records: readonly object[] | FrameTable<object, FrameMeta>, options: ToTableOptions = {}): FrameTable<R, FrameMeta> {
  // A table is already flattened and typed: the options (which fields, which kinds) shaped it when it was built.
  if (records instanceof FrameTable) return records as FrameTable<R, FrameMeta>;
  const builder = new TableBuilder<R>(options, records.length);
  builder.append(records);
  return builder.finish();
}

/**
 * A table built while loading: records go in page by page (`append`) and are not kept, so a load
 * never holds more than a page of record objects and ends with the table alone (the loaded rows of
 * `toTable` stay on the heap until the caller drops them, and every garbage collection marks them).
 * Flattening and types are `toTable`'s, decided when the table is finished: the same records give
 * the same table either way. It is a `RecordSink`, so a fetcher's `loadInto` fills it (`loadTable`
 * does that in one call).
 *
 * @example
 * const builder = new TableBuilder({ metricColumns: ['differentiation_rank'] });
 * for await (const page of client.brandscape.pages(query)) builder.append(page.records);
 * const table = builder.finish();
 */
export class TableBuilder<R extends object = FrameRow> {
  readonly #options: ToTableOptions;
  #root: Slot;
  #length = 0;
  #finished = false;

  /** `capacity`: rows to make room for at once (the query's total when known). */
  constructor(options: ToTableOptions = {}, capacity = 0) {
    this.#options = options;
    this.#root = new Slot('', [], Math.max(0, capacity));
  }

  /** Rows appended so far. */
  get length(): number {
    return this.#length;
  }

  /** Starts again, empty, with room for `total` rows (a `RecordSink`'s start of a load). */
  start(total: number): void {
    this.#root = new Slot('', [], Math.max(0, total));
    this.#length = 0;
    this.#finished = false;
  }

  /** Adds records as rows; the array is not kept. */
  append(records: readonly object[]): void {
    if (this.#finished) throw new Error('This TableBuilder has finished its table; start() it again to build another.');
    const need = this.#length + records.length;
    if (need > this.#root.n) this.#root.resize(Math.max(need, Math.ceil(this.#root.n * 1.5), 1024));
    const root = this.#root;
    let i = this.#length;
    for (const record of records) root.addObject(i++, record);
    this.#length = need;
  }

  /** The table of the rows appended. The builder is then spent (its storage is the table's). */
  finish(): FrameTable<R, FrameMeta> {
    return this.finishWith({});
  }

  /** `finish` with some options replaced (e.g. metric columns known only once the load is done). */
  finishWith(overrides: ToTableOptions): FrameTable<R, FrameMeta> {
    const root = this.#root;
    const options = { ...this.#options, ...overrides };
    const n = this.#length;
    if (root.n !== n) root.resize(n);
    this.#finished = true;
    const metric = new Set(options.metricColumns ?? []);
    const kinds = options.kinds ?? {};
    const columns = new Map<string, FrameColumn>();
    for (const { name, slot } of candidatesOf(root)) columns.set(name, columnOf(name, slot, metric.has(name), kinds[name]));
    const ordered: [string, FrameColumn][] = [];
    for (const name of options.columns ?? []) {
      const column = columns.get(name);
      if (column) {
        ordered.push([name, column]);
        columns.delete(name);
      } else {
        ordered.push([name, columnOf(name, new Slot(name, [name], n), metric.has(name), kinds[name])]);
      }
    }
    ordered.push(...columns);
    this.#root = new Slot('', [], 0);
    return new FrameTable<R, FrameMeta>(ordered, n, { source: options.source ?? 'toTable', notes: [] });
  }
}

/** A mixed column's value as text: objects as JSON, the rest as JavaScript writes them. */
function mixedText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'symbol') return v.toString();
  return JSON.stringify(v) ?? '';
}
