/**
 * Damaged Parquet files on purpose, for the bad-input catalogue: a valid file written by our own
 * writer is split into its data and its footer, the footer (Thrift compact protocol) is decoded
 * into a tree of fields, one field is changed, and the file is put back together. The data bytes
 * never move, so every offset the footer does not change still points where it did.
 *
 * The codec is written here, independently of hyparquet's, so that the tests do not share the
 * reader's own assumptions about the format.
 */

import { crc32 } from 'node:zlib';

/** Compact protocol types (a field's type nibble; in lists, TRUE stands for bool). */
export const T = { STOP: 0, TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

export type ThriftValue = boolean | number | bigint | Uint8Array | ThriftList | ThriftStruct;
export interface ThriftList {
  elemType: number;
  items: ThriftValue[];
  /** A size to write instead of `items.length` (a list that claims more than it holds). */
  claimed?: number;
}
export interface ThriftField {
  id: number;
  type: number;
  value: ThriftValue;
}
export type ThriftStruct = ThriftField[];

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.at >= this.bytes.length) throw new Error('thrift: out of bytes');
    return this.bytes[this.at++]!;
  }
  varint(): bigint {
    let out = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = this.byte();
      out |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return out;
    }
  }
  zigzag(): bigint {
    const v = this.varint();
    return (v >> 1n) ^ -(v & 1n);
  }
}

function readValue(r: Reader, type: number, inList: boolean): ThriftValue {
  switch (type) {
    case T.TRUE:
    case T.FALSE:
      return inList ? r.byte() === 1 : type === T.TRUE;
    case T.BYTE:
      return (r.byte() << 24) >> 24;
    case T.I16:
    case T.I32:
      return Number(r.zigzag());
    case T.I64:
      return r.zigzag();
    case T.DOUBLE: {
      const view = new DataView(r.bytes.buffer, r.bytes.byteOffset + r.at, 8);
      r.at += 8;
      return view.getFloat64(0, true);
    }
    case T.BINARY: {
      const n = Number(r.varint());
      const out = r.bytes.slice(r.at, r.at + n);
      r.at += n;
      return out;
    }
    case T.LIST: {
      const head = r.byte();
      const elemType = head & 0x0f;
      const size = head >> 4 === 15 ? Number(r.varint()) : head >> 4;
      const items: ThriftValue[] = [];
      for (let i = 0; i < size; i++) items.push(readValue(r, elemType, true));
      return { elemType, items };
    }
    case T.STRUCT:
      return readStruct(r);
    default:
      throw new Error(`thrift: type ${type} not used by Parquet`);
  }
}

function readStruct(r: Reader): ThriftStruct {
  const fields: ThriftStruct = [];
  let id = 0;
  for (;;) {
    const head = r.byte();
    const type = head & 0x0f;
    if (type === T.STOP) return fields;
    id = head >> 4 ? id + (head >> 4) : Number(r.zigzag());
    fields.push({ id, type, value: readValue(r, type, false) });
  }
}

