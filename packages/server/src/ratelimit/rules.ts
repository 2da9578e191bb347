import { DAY_MS, HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { SvcConfigError } from '../kernel/errors.js';

/** One limit: at most `limit` calls per fixed window of `windowMs`, optionally `minIntervalMs` apart. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
  /** Minimum time between two allowed calls for the same subject (e.g. the OTP resend delay). */
  readonly minIntervalMs?: number;
}

/**
 * A named policy limits a kind of call per identifier (an email or phone number, normalized by the
 * caller) and per client IP address; when both subjects are given both must allow.
 */
export interface RateLimitPolicy {
  /** Key prefix in the counter table; stable, never configurable. */
  readonly name: string;
  readonly identifier?: RateLimit;
  readonly ip?: RateLimit;
}

/** Every rate-limited call of the service (docs/reference/limits.md "Rate limits"). */
export interface RateLimitRules {
  /** Email and SMS OTP sends, login and signup, first send and resends. */
  readonly otpSend: RateLimitPolicy;
  /** Magic-link emails. */
  readonly magicLinkSend: RateLimitPolicy;
  /** Password-reset emails (public /password/forgot and the trusted helper alike). */
  readonly passwordReset: RateLimitPolicy;
  /** Email-verification emails. */
  readonly emailVerification: RateLimitPolicy;
  /** Invitation sends and resends; the identifier is the invited normalized email. */
  readonly invitationSend: RateLimitPolicy;
  /** Device authorization starts; identifier = client id, so the limit is per client + IP. */
  readonly deviceStart: RateLimitPolicy;
  /** User codes typed at the hosted /device page, per IP (RFC 8628 §5.1: user codes must not be guessable). */
  readonly deviceVerify: RateLimitPolicy;
  /** Signups with a password (each hashes it and creates an account), per IP, on every surface. */
  readonly signup: RateLimitPolicy;
  /** Dynamic client registration, per IP. */
  readonly clientRegistration: RateLimitPolicy;
  /** Metadata fetched from a URL in the SSO setup portal; identifier = the portal session's id. */
  readonly ssoMetadataFetch: RateLimitPolicy;
  /** Client ID Metadata Documents fetched for a request (never for a fresh stored copy), per IP. */
  readonly clientMetadataFetch: RateLimitPolicy;
}

const SECOND_MS = 1000;

/**
 * Defaults; docs/reference/limits.md "Rate limits" sets the OTP resend delay (30 seconds), the rest is ours
 * (docs/reference/limits.md "Rate limits").
 */
export const DEFAULT_RATE_LIMIT_RULES: RateLimitRules = {
  otpSend: {
    name: 'otp.send',
    identifier: { limit: 5, windowMs: 15 * MINUTE_MS, minIntervalMs: 30 * SECOND_MS },
    ip: { limit: 30, windowMs: 15 * MINUTE_MS },
  },
  magicLinkSend: {
    name: 'magic-link.send',
    identifier: { limit: 5, windowMs: 15 * MINUTE_MS, minIntervalMs: 30 * SECOND_MS },
    ip: { limit: 30, windowMs: 15 * MINUTE_MS },
  },
  passwordReset: {
    name: 'password-reset.send',
    identifier: { limit: 5, windowMs: HOUR_MS, minIntervalMs: 60 * SECOND_MS },
    ip: { limit: 50, windowMs: HOUR_MS },
  },
  emailVerification: {
    name: 'email-verification.send',
    identifier: { limit: 5, windowMs: HOUR_MS, minIntervalMs: 60 * SECOND_MS },
    ip: { limit: 50, windowMs: HOUR_MS },
  },
  invitationSend: {
    name: 'invitation.send',
    identifier: { limit: 10, windowMs: HOUR_MS, minIntervalMs: 30 * SECOND_MS },
  },
  deviceStart: {
    name: 'device.start',
    identifier: { limit: 30, windowMs: 15 * MINUTE_MS },
  },
  deviceVerify: {
    name: 'device.verify',
    ip: { limit: 10, windowMs: 15 * MINUTE_MS },
  },
  signup: {
    name: 'signup.password',
    ip: { limit: 30, windowMs: HOUR_MS },
  },
  clientRegistration: {
    name: 'dcr.register',
    ip: { limit: 20, windowMs: HOUR_MS },
  },
  ssoMetadataFetch: {
    name: 'sso-metadata.fetch',
    identifier: { limit: 10, windowMs: MINUTE_MS },
  },
  clientMetadataFetch: {
    name: 'cimd.fetch',
    ip: { limit: 30, windowMs: 15 * MINUTE_MS },
  },
};

/** Per-limit overrides; `null` removes a limit (e.g. `{ otpSend: { ip: null } }`). */
export type RateLimitOverride = { readonly [K in keyof RateLimit]?: RateLimit[K] | undefined };

