/**
 * Scope strings (RFC 6749 §3.3): `scope = scope-token *( SP scope-token )`,
 * `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
 *
 * docs/reference/tokens-and-sessions.md "The authorization request": the requested scope is "intersected with the client's
 * allow-list, unknown scopes dropped (never rejected); empty allow-list grants nothing; openid is never
 * always-allowed".
 */

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The OpenID Connect scopes Svc releases claims for (discovery names them in provider mode). */
export const OPENID_STANDARD_SCOPES: readonly string[] = Object.freeze(['openid', 'profile', 'email']);

/** True when `value` is one RFC 6749 scope-token. */
export function isScopeToken(value: string): boolean {
  return SCOPE_TOKEN.test(value);
}

/**
 * The scope tokens of a space-delimited scope string, first occurrence first, duplicates removed.
 * Runs of spaces and leading or trailing spaces are tolerated. A token with characters a scope-token
 * cannot hold (a tab, a quote, a backslash, non-ASCII) can never be on an allow-list, so it is dropped
 * like any other unknown scope rather than failing the request. Absent or empty means no scope.
 */
export function parseScope(raw: string | null | undefined): string[] {
  if (raw === null || raw === undefined) return [];
  const tokens = new Set<string>();
  for (const token of raw.split(' ')) {
    if (token !== '' && isScopeToken(token)) tokens.add(token);
  }
  return [...tokens];
}

/**
 * The scopes granted for a request: the requested scopes that are on the client's allow-list, in the
 * order requested. Unknown scopes are dropped silently; an empty allow-list grants nothing; `openid` is
 * granted only when both requested and allowed. A request that names no scope at all is granted nothing
 * (no default scope is implied: an OpenID client must ask for `openid` to get an ID token).
 */
export function grantScopes(requested: readonly string[], allowList: readonly string[]): string[] {
  const allowed = new Set(allowList);
  return [...new Set(requested)].filter((scope) => allowed.has(scope));
}

/** The wire form of a granted set: space-joined, and '' for an empty grant (docs/reference/tokens-and-sessions.md "The token endpoint" token response). */
export function formatScope(scopes: Iterable<string>): string {
  return [...scopes].join(' ');
}
