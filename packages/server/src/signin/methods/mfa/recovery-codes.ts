import { sha256Hex } from '../../../kernel/crypto.js';
import type { Ids } from '../../../kernel/ids.js';

/** How many recovery codes a user gets at once. */
export const RECOVERY_CODE_COUNT = 10;

/** Crockford-style base32 without look-alikes (no I, L, O, U): easy to read back from paper. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Characters of a code: 25 of 5 bits each, 125 bits (ASVS 2.6.2 asks for at least 112). */
export const RECOVERY_CODE_LENGTH = 25;

/** Characters of the codes issued before (50 bits): accepted until used or regenerated. */
const LEGACY_RECOVERY_CODE_LENGTH = 10;

/**
 * One recovery code: 25 characters of 5 bits (125 bits), one random byte each (256 is a multiple of 32,
 * so every character is equally likely). With 125 random bits a code cannot be recovered from its hash,
 * so an unsalted SHA-256 suffices (ASVS 2.6.2: at least 112 bits, or a salted hash); argon2 would add
 * nothing but cost. Attempts are limited, and each code is single use.
 */
function newRecoveryCode(ids: Ids): string {
  const bytes = Buffer.from(ids.secret(), 'base64url');
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1) code += ALPHABET[(bytes[i] ?? 0) & 31];
  // Groups of five, `XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`, to read back and type.
  return code.replace(/(.{5})(?=.)/g, '$1-');
}

/** A fresh set of codes to show once. */
export function newRecoveryCodes(ids: Ids): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode(ids));
}

/** A typed code without spaces and dashes, upper case. */
const compact = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, '');

/**
 * The stored form of a code as typed: case, spaces and dashes do not matter, and the letters people
 * confuse with digits (O, I, L) read as 0, 1, 1, as Crockford's base32 intends. Unchanged since the
 * 10-character codes, so that codes issued before stay usable without a migration.
 */
export function recoveryCodeHash(typed: string): string {
  const normalized = compact(typed).replace(/O/g, '0').replace(/[IL]/g, '1');
  return sha256Hex(`recovery:${normalized}`);
}

/** True when the input looks like a recovery code (new or legacy) rather than a 6-digit app code. */
export function looksLikeRecoveryCode(typed: string): boolean {
  const length = compact(typed).length;
  return length === RECOVERY_CODE_LENGTH || length === LEGACY_RECOVERY_CODE_LENGTH;
}
