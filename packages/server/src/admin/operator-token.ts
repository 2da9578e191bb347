import { safeEqual } from '../kernel/crypto.js';
import type { FailureRule, FailureRules } from '../ratelimit/failure-rules.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';

/** What the operator API does with a request: serve it, answer as an unknown route, or say when to retry. */
export type OperatorTokenDecision =
  | { readonly kind: 'operator' }
  | { readonly kind: 'refused' }
  | { readonly kind: 'locked'; readonly retryAfterMs: number };

export interface OperatorTokenDeps {
  /** SVC_ADMIN_TOKEN; undefined: no request is the operator's. */
  readonly adminToken: string | undefined;
  readonly throttle: Pick<FailureThrottle, 'begin' | 'peek'>;
  /** Wrong tokens per client address (config.failureLimits.operatorTokenIp). */
  readonly rule: FailureRule;
}

const OPERATOR = { kind: 'operator' } as const;
const REFUSED = { kind: 'refused' } as const;

/**
 * The operator bearer token (DECISIONS.md "Operator (admin) authorization"), compared in constant time.
 * A wrong token is a guess: guesses are counted per client address across requests and nodes, and a
 * locked address is refused before any compare, with the right token too, so that a lock stops the
 * guessing. A request without a token guesses nothing and costs no look-up.
 */
export class OperatorTokenCheck {
  readonly #deps: OperatorTokenDeps;

  constructor(deps: OperatorTokenDeps) {
    this.#deps = deps;
  }

  async decide(presented: string | undefined, ipAddress: string): Promise<OperatorTokenDecision> {
    const { adminToken, throttle, rule } = this.#deps;
    if (adminToken === undefined || presented === undefined) return REFUSED;
    const subjects = [{ rule, value: ipAddress }];
    const locked = await throttle.peek(subjects);
    if (locked !== undefined) return { kind: 'locked', retryAfterMs: locked.retryAfterMs };
    if (safeEqual(presented, adminToken)) return OPERATOR;
    // Counted only when wrong, so that the operator's own requests write nothing.
    await throttle.begin(subjects);
    return REFUSED;
  }
}

/** The check of a Svc's configuration: its token and its `failureLimits.operatorTokenIp`. */
export function operatorTokenCheck(
  config: { readonly adminToken: string | undefined; readonly failureLimits: FailureRules },
  throttle: Pick<FailureThrottle, 'begin' | 'peek'>,
): OperatorTokenCheck {
  return new OperatorTokenCheck({
    adminToken: config.adminToken,
    throttle,
    rule: config.failureLimits.operatorTokenIp,
  });
}
