import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../config/env.js';
import { resolveConfig } from '../config/resolve.js';
import { SvcConfigError, SvcInvalidOperationError } from '../kernel/errors.js';
import { requireSmsConfig, resolveSmsConfig } from './sms-config.js';

const COMPLETE = {
  accountId: 'AC123',
  authToken: 'secret-token',
  verifyServiceId: 'VA456',
  defaultRegion: 'US',
};

describe('SMS provider configuration', () => {
  it('is off (null) when none of the four is set, even with a base URL', () => {
    expect(resolveSmsConfig(undefined)).toBeNull();
    expect(resolveSmsConfig({})).toBeNull();
    expect(resolveSmsConfig({ apiBaseUrl: 'https://sms.example.com', accountId: '  ' })).toBeNull();
  });

  it('resolves a complete configuration with the Twilio default base URL', () => {
    expect(resolveSmsConfig({ ...COMPLETE, defaultRegion: 'gb' })).toEqual({
      ...COMPLETE,
      defaultRegion: 'GB',
      apiBaseUrl: 'https://verify.twilio.com',
      countries: { allowed: null, denied: [] },
    });
  });

  it.each([
    ['accountId', 'SVC_SMS_ACCOUNT_ID'],
    ['authToken', 'SVC_SMS_AUTH_TOKEN'],
    ['verifyServiceId', 'SVC_SMS_VERIFY_SERVICE_ID'],
    ['defaultRegion', 'SVC_SMS_DEFAULT_REGION'],
  ])('names the missing %s as %s', (key, variable) => {
    const options = { ...COMPLETE, [key]: undefined };
    expect(() => resolveSmsConfig(options)).toThrow(SvcConfigError);
    expect(() => resolveSmsConfig(options)).toThrow(new RegExp(`set ${variable} as well`));
  });

  it('names every missing variable at once', () => {
    expect(() => resolveSmsConfig({ accountId: 'AC1' })).toThrow(
      /SVC_SMS_AUTH_TOKEN, SVC_SMS_VERIFY_SERVICE_ID, SVC_SMS_DEFAULT_REGION/,
    );
  });

  it('refuses an unknown region', () => {
    expect(() => resolveSmsConfig({ ...COMPLETE, defaultRegion: 'XX' })).toThrow(
      /SVC_SMS_DEFAULT_REGION must be a two-letter ISO 3166 region/,
    );
  });

  it.each([
    ['not a url', /absolute URL/],
    ['http://sms.example.com', /must use https/],
    ['https://user:pw@sms.example.com', /must not hold user info/],
  ])('refuses the API base URL %s', (apiBaseUrl, message) => {
    expect(() => resolveSmsConfig({ ...COMPLETE, apiBaseUrl })).toThrow(message);
  });

  it('accepts plain HTTP on loopback and drops a trailing slash', () => {
    expect(resolveSmsConfig({ ...COMPLETE, apiBaseUrl: 'http://127.0.0.1:4010/' })?.apiBaseUrl).toBe(
      'http://127.0.0.1:4010',
    );
    expect(resolveSmsConfig({ ...COMPLETE, apiBaseUrl: 'https://sms.example.com/twilio/' })?.apiBaseUrl).toBe(
      'https://sms.example.com/twilio',
    );
  });

  it.each([
    [
      { allowedCountries: ['US', 'XX'] },
      /SVC_SMS_ALLOWED_COUNTRIES must list two-letter ISO 3166 regions.*"XX"/,
    ],
    [{ deniedCountries: ['Cuba'] }, /SVC_SMS_DENIED_COUNTRIES must list .*"CUBA"/],
    [{ allowedCountries: ['US'], deniedCountries: ['CU'] }, /not both/],
    [{ allowedCountries: ['CA'] }, /must include SVC_SMS_DEFAULT_REGION \(US\)/],
    [{ deniedCountries: ['us'] }, /must not include SVC_SMS_DEFAULT_REGION \(US\)/],
  ])('refuses the country lists %j at start', (countries, message) => {
    expect(() => resolveSmsConfig({ ...COMPLETE, ...countries })).toThrow(SvcConfigError);
    expect(() => resolveSmsConfig({ ...COMPLETE, ...countries })).toThrow(message);
  });

  it('requireSmsConfig is an invalid-operation error when the provider is off', () => {
    expect(() => requireSmsConfig(null)).toThrow(SvcInvalidOperationError);
    expect(() => requireSmsConfig(null)).toThrow(/not configured/);
  });

  it('reads SVC_SMS_* from the environment into the service configuration', () => {
    const env = {
      SVC_SMS_ACCOUNT_ID: 'AC9',
      SVC_SMS_AUTH_TOKEN: 'tok',
      SVC_SMS_VERIFY_SERVICE_ID: 'VA9',
      SVC_SMS_DEFAULT_REGION: 'DE',
      SVC_SMS_API_BASE_URL: 'http://localhost:9999',
    };
    expect(resolveConfig(optionsFromEnv(env)).sms).toEqual({
      accountId: 'AC9',
      authToken: 'tok',
      verifyServiceId: 'VA9',
      defaultRegion: 'DE',
      apiBaseUrl: 'http://localhost:9999',
      countries: { allowed: null, denied: [] },
    });
    const allowing = { ...env, SVC_SMS_ALLOWED_COUNTRIES: 'de, at ch' };
    expect(resolveConfig(optionsFromEnv(allowing)).sms?.countries).toEqual({
      allowed: ['DE', 'AT', 'CH'],
      denied: [],
    });
    const denying = { ...env, SVC_SMS_DENIED_COUNTRIES: 'CU,KP' };
    expect(resolveConfig(optionsFromEnv(denying)).sms?.countries).toEqual({
      allowed: null,
      denied: ['CU', 'KP'],
    });
    expect(resolveConfig(optionsFromEnv({})).sms).toBeNull();
    expect(() => resolveConfig(optionsFromEnv({ SVC_SMS_AUTH_TOKEN: 'tok' }))).toThrow(
      /SVC_SMS_ACCOUNT_ID, SVC_SMS_VERIFY_SERVICE_ID, SVC_SMS_DEFAULT_REGION/,
    );
  });
});
