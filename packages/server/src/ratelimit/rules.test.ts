import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/env.js';
import { resolveConfig } from '../config/resolve.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { SvcConfigError } from '../kernel/errors.js';
import { DEFAULT_RATE_LIMIT_RULES, resolveRateLimitRules, type RateLimitRulesOptions } from './rules.js';

describe('rate-limit rules', () => {
  it('defaults to the documented values, with the 30-second OTP resend delay of docs/reference/limits.md "Rate limits"', () => {
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

  it.each([
    [
      { otpSend: { identifier: { limit: 1_000_001 } } },
      /otpSend\.identifier\.limit must be a whole number from 1 to 1000000/,
    ],
    [
      { otpSend: { ip: { windowMs: 7 * DAY_MS + 1 } } },
      /otpSend\.ip\.windowMs .* to 604800000 \(seven days\)/,
    ],
    [
      { passwordReset: { identifier: { minIntervalMs: HOUR_MS + 1 } } },
      /minIntervalMs .* from 0 to the window \(3600000\)/,
    ],
    [{ otpSend: { identifier: { limit: '3' } } }, /limit must be a whole number .* got "3"/],
    [
      { otpSnd: { ip: null } },
      /rateLimits\.otpSnd is not a rate limit; the rules are otpSend, magicLinkSend/,
    ],
    [
      { otpSend: { email: { limit: 3 } } },
      /rateLimits\.otpSend\.email is not a subject .* "identifier" or "ip"/,
    ],
    [
      { otpSend: { identifier: { max: 3 } } },
      /otpSend\.identifier\.max is not a field .* limit, windowMs, minIntervalMs/,
    ],
    [{ otpSend: { identifier: 3 } }, /otpSend\.identifier must be an object/],
    [{ otpSend: 3 }, /rateLimits\.otpSend must be an object/],
    [[], /rateLimits must be an object/],
  ])('refuses %j at start with what to write instead', (options, message) => {
    const attempt = () => resolveRateLimitRules(options as unknown as RateLimitRulesOptions);
    expect(attempt).toThrow(SvcConfigError);
    expect(attempt).toThrow(message);
  });

  it('reads SVC_RATE_LIMITS as the JSON of the rateLimits option, which wins over it', () => {
    const env = {
      SVC_RATE_LIMITS:
        '{"otpSend":{"identifier":{"limit":3,"minIntervalMs":60000}},"deviceStart":{"identifier":null}}',
    };
    const rules = resolveConfig(optionsFromEnv(env), 'test').rateLimits;
    expect(rules.otpSend.identifier).toEqual({ limit: 3, windowMs: 15 * MINUTE_MS, minIntervalMs: 60_000 });
    expect(rules.deviceStart).toEqual({ name: 'device.start' });
    const given = { ...optionsFromEnv(env), rateLimits: { otpSend: { ip: { limit: 9 } } } };
    expect(resolveConfig(given, 'test').rateLimits.otpSend.identifier).toEqual(
      DEFAULT_RATE_LIMIT_RULES.otpSend.identifier,
    );
    expect(() => optionsFromEnv({ SVC_RATE_LIMITS: 'otpSend=3' })).toThrow(
      /SVC_RATE_LIMITS must be JSON such as/,
    );
    expect(() =>
      resolveConfig(optionsFromEnv({ SVC_RATE_LIMITS: '{"signup":{"ip":{"limit":0}}}' }), 'test'),
    ).toThrow(/rateLimits\.signup\.ip\.limit/);
  });

  it('reaches the resolved configuration through createSvc options', () => {
    const config = resolveConfig({ rateLimits: { passwordReset: { ip: { limit: 7 } } } }, 'test');
    expect(config.rateLimits.passwordReset.ip).toEqual({ limit: 7, windowMs: HOUR_MS });
    expect(resolveConfig({}, 'test').rateLimits).toEqual(DEFAULT_RATE_LIMIT_RULES);
  });
});
