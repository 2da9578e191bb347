import type { OAuthErrorCode } from '../errors.js';
import { formatScope } from '../scopes.js';

/**
 * Authorization responses (RFC 6749 §4.1.2 and §4.1.2.1) in the query of the registered redirect URI
 * (`response_modes_supported` is always ['query']). Every response carries `iss` (RFC 9207), so that a
 * client talking to several servers can tell which one answered (mix-up defence); discovery advertises
 * `authorization_response_iss_parameter_supported: true`.
 */

/** A parameter value; null and undefined are left out of the URI. */
export type RedirectParams = Readonly<Record<string, string | null | undefined>>;

/**
 * Appends `params` to `redirectUri`, keeping its own query exactly as registered (RFC 6749 §3.1.2: "MUST
 * be retained when adding additional query parameters"). The URI is extended as a string rather than
 * re-serialized through URL so that the registered bytes (and private-use schemes of native apps) stay
 * untouched. Registered URIs never carry a fragment; one is kept after the query anyway.
 */
export function buildRedirect(redirectUri: string, params: RedirectParams): string {
  const hashAt = redirectUri.indexOf('#');
  const base = hashAt === -1 ? redirectUri : redirectUri.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : redirectUri.slice(hashAt);
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  if (query === '') return redirectUri;
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${query}${fragment}`;
}

/** Where an authorization response goes: the validated redirect URI and the request's state. */
export interface RedirectTarget {
  readonly redirectUri: string;
  /** The state as sent, or null when the request had none (then the response omits it). */
  readonly state: string | null;
}

/**
 * The success redirect: `code`, `state` (only if sent), `scope` (only when the grant is non-empty, per
 * docs/reference/tokens-and-sessions.md "The authorization request") and `iss`.
 */
export function codeRedirect(
  target: RedirectTarget,
  code: string,
  grantedScopes: readonly string[],
  issuer: string,
): string {
  return buildRedirect(target.redirectUri, {
    code,
    state: target.state,
    scope: grantedScopes.length > 0 ? formatScope(grantedScopes) : null,
    iss: issuer,
  });
}

/** The error redirect: `error`, `error_description`, `state` (only if sent) and `iss`. */
export function errorRedirect(
  target: RedirectTarget,
  error: OAuthErrorCode,
  description: string,
  issuer: string,
): string {
  return buildRedirect(target.redirectUri, {
    error,
    error_description: description,
    state: target.state,
    iss: issuer,
  });
}
