import { Secret, TOTP, URI } from 'otpauth';

/** One 30-second TOTP step in milliseconds. */
export const TOTP_STEP_MS = 30_000;

/**
 * An authenticator app, as a test uses one: it computes codes from a base32 secret (typed in by hand,
 * so spaces are dropped) at a given time, with the parameters every app assumes (SHA-1, 6 digits, 30 s),
 * independently of the server's own TOTP code.
 */
export function authenticatorCode(secret: string, atMs: number): string {
  return new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s+/g, '')),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({ timestamp: atMs });
}

/** What an app reads from a scanned provisioning URI (`otpauth://totp/…`). */
export function scanProvisioningUri(uri: string): {
  issuer: string;
  label: string;
  secret: string;
  algorithm: string;
  digits: number;
  period: number;
} {
  const parsed = URI.parse(uri);
  if (!(parsed instanceof TOTP)) throw new Error(`not a TOTP URI: ${uri}`);
  return {
    issuer: parsed.issuer,
    label: parsed.label,
    secret: parsed.secret.base32,
    algorithm: parsed.algorithm,
    digits: parsed.digits,
    period: parsed.period,
  };
}

/**
 * A six-digit code the server must refuse at `atMs`: none of the codes of the steps it accepts (the
 * current one and one either side), so that a wrong guess can never be right by chance.
 */
export function wrongCode(secret: string, atMs: number): string {
  const accepted = new Set([-1, 0, 1].map((step) => authenticatorCode(secret, atMs + step * TOTP_STEP_MS)));
  let guess = 0;
  while (accepted.has(String(guess).padStart(6, '0'))) guess += 1;
  return String(guess).padStart(6, '0');
}