class Writer {
  out: number[] = [];
  varint(value: bigint): void {
    let v = BigInt.asUintN(64, value);
    while (v >= 0x80n) {
      this.out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.out.push(Number(v));
  }
  zigzag(value: bigint): void {
    this.varint(value >= 0n ? value << 1n : ((-value) << 1n) - 1n);
  }
}

function writeValue(w: Writer, type: number, value: ThriftValue, inList: boolean): void {
  switch (type) {
    case T.TRUE:
    case T.FALSE:
      if (inList) w.out.push(value ? 1 : 2);
      return;
    case T.BYTE:
      w.out.push(Number(value) & 0xff);
      return;
    case T.I16:
    case T.I32:
    case T.I64:
      w.zigzag(BigInt(value as number | bigint));
      return;
    case T.DOUBLE: {
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setFloat64(0, value as number, true);
      w.out.push(...bytes);
      return;
    }
    case T.BINARY: {
      const bytes = value as Uint8Array;
      w.varint(BigInt(bytes.length));
      w.out.push(...bytes);
      return;
    }
    case T.LIST: {
      const list = value as ThriftList;
      const size = list.claimed ?? list.items.length;
      if (size < 15) w.out.push((size << 4) | list.elemType);
      else {
        w.out.push(0xf0 | list.elemType);
        w.varint(BigInt(size));
      }
      for (const item of list.items) writeValue(w, list.elemType, item, true);
      return;
    }
    case T.STRUCT:
      writeStruct(w, value as ThriftStruct);
      return;
    default:
      throw new Error(`thrift: cannot write type ${type}`);
  }
}

function writeStruct(w: Writer, fields: ThriftStruct): void {
  let last = 0;
  for (const field of fields) {
    const type = field.type === T.TRUE || field.type === T.FALSE ? (field.value ? T.TRUE : T.FALSE) : field.type;
    const delta = field.id - last;
    if (delta > 0 && delta <= 15) w.out.push((delta << 4) | type);
    else {
      w.out.push(type);
      w.zigzag(BigInt(field.id));
    }
    writeValue(w, type, field.value, false);
    last = field.id;
  }
  w.out.push(T.STOP);
}

/** A Thrift compact struct's bytes as a tree of fields. */
export function decodeStruct(bytes: Uint8Array): ThriftStruct {
  return readStruct(new Reader(bytes));
}

/** The struct that starts at `at`, and where it ends. */
export function decodeStructAt(bytes: Uint8Array, at: number): { struct: ThriftStruct; end: number } {
  const reader = new Reader(bytes);
  reader.at = at;
  const struct = readStruct(reader);
  return { struct, end: reader.at };
}

/** A tree of fields as Thrift compact bytes. */
export function encodeStruct(fields: ThriftStruct): Uint8Array {
  const w = new Writer();
  writeStruct(w, fields);
  return Uint8Array.from(w.out);
}

/** A Parquet file as its data part (leading PAR1 and column chunks) and its decoded footer. */
export interface ParquetParts {
  data: Uint8Array;
  footer: ThriftStruct;
}

export function splitParquet(file: Uint8Array): ParquetParts {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getUint32(file.length - 8, true);
  const start = file.length - 8 - length;
  return { data: file.slice(0, start), footer: decodeStruct(file.subarray(start, file.length - 8)) };
}

/** The file again, its footer re-encoded, its length and magic after it. */
export function joinParquet(parts: ParquetParts): Uint8Array {
  const footer = encodeStruct(parts.footer);
  const out = new Uint8Array(parts.data.length + footer.length + 8);
  out.set(parts.data);
  out.set(footer, parts.data.length);
  const view = new DataView(out.buffer);
  view.setUint32(parts.data.length + footer.length, footer.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.length - 4);
  return out;
}

/** A field of a struct by its id (throws when absent: a test that names a field means it to be there). */
export function field(struct: ThriftStruct, id: number): ThriftField {
  const found = struct.find((f) => f.id === id);
  if (!found) throw new Error(`no field ${id}`);
  return found;
}

/**
 * Follows a path of field ids and list indices from the footer: numbers alternate as the values
 * require (a struct takes a field id, a list an index).
 *
 * @example fieldAt(footer, [4, 0, 1, 0, 3, 9]) // row group 0, column 0, meta_data, data_page_offset
 */
export function fieldAt(struct: ThriftStruct, path: readonly number[]): ThriftField {
  let current: ThriftField = { id: 0, type: T.STRUCT, value: struct };
  for (const step of path) {
    if (current.type === T.STRUCT) current = field(current.value as ThriftStruct, step);
    else if (current.type === T.LIST) {
      const list = current.value as ThriftList;
      const item = list.items[step];
      if (item === undefined) throw new Error(`no item ${step}`);
      current = { id: step, type: list.elemType, value: item };
    } else throw new Error(`cannot step into type ${current.type}`);
  }
  return current;
}

/**
 * A copy of a valid file with one change to its footer.
 *
 * @example damageFooter(bytes, (footer) => { fieldAt(footer, [3]).value = 2n ** 40n; })
 */
export function damageFooter(file: Uint8Array, change: (footer: ThriftStruct) => void): Uint8Array {
  const parts = splitParquet(file);
  change(parts.footer);
  return joinParquet(parts);
}

/** Sets a field of the footer, found by `fieldAt`'s path, whose last step is a struct's field id. */
export function setField(footer: ThriftStruct, path: readonly number[], value: ThriftValue, type?: number): void {
  const parent = path.length === 1 ? footer : (fieldAt(footer, path.slice(0, -1)).value as ThriftStruct);
  const id = path[path.length - 1]!;
  const existing = parent.find((f) => f.id === id);
  if (existing) {
    existing.value = value;
    if (type !== undefined) existing.type = type;
  } else {
    if (type === undefined) throw new Error(`field ${id} is absent: give its type`);
    parent.push({ id, type, value });
    parent.sort((a, b) => a.id - b.id);
  }
}

/** A deterministic pseudo-random generator (mulberry32), for the seeded fuzz loop. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Field paths of a file with one row group (FileMetaData -> RowGroup -> ColumnChunk -> ColumnMetaData). */
export const PATH = {
  numRows: [3],
  schema: [2],
  rootChildren: [2, 0, 5],
  rowGroups: [4],
  groupRows: (g: number) => [4, g, 3],
  chunkMeta: (g: number, c: number) => [4, g, 1, c, 3],
  dataPageOffset: (g: number, c: number) => [4, g, 1, c, 3, 9],
  dictionaryPageOffset: (g: number, c: number) => [4, g, 1, c, 3, 11],
  compressedSize: (g: number, c: number) => [4, g, 1, c, 3, 7],
  numValues: (g: number, c: number) => [4, g, 1, c, 3, 5],
  codec: (g: number, c: number) => [4, g, 1, c, 3, 4],
} as const;

const numberOf = (value: ThriftValue | undefined): number => Number(value);

/**
 * A copy of a valid file with one page changed: its header (a tree of fields, e.g. field 3 the
 * compressed size, field 5 the data page header) and, when `change` returns new bytes, its body.
 * The body's size in the header follows a new body; `crc: 'fix'` writes the checksum of the new
 * body (a page that is consistent but says something else), `'keep'` leaves the old one. Every
 * offset after the page, and the size of its column chunk, move with it.
 *
 * @example damagePage(bytes, { group: 0, column: 0, page: 0 }, (header) => { setField(header, [2], 1 << 30); })
 */
export function damagePage(
  file: Uint8Array,
  where: { group: number; column: number; page: number },
  change: (header: ThriftStruct, body: Uint8Array) => Uint8Array | void,
  options: { crc?: 'fix' | 'keep' } = {},
): Uint8Array {
  const parts = splitParquet(file);
  const meta = fieldAt(parts.footer, PATH.chunkMeta(where.group, where.column)).value as ThriftStruct;
  const dictionary = meta.find((f) => f.id === 11);
  let at = numberOf(dictionary && numberOf(dictionary.value) > 0 ? dictionary.value : field(meta, 9).value);
  for (let k = 0; ; k++) {
    const { struct, end } = decodeStructAt(parts.data, at);
    const size = numberOf(field(struct, 3).value);
    if (k < where.page) {
      at = end + size;
      continue;
    }
    const body = parts.data.slice(end, end + size);
    const newBody = change(struct, body) ?? body;
    if (newBody !== body) setField(struct, [3], newBody.length);
    if (options.crc === 'fix') setField(struct, [4], crc32(newBody) | 0, T.I32);
    const header = encodeStruct(struct);
    const oldEnd = end + size;
    const delta = header.length + newBody.length - (oldEnd - at);
    const data = new Uint8Array(parts.data.length + delta);
    data.set(parts.data.subarray(0, at));
    data.set(header, at);
    data.set(newBody, at + header.length);
    data.set(parts.data.subarray(oldEnd), at + header.length + newBody.length);
    parts.data = data;
    // Offsets past the page move; the chunk that holds it grows or shrinks.
    for (const group of (field(parts.footer, 4).value as ThriftList).items as ThriftStruct[]) {
      for (const chunk of (field(group, 1).value as ThriftList).items as ThriftStruct[]) {
        const offset = chunk.find((f) => f.id === 2);
        if (offset && numberOf(offset.value) > at) offset.value = BigInt(numberOf(offset.value) + delta);
        const m = chunk.find((f) => f.id === 3)?.value as ThriftStruct | undefined;
        if (!m) continue;
        const first = numberOf(m.find((f) => f.id === 11 && numberOf(f.value) > 0)?.value ?? field(m, 9).value);
        if (first <= at && at < first + numberOf(field(m, 7).value)) {
          field(m, 7).value = BigInt(numberOf(field(m, 7).value) + delta);
          field(m, 6).value = BigInt(numberOf(field(m, 6).value) + delta);
        }
        for (const id of [9, 10, 11]) {
          const f = m.find((x) => x.id === id);
          if (f && numberOf(f.value) > at) f.value = BigInt(numberOf(f.value) + delta);
        }
      }
    }
    return joinParquet(parts);
  }
}
