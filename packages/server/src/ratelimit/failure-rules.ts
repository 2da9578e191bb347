import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { SvcConfigError } from '../kernel/errors.js';

/**
 * A limit on failed checks of a secret (ASVS V2.2, NIST 800-63B §5.2.2). Failures are counted in a window
 * that opens with the first failure; the `threshold`-th failure in it locks the subject. The lock lasts
 * `lockMs`, doubling with every further failure up to `maxLockMs` (an exponential back-off), or, without
 * `lockMs`, until the window ends (at most `threshold` failures per window).
 */
export interface FailureRule {
  /** Key prefix in the counter table; stable, never configurable. */
  readonly name: string;
  readonly threshold: number;
  readonly windowMs: number;
  readonly lockMs?: number;
  readonly maxLockMs?: number;
}

/** Every limit on guessing a secret (docs/reference/limits.md "Secret checks"). */
export interface FailureRules {
  /** Password failures of one account from one IP address; a success resets it. */
  readonly passwordAccountIp: FailureRule;
  /** Password failures of one account from every address. */
  readonly passwordAccount: FailureRule;
  /** Password failures from one IP address, whatever the account. */
  readonly passwordIp: FailureRule;
  /** Failed TOTP and recovery-code checks of one user, across MFA challenges. */
  readonly mfaUser: FailureRule;
  /** Failed email or SMS one-time-code checks of one normalized address, across challenges. */
  readonly otpAddress: FailureRule;
  /** Rejected SCIM bearer tokens from one IP address (docs/reference/scim.md "Authentication"). */
  readonly scimTokenIp: FailureRule;
  /** Wrong secrets of one client from one IP address (docs/decisions/client-secret-failures.md). */
  readonly clientSecretIp: FailureRule;
  /**
   * Refused links, codes and states Svc handed out (magic links, reset and verification links,
   * invitations, setup links, request codes, …) from one IP address, every kind together
   * (docs/decisions/handed-out-token-failures.md).
   */
  readonly tokenIp: FailureRule;
}

export const DEFAULT_FAILURE_RULES: FailureRules = {
  passwordAccountIp: {
    name: 'password.account-ip',
    threshold: 5,
    windowMs: HOUR_MS,
    lockMs: MINUTE_MS,
    maxLockMs: 15 * MINUTE_MS,
  },
  passwordAccount: { name: 'password.account', threshold: 50, windowMs: HOUR_MS },
  passwordIp: { name: 'password.ip', threshold: 100, windowMs: 15 * MINUTE_MS },
  mfaUser: { name: 'mfa.user', threshold: 5, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS },
  otpAddress: { name: 'otp.address', threshold: 10, windowMs: HOUR_MS },
  scimTokenIp: { name: 'scim.token-ip', threshold: 20, windowMs: 15 * MINUTE_MS, lockMs: 15 * MINUTE_MS },
  clientSecretIp: {
    name: 'client.secret-ip',
    threshold: 20,
    windowMs: 15 * MINUTE_MS,
    lockMs: 15 * MINUTE_MS,
  },
  tokenIp: { name: 'token.ip', threshold: 30, windowMs: 15 * MINUTE_MS },
};

/** Overrides of `createSvc({ failureLimits })`; anything not given keeps its default. */
export type FailureRulesOptions = {
  readonly [K in keyof FailureRules]?: Partial<Omit<FailureRule, 'name'>> | undefined;
};

/** Merges overrides over the defaults and validates them; errors name the setting to fix. */
export function resolveFailureRules(options: FailureRulesOptions = {}): FailureRules {
  const entries = (Object.keys(DEFAULT_FAILURE_RULES) as (keyof FailureRules)[]).map((key) => {
    const rule: FailureRule = { ...DEFAULT_FAILURE_RULES[key], ...options[key] };
    validate(rule, `failureLimits.${key}`);
    return [key, rule] as const;
  });
  return Object.fromEntries(entries) as unknown as FailureRules;
}

function validate(rule: FailureRule, path: string): void {
  if (!Number.isInteger(rule.threshold) || rule.threshold < 1) {
    throw new SvcConfigError(`${path}.threshold must be a positive integer.`);
  }
  for (const field of ['windowMs', 'lockMs', 'maxLockMs'] as const) {
    const value = rule[field];
    if (value !== undefined && (!Number.isInteger(value) || value < 1000)) {
      throw new SvcConfigError(`${path}.${field} must be an integer of at least 1000 (one second).`);
    }
  }
  if (rule.maxLockMs !== undefined && (rule.lockMs === undefined || rule.maxLockMs < rule.lockMs)) {
    throw new SvcConfigError(`${path}.maxLockMs needs lockMs and must not be shorter than it.`);
  }
}

/**
 * The lock each failure count sets, as a short ladder the store can evaluate in SQL: `steps[k]` is the
 * lock after the (threshold + k)-th failure, and the last step holds for every later failure. `null` as
 * the only step means "until the window ends".
 */
export function lockSteps(rule: FailureRule): readonly (number | null)[] {
  if (rule.lockMs === undefined) return [null];
  const max = rule.maxLockMs ?? rule.lockMs;
  const steps: number[] = [];
  for (let lock = rule.lockMs; lock < max; lock *= 2) steps.push(lock);
  steps.push(max);
  return steps;
}
