/**
 * A JSON writer straight into bytes, for the emulator's hottest answer: 1,000-row brandscape pages
 * of ~70 columns (about 1.6 MB). Building such a page as a JavaScript string and encoding it costs
 * more than the whole page should; writing pre-encoded keys and values into one buffer does not.
 * Buffers come from a small pool: a fresh 2 MB buffer per page costs about as much as writing the
 * page (the kernel zeroes and maps every page of it on first touch).
 */
const encoder = new TextEncoder();

/** A value's JSON text as UTF-8 bytes (keys, names, included objects: encoded once, reused). */
export const toJsonBytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const toBytes = (text: string): Uint8Array => encoder.encode(text);

export const NULL_BYTES = toBytes('null');

/**
 * Reusable byte buffers. A buffer handed out is the caller's until it gives it back with
 * `release()`: for an answer body, once the socket has taken all of it. One never given back (an
 * aborted answer) is simply collected.
 */
export class BufferPool {
  private readonly free: Uint8Array[] = [];

  constructor(private readonly keep = 4) {}

  /** A buffer of at least `bytes` bytes; its contents are undefined. The last given back comes first (likeliest still in cache). */
  acquire(bytes: number): Uint8Array {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const buf = this.free[i] as Uint8Array;
      if (buf.length >= bytes) {
        this.free.splice(i, 1);
        return buf;
      }
    }
    // Grow by a margin, so that a slightly larger page later can still use this buffer.
    return new Uint8Array(Math.ceil((bytes * 1.25) / 65536) * 65536);
  }

  release(buf: Uint8Array): void {
    if (this.free.includes(buf)) return;
    this.free.push(buf);
    // Keep the most recent few.
    if (this.free.length > this.keep) this.free.shift();
  }
}

/**
 * A growing byte buffer. `buf` and `pos` are public so that a hot loop can `reserve()` room for a
 * whole row and then write into `buf` directly (several times faster than a call per token).
 * `view` is a DataView of `buf` for writing four bytes at once.
 */
export class JsonBytes {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(
    capacity = 64 * 1024,
    private readonly pool?: BufferPool,
  ) {
    this.buf = pool ? pool.acquire(capacity) : new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** Makes room for `n` more bytes (`buf` and `view` may be replaced: re-read them after). */
  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const size = Math.max(this.buf.length * 2, this.pos + n);
    const next = this.pool ? this.pool.acquire(size) : new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.pool?.release(this.buf);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  /** Pre-encoded bytes (a short copy loop beats `set()` for the typical 10-30 byte key). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.reserve(n);
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
    this.reserve(1);
    this.buf[this.pos++] = b;
  }

  /** The bytes written so far (a view, valid until the next write). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }

  /** The bytes written so far as a Buffer sharing this writer's memory, and the way to give that memory back to the pool. */
  detach(): { body: Buffer; release: () => void } {
    const buf = this.buf;
    const pool = this.pool;
    return { body: Buffer.from(buf.buffer, buf.byteOffset, this.pos), release: () => pool?.release(buf) };
  }
}
