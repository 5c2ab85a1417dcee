/**
 * A JSON writer straight into bytes, for the emulator's hottest answer: 1,000-row brandscape pages
 * of ~100 columns (about 1.6 MB). Building such a page as a JavaScript string and encoding it
 * costs ~10 ms in string concatenation and garbage collection; writing ASCII digits and
 * pre-encoded keys into one growing buffer costs a fraction of that.
 */
const encoder = new TextEncoder();

/** A value's JSON text as UTF-8 bytes (keys, names, included objects: encoded once, reused). */
export const toJsonBytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const toBytes = (text: string): Uint8Array => encoder.encode(text);

const POW10 = [1, 10, 100, 1000, 10000] as const;

/** Pre-encoded numbers of the dataset's fixed precisions (dataset/types.ts MetricColumn). */
let tables: { tenths: Uint8Array[]; thousandths: Uint8Array[]; ints: Uint8Array[] } | undefined;
export function numberTables() {
  tables ??= {
    tenths: Array.from({ length: 1001 }, (_, k) => toBytes(String(k / 10))),
    thousandths: Array.from({ length: 10001 }, (_, k) => toBytes(String((k - 5000) / 1000))),
    ints: Array.from({ length: 10000 }, (_, k) => toBytes(String(k))),
  };
  return tables;
}

export const NULL_BYTES = toBytes('null');

/**
 * A growing byte buffer. `buf` and `pos` are public so that a hot loop can `reserve()` room for a
 * whole row and then write into `buf` directly (several times faster than a call per token).
 */
export class JsonBytes {
  buf: Uint8Array;
  pos = 0;

  constructor(capacity = 64 * 1024) {
    this.buf = new Uint8Array(capacity);
  }

  /** Makes room for `n` more bytes (`buf` may be replaced: re-read it after). */
  reserve(n: number): void {
    this.ensure(n);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** Pre-encoded bytes (a short copy loop beats `set()` for the typical 10-30 byte key). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.ensure(n);
    const buf = this.buf;
    let pos = this.pos;
    if (n < 64) for (let i = 0; i < n; i++) buf[pos++] = bytes[i] as number;
    else {
      buf.set(bytes, pos);
      pos += n;
    }
    this.pos = pos;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** ASCII text (numbers' fallback form, literals). */
  ascii(text: string): void {
    this.ensure(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.pos++] = text.charCodeAt(i);
  }

  /** An integer, in the form `String(n)` gives for safe integers. */
  int(n: number): void {
    if (!Number.isSafeInteger(n)) {
      this.ascii(String(n));
      return;
    }
    this.ensure(17);
    if (n < 0) {
      this.buf[this.pos++] = 45; // '-'
      n = -n;
    }
    if (n < 10) {
      this.buf[this.pos++] = 48 + n;
      return;
    }
    const start = this.pos;
    while (n > 0) {
      this.buf[this.pos++] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    // Digits were written least significant first.
    for (let a = start, b = this.pos - 1; a < b; a++, b--) {
      const t = this.buf[a] as number;
      this.buf[a] = this.buf[b] as number;
      this.buf[b] = t;
    }
  }

  /**
   * A number already rounded to `decimals` (1 or 3) places, in its shortest form (the same text as
   * `String(v)`: `1.5`, `-0.087`, `12`); NaN is `null`.
   */
  fixed(v: number, decimals: 1 | 3): void {
    if (v !== v) {
      this.ascii('null');
      return;
    }
    const scale = POW10[decimals];
    const k = Math.round(v * scale);
    if (!Number.isSafeInteger(k)) {
      this.ascii(String(v));
      return;
    }
    const negative = k < 0;
    const abs = negative ? -k : k;
    const whole = Math.floor(abs / scale);
    let frac = abs - whole * scale;
    if (negative && (whole > 0 || frac > 0)) this.byte(45);
    this.int(whole);
    if (frac === 0) return;
    let digits: number = decimals;
    while (frac % 10 === 0) {
      frac /= 10;
      digits -= 1;
    }
    this.ensure(digits + 1);
    this.buf[this.pos++] = 46; // '.'
    for (let d = digits - 1; d >= 0; d--) {
      const p = POW10[d as 0 | 1 | 2 | 3] ?? 1;
      const digit = Math.floor(frac / p);
      this.buf[this.pos++] = 48 + digit;
      frac -= digit * p;
    }
  }

  /** Any number: integers fast, others as `String(v)`; NaN and infinities are `null`. */
  number(v: number): void {
    if (Number.isInteger(v)) this.int(v);
    else if (Number.isFinite(v)) this.ascii(String(v));
    else this.ascii('null');
  }

  /** The bytes written so far (a view, valid until the next write). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
