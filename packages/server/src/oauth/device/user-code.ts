/**
 * User codes of the device flow (RFC 8628 §6.1): 8 characters from the 20 consonants
 * BCDFGHJKLMNPQRSTVWXZ (about 34.5 bits), shown as `XXXX-XXXX`. Consonants only, so that no vowel
 * spells a word and no letter looks like a digit; the user types it on another device, so input is
 * case-insensitive and punctuation and spaces are ignored ("BCDF-GHJK", "bcdf ghjk", "bcdfghjk").
 * Storage keeps only the SHA-256 of the normalized form.
 */

/** RFC 8628 §6.1's base-20 character set. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** Characters in a user code (without the dash). */
export const USER_CODE_LENGTH = 8;

/** The longest input looked at: a typed code with generous spacing, never a pasted essay. */
const MAX_INPUT_LENGTH = 64;

/** The largest multiple of the alphabet size below 256: bytes at or above it are drawn again. */
const UNBIASED_LIMIT = 256 - (256 % USER_CODE_ALPHABET.length);

const NORMALIZED = new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`);

/**
 * A fresh user code in normalized form (8 letters, no dash). `randomBytes` supplies uniform random
 * bytes (injected, so tests stay deterministic); rejection sampling keeps every letter equally likely.
 */
export function generateUserCode(randomBytes: () => Uint8Array): string {
  let code = '';
  while (code.length < USER_CODE_LENGTH) {
    for (const byte of randomBytes()) {
      if (byte >= UNBIASED_LIMIT) continue;
      code += USER_CODE_ALPHABET[byte % USER_CODE_ALPHABET.length];
      if (code.length === USER_CODE_LENGTH) break;
    }
  }
  return code;
}

/** The display form of a normalized code: `XXXX-XXXX`. */
export function formatUserCode(normalized: string): string {
  const half = USER_CODE_LENGTH / 2;
  return `${normalized.slice(0, half)}-${normalized.slice(half)}`;
}

/**
 * The normalized form of what a user typed, or null when it cannot be a user code. Whitespace and
 * punctuation are dropped (RFC 8628 §6.1: the server "should ignore any characters like punctuation
 * that are not in the user-code character set"), letters are upper-cased; what remains must be 8
 * letters of the alphabet. Only ASCII letters are upper-cased, so that no other script's letter (the
 * long s, which upper-cases to S) passes as one of ours.
 */
export function normalizeUserCode(input: string): string | null {
  if (input.length > MAX_INPUT_LENGTH) return null;
  const letters = input.replace(/[\s\p{P}]/gu, '');
  if (!/^[A-Za-z]*$/.test(letters)) return null;
  const upper = letters.toUpperCase();
  return NORMALIZED.test(upper) ? upper : null;
}
