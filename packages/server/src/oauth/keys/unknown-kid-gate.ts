/**
 * Paces the key-set reads that tokens with an unknown `kid` cause: at most one per interval, counted from
 * the last such read. A kid is unknown after another node rotated, or in a forged header; so forged
 * headers cost at most one read a second, and a real new kid waits at most that long for its read.
 *
 * Counting from the last load of any kind (the routine cache refresh included) would let a refresh that
 * happened just before another node rotated hide the new key for the rest of the interval.
 */
export class UnknownKidGate {
  readonly #intervalMs: number;
  #lastReloadAt = Number.NEGATIVE_INFINITY;

  constructor(intervalMs = 1_000) {
    this.#intervalMs = intervalMs;
  }

  /** How long after `now` the next read for an unknown kid may start (0: at once). */
  waitMs(now: number): number {
    return Math.max(0, this.#lastReloadAt + this.#intervalMs - now);
  }

  /** Records a read for an unknown kid that starts at `now`. */
  reloading(now: number): void {
    this.#lastReloadAt = now;
  }
}
