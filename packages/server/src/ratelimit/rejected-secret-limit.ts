import type { Clock } from '../kernel/clock.js';
import type { FailureRule } from './failure-rules.js';
import type { FailureThrottle } from './failure-throttle.js';

/** The most locks one node remembers; past it the oldest are forgotten (the database keeps them). */
const MAX_REMEMBERED = 10_000;

/**
 * Rejected secrets, counted per scope (a client) and client address across requests and nodes by the
 * failure throttle, for a path where a right secret must cost nothing: only a rejection writes, and each
 * node remembers the locks it has met, so that a locked scope and address are refused without a query.
 * A right secret is not looked for in the database: the secrets of this path (client secrets, the codes
 * and tokens of the token endpoint) have 256 random bits, so no guess reaches one, and the lock only has
 * to stop the guessing (docs/decisions/client-secret-failures.md, handed-out-token-failures.md). The
 * scope '' counts the address alone, as `lookUpHandedOut` does under the same rule.
 */
export class RejectedSecretLimit {
  readonly #throttle: Pick<FailureThrottle, 'begin'>;
  readonly #rule: FailureRule;
  readonly #clock: Clock;
  /** Scope and address → end of its lock (epoch ms), for the locks this node has met. */
  readonly #locked = new Map<string, number>();

  constructor(deps: { throttle: Pick<FailureThrottle, 'begin'>; rule: FailureRule; clock: Clock }) {
    this.#throttle = deps.throttle;
    this.#rule = deps.rule;
    this.#clock = deps.clock;
  }

  /** How long (ms) the scope stays locked for the address, as far as this node knows; else undefined. */
  lockedFor(scope: string, address: string): number | undefined {
    if (this.#locked.size === 0) return undefined;
    const key = keyOf(scope, address);
    const until = this.#locked.get(key);
    if (until === undefined) return undefined;
    const left = until - this.#clock.now();
    if (left > 0) return left;
    this.#locked.delete(key);
    return undefined;
  }

  /** Counts a rejected secret of the scope from the address; once locked, how long (ms) it stays so. */
  async reject(scope: string, address: string): Promise<number | undefined> {
    const key = keyOf(scope, address);
    const check = await this.#throttle.begin([{ rule: this.#rule, value: key }]);
    if (check.allowed) return undefined;
    if (this.#locked.size >= MAX_REMEMBERED) {
      const oldest = this.#locked.keys().next().value;
      if (oldest !== undefined) this.#locked.delete(oldest);
    }
    this.#locked.set(key, check.until);
    return check.retryAfterMs;
  }
}

/** One key per scope and address (a client_id holds no NUL, nor does an address). */
function keyOf(scope: string, address: string): string {
  return scope === '' ? address : `${address}\u0000${scope}`;
}
