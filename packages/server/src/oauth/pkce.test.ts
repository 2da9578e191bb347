import { describe, expect, it } from 'vitest';
import { isValidCodeChallenge, isValidCodeVerifier, PKCE_METHOD, s256Challenge, verifyPkce } from './pkce.js';

// RFC 7636 Appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE (S256 only)', () => {
  it('supports S256 and nothing else', () => {
    expect(PKCE_METHOD).toBe('S256');
  });

  it('computes the RFC 7636 Appendix B challenge', () => {
    expect(s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  it('verifies the RFC 7636 Appendix B pair', () => {
    expect(verifyPkce(RFC_VERIFIER, RFC_CHALLENGE)).toBe(true);
  });

  it.each([
    ['another verifier', `${RFC_VERIFIER.slice(0, -1)}l`, RFC_CHALLENGE],
    ['another challenge', RFC_VERIFIER, `${RFC_CHALLENGE.slice(0, -1)}d`],
    // plain is not supported: the verifier itself is never a valid challenge.
    ['the plain method', RFC_VERIFIER, RFC_VERIFIER],
    ['a malformed verifier whose hash would match', 'short', s256Challenge('short')],
    ['a non-string verifier', undefined, RFC_CHALLENGE],
  ])('refuses %s', (_name, verifier, challenge) => {
    expect(verifyPkce(verifier, challenge)).toBe(false);
  });
});

describe('isValidCodeVerifier', () => {
  it.each<[string, unknown, boolean]>([
    ['43 characters (minimum)', 'a'.repeat(43), true],
    ['128 characters (maximum)', 'a'.repeat(128), true],
    ['every unreserved character', `AZaz09-._~${'x'.repeat(33)}`, true],
    ['the RFC 7636 verifier', RFC_VERIFIER, true],
    ['42 characters', 'a'.repeat(42), false],
    ['129 characters', 'a'.repeat(129), false],
    ['a plus sign', `${'a'.repeat(42)}+`, false],
    ['a slash', `${'a'.repeat(42)}/`, false],
    ['padding', `${'a'.repeat(42)}=`, false],
    ['a space', `${'a'.repeat(42)} `, false],
    ['a percent escape', `${'a'.repeat(40)}%41`, false],
    ['non-ASCII', `${'a'.repeat(42)}é`, false],
    ['a trailing newline', `${'a'.repeat(43)}\n`, false],
    ['not a string', 43, false],
  ])('%s → %s', (_name, verifier, expected) => {
    expect(isValidCodeVerifier(verifier)).toBe(expected);
  });
});

describe('isValidCodeChallenge', () => {
  it.each<[string, unknown, boolean]>([
    ['the RFC 7636 challenge', RFC_CHALLENGE, true],
    ['43 base64url characters', `${'A'.repeat(41)}-_`, true],
    ['42 characters', RFC_CHALLENGE.slice(1), false],
    ['44 characters', `${RFC_CHALLENGE}A`, false],
    ['padded', `${RFC_CHALLENGE.slice(1)}=`, false],
    ['standard base64 characters', `${RFC_CHALLENGE.slice(2)}+/`, false],
    ['a trailing newline', `${RFC_CHALLENGE}\n`, false],
    ['not a string', null, false],
  ])('%s → %s', (_name, challenge, expected) => {
    expect(isValidCodeChallenge(challenge)).toBe(expected);
  });
});
