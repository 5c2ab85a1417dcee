/**
 * The one place that ties AbortSignals together. Cancellation passes through several layers (a
 * caller's signal, a load's own, a request's time limit, a sleep, a rate-limit wait), and a
 * listener left on a long-lived signal is a leak: a load of 300 pages adds and must remove 300.
 * Every link made here is undone by `dispose()` (or when it fires), so a signal's listeners never
 * outlive the work that added them. (`AbortSignal.any` has no way to unhook a source early.)
 */

/**
 * Calls `listener` once when `signal` aborts (at once if it already has); returns a function that
 * removes the listener. Without a signal, nothing happens.
 *
 * @example
 * const stop = onAbort(signal, () => request.destroy());
 * try { await answer; } finally { stop(); }
 */
export function onAbort(signal: AbortSignal | undefined, listener: (reason: unknown) => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    listener(signal.reason);
    return () => {};
  }
  const handler = () => listener(signal.reason);
  signal.addEventListener('abort', handler, { once: true });
  return () => signal.removeEventListener('abort', handler);
}

/** A signal aborted by any of its sources or by its own `abort()`. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal (never its sources). */
  abort(reason?: unknown): void;
  /** Unhooks the linked signal from its sources; call it when the work is over. */
  dispose(): void;
}

/**
 * A signal that aborts when any source does (with that source's reason) or when `abort()` is
 * called. Undefined sources are skipped.
 *
 * @example
 * const link = linkSignals(callerSignal);
 * const timer = setTimeout(() => link.abort(new Error('timeout')), 30_000);
 * try { await get(url, link.signal); } finally { clearTimeout(timer); link.dispose(); }
 */
export function linkSignals(...sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const stops: (() => void)[] = [];
  const dispose = () => {
    for (const stop of stops.splice(0)) stop();
  };
  for (const source of sources) {
    if (controller.signal.aborted) break;
    stops.push(
      onAbort(source, (reason) => {
        controller.abort(reason);
        dispose();
      }),
    );
  }
  return {
    signal: controller.signal,
    abort: (reason?: unknown) => {
      controller.abort(reason);
      dispose();
    },
    dispose,
  };
}

/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as it aborts. The listener
 * goes when the timer fires: a long load sleeps many times on one signal.
 *
 * @example
 * await sleep(250, signal);
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as unknown);
    const stop = onAbort(signal, (reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
  });
}
