import type { DiscoveryContribution } from './discovery.js';

/** The end_session_endpoint under the auth base (docs/reference/tokens-and-sessions.md "Logout"). */
export const END_SESSION_PATH = '/session/end';

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2.1: `end_session_endpoint`. The hosted pages serve it (GET
 * and POST), so it is advertised whenever they are mounted, which is always; the term is registered for
 * RFC 8414 metadata too, so the OAuth document carries it as well as the OpenID one.
 */
export function endSessionMetadata(issuer: string): DiscoveryContribution {
  return Object.freeze({ end_session_endpoint: `${issuer}${END_SESSION_PATH}` });
}