/** Overrides of `createSvc({ rateLimits })`; anything not given keeps its default. */
export type RateLimitRulesOptions = {
  readonly [K in keyof RateLimitRules]?:
    { readonly identifier?: RateLimitOverride | null; readonly ip?: RateLimitOverride | null } | undefined;
};

/** Upper bounds of an override (docs/reference/limits.md "Rate limits"); above them a limit holds nothing back. */
export const RATE_LIMIT_BOUNDS = { maxLimit: 1_000_000, maxWindowMs: 7 * DAY_MS } as const;

const SUBJECTS = ['identifier', 'ip'] as const;
const FIELDS: readonly string[] = ['limit', 'windowMs', 'minIntervalMs'];

/**
 * Merges overrides over the defaults and validates them at start (createSvc's `rateLimits`, or the JSON
 * of SVC_RATE_LIMITS); errors name the setting to fix, and an unknown rule, subject or field is one.
 */
export function resolveRateLimitRules(options: RateLimitRulesOptions = {}): RateLimitRules {
  checkShape(options);
  const entries = (Object.keys(DEFAULT_RATE_LIMIT_RULES) as (keyof RateLimitRules)[]).map((rule) => {
    const base = DEFAULT_RATE_LIMIT_RULES[rule];
    const override = options[rule];
    const policy: { -readonly [K in keyof RateLimitPolicy]: RateLimitPolicy[K] } = { name: base.name };
    for (const subject of SUBJECTS) {
      const merged = mergeLimit(base[subject], override?.[subject], `rateLimits.${rule}.${subject}`);
      if (merged !== undefined) policy[subject] = merged;
    }
    return [rule, policy] as const;
  });
  return Object.fromEntries(entries) as unknown as RateLimitRules;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Overrides given as JSON (or untyped JavaScript) must still be rules of subjects of fields. */
function checkShape(options: unknown): void {
  const rules = Object.keys(DEFAULT_RATE_LIMIT_RULES);
  if (!isObject(options)) {
    throw new SvcConfigError(
      'rateLimits must be an object such as { "otpSend": { "identifier": { "limit": 3 } } }.',
    );
  }
  for (const [rule, override] of Object.entries(options)) {
    if (!rules.includes(rule)) {
      throw new SvcConfigError(`rateLimits.${rule} is not a rate limit; the rules are ${rules.join(', ')}.`);
    }
    if (override === undefined) continue;
    if (!isObject(override)) {
      throw new SvcConfigError(`rateLimits.${rule} must be an object with "identifier" and/or "ip".`);
    }
    for (const [subject, limit] of Object.entries(override)) {
      const path = `rateLimits.${rule}.${subject}`;
      if (!(SUBJECTS as readonly string[]).includes(subject)) {
        throw new SvcConfigError(`${path} is not a subject of a rate limit; use "identifier" or "ip".`);
      }
      if (limit === undefined || limit === null) continue;
      if (!isObject(limit)) {
        throw new SvcConfigError(`${path} must be an object of limit, windowMs and minIntervalMs, or null.`);
      }
      const unknown = Object.keys(limit).find((field) => !FIELDS.includes(field));
      if (unknown !== undefined) {
        throw new SvcConfigError(
          `${path}.${unknown} is not a field of a rate limit; use ${FIELDS.join(', ')}.`,
        );
      }
    }
  }
}

function mergeLimit(
  base: RateLimit | undefined,
  override: RateLimitOverride | null | undefined,
  path: string,
): RateLimit | undefined {
  if (override === null) return undefined;
  if (override === undefined) return base;
  const limit = override.limit ?? base?.limit;
  const windowMs = override.windowMs ?? base?.windowMs;
  const minIntervalMs = override.minIntervalMs ?? base?.minIntervalMs;
  if (limit === undefined || windowMs === undefined) {
    throw new SvcConfigError(`${path} needs both limit and windowMs.`);
  }
  const { maxLimit, maxWindowMs } = RATE_LIMIT_BOUNDS;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new SvcConfigError(
      `${path}.limit must be a whole number from 1 to ${maxLimit}, got ${JSON.stringify(limit)}; null removes the limit.`,
    );
  }
  if (!Number.isInteger(windowMs) || windowMs < 1000 || windowMs > maxWindowMs) {
    throw new SvcConfigError(
      `${path}.windowMs must be a whole number of milliseconds from 1000 (one second) to ${maxWindowMs} (seven days), got ${JSON.stringify(windowMs)}.`,
    );
  }
  if (minIntervalMs === undefined) return { limit, windowMs };
  if (!Number.isInteger(minIntervalMs) || minIntervalMs < 0 || minIntervalMs > windowMs) {
    throw new SvcConfigError(
      `${path}.minIntervalMs must be a whole number of milliseconds from 0 to the window (${windowMs}), got ${JSON.stringify(minIntervalMs)}.`,
    );
  }
  return { limit, windowMs, minIntervalMs };
}
