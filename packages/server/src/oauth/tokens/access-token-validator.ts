import { decodeJwt, type JWTPayload } from 'jose';
import type { TokenEngineDeps } from './deps.js';
import type { ValidatedSession, ValidatedUser } from './repository.js';
import { ACCESS_TOKEN_TYP, sessionState } from './token-policy.js';

/** A live access token: its verified claims, its session and its user. */
export interface ValidatedAccessToken {
  readonly claims: JWTPayload;
  readonly session: ValidatedSession;
  readonly user: ValidatedUser;
  /** The audience the token was verified for. */
  readonly audience: string;
}

export interface ValidateOptions {
  /**
   * The audience the resource server expects. `null` accepts any audience after verifying everything
   * else: only for the deprecated diagnostics variant and for userinfo, which serves every audience.
   */
  readonly audience: string | null;
  /**
   * Also refuse a session past its idle deadline (docs/reference/tokens-and-sessions.md "Userinfo": idle or absolute expiry … stop
   * claim release). Off for ValidateAccessTokenAsync, which "does not check or extend IdleExpiresAt".
   */
  readonly enforceIdleDeadline?: boolean;
}

/** Tokens longer than this are not Svc access tokens; refusing them early bounds the work per call. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * The resolution of a session's lastSeenAt under validation: it is written when it is at least this old.
 * A resource server validates on every call; writing the row each time would make every validation a
 * write (and every burst of concurrent validations a queue on the row's lock), while "last seen" to the
 * minute is all an operator or a session list needs.
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Session-aware access-token validation (docs/reference/tokens-and-sessions.md "Validating tokens": Access token validation: signature, issuer, audience,
 * lifetime (one-minute clock skew), session exists, not revoked, not past absolute expiry → valid;
 * updates LastSeenAt; does not check or extend IdleExpiresAt), lastSeenAt to the minute
 * ({@link LAST_SEEN_RESOLUTION_MS}). Additionally the token's subject must be the session's user, the user
 * must be active and an organization-scoped session's membership must still be active. After the signature
 * a validation costs one primary-key read (session, user and membership joined) and, once a minute per
 * session, one conditional write. Every failure is `null`, never a throw.
 */
export class AccessTokenValidator {
  readonly #deps: TokenEngineDeps;

  constructor(deps: TokenEngineDeps) {
    this.#deps = deps;
  }

  async validate(rawToken: string, options: ValidateOptions): Promise<ValidatedAccessToken | null> {
    if (typeof rawToken !== 'string' || rawToken.length === 0 || rawToken.length > MAX_TOKEN_LENGTH) {
      return null;
    }
    const audience = options.audience ?? unverifiedAudience(rawToken);
    if (audience === null || audience === '') return null;
    const claims = await this.#deps.tokens.verify(rawToken, { audience, typ: ACCESS_TOKEN_TYP });
    if (claims === null || typeof claims.sid !== 'string' || typeof claims.sub !== 'string') return null;

    const now = this.#deps.clock.now();
    const found = await this.#deps.accessTokenSessions.find(claims.sid);
    if (found === undefined) return null;
    const { session, user } = found;
    if (session.userId !== claims.sub) return null;
    const state = sessionState(session, now);
    if (state === 'revoked' || state === 'absolute_expired') return null;
    if (state === 'idle_expired' && options.enforceIdleDeadline === true) return null;
    if (!user.active || (session.organizationId !== null && !found.membershipActive)) return null;

    // The read value decides whether to try at all; the UPDATE's condition decides among concurrent calls.
    const writtenBefore = now - LAST_SEEN_RESOLUTION_MS;
    if (session.lastSeenAt <= writtenBefore) {
      await this.#deps.accessTokenSessions.touch(session.id, now, writtenBefore);
    }
    return { claims, session, user, audience };
  }
}

/**
 * The token's own `aud`, read before verification so that the audience-free variants can still run the
 * full verification (signature, issuer, lifetime) against it. Multi-audience tokens use the first.
 */
function unverifiedAudience(rawToken: string): string | null {
  try {
    const { aud } = decodeJwt(rawToken);
    if (typeof aud === 'string') return aud;
    return Array.isArray(aud) && typeof aud[0] === 'string' ? aud[0] : null;
  } catch {
    return null;
  }
}
