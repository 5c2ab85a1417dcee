/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */
import { CARRIAGE_RETURN, CLEAR_LINE_END, type CommandIo } from './io.js';

export interface ProgressState {
  pagesDone: number;
  pagesTotal: number;
  records: number;
  retries: number;
  rateLimitWaits: number;
  etaMs: number | undefined;
}

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

export function createProgressBar(io: CommandIo, label: string) {
  const tty = io.stderr.isTTY === true;
  let last = 0;
  let drawn = false;
  return {
    update(state: ProgressState) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 80 && state.pagesDone < state.pagesTotal) return;
      last = now;
      const width = 24;
      const share = state.pagesTotal > 0 ? state.pagesDone / state.pagesTotal : 0;
      const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '-');
      const extra = [
        state.retries > 0 ? counted(state.retries, 'retry', 'retries') : '',
        state.rateLimitWaits > 0 ? counted(state.rateLimitWaits, 'rate-limit wait') : '',
        state.etaMs !== undefined && state.pagesDone < state.pagesTotal ? `ETA ${seconds(state.etaMs)}` : '',
      ].filter((s) => s !== '');
      io.stderr.write([CARRIAGE_RETURN, `${label} [${bar}] ${state.pagesDone}/${counted(state.pagesTotal, 'page')}, ${counted(state.records, 'record')}${extra.length ? `, ${extra.join(', ')}` : ''}`, CLEAR_LINE_END]);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr.write('\n');
    },
  };
}

/** A count and its noun, singular for one: `counted(1, 'page')` is '1 page', `counted(2402, 'record')` '2,402 records'. */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${countText(n)} ${n === 1 ? noun : plural}`;

/**
 * A count with thousands separators, as `toLocaleString('en')` writes a whole number: its first
 * call in a process loads ICU's number formatting data, which a short command pays only to print
 * one line.
 *
 * @example
 * countText(32402); // '32,402'
 */
export function countText(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en');
}
