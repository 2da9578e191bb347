/**
 * Decides whether a token with an unknown `kid` may make this node read the key set again: at most once
 * per interval, counted from the last reload that an unknown kid caused.
 *
 * Counting from the last load of any kind (the 30-second cache refresh included) would let a routine
 * refresh that happened just before another node rotated hide the new key for the rest of the interval,
 * and every token that node signed meanwhile would fail validation here. Only unknown kids (a rotation
 * elsewhere, or forged headers) spend the budget, so forged headers still cost at most one read a second.
 */
export class UnknownKidGate {
  readonly #intervalMs: number;
  #lastReloadAt = Number.NEGATIVE_INFINITY;

  constructor(intervalMs = 1_000) {
    this.#intervalMs = intervalMs;
  }

  /** True (and the interval starts again) when an unknown kid seen at `now` may reload the key set. */
  admit(now: number): boolean {
    if (now - this.#lastReloadAt < this.#intervalMs) return false;
    this.#lastReloadAt = now;
    return true;
  }
}
