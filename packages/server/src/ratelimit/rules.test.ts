import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/resolve.js';
import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { SvcConfigError } from '../kernel/errors.js';
import { DEFAULT_RATE_LIMIT_RULES, resolveRateLimitRules } from './rules.js';

describe('rate-limit rules', () => {
  it('defaults to the documented values, with the 30-second OTP resend delay of DECISIONS.md', () => {
    const rules = resolveRateLimitRules();
    expect(rules).toEqual(DEFAULT_RATE_LIMIT_RULES);
    expect(rules.otpSend.identifier).toEqual({ limit: 5, windowMs: 15 * MINUTE_MS, minIntervalMs: 30_000 });
    expect(rules.otpSend.ip).toEqual({ limit: 30, windowMs: 15 * MINUTE_MS });
    expect(rules.passwordReset.identifier).toEqual({ limit: 5, windowMs: HOUR_MS, minIntervalMs: 60_000 });
    expect(rules.clientRegistration).toEqual({ name: 'dcr.register', ip: { limit: 20, windowMs: HOUR_MS } });
    expect(rules.ssoMetadataFetch).toEqual({
      name: 'sso-metadata.fetch',
      identifier: { limit: 10, windowMs: MINUTE_MS },
    });
    expect(rules.deviceVerify).toEqual({
      name: 'device.verify',
      ip: { limit: 10, windowMs: 15 * MINUTE_MS },
    });
  });

  it('merges overrides field by field, removes a limit with null and keeps names fixed', () => {
    const rules = resolveRateLimitRules({
      otpSend: { identifier: { limit: 3 }, ip: null },
      clientRegistration: { identifier: { limit: 2, windowMs: MINUTE_MS } },
    });
    expect(rules.otpSend).toEqual({
      name: 'otp.send',
      identifier: { limit: 3, windowMs: 15 * MINUTE_MS, minIntervalMs: 30_000 },
    });
    expect(rules.clientRegistration.identifier).toEqual({ limit: 2, windowMs: MINUTE_MS });
    expect(rules.passwordReset).toEqual(DEFAULT_RATE_LIMIT_RULES.passwordReset);
  });

  it('rejects limits that cannot work, naming the setting', () => {
    expect(() => resolveRateLimitRules({ otpSend: { identifier: { limit: 0 } } })).toThrow(
      /rateLimits\.otpSend\.identifier\.limit/,
    );
    expect(() => resolveRateLimitRules({ otpSend: { ip: { windowMs: 10 } } })).toThrow(SvcConfigError);
    expect(() => resolveRateLimitRules({ deviceStart: { identifier: { minIntervalMs: -1 } } })).toThrow(
      /minIntervalMs/,
    );
    // A new limit on a subject without a default needs both limit and window.
    expect(() => resolveRateLimitRules({ clientRegistration: { identifier: { limit: 2 } } })).toThrow(
      /needs both limit and windowMs/,
    );
  });

  it('reaches the resolved configuration through createSvc options', () => {
    const config = resolveConfig({ rateLimits: { passwordReset: { ip: { limit: 7 } } } }, 'test');
    expect(config.rateLimits.passwordReset.ip).toEqual({ limit: 7, windowMs: HOUR_MS });
    expect(resolveConfig({}, 'test').rateLimits).toEqual(DEFAULT_RATE_LIMIT_RULES);
  });
});
