/** Work done one job at a time, in arrival order: a webhook is acknowledged at once and its rebuild waits its turn. */
export interface SerialQueue {
  push(job: () => Promise<void>): void;
  /** Resolves when every job pushed so far has finished. */
  idle(): Promise<void>;
  readonly pending: number;
}

export function createSerialQueue(onError: (error: unknown) => void): SerialQueue {
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  return {
    push(job) {
      pending += 1;
      tail = tail
        .then(job)
        .catch(onError)
        .finally(() => {
          pending -= 1;
        });
    },
    idle: () => tail,
    get pending() {
      return pending;
    },
  };
}
