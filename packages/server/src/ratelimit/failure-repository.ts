/** One subject's counter as the store evaluates it: the rule's numbers and the hashed key. */
export interface FailureCheck {
  readonly key: string;
  readonly threshold: number;
  readonly windowMs: number;
  /** See `lockSteps`: the lock after the (threshold + k)-th failure; `null` = until the window ends. */
  readonly lockSteps: readonly (number | null)[];
}

/** A failure counted in advance, to be taken back if the check succeeds. */
export interface CountedFailure {
  readonly key: string;
  readonly windowStart: number;
  readonly threshold: number;
}

/**
 * Failure counters in the database, so that the limits hold across nodes. Keys hold SHA-256 hashes, never
 * an email, a phone number or an address.
 */
export interface FailureCounterStore {
  /**
   * Atomically, across every check: when none is locked at `now`, counts one failure against each (in
   * advance: the caller takes it back on success) and returns what was counted; when any is locked,
   * counts nothing and returns the time at which every lock among them has ended.
   */
  begin(
    checks: readonly FailureCheck[],
    now: number,
  ): Promise<{ readonly counted: readonly CountedFailure[] } | { readonly lockedUntil: number }>;
  /** Takes back failures counted by `begin` (in the same window), lifting a lock they alone caused. */
  takeBack(counted: readonly CountedFailure[]): Promise<void>;
  /** Forgets the counters of the given keys (a success that resets them). */
  reset(keys: readonly string[]): Promise<void>;
  /** The latest lock among the keys that lasts past `now`, or `now` when none does. */
  lockedUntil(keys: readonly string[], now: number): Promise<number>;
  /** Deletes counters whose window and lock have both passed; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
