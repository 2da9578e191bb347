/** The wait before the first replacement of a worker that died. */
export const FIRST_RESTART_DELAY_MS = 100;
/** The longest wait between replacements of workers that keep dying. */
export const MAX_RESTART_DELAY_MS = 10_000;
/** Deaths further back than this no longer lengthen the wait. */
export const CRASH_MEMORY_MS = 60_000;

/**
 * Replacing a dead worker at once would spin a crash loop (a worker that dies as it starts, a database
 * that refuses every connection) through the CPU and the logs; the wait doubles with each death of the
 * last minute, from 100 ms up to 10 s, and an isolated death is replaced almost at once.
 */
export class RestartBackoff {
  #deaths: number[] = [];

  /** Records a death at `now` (ms) and answers how long to wait before replacing the worker. */
  nextDelay(now: number): number {
    this.#deaths = this.#deaths.filter((at) => now - at < CRASH_MEMORY_MS);
    this.#deaths.push(now);
    return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (this.#deaths.length - 1));
  }
}
