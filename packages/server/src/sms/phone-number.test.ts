import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../kernel/errors.js';
import {
  isKnownRegion,
  maskPhoneNumber,
  normalizePhoneNumber,
  requirePhoneNumber,
  type PhoneCountries,
} from './phone-number.js';

describe('normalizePhoneNumber', () => {
  it.each([
    ['(201) 555-0123', 'US', '+12015550123', '(201) 555-0123'],
    ['201.555.0123', 'US', '+12015550123', '(201) 555-0123'],
    ['  +1 201 555 0123 ', 'GB', '+12015550123', '(201) 555-0123'],
    ['07911 123456', 'GB', '+447911123456', '07911 123456'],
    ['+44 7911 123456', 'US', '+447911123456', '07911 123456'],
    ['030 901820', 'DE', '+4930901820', '030 901820'],
  ] as const)('reads %s in region %s as %s', (input, region, e164, national) => {
    const result = normalizePhoneNumber(input, region);
    expect(result).toMatchObject({ ok: true, e164, national });
  });

  it('keeps the region of an international number', () => {
    const result = normalizePhoneNumber('+49 30 901820', 'US');
    expect(result.ok && result.region).toBe('DE');
  });

  it.each([
    ['', /Enter a phone number/],
    ['   ', /Enter a phone number/],
    ['12345', /not valid/],
    ['+999 123 456 789', /not valid/],
    ['(201) 555-01234567', /not valid/],
    ['+1 201 555 0123 0123 0123 0123 0123', /too long/],
    ['1-800-FLOWERS', /only digits/],
    ['201 555 0123 x12', /only digits/],
    ['call me', /only digits/],
  ])('refuses %j', (input, message) => {
    const result = normalizePhoneNumber(input, 'US');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('a number valid in one region is invalid read in another', () => {
    expect(normalizePhoneNumber('07911 123456', 'GB').ok).toBe(true);
    expect(normalizePhoneNumber('07911 123456', 'US').ok).toBe(false);
  });

  it('refuses a valid number of a country outside the allow list or inside the deny list', () => {
    const allowUsCa: PhoneCountries = { allowed: ['US', 'CA'], denied: [] };
    expect(normalizePhoneNumber('+1 416 555 0123', 'US', allowUsCa).ok).toBe(true);
    const uk = normalizePhoneNumber('+44 7400 123456', 'US', allowUsCa);
    expect(uk).toEqual({
      ok: false,
      reason: 'country_refused',
      message:
        'Text messages are not sent to numbers of United Kingdom (+44); use a number of another country, or sign in another way.',
    });
    // A number of no country (international freephone) is outside every allow list.
    expect(normalizePhoneNumber('+800 1234 5678', 'US', { allowed: ['US'], denied: [] })).toMatchObject({
      ok: false,
      reason: 'country_refused',
      message: expect.stringContaining('numbers without a country (+800)'),
    });
    const denyGb: PhoneCountries = { allowed: null, denied: ['GB'] };
    expect(normalizePhoneNumber('07400 123456', 'GB', denyGb)).toMatchObject({ reason: 'country_refused' });
    expect(normalizePhoneNumber('+49 30 901820', 'US', denyGb).ok).toBe(true);
    expect(normalizePhoneNumber('12345', 'US', denyGb)).toMatchObject({ reason: 'invalid' });
    expect(() => requirePhoneNumber('+44 7400 123456', 'US', 'phoneNumber', denyGb)).toThrow(
      /^Invalid phoneNumber: Text messages are not sent to numbers of United Kingdom/,
    );
  });

  it('requirePhoneNumber throws a validation error naming the field', () => {
    expect(requirePhoneNumber('2015550123', 'US').e164).toBe('+12015550123');
    let caught: unknown;
    try {
      requirePhoneNumber('nope', 'US', 'phoneNumber');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SvcValidationError);
    expect((caught as SvcValidationError).details[0]?.path).toBe('phoneNumber');
    expect((caught as SvcValidationError).message).toMatch(/^Invalid phoneNumber: /);
  });
});

describe('isKnownRegion', () => {
  it('accepts ISO 3166 regions libphonenumber knows and nothing else', () => {
    expect(isKnownRegion('US')).toBe(true);
    expect(isKnownRegion('GB')).toBe(true);
    expect(isKnownRegion('XX')).toBe(false);
    expect(isKnownRegion('us')).toBe(false);
    expect(isKnownRegion('USA')).toBe(false);
  });
});

describe('maskPhoneNumber', () => {
  it.each([
    ['+12015550123', '+1 ••• ••• 0123'],
    ['+447911123456', '+44 ••• ••• 3456'],
    ['+4930901820', '+49 • ••• 1820'],
    ['+3728123456', '+372 •• ••• 56'],
  ])('masks %s as %s', (e164, masked) => {
    expect(maskPhoneNumber(e164)).toBe(masked);
  });

  it('never shows more than the country code and the last four digits', () => {
    const masked = maskPhoneNumber('+12015550123');
    expect(masked).not.toContain('201');
    expect(masked).not.toContain('555');
  });

  it('keeps only the last two digits of something that does not parse', () => {
    expect(maskPhoneNumber('+0001234')).toBe('•• ••• 34');
  });
});
