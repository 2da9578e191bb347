import type { Ids } from '../../../kernel/ids.js';

/** Codes are 6 digits, as the SMS provider's are (docs/reference/sign-in.md "Email codes"). */
export const OTP_CODE_LENGTH = 6;

/**
 * A uniformly random 6-digit code from the injected randomness: 48 bits of a 256-bit secret reduced
 * modulo 10^6 (bias below 2^-28, irrelevant beside the 5-attempt limit).
 */
export function generateOtpCode(ids: Ids): string {
  const bytes = Buffer.from(ids.secret(), 'base64url');
  const value = bytes.readUIntBE(0, 6) % 10 ** OTP_CODE_LENGTH;
  return value.toString().padStart(OTP_CODE_LENGTH, '0');
}

/**
 * `j***@example.com`: the first character of the local part, then `***`. Computed from the address the
 * caller typed (never from a stored user), so answers for known and unknown addresses cannot differ.
 */
export function maskEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${trimmed.slice(0, 1)}***${trimmed.slice(at)}`;
}
