import type { CountryCode } from 'libphonenumber-js';
import type { SmsOptions } from '../config/options.js';
import { SvcConfigError, SvcInvalidOperationError } from '../kernel/errors.js';
import { isKnownRegion, type PhoneCountries } from './phone-number.js';

/** The public Twilio Verify API; SVC_SMS_API_BASE_URL points elsewhere (a compatible server, a test fake). */
export const DEFAULT_SMS_API_BASE_URL = 'https://verify.twilio.com';

/** A complete SMS verification provider configuration (docs/reference/email-and-sms.md "SMS provider"). */
export interface SmsConfig {
  readonly accountId: string;
  /** Secret: sent only as HTTP Basic password, never logged or put in a message. */
  readonly authToken: string;
  readonly verifyServiceId: string;
  /** National numbers (no leading +) are read in this region. */
  readonly defaultRegion: CountryCode;
  /** Origin (and optional path prefix) of the API, without a trailing slash. */
  readonly apiBaseUrl: string;
  /** The countries codes are texted to (SVC_SMS_ALLOWED_COUNTRIES or SVC_SMS_DENIED_COUNTRIES). */
  readonly countries: PhoneCountries;
}

/** The four settings docs/reference/email-and-sms.md "SMS provider" calls the complete provider configuration. */
const REQUIRED = [
  ['accountId', 'SVC_SMS_ACCOUNT_ID'],
  ['authToken', 'SVC_SMS_AUTH_TOKEN'],
  ['verifyServiceId', 'SVC_SMS_VERIFY_SERVICE_ID'],
  ['defaultRegion', 'SVC_SMS_DEFAULT_REGION'],
] as const;

/**
 * Resolves the SMS provider settings at start-up. None of the four set: `null`, phone OTP is off.
 * Some but not all set: a {@link SvcConfigError} naming each missing variable — docs/reference/email-and-sms.md "SMS provider" says phone
 * OTP "requires complete provider configuration", and a half-configured provider is an operator mistake
 * better reported when the service starts than at the first sign-in. The API base URL alone does not turn
 * the provider on.
 */
export function resolveSmsConfig(options: SmsOptions | undefined): SmsConfig | null {
  const given = options ?? {};
  const allowed = countryList('SVC_SMS_ALLOWED_COUNTRIES', given.allowedCountries);
  const denied = countryList('SVC_SMS_DENIED_COUNTRIES', given.deniedCountries);
  if (allowed.length > 0 && denied.length > 0) {
    throw new SvcConfigError(
      'Set SVC_SMS_ALLOWED_COUNTRIES or SVC_SMS_DENIED_COUNTRIES, not both: an allow list already refuses every other country.',
    );
  }
  const value = (key: (typeof REQUIRED)[number][0]): string | undefined => {
    const raw = given[key]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const missing = REQUIRED.filter(([key]) => value(key) === undefined).map(([, env]) => env);
  if (missing.length === REQUIRED.length) return null;
  if (missing.length > 0) {
    throw new SvcConfigError(
      `The SMS verification provider is partly configured: set ${missing.join(', ')} as well, ` +
        'or unset all SVC_SMS_* variables to turn phone sign-in off.',
    );
  }
  const region = (value('defaultRegion') ?? '').toUpperCase();
  if (!isKnownRegion(region)) {
    throw new SvcConfigError(
      `SVC_SMS_DEFAULT_REGION must be a two-letter ISO 3166 region such as US or GB, got "${value('defaultRegion') ?? ''}".`,
    );
  }
  if (allowed.length > 0 && !allowed.includes(region)) {
    throw new SvcConfigError(
      `SVC_SMS_ALLOWED_COUNTRIES must include SVC_SMS_DEFAULT_REGION (${region}): numbers typed without a country code are read there.`,
    );
  }
  if (denied.includes(region)) {
    throw new SvcConfigError(
      `SVC_SMS_DENIED_COUNTRIES must not include SVC_SMS_DEFAULT_REGION (${region}): numbers typed without a country code are read there.`,
    );
  }
  return {
    accountId: value('accountId') ?? '',
    authToken: value('authToken') ?? '',
    verifyServiceId: value('verifyServiceId') ?? '',
    defaultRegion: region,
    apiBaseUrl: resolveApiBaseUrl(given.apiBaseUrl?.trim() || DEFAULT_SMS_API_BASE_URL),
    countries: { allowed: allowed.length > 0 ? allowed : null, denied },
  };
}

/** A list of ISO 3166 regions (any case), checked: an unknown code would silently never match. */
function countryList(name: string, values: readonly string[] | undefined): CountryCode[] {
  const codes = (values ?? []).map((value) => value.trim().toUpperCase()).filter((value) => value !== '');
  const unknown = codes.filter((code) => !isKnownRegion(code));
  if (unknown.length > 0) {
    throw new SvcConfigError(
      `${name} must list two-letter ISO 3166 regions such as US, GB or DE; not ${unknown.map((code) => `"${code}"`).join(', ')}.`,
    );
  }
  return [...new Set(codes)].filter(isKnownRegion);
}

/**
 * The auth token travels in every request, so the API must be HTTPS; plain HTTP is accepted only on a
 * loopback host (a local fake or a sidecar), where nothing crosses the network.
 */
function resolveApiBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SvcConfigError(
      `SVC_SMS_API_BASE_URL must be an absolute URL such as ${DEFAULT_SMS_API_BASE_URL}, got "${value}".`,
    );
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || /^127\./.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new SvcConfigError(
      `SVC_SMS_API_BASE_URL must use https (http only on a loopback host), got "${url.origin}".`,
    );
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new SvcConfigError(
      'SVC_SMS_API_BASE_URL must not hold user info, a query or a fragment; credentials go in SVC_SMS_ACCOUNT_ID and SVC_SMS_AUTH_TOKEN.',
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The configuration phone OTP needs before it normalizes a number or calls the provider; without one
 * the operation is an invalid-operation error (docs/reference/email-and-sms.md "SMS provider").
 */
export function requireSmsConfig(config: SmsConfig | null): SmsConfig {
  if (config === null) {
    throw new SvcInvalidOperationError(
      'Phone sign-in is not available: the SMS verification provider is not configured.',
    );
  }
  return config;
}
