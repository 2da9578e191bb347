import { describe, expect, it } from 'vitest';
import { identityFromClaims, isAsserted, namesFromApplePayload } from './identity-claims.js';
import { FIXED_CLAIM_MAPPINGS, STANDARD_CLAIM_MAPPING } from './provider-defaults.js';
import { OidcRelyingPartyError } from './rp-errors.js';

describe('identityFromClaims', () => {
  it('takes each claim from the ID token first, then UserInfo', () => {
    const identity = identityFromClaims(STANDARD_CLAIM_MAPPING, [
      { sub: 'u1', name: 'From ID token' },
      {
        sub: 'u1',
        name: 'From UserInfo',
        given_name: 'Ada',
        family_name: 'Lovelace',
        preferred_username: 'ada',
      },
    ]);
    expect(identity).toMatchObject({
      subject: 'u1',
      displayName: 'From ID token',
      firstName: 'Ada',
      lastName: 'Lovelace',
      preferredUsername: 'ada',
    });
    expect(identity.rawClaims).toMatchObject({ name: 'From ID token', given_name: 'Ada' });
  });

  it('reads email_verified only from the document that gave the email', () => {
    // The ID token verifies nothing about the address that only UserInfo gives.
    const identity = identityFromClaims(STANDARD_CLAIM_MAPPING, [
      { sub: 'u1', email_verified: true },
      { sub: 'u1', email: 'other@example.com' },
    ]);
    expect(identity).toMatchObject({ email: 'other@example.com', emailVerified: false });
  });

  it('drops an email that is not an address, and with it its verification', () => {
    const identity = identityFromClaims(STANDARD_CLAIM_MAPPING, [
      { sub: 'u1', email: 'not an address', email_verified: true },
    ]);
    expect(identity).toMatchObject({ email: null, emailVerified: false });
  });

  it('composes the display name from the names when there is none', () => {
    const identity = identityFromClaims(STANDARD_CLAIM_MAPPING, [{ sub: 'u1', given_name: 'Ada' }], {
      firstName: null,
      lastName: 'Lovelace',
    });
    expect(identity).toMatchObject({ displayName: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('reads GitHub’s numeric id as the subject', () => {
    const mapping = FIXED_CLAIM_MAPPINGS.GitHub ?? STANDARD_CLAIM_MAPPING;
    const identity = identityFromClaims(mapping, [
      { id: 42, login: 'octo', email: 'o@example.com', verified: true },
    ]);
    expect(identity).toMatchObject({ subject: '42', preferredUsername: 'octo', emailVerified: true });
  });

  it('refuses an answer without a subject', () => {
    expect(() => identityFromClaims(STANDARD_CLAIM_MAPPING, [{ email: 'a@example.com' }])).toThrow(
      OidcRelyingPartyError,
    );
    expect(() => identityFromClaims(STANDARD_CLAIM_MAPPING, [{ sub: '  ' }])).toThrow(OidcRelyingPartyError);
  });

  it('cleans free text: control characters, length', () => {
    const identity = identityFromClaims(STANDARD_CLAIM_MAPPING, [
      { sub: 'u1', name: `A\u0000B${'x'.repeat(300)}` },
    ]);
    expect(identity.displayName).toHaveLength(200);
    expect(identity.displayName?.startsWith('A B')).toBe(true);
  });
});

describe('isAsserted', () => {
  it.each([
    [true, true],
    ['true', true],
    ['TRUE', true],
    [false, false],
    ['false', false],
    ['yes', false],
    [1, false],
    [undefined, false],
  ])('%j is %s', (value, expected) => {
    expect(isAsserted(value)).toBe(expected);
  });
});

describe('namesFromApplePayload', () => {
  it('takes the names and nothing else', () => {
    expect(
      namesFromApplePayload(
        JSON.stringify({ name: { firstName: ' Jane ', lastName: 'Doe' }, email: 'x@example.com' }),
      ),
    ).toEqual({ firstName: 'Jane', lastName: 'Doe' });
  });

  it.each([
    null,
    '',
    'not json',
    '[]',
    '{"name":"Jane"}',
    '{"name":{"firstName":1}}',
    '{"email":"x@example.com"}',
  ])('gives nothing for %j', (payload) => {
    expect(namesFromApplePayload(payload)).toBeNull();
  });
});
