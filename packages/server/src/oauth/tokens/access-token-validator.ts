import { decodeJwt, type JWTPayload } from 'jose';
import type { UserRecord } from '../../admin/repository.js';
import type { TokenEngineDeps } from './deps.js';
import type { SessionRecord } from './repository.js';
import { ACCESS_TOKEN_TYP, sessionState } from './token-policy.js';

/** A live access token: its verified claims, its session and its user. */
export interface ValidatedAccessToken {
  readonly claims: JWTPayload;
  readonly session: SessionRecord;
  readonly user: UserRecord;
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
   * Also refuse a session past its idle deadline (SPEC.md "Userinfo": "idle or absolute expiry … stop
   * claim release"). Off for ValidateAccessTokenAsync, which "does not check or extend IdleExpiresAt".
   */
  readonly enforceIdleDeadline?: boolean;
}

/** Tokens longer than this are not Svc access tokens; refusing them early bounds the work per call. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * Session-aware access-token validation (SPEC.md "Access token validation: signature, issuer, audience,
 * lifetime (one-minute clock skew), session exists, not revoked, not past absolute expiry → valid;
 * updates LastSeenAt; does not check or extend IdleExpiresAt"). Additionally the token's subject must be
 * the session's user, the user must be active and an organization-scoped session's membership must still
 * be active. Every failure is `null`, never a throw.
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
    const session = await this.#deps.store.findSession(claims.sid);
    if (session === undefined || session.userId !== claims.sub) return null;
    const state = sessionState(session, now);
    if (state === 'revoked' || state === 'absolute_expired') return null;
    if (state === 'idle_expired' && options.enforceIdleDeadline === true) return null;

    const user = await this.#deps.users.findById(session.userId);
    if (user === undefined || !user.active) return null;
    if (
      session.organizationId !== null &&
      !(await this.#deps.memberships.hasActiveMembership(user.id, session.organizationId))
    ) {
      return null;
    }
    await this.#deps.store.touchSession(session.id, now);
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
