/**
 * PKCE (RFC 7636) with the Web Crypto API only, so that the same code runs in browsers and in Node 20+
 * (`globalThis.crypto`) without a dependency.
 */

/** A PKCE pair: keep `codeVerifier` until the code exchange, send `codeChallenge` to /start. */
export interface PkcePair {
  readonly codeVerifier: string;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: 'S256';
}

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] [a-z] [0-9] "-" "." "_" "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function webCrypto(): Crypto {
  const crypto = globalThis.crypto as Crypto | undefined;
  if (crypto?.subtle === undefined) {
    throw new Error(
      'Web Crypto (globalThis.crypto.subtle) is not available; PKCE needs a secure context or Node 20+.',
    );
  }
  return crypto;
}

/** Unpadded base64url (RFC 4648 §5), with `btoa` rather than Buffer so that browsers need no polyfill. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh verifier: 32 random bytes as base64url, exactly 43 characters (256 bits, RFC 7636 §7.1). */
export function createCodeVerifier(): string {
  return base64UrlEncode(webCrypto().getRandomValues(new Uint8Array(32)));
}

/** The S256 challenge: base64url(SHA-256(ASCII(verifier))). Rejects a verifier that RFC 7636 forbids. */
export async function computeCodeChallenge(codeVerifier: string): Promise<string> {
  if (!VERIFIER.test(codeVerifier)) {
    throw new RangeError(
      'A PKCE code verifier is 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".',
    );
  }
  const digest = await webCrypto().subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/** A new verifier and its S256 challenge. */
export async function createPkcePair(): Promise<PkcePair> {
  const codeVerifier = createCodeVerifier();
  return {
    codeVerifier,
    codeChallenge: await computeCodeChallenge(codeVerifier),
    codeChallengeMethod: 'S256',
  };
}
