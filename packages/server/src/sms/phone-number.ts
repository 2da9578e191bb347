import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { SvcValidationError } from '../kernel/errors.js';

/** A phone number that libphonenumber-js accepts as valid, in E.164 and in national notation. */
export interface NormalizedPhoneNumber {
  /** `+` and digits only, e.g. `+12015550123`: the one form that is stored, compared and sent to the provider. */
  readonly e164: string;
  /** National notation for display, e.g. `(201) 555-0123`. */
  readonly national: string;
  /** ISO 3166 region of the number, when the number belongs to one (non-geographic numbers have none). */
  readonly region: CountryCode | undefined;
}

export type PhoneNumberResult =
  | ({ readonly ok: true } & NormalizedPhoneNumber)
  | {
      readonly ok: false;
      /** `country_refused`: a valid number of a country texts are not sent to (PhoneCountries). */
      readonly reason: 'invalid' | 'country_refused';
      readonly message: string;
    };

/**
 * The countries texts may go to (toll-fraud protection): with `allowed`, only numbers of those regions
 * (a number of no region, such as +800, is refused); otherwise every region but the `denied` ones.
 */
export interface PhoneCountries {
  readonly allowed: readonly CountryCode[] | null;
  readonly denied: readonly CountryCode[];
}

/** Every country: texts go to any valid number. */
export const ANY_COUNTRY: PhoneCountries = { allowed: null, denied: [] };

/**
 * Longest input we try to parse. E.164 allows 15 digits; the margin covers spaces, dashes and brackets.
 * Anything longer is rejected before parsing so that huge inputs cost nothing.
 */
const MAX_INPUT_LENGTH = 32;

/**
 * Digits, spaces and the usual separators only: letters (vanity numbers such as 1-800-FLOWERS) and
 * extensions ("x123", "ext. 5") cannot receive an SMS code, so they are refused rather than guessed at.
 */
const ALLOWED_CHARACTERS = /^\+?[0-9 ().\-\u00a0]+$/;

/** Whether `region` is an ISO 3166 region that libphonenumber-js knows (used to validate SVC_SMS_DEFAULT_REGION). */
export function isKnownRegion(region: string): region is CountryCode {
  return /^[A-Z]{2}$/.test(region) && isSupportedCountry(region);
}

/**
 * Normalizes what a user typed to E.164. A number without a leading `+` is read in `defaultRegion`
 * (SVC_SMS_DEFAULT_REGION); an international number (`+44 …`) ignores it. A valid number of a country
 * `countries` refuses is refused too: decided by the number alone, before any account is looked up.
 * Invalid input is a value with a message that says what to fix, never a throw: the caller decides how
 * to answer.
 */
export function normalizePhoneNumber(
  input: string,
  defaultRegion: CountryCode,
  countries: PhoneCountries = ANY_COUNTRY,
): PhoneNumberResult {
  const text = input.trim();
  const invalid = (message: string) => ({ ok: false, reason: 'invalid', message }) as const;
  if (text === '') return invalid('Enter a phone number.');
  if (text.length > MAX_INPUT_LENGTH) return invalid('The phone number is too long.');
  if (!ALLOWED_CHARACTERS.test(text)) {
    return invalid('A phone number may contain only digits, spaces, dashes, dots, brackets and a leading +.');
  }
  const parsed = parsePhoneNumberFromString(text, defaultRegion);
  if (parsed === undefined || !parsed.isValid()) {
    return invalid(
      `The phone number is not valid; use international format (+<country code> <number>) or a number of region ${defaultRegion}.`,
    );
  }
  const region = parsed.country;
  const refused =
    countries.allowed === null
      ? region !== undefined && countries.denied.includes(region)
      : region === undefined || !countries.allowed.includes(region);
  if (refused) {
    const where = region === undefined ? 'numbers without a country' : `numbers of ${regionName(region)}`;
    return {
      ok: false,
      reason: 'country_refused',
      message: `Text messages are not sent to ${where} (+${parsed.countryCallingCode}); use a number of another country, or sign in another way.`,
    };
  }
  return { ok: true, e164: parsed.number, national: parsed.formatNational(), region };
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

function regionName(region: CountryCode): string {
  return REGION_NAMES.of(region) ?? region;
}

/**
 * {@link normalizePhoneNumber} for request handling: an invalid number, or one of a refused country, is a
 * 400 {@link SvcValidationError} naming `field`.
 */
export function requirePhoneNumber(
  input: string,
  defaultRegion: CountryCode,
  field = 'PhoneNumber',
  countries: PhoneCountries = ANY_COUNTRY,
): NormalizedPhoneNumber {
  const result = normalizePhoneNumber(input, defaultRegion, countries);
  if (!result.ok) {
    throw new SvcValidationError(`Invalid ${field}: ${result.message}`, [
      { path: field, message: result.message },
    ]);
  }
  return { e164: result.e164, national: result.national, region: result.region };
}

const MASK = '\u2022';

/**
 * Masks an E.164 number for display and for results: the country calling code and the last four digits
 * stay visible (the last two when the national number has fewer than eight digits, so that short numbers
 * are not almost fully revealed); hidden digits become bullets in groups of three.
 * `+12015550123` → `+1 ••• ••• 0123`; `+447911123456` → `+44 ••• ••• 3456`.
 * A value that does not parse keeps only its last two digits.
 */
export function maskPhoneNumber(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  const digits = e164.replace(/\D/g, '');
  if (parsed === undefined) {
    return `${groupBullets(Math.max(digits.length - 2, 3))} ${digits.slice(-2)}`;
  }
  const national = parsed.nationalNumber;
  const visible = national.length >= 8 ? 4 : 2;
  const hidden = Math.max(national.length - visible, 1);
  return `+${parsed.countryCallingCode} ${groupBullets(hidden)} ${national.slice(-visible)}`;
}

function groupBullets(count: number): string {
  // Groups of three counted from the right, like the digits they stand for: 4 → "• •••".
  const groups: string[] = [];
  for (let left = count; left > 0; left -= 3) groups.unshift(MASK.repeat(Math.min(3, left)));
  return groups.join(' ');
}
