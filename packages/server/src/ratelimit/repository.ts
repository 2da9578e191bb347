/**
 * One check of an all-or-nothing consumption. A `window` check counts calls in a fixed window (row key +
 * window start) and allows at most `limit`; an `interval` check is a gate row that allows a call only when
 * the previous allowed call is at least `minIntervalMs` old (the OTP "resend after 30 seconds").
 */
export type RateLimitCheck =
  | {
      readonly kind: 'window';
      readonly key: string;
      readonly windowStart: number;
      readonly limit: number;
      /** The window end: the row is useless afterwards and housekeeping deletes it. */
      readonly expiresAt: number;
    }
  | { readonly kind: 'interval'; readonly key: string; readonly minIntervalMs: number };

/** A stored counter row (keys hold hashes only, never an email, phone number or IP address). */
export interface RateLimitCounter {
  readonly key: string;
  readonly windowStart: number;
  readonly count: number;
  /** When the last allowed call was counted. */
  readonly lastAt: number;
  readonly expiresAt: number;
}

/** Window start of every interval-gate row: a gate has one row per key, not one per window. */
export const INTERVAL_GATE_WINDOW_START = 0;

/** Counters in the database, so that limits hold across nodes (docs/reference/limits.md "Rate limits": nodes are stateless). */
export interface RateLimitStore {
  /**
   * Counts one call against every check, atomically: either every check allows and all are counted, or
   * none is counted (a refusal never increments, so a client hammering a refused endpoint does not push
   * its own window further out). Returns false when any check refuses.
   */
  tryConsume(checks: readonly RateLimitCheck[], now: number): Promise<boolean>;
  /**
   * Counts one event in a window row, without any limit, and returns the row's count with it
   * (atomically: each of concurrent calls gets its own count).
   */
  increment(
    slot: { readonly key: string; readonly windowStart: number; readonly expiresAt: number },
    now: number,
  ): Promise<number>;
  /** The rows of the given (key, window start) pairs that exist. */
  read(slots: readonly { key: string; windowStart: number }[]): Promise<RateLimitCounter[]>;
  /** Deletes rows whose `expiresAt` is at or before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
