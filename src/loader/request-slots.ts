/**
 * The loader's limit on requests in flight. A page gives its slot back as soon as its answer has
 * arrived (`free`, which the page function calls through `FetchPageContext.answered`) rather than
 * when it is parsed: the next request goes out while the last answer is parsed, so `size` requests
 * are on the wire all the time.
 */
import pLimit from 'p-limit';

export interface RequestSlots {
  /** Runs `work` once a slot is free; the slot returns when `work` calls `free` or settles. */
  run<T>(work: (free: () => void) => Promise<T>): Promise<T>;
  /** Drops the work still waiting for a slot (it never runs, its promise never settles). */
  clear(): void;
}

/**
 * Creates `size` slots; work waits for them in the order it was handed in. p-limit keeps the queue
 * and the count; what it limits is the wait for `free` (or for the work to settle), not the work
 * itself, so a page's parse runs outside its slot.
 *
 * @example
 * const slots = createRequestSlots(8);
 * const page = await slots.run((free) => fetchPage(n, perPage, signal, { answered: free }));
 */
export function createRequestSlots(size: number): RequestSlots {
  const limit = pLimit(size);
  return {
    run<T>(work: (free: () => void) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        void limit(
          () =>
            new Promise<void>((free) => {
              let running: Promise<T>;
              try {
                running = work(free);
              } catch (error) {
                running = Promise.reject(error);
              }
              running.then(resolve, reject).finally(free);
            }),
        );
      });
    },
    clear() {
      limit.clearQueue();
    },
  };
}
