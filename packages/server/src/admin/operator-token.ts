import type { AuditLog } from '../audit/audit-log.js';
import { MINUTE_MS } from '../kernel/clock.js';
import { safeEqual } from '../kernel/crypto.js';
import type { OperatorTokenDecision, OperatorTokenVerifier } from '../kernel/operator-session.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';

export interface OperatorTokenDeps {
  /** SVC_ADMIN_TOKEN (at least 128 bits, config/admin-token.ts); undefined: no request is the operator's. */
  readonly adminToken: string | undefined;
  /** The database counters that aggregate wrong tokens across nodes. */
  readonly counters: Pick<RateLimiter, 'tally'>;
  readonly audit: AuditLog;
}

const OPERATOR = { kind: 'operator' } as const;
const REFUSED = { kind: 'refused' } as const;

/** Wrong tokens are aggregated per window of this length. */
const WINDOW_MS = 15 * MINUTE_MS;
/** Single addresses are audited until the window has seen this many wrong tokens from all of them. */
const PER_ADDRESS_UNTIL = 100;
/** From then on, every address together at this count and every power of ten above it. */
const EVERY_ADDRESS_FROM = 1_000;

/** 1, 10, 100, … */
function isPowerOfTen(count: number): boolean {
  return /^10*$/.test(String(count));
}

/**
 * The operator bearer token (docs/reference/operator-api.md "Authentication"), compared in constant time.
 * Nothing locks it: the right token works from any address whatever came before, since a lock per
 * address locks out the operator behind the same proxy, and the token's strength makes guessing
 * pointless. Wrong tokens are audited in aggregate as `admin.authentication.failed`
 * (docs/decisions/operator-token-failures.md): an address at its 1st, 10th, 100th, … wrong token of a
 * 15-minute window while the window has seen at most 100 from every address, then every address
 * together at the 1,000th, 10,000th, … A request without a token guesses nothing and costs nothing.
 */
export class OperatorTokenCheck implements OperatorTokenVerifier {
  readonly #deps: OperatorTokenDeps;

  constructor(deps: OperatorTokenDeps) {
    this.#deps = deps;
  }

  async decide(presented: string | undefined, ipAddress: string): Promise<OperatorTokenDecision> {
    const { adminToken } = this.#deps;
    if (adminToken === undefined || presented === undefined) return REFUSED;
    if (safeEqual(presented, adminToken)) return OPERATOR;
    await this.#failed(ipAddress);
    return REFUSED;
  }

  async #failed(ipAddress: string): Promise<void> {
    const { counters, audit } = this.#deps;
    const overall = await counters.tally('operator.token-failures', 'every address', WINDOW_MS);
    const event = (failures: number, from: 'address' | 'every_address') =>
      audit.record({
        kind: 'admin.authentication.failed',
        ipAddress,
        data: {
          failures,
          from,
          windowStartedAt: new Date(overall.windowStart).toISOString(),
          windowMinutes: WINDOW_MS / MINUTE_MS,
        },
      });
    if (overall.count <= PER_ADDRESS_UNTIL) {
      const own = await counters.tally('operator.token-failures.ip', ipAddress, WINDOW_MS);
      if (isPowerOfTen(own.count)) await event(own.count, 'address');
    } else if (overall.count >= EVERY_ADDRESS_FROM && isPowerOfTen(overall.count)) {
      await event(overall.count, 'every_address');
    }
  }
}

/** The check of a Svc's configuration: its token, audited through the database counters. */
export function operatorTokenCheck(
  config: { readonly adminToken: string | undefined },
  counters: Pick<RateLimiter, 'tally'>,
  audit: AuditLog,
): OperatorTokenCheck {
  return new OperatorTokenCheck({ adminToken: config.adminToken, counters, audit });
}
