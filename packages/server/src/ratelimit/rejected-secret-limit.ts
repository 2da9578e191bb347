import type { Clock } from '../kernel/clock.js';
import type { FailureRule } from './failure-rules.js';
import type { FailureThrottle } from './failure-throttle.js';

/** The most locked addresses one node remembers; past it the oldest are forgotten (the database keeps them). */
const MAX_REMEMBERED = 10_000;

/**
 * Rejected client secrets, counted per client address across requests and nodes by the failure
 * throttle, for a path where a right secret must cost nothing: only a rejection writes, and each node
 * remembers the locks it has met, so that a locked address is refused without a query. A right secret
 * is not looked for in the database: a client secret has 256 random bits, so no guess reaches one, and
 * the lock only has to stop the guessing (docs/decisions/client-secret-failures.md).
 */
export class RejectedSecretLimit {
  readonly #throttle: Pick<FailureThrottle, 'begin'>;
  readonly #rule: FailureRule;
  readonly #clock: Clock;
  /** Address → end of its lock (epoch ms), for the locks this node has met. */
  readonly #locked = new Map<string, number>();

  constructor(deps: { throttle: Pick<FailureThrottle, 'begin'>; rule: FailureRule; clock: Clock }) {
    this.#throttle = deps.throttle;
    this.#rule = deps.rule;
    this.#clock = deps.clock;
  }

  /** How long (ms) the address stays locked, as far as this node knows; undefined when it is not. */
  lockedFor(address: string): number | undefined {
    if (this.#locked.size === 0) return undefined;
    const until = this.#locked.get(address);
    if (until === undefined) return undefined;
    const left = until - this.#clock.now();
    if (left > 0) return left;
    this.#locked.delete(address);
    return undefined;
  }

  /** Counts a rejected secret from the address; once the address is locked, how long (ms) it stays so. */
  async reject(address: string): Promise<number | undefined> {
    const check = await this.#throttle.begin([{ rule: this.#rule, value: address }]);
    if (check.allowed) return undefined;
    if (this.#locked.size >= MAX_REMEMBERED) {
      const oldest = this.#locked.keys().next().value;
      if (oldest !== undefined) this.#locked.delete(oldest);
    }
    this.#locked.set(address, check.until);
    return check.retryAfterMs;
  }
}
