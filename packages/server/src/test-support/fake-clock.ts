import type { Clock } from '../kernel/clock.js';

/** A clock that moves only when a test moves it. */
export class FakeClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  set(epochMs: number): void {
    this.#now = epochMs;
  }
}
