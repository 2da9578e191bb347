import type { JWTPayload } from 'jose';
import type { UserRecord } from '../../directory/repository.js';

/**
 * The claims of the JWTs Svc mints, as pure functions of their inputs. iss, iat, exp and jti are added
 * by the TokenService when signing.
 */

/** What an access or ID token says about its session. */
export interface SessionClaimsInput {
  readonly sessionId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  readonly scopes: readonly string[];
}

/**
 * Access token claims (RFC 9068 shape; docs/reference/tokens-and-sessions.md "Access tokens and ID tokens": sub, aud = client audience or the resource, sid,
 * client_id, scope, org_id). `sub` and `aud` are set through the sign options. `scope` is omitted for an
 * empty grant (RFC 9068 §2.2.3 makes it conditional on scopes having been granted); `org_id` only for an
 * organization-scoped session.
 */
export function accessTokenClaims(input: SessionClaimsInput): JWTPayload {
  return {
    sid: input.sessionId,
    client_id: input.clientId,
    ...(input.scopes.length > 0 ? { scope: input.scopes.join(' ') } : {}),
    ...(input.organizationId === null ? {} : { org_id: input.organizationId }),
  };
}

/** What the user claims are made of. */
export type ClaimsUser = Pick<UserRecord, 'displayName' | 'email' | 'emailVerified' | 'updatedAt'>;

/**
 * The user claims released for a granted scope set, shared by ID tokens and userinfo (docs/reference/tokens-and-sessions.md "Access tokens and ID tokens"
 * "Userinfo"): name, preferred_username and updated_at with `profile`; email and email_verified with
 * `email`. `preferred_username` is the email address as typed: Svc has no separate user name. An
 * account signed up by phone has no address: its email claims are left out, never sent as null.
 */
export function userClaims(user: ClaimsUser, scopes: readonly string[]): JWTPayload {
  const claims: JWTPayload = {};
  if (scopes.includes('profile')) {
    claims.name = user.displayName;
    if (user.email !== null) claims.preferred_username = user.email;
    claims.updated_at = Math.floor(user.updatedAt / 1000);
  }
  if (scopes.includes('email') && user.email !== null) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  return claims;
}

export interface IdTokenClaimsInput extends SessionClaimsInput {
  readonly user: ClaimsUser;
  readonly amr: readonly string[];
  /** Epoch milliseconds of the original authentication. */
  readonly authTime: number;
  /** The authorization request's nonce; never on a refresh-minted ID token (docs/reference/tokens-and-sessions.md "Access tokens and ID tokens" token response). */
  readonly nonce: string | null;
}

/**
 * ID token claims (OpenID Connect Core §2): `sub` and `aud` (= client_id) go through the sign options,
 * and `at_hash` is added by the signing thread (TokenService.signWithIdToken). auth_time, amr and sid
 * always; nonce when the request carried one; org_id for an organization-scoped session; profile and
 * email claims by scope.
 */
export function idTokenClaims(input: IdTokenClaimsInput): JWTPayload {
  // The conditional claims go last: a spread between properties costs V8 a slower path on every call.
  return {
    auth_time: Math.floor(input.authTime / 1000),
    amr: [...input.amr],
    sid: input.sessionId,
    azp: input.clientId,
    ...(input.nonce === null ? {} : { nonce: input.nonce }),
    ...(input.organizationId === null ? {} : { org_id: input.organizationId }),
    ...userClaims(input.user, input.scopes),
  };
}
