/**
 * `showProgress()`: a load's progress in a notebook, as one output line that updates in place
 * (a Jupyter display with a `display_id`, replaced by `update_display_data`) and ends with the
 * totals. Outside a notebook it writes the final line to standard error.
 */
import { findTslabWriter } from './display.js';
import type { LoadProgress } from '../loader/types.js';

/** Options of `showProgress`. */
export interface ShowProgressOptions {
  /** Where lines go outside a notebook (default: standard error, once the load is complete). */
  write?: (line: string) => void;
  /** Clock for throttling updates (default `Date.now`). */
  now?: () => number;
}

let displays = 0;

const BAR = 24;

/** One line: label, bar, pages, records, and retries or waits when there were any. */
export function progressLine(label: string, p: LoadProgress): string {
  const share = p.pagesTotal > 0 ? p.pagesDone / p.pagesTotal : 0;
  const bar = '#'.repeat(Math.round(share * BAR)).padEnd(BAR, '-');
  const done = p.pagesTotal > 0 && p.pagesDone >= p.pagesTotal;
  const extra = [
    p.retries > 0 ? `${p.retries} ${p.retries === 1 ? 'retry' : 'retries'}` : '',
    p.rateLimitWaits > 0 ? `${p.rateLimitWaits} rate-limit ${p.rateLimitWaits === 1 ? 'wait' : 'waits'}` : '',
    !done && p.etaMs !== undefined ? `about ${Math.ceil(p.etaMs / 1000)} s left` : '',
    done ? `${(p.elapsedMs / 1000).toFixed(1)} s` : '',
  ].filter((s) => s !== '');
  return `${label} [${bar}] ${p.pagesDone}/${p.pagesTotal} ${p.pagesTotal === 1 ? 'page' : 'pages'}, ${p.records.toLocaleString('en')} of ${p.total.toLocaleString('en')} ${p.total === 1 ? 'record' : 'records'}${extra.length ? `, ${extra.join(', ')}` : ''}`;
}

/**
 * A progress callback for a load (`onProgress` of `all()`, `load()`, or `load` of
 * `loadComparisonInput`), shown as a line that updates in place in the notebook cell.
 *
 * @example
 * const input = await loadComparisonInput(client, {
 *   countryCodes: ['GB'], years: [2024], metricGroupKeys: ['pillars'],
 *   load: { onProgress: showProgress('Brandscape data, GB 2024') },
 * });
 */
export function showProgress(label = 'Loading', options: ShowProgressOptions = {}): (progress: LoadProgress) => void {
  const writer = findTslabWriter();
  const now = options.now ?? Date.now;
  const displayId = `brandscape-progress-${process.pid}-${++displays}`;
  let shown = false;
  let last = -Infinity;
  return (progress) => {
    const done = progress.pagesTotal > 0 && progress.pagesDone >= progress.pagesTotal;
    const line = progressLine(label, progress);
    if (writer === undefined) {
      if (done) (options.write ?? ((text: string) => void process.stderr.write(`${text}\n`)))(line);
    } else if (done || now() - last >= 100) {
      // Updates at most ten times a second; the last one always.
      writer({ data: { 'text/plain': line }, metadata: {}, transient: { display_id: displayId } }, shown);
      shown = true;
      last = now();
    }
  };
}
