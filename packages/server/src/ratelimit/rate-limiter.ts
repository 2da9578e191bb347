import type { Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import {
  INTERVAL_GATE_WINDOW_START,
  type RateLimitCheck,
  type RateLimitCounter,
  type RateLimitStore,
} from './repository.js';
import type { RateLimit, RateLimitPolicy } from './rules.js';

/** Who a call is counted against. The identifier is normalized by the caller (lower-cased email, E.164). */
export interface RateLimitSubjects {
  readonly identifier?: string | undefined;
  readonly ip?: string | undefined;
}

/** The outcome of `consume` or `peek`; a refusal is a value, not a throw. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /**
   * Earliest time (epoch ms) at which the next call would be allowed, considering every window and the
   * minimum interval of every subject; `now` when nothing holds it back. After an allowed OTP send this
   * is the NextAllowedSendAt of the result.
   */
  readonly nextAllowedAt: number;
  /** `nextAllowedAt - now`, never negative; on a refusal the Retry-After value. */
  readonly retryAfterMs: number;
  /** Which subject refused (the first one holding the call back); only on a refusal. */
  readonly refusedBy?: 'identifier' | 'ip';
}

/**
 * Database-enforced rate limits (docs/reference/limits.md "Rate limits": rate
 * limits live in the database so that they hold across nodes). Fixed windows plus an optional minimum
 * interval per subject; identifiers and IP addresses are stored only as SHA-256 hashes inside the keys.
 */
export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #clock: Clock;

  constructor(deps: { store: RateLimitStore; clock: Clock }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
  }

  /**
   * Counts one call if every applicable limit allows it. A refused call is not counted (all-or-nothing
   * across identifier and IP), so waiting until `nextAllowedAt` always suffices.
   */
  async consume(policy: RateLimitPolicy, subjects: RateLimitSubjects): Promise<RateLimitDecision> {
    const now = this.#clock.now();
    const plans = planChecks(policy, subjects, now);
    if (plans.length === 0) return { allowed: true, nextAllowedAt: now, retryAfterMs: 0 };
    const allowed = await this.#store.tryConsume(
      plans.flatMap((p) => p.checks),
      now,
    );
    const state = await this.#evaluate(plans, now);
    if (allowed)
      return { allowed, nextAllowedAt: state.nextAllowedAt, retryAfterMs: state.nextAllowedAt - now };
    // Between the refusal and the read another node may not have changed anything that unblocks us, but
    // the window may just have rolled over; a refusal always reports a moment in the future.
    const nextAllowedAt = Math.max(state.nextAllowedAt, now + 1);
    return {
      allowed,
      nextAllowedAt,
      retryAfterMs: nextAllowedAt - now,
      refusedBy: state.blockedBy ?? plans[0]?.subject ?? 'identifier',
    };
  }

  /** What `consume` would decide now, without counting (NextAllowedSendAt before a send). */
  async peek(policy: RateLimitPolicy, subjects: RateLimitSubjects): Promise<RateLimitDecision> {
    const now = this.#clock.now();
    const plans = planChecks(policy, subjects, now);
    const state = await this.#evaluate(plans, now);
    const allowed = state.blockedBy === undefined;
    const nextAllowedAt = state.nextAllowedAt;
    return {
      allowed,
      nextAllowedAt,
      retryAfterMs: nextAllowedAt - now,
      ...(allowed ? {} : { refusedBy: state.blockedBy }),
    };
  }

  /**
   * Counts one occurrence of `subject` (hashed into the key) under `name` in the current fixed window
   * of `windowMs`, and returns how many the window holds now, across nodes. Nothing is refused: this
   * aggregates what is audited rather than limiting it.
   */
  async tally(
    name: string,
    subject: string,
    windowMs: number,
  ): Promise<{ readonly count: number; readonly windowStart: number }> {
    const now = this.#clock.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const key = `${name}:${sha256Hex(subject)}`;
    const count = await this.#store.increment({ key, windowStart, expiresAt: windowStart + windowMs }, now);
    return { count, windowStart };
  }

  /** Hourly housekeeping: drops counters whose window or interval has passed. */
  deleteExpired(): Promise<number> {
    return this.#store.deleteExpired(this.#clock.now());
  }

  /** Earliest time at which one more call passes every check, and the first subject holding it back. */
  async #evaluate(
    plans: readonly SubjectPlan[],
    now: number,
  ): Promise<{ nextAllowedAt: number; blockedBy?: 'identifier' | 'ip' }> {
    const rows = await this.#store.read(
      plans.flatMap((p) => p.checks).map((c) => ({ key: c.key, windowStart: windowStartOf(c) })),
    );
    const byKey = new Map(rows.map((r) => [`${r.key}\u0000${r.windowStart}`, r]));
    let nextAllowedAt = now;
    let blockedBy: 'identifier' | 'ip' | undefined;
    for (const plan of plans) {
      for (const check of plan.checks) {
        const row = byKey.get(`${check.key}\u0000${windowStartOf(check)}`);
        const at = nextAllowedFor(check, row, now);
        if (at > now && blockedBy === undefined) blockedBy = plan.subject;
        nextAllowedAt = Math.max(nextAllowedAt, at);
      }
    }
    return blockedBy === undefined ? { nextAllowedAt } : { nextAllowedAt, blockedBy };
  }
}

interface SubjectPlan {
  readonly subject: 'identifier' | 'ip';
  readonly checks: readonly RateLimitCheck[];
}

function planChecks(policy: RateLimitPolicy, subjects: RateLimitSubjects, now: number): SubjectPlan[] {
  const plans: SubjectPlan[] = [];
  for (const subject of ['identifier', 'ip'] as const) {
    const value = subjects[subject];
    const limit = policy[subject];
    if (value === undefined || limit === undefined) continue;
    // Hash so that the table never holds an email, a phone number or an IP address.
    const key = `${policy.name}:${subject === 'identifier' ? 'id' : 'ip'}:${sha256Hex(value)}`;
    plans.push({ subject, checks: checksFor(key, limit, now) });
  }
  return plans;
}

function checksFor(key: string, limit: RateLimit, now: number): RateLimitCheck[] {
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const checks: RateLimitCheck[] = [
    { kind: 'window', key, windowStart, limit: limit.limit, expiresAt: windowStart + limit.windowMs },
  ];
  if (limit.minIntervalMs !== undefined && limit.minIntervalMs > 0) {
    checks.push({ kind: 'interval', key: `${key}:interval`, minIntervalMs: limit.minIntervalMs });
  }
  return checks;
}

function windowStartOf(check: RateLimitCheck): number {
  return check.kind === 'window' ? check.windowStart : INTERVAL_GATE_WINDOW_START;
}

function nextAllowedFor(check: RateLimitCheck, row: RateLimitCounter | undefined, now: number): number {
  if (row === undefined) return now;
  if (check.kind === 'window') return row.count >= check.limit ? check.expiresAt : now;
  return Math.max(now, row.lastAt + check.minIntervalMs);
}
