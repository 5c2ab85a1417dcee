/**
 * The loader's limit on requests in flight. Unlike a plain promise limiter, a page gives its slot
 * back as soon as its answer has arrived (`free`, which the page function calls through
 * `FetchPageContext.answered`) rather than when it is parsed: the next request goes out while the
 * last answer is parsed, so at most `size` requests are on the wire, all the time.
 */

export interface RequestSlots {
  /** Runs `work` once a slot is free; the slot returns when `work` calls `free` or settles. */
  run<T>(work: (free: () => void) => Promise<T>): Promise<T>;
  /** Drops the work still waiting for a slot (it never runs, its promise never settles). */
  clear(): void;
}

/**
 * Creates `size` slots; work waits for them in the order it was handed in.
 *
 * @example
 * const slots = createRequestSlots(8);
 * const page = await slots.run((free) => fetchPage(n, perPage, signal, { answered: free }));
 */
export function createRequestSlots(size: number): RequestSlots {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    run<T>(work: (free: () => void) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          active += 1;
          let freed = false;
          const free = () => {
            if (freed) return;
            freed = true;
            active -= 1;
            waiting.shift()?.();
          };
          let running: Promise<T>;
          try {
            running = work(free);
          } catch (error) {
            running = Promise.reject(error);
          }
          running.then(resolve, reject).finally(free);
        };
        if (active < size) start();
        else waiting.push(start);
      });
    },
    clear() {
      waiting.length = 0;
    },
  };
}
