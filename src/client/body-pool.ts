/**
 * Buffers for answer bodies, reused from answer to answer. A page of a megabyte read into fresh
 * memory costs, on the 2-core machines this was measured on, more than parsing it (fresh memory is
 * mapped and faulted in page by page); read into a buffer that served the previous page, it costs a
 * copy.
 * Sizes are powers of two, so a few buffers fit every page of a load.
 */

/** Free buffers kept for reuse, at most this many bytes in all. */
const POOL_BYTES = 32 * 1024 * 1024;
const MIN_BUFFER = 64 * 1024;

export interface BodyPool {
  /** A buffer of at least `size` bytes (its contents are stale). */
  take(size: number): Buffer;
  /** Gives a buffer back; it must not be used afterwards. */
  give(buffer: Buffer): void;
}

/**
 * Creates a pool.
 *
 * @example
 * const pool = createBodyPool();
 * const buffer = pool.take(612_000); // 1 MiB, reused once given back
 * pool.give(buffer);
 */
export function createBodyPool(): BodyPool {
  const free: Buffer[] = [];
  let pooled = 0;
  return {
    take(size) {
      let best = -1;
      for (let i = 0; i < free.length; i += 1) {
        const length = free[i]?.length ?? 0;
        if (length >= size && (best < 0 || length < (free[best]?.length ?? 0))) best = i;
      }
      const found = best >= 0 ? free.splice(best, 1)[0] : undefined;
      if (found) {
        pooled -= found.length;
        return found;
      }
      let length = MIN_BUFFER;
      while (length < size) length *= 2;
      return Buffer.allocUnsafeSlow(length);
    },
    give(buffer) {
      if (pooled + buffer.length > POOL_BYTES) return;
      pooled += buffer.length;
      free.push(buffer);
    },
  };
}

/**
 * Bytes appended into pooled buffers, growing (by taking a larger one) as needed.
 *
 * @example
 * const body = new PooledBytes(pool, 1024);
 * body.append(chunk, 0, chunk.length);
 * const bytes = body.bytes(); // valid until body.release()
 */
export class PooledBytes {
  private buffer: Buffer;
  private size = 0;
  private released = false;

  constructor(
    private readonly pool: BodyPool,
    expected: number,
  ) {
    this.buffer = pool.take(Math.max(1, expected));
  }

  get length(): number {
    return this.size;
  }

  append(source: Uint8Array, start: number, end: number): void {
    const count = end - start;
    if (this.size + count > this.buffer.length) {
      const larger = this.pool.take(2 * (this.size + count));
      this.buffer.copy(larger, 0, 0, this.size);
      this.pool.give(this.buffer);
      this.buffer = larger;
    }
    this.buffer.set(source.subarray(start, end), this.size);
    this.size += count;
  }

  /** The bytes appended so far (a view: valid until `release()`). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.size);
  }

  /** Gives the buffer back to the pool (once). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.give(this.buffer);
  }
}
