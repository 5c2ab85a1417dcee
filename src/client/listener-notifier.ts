/**
 * Calls the caller's event listeners (a notebook's `onProgress`, a log line) so that what they
 * throw never reaches a request. The first such error of a client is reported through
 * `onListenerError` (by default one line on stderr, so the bug is seen); later ones are ignored,
 * so a listener that throws on every event does not flood the output.
 */
import type { Secrets } from '../errors.js';
import type { TransportEvent } from './transport-event.js';

/** Calls `listener` (if any) with `event`, keeping whatever it throws away from the caller. */
export type Notify = (listener: ((event: TransportEvent) => void) | undefined, event: TransportEvent) => void;

/** The first listener error of a client, on stderr; the rest are ignored. */
function reportFirstListenerError(secrets: Secrets | undefined): (error: unknown, event: TransportEvent) => void {
  let reported = false;
  return (error, event) => {
    if (reported) return;
    reported = true;
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const said = secrets ? secrets.redact(text) : text;
    process.stderr.write(`brandscape-kit: an event listener (onEvent/onProgress) threw on a '${event.type}' event and was ignored: ${said}. Later listener errors are not reported.\n`);
  };
}

/**
 * Creates the notifier of a client.
 *
 * @example
 * const notify = createNotifier((error, event) => log.warn(`listener failed on ${event.type}`));
 * notify(options.onEvent, { type: 'cache-hit', method: 'GET', url });
 */
export function createNotifier(onListenerError: ((error: unknown, event: TransportEvent) => void) | undefined, secrets?: Secrets): Notify {
  const report = onListenerError ?? reportFirstListenerError(secrets);
  return (listener, event) => {
    if (!listener) return;
    try {
      listener(event);
    } catch (error) {
      try {
        report(error, event);
      } catch {
        // A failing reporter is a listener too.
      }
    }
  };
}
