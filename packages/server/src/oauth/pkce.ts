import { hash } from 'node:crypto';
import { safeEqual } from '../kernel/crypto.js';

/**
 * Proof Key for Code Exchange (RFC 7636), S256 only: docs/reference/tokens-and-sessions.md "The authorization request" and "code_verifier 43 to
 * 128 RFC 7636 unreserved characters". `plain` is never accepted, so a challenge is always the unpadded
 * base64url SHA-256 of the verifier: exactly 43 characters.
 */

/** The only supported `code_challenge_method`. */
export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1: code-verifier = 43*128unreserved, unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~". */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** RFC 7636 §4.2 with S256: BASE64URL(SHA256(verifier)) without padding, 256 bits → 43 characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** True for a well-formed code_verifier (43-128 unreserved characters). */
export function isValidCodeVerifier(verifier: unknown): verifier is string {
  return typeof verifier === 'string' && CODE_VERIFIER.test(verifier);
}

/** True for a well-formed S256 code_challenge (43 base64url characters). */
export function isValidCodeChallenge(challenge: unknown): challenge is string {
  return typeof challenge === 'string' && CODE_CHALLENGE.test(challenge);
}

/**
 * The S256 challenge of a verifier: BASE64URL-ENCODE(SHA256(ASCII(code_verifier))). A well-formed
 * verifier is ASCII, which `hash` reads as UTF-8 alike.
 */
export function s256Challenge(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}

/**
 * True when `verifier` is well formed and its S256 challenge equals `challenge`, compared in constant
 * time. A malformed verifier is a mismatch, never a throw.
 */
export function verifyPkce(verifier: unknown, challenge: string): boolean {
  if (!isValidCodeVerifier(verifier)) return false;
  return safeEqual(s256Challenge(verifier), challenge);
}
