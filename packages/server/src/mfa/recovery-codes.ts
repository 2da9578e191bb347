import { sha256Hex } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';

/** How many recovery codes a user gets at once. */
export const RECOVERY_CODE_COUNT = 10;

/** Crockford-style base32 without look-alikes (no I, L, O, U): easy to read back from paper. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * One recovery code: 10 characters of 5 bits (50 bits) shown as `XXXXX-XXXXX`. They are hashed with
 * SHA-256 (not argon2): with 50 random bits a code cannot be guessed from its hash, attempts are
 * limited per challenge, and each code is single use.
 */
function newRecoveryCode(ids: Ids): string {
  const bytes = Buffer.from(ids.secret(), 'base64url');
  let code = '';
  for (let i = 0; i < 10; i += 1) code += ALPHABET[(bytes[i] ?? 0) & 31];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A fresh set of codes to show once. */
export function newRecoveryCodes(ids: Ids): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode(ids));
}

/**
 * The stored form of a code as typed: case, spaces and dashes do not matter, and the letters people
 * confuse with digits (O, I, L) read as 0, 1, 1, as Crockford's base32 intends.
 */
export function recoveryCodeHash(typed: string): string {
  const normalized = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return sha256Hex(`recovery:${normalized}`);
}

/** True when the input looks like a recovery code rather than a 6-digit authenticator code. */
export function looksLikeRecoveryCode(typed: string): boolean {
  return typed.replace(/[\s-]/g, '').length === 10;
}
