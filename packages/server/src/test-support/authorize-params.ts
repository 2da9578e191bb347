import { randomBytes } from 'node:crypto';
import { s256Challenge } from '../oauth/pkce.js';

export const CLIENT_REDIRECT_URI = 'https://app.example.com/callback';

/** A PKCE pair (RFC 7636, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier) };
}

/**
 * A valid /authorize query for the client: code, the registered redirect URI, S256 PKCE and a state;
 * `overrides` set parameters, and `undefined` removes one.
 */
export function authorizeQuery(
  clientId: string,
  overrides: Readonly<Record<string, string | undefined>> = {},
  challenge = pkcePair().challenge,
): Record<string, string> {
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
