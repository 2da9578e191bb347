import { Secret, TOTP } from 'otpauth';
import type { Ids } from '../../../kernel/ids.js';

/** RFC 6238 as authenticator apps implement it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side: a code typed as its 30 seconds end, or with a clock a little off, still counts. */
export const TOTP_WINDOW = 1;
/** RFC 4226 §4 recommends a 160-bit shared secret. */
const SECRET_BYTES = 20;

/** A new shared secret, base32 (what the QR code and the manual-entry field carry). */
export function newTotpSecret(ids: Ids): string {
  const random = Buffer.from(ids.secret(), 'base64url').subarray(0, SECRET_BYTES);
  return Secret.fromHex(random.toString('hex')).base32;
}

function totp(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({
    issuer,
    label,
    issuerInLabel: true,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/**
 * The `otpauth://totp/…` URI an authenticator app scans: issuer, account label, secret and parameters.
 * The label is `issuer:account` and apps split it at the first colon, so neither part may contain one
 * (Key Uri Format): a colon (an issuer `host:port`, a display name) is written as a space.
 */
export function totpProvisioningUri(secret: string, issuer: string, label: string): string {
  const noColon = (value: string) => value.replaceAll(':', ' ').trim();
  return totp(secret, noColon(issuer), noColon(label)).toString();
}

/**
 * The time step a code belongs to (within ±1 step of `nowMs`), or null when it matches none. Callers
 * refuse a step at or before the last one accepted for the authenticator, so a code is used once.
 */
export function matchTotpStep(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const delta = totp(secret, 'svc', 'svc').validate({ token, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
